// The text rules, each on a value that must be found and a near miss that must not.
import { describe, expect, it } from 'vitest';
import { DEFAULT_REDACT_CATEGORIES } from '../../common/privacy.ts';
import { randomCard, randomIban, randomJwt } from '../../test/fixtures/secretScreens.ts';
import { findSecrets, redactText } from './detect.ts';
import { ibanValid, identifier, inIdentifier, keyLike, luhnValid, publicValue, ruleFindings, secretName, webAddress, withoutAsides } from './findings.ts';

// Every category on, and the text each finding of one rule covers.
const ALL = { keys: true, cards: true, banking: true, passwords: true, highEntropy: true, contact: true };
const foundBy = (t: string, rule: string) => ruleFindings(t, ALL).filter((f) => f.rule === rule).map((f) => t.slice(f.start, f.end));

const hidden = async (text: string, categories = DEFAULT_REDACT_CATEGORIES) =>
  (await findSecrets(text, { categories })).findings.map((f) => ({ kind: f.kind, rule: f.rule, text: text.slice(f.start, f.end) }));

describe('secret rules', () => {
  it('checks Luhn and IBAN digits', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424243')).toBe(false);
    expect(ibanValid('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(ibanValid('GB82 WEST 1234 5698 7654 33')).toBe(false);
    for (let i = 0; i < 20; i++) expect(luhnValid(randomCard().replace(/ /g, ''))).toBe(true);
  });

  it('finds a Luhn-valid card, not a digit run that fails the check', async () => {
    const card = randomCard().replace(/ /g, '');
    expect(await hidden(`card ${card} ok`)).toContainEqual({ kind: 'card number', rule: 'luhn', text: card });
    const bad = card.slice(0, 15) + String((Number(card[15]) + 1) % 10);
    expect((await hidden(`order ${bad} shipped`)).filter((f) => f.kind === 'card number')).toEqual([]);
  });

  it('finds an IBAN by its check digits, and one OCR misread in groups of four by its shape', async () => {
    const iban = randomIban();
    expect(await hidden(`IBAN ${iban}`)).toContainEqual({ kind: 'iban', rule: 'iban', text: iban });
    const misread = iban.slice(0, -1) + String((Number(iban.at(-1)) + 3) % 10);
    expect((await hidden(`IBAN ${misread}`)).map((f) => f.rule)).toContain('iban-shape');
    expect(await hidden('invoice DE12 due')).toEqual([]);
  });

  it('finds vendor keys through secretlint (AWS id on, as on a screen it is a key)', async () => {
    const found = await hidden('export AWS_ACCESS_KEY_ID=AKIAZ3QX7LMN2PQR8TUV\nxoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx');
    expect(found).toContainEqual({ kind: 'aws key', rule: 'secretlint:aws', text: 'AKIAZ3QX7LMN2PQR8TUV' });
    expect(found.map((f) => f.rule)).toContain('secretlint:slack');
    expect((await hidden('ghp D8knjUPNovLnWhbof Q9Cj9NyYikUecs7Jev7')).find((f) => f.rule === 'github-shape')?.text).toBe('ghp D8knjUPNovLnWhbof Q9Cj9NyYikUecs7Jev7');
    // OCR read one character too many: the vendor rule misses it, the shape and the env label do not.
    const misread = await hidden('export AWS ACCESS KEY ID=AKIAF7LA47EWBW6VGNV7M');
    expect(misread.map((f) => f.rule)).toEqual(expect.arrayContaining(['aws-id', 'env', 'entropy']));
  });

  it('finds JWTs, PEM blocks (with or without a readable END line), labelled values', async () => {
    const jwt = randomJwt();
    expect((await hidden(`authorization: Bearer ${jwt}`)).map((f) => f.kind)).toEqual(expect.arrayContaining(['jwt', 'password']));
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAvZb8nUqM3Jm1xY2\nQw9dHk2LmPz7Rt5VbNcXy1Ae3Gh\n-----END RSA PRIVATE KEY-----';
    expect((await hidden(pem)).find((f) => f.rule === 'pem')?.text).toBe(pem);
    const cut = '-----BEGIN PRIVATE KEY-----\nMIIEowIBAAKCAQEAvZb8nUqM3Jm1xY2\nQw9dHk2LmPz7Rt5VbNcXy1Ae3Gh\n$ ls';
    expect((await hidden(cut)).find((f) => f.rule === 'pem')?.text).toBe(cut.slice(0, cut.indexOf('\n$')));
    // OCR's stray characters inside the base64 (seen in the corpus) do not end it.
    const stray = '~----BEGIN EC PRIVATE KEY-----\nY59yOyyOKD6KiUPFXWNteiSpI+cSEIRLtwnV+iVGDZM5pTk08KWhBA1indgxct 20\nPMWGhVNH711T9V£480v1256uFiOxI7 TomFqZgBpedmUKTOHz t rOD40VgGEK ys]\n$ ls';
    expect((await hidden(stray)).find((f) => f.rule === 'pem')?.text).toBe(stray.slice(1, stray.indexOf('\n$')));
    expect(await hidden('DATABASE_URL=p0stgres:l/billing:Xy7pQ2mZ@db.internal:5432')).toContainEqual({ kind: 'password', rule: 'url-password', text: 'Xy7pQ2mZ' });
    expect(await hidden('DB_PASSWORD=hunter22 and api_key: "zz9plural"')).toEqual(
      expect.arrayContaining([{ kind: 'password', rule: 'label', text: 'hunter22' }, { kind: 'password', rule: 'label', text: 'zz9plural' }]),
    );
  });

  it('takes a garbled key for a key, not an identifier, a path or a word', async () => {
    expect(keyLike('Ab3dEf6hIj9kLm2nOp5qRs8t')).toBe(true);
    // A hash is an identifier, not a secret (DESIGN §3b): left alone unless a label names it.
    expect(keyLike('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b')).toBe(false);
    // A CI cache key is a name ending in a sha256 (the held-out CI log: 54–96% of them were masked).
    expect(keyLike('node-cache-Linux-x64-npm-4f1b9f86d081884c7d659a2feaa0c55ad015a3bf4f1b9f86d081884c7d659a2f')).toBe(false);
    expect(keyLike('node-cache-Linux-x64-npn-85114d0b9b7cf2fea8d9126ddd68942d0784d4b0Bde3')).toBe(false); // as tesseract read one, wrapped
    expect(keyLike('sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z')).toBe(true);
    expect(keyLike('F7LA47EWBW6VGNV7MQ3XKZP2')).toBe(true);
    expect(keyLike('AbstractSingletonProxyFactoryBean')).toBe(false);
    expect(keyLike('node_modules/@secretlint/core/module/index.js')).toBe(false);
    expect(keyLike('internationalization')).toBe(false);
    // A call's name with a number at a word's end (set H's document viewer: "Binary.createFromBase64").
    for (const name of ['Binary.createFromBase64', 'Int32Array.fromHex', 'crypto.subtle.importKey256', 'Uint8ArrayToBase64Url']) expect(keyLike(name)).toBe(false);
    for (const key of ['Xk9qPzLm2v7RtQwB8nJd4Fh', 'AbcdEf12GhijKl34MnopQr56', 'q8ZrT2xWv9LmN4pK7sJd3Hf']) expect(keyLike(key)).toBe(true);
    expect(await hidden('const parseInvoiceRow = (row, index) => row.split(",");')).toEqual([]);
  });

  it('finds emails and phone numbers only when that category is on', async () => {
    const text = 'write to dana.reyes@example.com or call +44 20 7946 0958';
    expect(await hidden(text)).toEqual([]);
    const found = await hidden(text, { ...DEFAULT_REDACT_CATEGORIES, contact: true });
    expect(found.map((f) => f.kind).sort()).toEqual(['email', 'phone number']);
  });

  it('a category turned off finds nothing of its kind', async () => {
    const card = randomCard();
    expect(await hidden(`pay ${card}`, { ...DEFAULT_REDACT_CATEGORIES, cards: false })).toEqual([]);
  });
});

// What the independent corpus found (issue 41): OCR's confusions, look-alike identifiers, labels followed by words.
describe('rules that survive OCR and leave look-alikes alone', () => {
  it('reads confusable letters back as digits where digits belong, checksums still checked', async () => {
    const iban = randomIban();
    const misread = iban.slice(0, 4) + iban.slice(4).replace(/0/g, 'O').replace(/1/g, 'l');
    if (misread !== iban) expect((await hidden(`IBAN ${misread}`)).map((f) => f.kind)).toContain('iban');
    const card = randomCard().replace(/ /g, '');
    expect((await hidden(`pay ${card.slice(0, 4)}${card.slice(4).replace(/1/g, 'l').replace(/0/g, 'O')} now`)).map((f) => f.rule)).toContain('luhn');
    expect((await hidden('aws_access_key_id = AKTAP4C5C7AQMHWMRMX3')).map((f) => f.rule)).toContain('prefix-misread');
    // An AWS id of capitals alone after a misread prefix (a turned note read upright: ASIA as ASTA).
    expect((await hidden('AWS ASTAUPGBPTRCFSEWIQGO')).map((f) => f.rule)).toContain('prefix-misread');
    expect(await hidden('ASSUMEROLEPOLICYDOCUMENTS')).toEqual([]);
  });

  it('a grouped 16-digit number that fails Luhn counts only where the screen says card', async () => {
    let n = '5105105105105100';
    n = n.slice(0, 15) + String((Number(n[15]) + 3) % 10);
    const grouped = n.replace(/(\d{4})(?=\d)/g, '$1 ');
    expect(await hidden(`Tracking ${grouped} shipped`)).toEqual([]);
    expect((await hidden(`Card number ${grouped}`)).map((f) => f.rule)).toContain('card-shape');
  });

  it('leaves hashes, UUIDs, trace ids, integrity strings, data URIs and pod names alone', async () => {
    const lines = [
      'commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
      'id 3f2b8c1e-9d4a-4b7e-8f21-0c6d5e4a3b2f',
      'trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7 pod=api-7c9d8f6b5-x2k4p',
      // as OCR reads them: = as -, a letter or two that is not hex, a hash group a character long
      'trace id-65f976e556395765e2e03cT435c0sba6 span_id-b5237481175Tbb00 pod=api-1ldmSpS5cms-5jvijq',
      '"integrity": "sha512-fWkR1g2VNFPisiJuCdl2qlfMGqtkTDFeDXI062evPyg4R1g9a0sUz+Fp3BsyyiREUBSazGE5Qx==",',
      'background: url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAd0lEQVR4);',
      'acme-1.4.2.tar.gz sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ];
    for (const line of lines) expect(await hidden(line), line).toEqual([]);
  });

  it("a label's value counts when it looks like a secret, not when it starts a sentence or names a setting", async () => {
    expect(await hidden('Password: must be at least 12 characters and may not contain your user name.')).toEqual([]);
    expect(await hidden('API key: see the Developers page.')).toEqual([]);
    expect(await hidden('export const passwordMinLength = 12; tokenTtlSeconds = 3600')).toEqual([]);
    expect(await hidden('and the staging db password is Harbor97?PD7m')).toContainEqual({ kind: 'password', rule: 'said', text: 'Harbor97?PD7m' });
    // A phone's notification as tesseract read it on a photo (set G): a colon after the name.
    expect(foundBy('the new wifi password: is (0c628Kdz26CC3p3m xx', 'said')).toEqual(['(0c628Kdz26CC3p3m']);
    expect(await hidden('DB_PASSWORD=hunter22')).toContainEqual({ kind: 'password', rule: 'label', text: 'hunter22' });
    // A state in the value's place (set I's store page at 4K@1: "App token: public").
    expect(await hidden('Launch: steam://rungameid/730 - App token: public')).toEqual([]);
    expect(await hidden('API key: revoked')).toEqual([]);
  });
});

// Look-alikes of the held-out sets as tesseract read them (go.sum, poetry.lock, a README's badges,
// a docs page, a UUID column), each beside a secret of the same shape that must still be found.
describe('look-alikes as OCR reads them', () => {
  it("go.sum's h1: hashes (read hl:, h1l:), a wheel's file name, a data URI whose data: or base64 OCR lost", async () => {
    const lines = [
      'github.com/google/uuid v1.12.6 [.12.6 hl:bf50fSNNPYd9EWXESTAKbZTMSZzS0i8IXuHTF/j3BI1I=',
      'src h1l:1ZQSX4fwWwaXZ/ksbaql+ws3f64bat88MOEIndWIpKdoO=',
      'golang.org/x/sync v1.18.1/go.mod | /go . mod h1:QP303gAuB/tUUNOYQN7LYjgYImiKSeIP6NyiqzxiTjQ=',
      // at 4K@2 the second look read it again without its h1: (and in pieces)
      'github.com/google/uuid v1.14.4 5zrHvakDd0z1ScG5QATLNUUfePO+FN1RaPxFY jfeuOA:',
      'golang.org/x/sync v1.19.2 1 iNvY1PSzihxLhydAxCMUUS8 6kaRhK9FOzvhrI7pscXGc:',
      'golang.org/x/sync v1.19.2/go.mod :DWvgT8QNORmMDOzWYGV2pQad49QPykc7 4JnqcEJVVVpPP I:',
      '13 {file = "urllib3-2.31.0-py3-none-any.whl", hash = "sha256:4ef2510c632d4e86a538cc03aab056da5590e89al1d2b4a48e112a086c41ffodl"},',
      'env 6 {file = "requests-2.31.0-tar.gz", hash = "sha256:f2f26165a881cd424e42a851214aal883c4ffd020f5bd14dcc312684e4edaa36"},',
      '14 {file = "urllib3-2.31.0-tar.gz", hash = "sha256:6986b2419802932a90106aacaaf0de@d89511a6088ad7c16b3dcl2bOcf5eda79"},',
      '1 [Logo] (data: mage/png;basebfd, £f1vIHckzbNWUJK 1kNhRgO¥9 4A +xL4h2 GDC >03LyErb61gSGCNnWjFDn)',
      'config.ts [logo] image/png; fC1Dj TEVtnrLAVKwSayG1IoC4E/vXGu2I165AA63]quyZWUE L+H 2f5LG2qpfSLN3+uG2r',
    ];
    for (const line of lines) expect(await hidden(line), line).toEqual([]);
    // The same shapes as secrets: a base64 key after a label, a key in a file name's place.
    expect((await hidden('SIGNING_KEY=bf50fSNNPYd9EWXESTAKbZTMSZzS0i8IXuHTF/j3BI1I=')).map((f) => f.rule)).toContain('env');
    expect((await hidden('token bf50fSNNPYd9EWXESTAKbZTMSZzS0i8IXuHTF/j3BI1I=')).map((f) => f.rule)).toContain('entropy');
    expect((await hidden('sdk v1.2.3 bf50fSNNPYd9EWXESTAKbZTMSZzS0i8IXuHTF/j3BI1I=')).map((f) => f.rule)).toContain('entropy');
    expect(keyLike('a8f5f167f44f4964e6c998dee827110c')).toBe(false);
    expect(keyLike('k3x9-q2m8v7p4w1z6t5r0y3u8')).toBe(true);
  });

  // Set L's homepage services.yaml ("key: 4ef8…" under a widget) and tinytuya's device list
  // ('"key": "cnqw…",'): a config's member named key alone names a credential; what is no
  // generated value after it is none.
  it("a config's member named key alone names a generated value after it", () => {
    expect(foundBy('    url: http://192.168.1.118:7878\n    key: 4ef889f6869ccbb6cacf654b19914949\n', 'named')).toEqual(['4ef889f6869ccbb6cacf654b19914949']);
    expect(foundBy('  "id": "bfpbgqjvmyawn5rk3qglga",\n  "key": "cnqweIOY*#7W9~z>",\n', 'named')).toEqual(['cnqweIOY*#7W9~z>']);
    expect(foundBy('    key: app.kubernetes.io/name\n    key: greeting.hello\n    key: production\n', 'named')).toEqual([]);
    expect(foundBy('the key 4ef889f6869ccbb6cacf654b19914949 is a hash\n', 'named')).toEqual([]);
  });

  it('a public key block or a certificate is left; a private key is still hidden', async () => {
    const pub = '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGVx3kYBEADJ8vQm2Lk9X7pR4tZs1uWc0eHb6yNq3fA8oPz1KdMw7xVt2Jg\nE5rYh9Ub4nKs0LqW3cZp7XvT1mRa8dFe6oGj2HbNk4yUi9Sx0tPq5wVz3Ac7Ld\n-----END PGP PUBLIC KEY BLOCK-----';
    expect(await hidden(pub)).toEqual([]);
    const cert = '-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----';
    expect(await hidden(cert)).toEqual([]);
    const priv = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAvZb8nUqM3Jm1xY2Qw9dHk2LmPz7Rt5VbNcXy1Ae3Gh\n-----END RSA PRIVATE KEY-----';
    expect((await hidden(priv)).map((f) => f.rule)).toContain('pem');
    // Any other armour is a secret's unless its name says public: an OpenVPN static key, a licence
    // (set L's chat and mail: the whole body leaked); a signed message and an encrypted one are not.
    const ovpn = '#\n-----BEGIN OpenVPN Static key V1-----\n295ab4d5027efc50ebcb8231011b7f56\ncbbbae25a14596d6e9c78b5e023007fb\n-----END OpenVPN Static key V1-----\n| linus';
    expect(foundBy(ovpn, 'armour')).toEqual([ovpn.slice(2, ovpn.indexOf('\n| linus'))]);
    const licence = 'including the BEGIN and END lines.\n----- BEGIN LICENSE -----\nAda Byron\nSingle User License\nEA7E-384607\n284DCD8O 7FOCD442 2FBBALF7 52DC7FB4\n------ END LICENSE ------\nOrder number S37QMULAWX';
    expect(foundBy(licence, 'armour')).toEqual(['----- BEGIN LICENSE -----\nAda Byron\nSingle User License\nEA7E-384607\n284DCD8O 7FOCD442 2FBBALF7 52DC7FB4\n------ END LICENSE ------']);
    expect(foundBy('-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nrelease 2.1\n-----BEGIN PGP SIGNATURE-----\niQIzBAEBCAAdFiEE9x8Ff3Wq\n-----END PGP SIGNATURE-----', 'armour')).toEqual([]);
    expect(foundBy('-----BEGIN PGP MESSAGE-----\nhQEMA9x8Ff3WqAbCdEfGhIjKlMnOpQrStUvWxYz\n-----END PGP MESSAGE-----', 'armour')).toEqual([]);
    expect(foundBy(priv, 'armour')).toEqual([]);
    // A private key's armour as OCR reads it — its closing dashes lost, or in small letters — still
    // starts the block (the armour rule's stricter form must not have taken that from the pem rule);
    // an SQL comment's "-- BEGIN TRANSACTION" starts none.
    const body = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDq5Xf2J0kq1nJm8u4Kx9Yd0hPz7bQ1vW3sT6uR2aL8cAAAAJgq7d3kKu3d';
    for (const head of ['-----BEGIN OPENSSH PRIVATE KEY', '-----BEGIN OPENSSH PRIVATE KEY-', '-----begin rsa private key-----']) {
      expect(foundBy(`notes\n${head}\n${body}\n-----END OPENSSH PRIVATE KEY-----`, 'pem')).toEqual([`${head}\n${body}\n-----END OPENSSH PRIVATE KEY-----`]);
    }
    expect(foundBy('-- BEGIN TRANSACTION\nUPDATE accounts SET balance = 0;\n-- END', 'armour')).toEqual([]);
    // After the block's END line a key is a key again.
    expect((await hidden(`${pub}\ntoken Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z`)).map((f) => f.rule)).toContain('entropy');
  });

  it("a card number is the whole run of its groups: not a tracking number's middle, not cents and an order number", async () => {
    // As tesseract read the orders screens: each had a Luhn-valid window of 16 digits.
    expect((await hidden('€203.32 0758 8077 4325 6327 Shipped')).filter((f) => f.kind === 'card number')).toEqual([]);
    expect((await hidden('In transit 9400 6265 8508 3974 3901 21 $12.50')).filter((f) => f.kind === 'card number')).toEqual([]);
    const card = randomCard();
    expect((await hidden(`2026-12-05 ${card} Paid`)).map((f) => f.kind)).toContain('card number');
    expect((await hidden(`Qty 2 ${card}`)).map((f) => f.kind)).toContain('card number');
  });

  // Set J's vite build at 1440p 11 px, as tesseract read its asset lines: the entropy rule took the
  // files' paths for keys, and their wrapped neighbours after them.
  it("a bundler's output file, named for a short hash of its content, is no key; a token in a path is", async () => {
    for (const path of ['dist/assets/index--c4eSm2i.css', 'dist/assets/vendor-5mJrFpe9.', '/assets/index-2u-LEZWT.js', 'dist/assets/inter-latin-zS2ts1Ug.woft2', 'build/static/js/main.8f3a2b1c.chunk.js', '_next/static/chunks/pages/index-3b2a1f9c0d4e.js']) {
      expect(identifier(path)).toBe(true);
      expect((await hidden(`${path} 69.41 kB | gzip: 11.20 kB`)).map((f) => f.rule)).not.toContain('entropy');
    }
    for (const path of ['/rest/1/rby8uva7k8hpdky2/', 'https://hooks.slack.com/services/T04B3KQ7Z/B06M2XW9P1Q/Xk9qPzLm2v7RtQwB8nJd4Fh', 'keys/sk-Xk9qPzLm2v7RtQwB8nJd4Fh.json', 'Xk9qPzLm2v7RtQwB8nJd4Fh.js']) expect(identifier(path)).toBe(false);
  });

  it('a UUID or a hash read with £ for f, s for 5, z for 2 is one; a password of those letters is not', () => {
    expect(identifier('Afassb63-22c6-icd-sBE5-394£1b20710F')).toBe(true);
    expect(identifier('=22£6138-d7d5-4baf-azeb-3c1d0ad33zal')).toBe(true);
    expect(identifier('"c1c36d92a5£0e0230£7a£3750810£c0£1£83a0ced7£1bfda80dd85ee750£57')).toBe(true);
    expect(identifier('azbz51RB4zb6Es80')).toBe(false);
    expect(identifier('75q425HCIS2')).toBe(false);
  });

  // Set E's sheet of tokens at 1080p 16 px, its formula bar as tesseract read it: an Airtable token's
  // id and hex secret, joined with the hex piece after it, passed nine in ten as one hash.
  it("a key's id before a dot and its hex secret after it is no hash", () => {
    expect(identifier('pat8RisadcelZPJeE.6c43069c43a8c3b7cf3c25632092409d3fosdafebede10ddeBeb2af2f26165a8')).toBe(false);
    expect(identifier('6c43069c43a8c3b7cf3c25632092409d3f0sdafebede10dde8eb2af2f26165a8')).toBe(true);
  });

  it("a label's lower-case word before more words is prose (OCR's 'expres' for 'expires'); a signed token's header alone is a JWT", async () => {
    expect(await hidden('Token: expres after 3 days; create a new one from the settings page.')).toEqual([]);
    expect(await hidden('TOKEN=letmein\nnext line here')).toContainEqual({ kind: 'password', rule: 'label', text: 'letmein' });
    expect((await hidden('authorization: eyJhbGci |SUZIIN1iIsInRSC')).map((f) => f.rule)).toContain('jwt');
  });
});

describe('redactText', () => {
  it('replaces each secret run with what it was, and says what was hidden', async () => {
    const key = 'AKIAZ3QX7LMN2PQR8TUV';
    const out = await redactText(`id: ${key}\ncard ${randomCard()} expires 08/29`);
    expect(out.text).not.toContain(key);
    expect(out.text).toMatch(/^id: \[hidden: aws key\]\ncard \[hidden: card number\] expires 08\/29$/);
    expect(out.hidden.map((h) => h.kind)).toEqual(['aws key', 'card number']);
  });

  it('hides the whole whitespace-free run around a match, so a split key leaves no end', async () => {
    const out = await redactText('token=abc123def456ghi789-tail more');
    expect(out.text).toBe('[hidden: password] more');
  });
});

// A password on a command line, as the held-out issue page pasted it ("run docker login
// registry.acme.io -u ci -p tibn69GFGN1KI then pull"): no label, no KEY=, so no rule saw it.
describe('ruleFindings: a password after a command-line flag', () => {
  const found = (t: string) => foundBy(t, 'cli-flag');
  it('finds -p after docker login, mysql and sshpass, and --password= anywhere', () => {
    expect(found('Steps: run docker login registry.acme.io -u ci -p tibn69GFGN1KI then pull any image.')).toEqual(['tibn69GFGN1KI']);
    expect(found('mysql -h db -u root -p Summer22#aXdU acme')).toEqual(['Summer22#aXdU']);
    expect(found('sshpass -p Harbor36?5b6K ssh deploy@host')).toEqual(['Harbor36?5b6K']);
    expect(found('acme-cli login --password=rvyq43BNtIei9UuO')).toEqual(['rvyq43BNtIei9UuO']);
  });
  // Set E's Windows terminal: `net use` takes the password after /user:DOMAIN\name (2 of 2 leaked).
  it("finds the word after Windows' /user:DOMAIN\\name, not a switch or a command", () => {
    expect(found('C:\\Users\\ada>net use Z: \\\\fs01\\finance /user:ACME\\ada.byron VelvetFalcon8651 /persistent:yes')).toEqual(['VelvetFalcon8651']);
    expect(found('net use Z: \\\\fs01\\finance /user:ACME\\ada.byron /persistent:yes')).toEqual([]);
    expect(found('runas /user:ACME\\admin cmd')).toEqual([]);
  });
  it('leaves ports, paths and words after -p alone', () => {
    expect(found('docker run -p 8080:80 nginx')).toEqual([]);
    expect(found('ssh -p 2222 deploy@host && mkdir -p src/api build')).toEqual([]);
    expect(found('psql -h db -p 5432 -U app')).toEqual([]);
    expect(found('docker login -p stdin')).toEqual([]);
  });
});

// A one-time code in a sentence, as the held-out SMS screen shows them: no caption over it, not big.
describe('ruleFindings: a one-time code said in a message', () => {
  const found = (t: string) => foundBy(t, 'code-said');
  it('finds "verification code is 482913" and "525709 is your sign-in code"', () => {
    expect(found('Your ACME verification code is 482913. Do not share it.')).toEqual(['482913']);
    expect(found('ACME: 525709 is your sign-in code.')).toEqual(['525709']);
    expect(found('Login code: 4821')).toEqual(['4821']);
    // "is" as tesseract read it on held-out set B's SMS screen at 1080p 12 px.
    expect(found('ACME: 776043 ii your sign-in code.')).toEqual(['776043']);
  });
  // A phone's passwords app, a note under the login (set E): a code that opens a door.
  it('finds a code named by what it opens: "door code at the office: 9942#"', () => {
    expect(found('door code at the office: 9942#')).toEqual(['9942']);
    expect(found('The gate code is 4821')).toEqual(['4821']);
    // As tesseract read it on the phone at 11 px: its d as "cl".
    expect(found('cloor code a the office: 3721#')).toEqual(['3721']);
  });
  // A phone note's codes, as tesseract read them (set F): no "code is" after what they open.
  it('finds a code after what it opens in a note: "Garage door: 7131", "Bike lock — 4852", "Alarm code 675492"', () => {
    expect(found('Garage door: 7131')).toEqual(['7131']);
    expect(found('Bike lock - - 4852')).toEqual(['4852']);
    expect(found('Bike lock — 4852')).toEqual(['4852']);
    expect(found('Alarm code 675492 (then #)')).toEqual(['675492']);
    expect(foundBy('SIM PUK: 77220455', 'pin')).toEqual(['77220455']);
  });
  // A phone's lock screen (set G): the notification's title says what the code is for, its text says only "Your code is".
  it('finds "Your code is 330233" under a heading that says what the code is for', () => {
    expect(found('BANK now\nSign-in code\nYour code is 330233. Never share it, we will')).toEqual(['330233']);
    expect(found('Your verification code\nThe code: 4821')).toEqual(['4821']);
    expect(found('Your code is 330233. Never share it')).toEqual([]);
    expect(found('Shipping\nZip code\nThe code is 10115')).toEqual([]);
  });
  it('leaves a zip code, an error code and a year alone', () => {
    expect(found('The zip code is 10115 and the error code is 4040.')).toEqual([]);
    expect(found('2026 is your year')).toEqual([]);
    // A lock file's name and line, a door's number in a sentence, a date after a lock.
    expect(found('see yarn.lock:1042 and package-lock - 1234')).toEqual([]);
    expect(found('the door 4 of building 12; lock: 2026-12-06; gate 12')).toEqual([]);
  });
});


// A recovery key in groups of digits (BitLocker's eight groups of six) alone in a dialog or in a
// table's cell, as tesseract read set G's letter-spaced recovery keys page (0 of 4 hidden in every
// sample): no caption beside it, and its digits look like a number to every other rule.
describe('ruleFindings: a recovery key in groups of digits', () => {
  const found = (t: string) => foundBy(t, 'digit-groups');
  it('finds eight groups of six digits joined by dashes, a space around a dash or a misread digit too', () => {
    expect(found('GRACE-LAPTOP 29CAE85C 850563-996809-388341-228592-096436-895656-998733-523472')).toEqual(['850563-996809-388341-228592-096436-895656-998733-523472']);
    expect(found('key: 659736 - 450077-260902-743580-330673-444796-971863-1O3055 end')).toEqual(['659736 - 450077-260902-743580-330673-444796-971863-1O3055']);
    expect(found('11223-44556-77889-00112-33445')).toEqual(['11223-44556-77889-00112-33445']);
  });
  it('leaves a card number, a phone number, a date, an order number and a version alone', () => {
    expect(found('4242-4242-4242-4242 +1-555-0100-2233 2026-12-07 order 1001-2002-3003-4004 v1.2.3-4.5.6 INV-2026-0012-3341-0098')).toEqual([]);
  });
});

// A note's Wi-Fi key and PIN, as tesseract read held-out set B's sticky note ("office wifi:
// hxiw88GZra6MnX9k", "vpn pin 636509"): no rule knew either name, so both leaked in every run.
describe('ruleFindings: a Wi-Fi key and a PIN after their names', () => {
  const found = foundBy;
  it('finds the key after "wifi:" and the digits after "pin", colon or not', () => {
    expect(found('office wifi: hxiw88GZra6MnX9k', 'wifi')).toEqual(['hxiw88GZra6MnX9k']);
    expect(found('Wi-Fi password = Falcon54?4z4O', 'wifi')).toEqual(['Falcon54?4z4O']);
    expect(found('vpn pin 636509', 'pin')).toEqual(['636509']);
    expect(found('PIN: 4821', 'pin')).toEqual(['4821']);
  });
  it('leaves a Wi-Fi setting, a pin of a chip and a pinned version alone', () => {
    expect(found('Wi-Fi: Connected', 'wifi')).toEqual([]);
    expect(found('wifi: on', 'wifi')).toEqual([]);
    expect(found('pin 12 of the header is ground; pinned to 1.4.2; spin 2000 rpm; PIN 1234.56', 'pin')).toEqual([]);
  });
});

// As tesseract read held-out set A's docker-compose file: `POSTGRES_PASSWORD=…` with its = read as
// a dash, and a Redis URL with no user name (`redis://:password@cache`), whose @ OCR lost or whose
// _ it read as a space. Both database passwords leaked in 2 of 2 runs.
describe('ruleFindings: a password after "=" read as "-", a URL password with no user name or a _ read as a space', () => {
  const found = foundBy;
  it('finds them', () => {
    expect(found('- POSTGRES_PASSWORD-acoXj!Qip3#£7', 'env')).toEqual(['acoXj!Qip3#£7']);
    expect(found('REDIS_URL: redis://:fudY&bSZQ9-ybTc oKlu@cache:6379/0', 'url-password')).toContain('fudY&bSZQ9-ybTc oKlu');
    // Held-out set B's git remote at 1080p: a GitLab token's _ read as a space, its tail leaked.
    expect(found('origin https://oauth2:glpat-9Rnub dfIZPIfEZxSMCb@gitlab.com/acme/api.git (fetch)', 'url-password')).toContain('glpat-9Rnub dfIZPIfEZxSMCb');
  });
  it('leaves a name with a dash after it, a host and a port alone', () => {
    expect(found('API_KEY-based auth is used; SECRET-KEY rotation', 'env')).toEqual([]);
    expect(found('redis://localhost:6379/0 and http://:8080/health', 'url-password')).toEqual([]);
    expect(found('see https://example.com/docs and https://ada@github.com/x y@z', 'url-password')).toEqual([]);
    // A lock file's resolution, a package at its registry in quotes (set F's lockfile diff at 1080p).
    expect(found('-  resolution: "postcss@npm:4.18.2"', 'url-password')).toEqual([]);
    expect(found('DATABASE_URL: "postgres:Xy7pQ2mZ@db.internal:5432"', 'url-password')).toEqual(['Xy7pQ2mZ']);
    // A release at its version (set J's sentry-cli at 1080p); a password before an address of four numbers is one.
    expect(found('> Release: shop@3.2.0', 'url-password')).toEqual([]);
    expect(found('> Release: shop@3.2.0-rc.1', 'url-password')).toEqual([]);
    expect(found('url: admin:Xk9qPzLm2v@10.0.0.5', 'url-password')).toEqual(['Xk9qPzLm2v']);
  });
});

// A package-lock's integrity string as tesseract read it: "…+AKIqudI0KNuvy" inside the base64 is
// AKIA read with one error to the misread-prefix rule, and the line was masked (8.8% of the screen).
describe('ruleFindings: a misread vendor prefix inside a base64 payload', () => {
  const found = (t: string) => foundBy(t, 'prefix-misread');
  it('is not a key; the same run after a space still is', () => {
    expect(found('"integrity": "sha512-chOzuaCcT/wACBB6OViZolwgYsU9WKb8 £th3Lrs/NXtmoo0hVZENCOiSGIX+AKIqudI0KNuvy Jet NZI Thv28w==",')).toEqual([]);
    expect(found('key AKIqudI0KNuvyE5XQ7')).toEqual(['AKIqudI0KNuvyE5XQ7']);
  });

  // A password manager's detail view (the tuned corpus, dark, 14 px): the key's underscore after
  // sk_live read as a space, and its 0 as an O, so the body had no digit.
  it('a prefix whose own _ or - OCR read as a space', () => {
    expect(found('sk_live DQSUKLMRQVPYUKAjfIGrXIXZOET')).toEqual(['sk_live DQSUKLMRQVPYUKAjfIGrXIXZOET']);
    expect(found('xoxb 2841736450-9928374651-Kq8ZrT2mXw')).toEqual(['xoxb 2841736450-9928374651-Kq8ZrT2mXw']);
    expect(found('the sk_live keys are listed under Developers')).toEqual([]);
    expect(found('ghp documentation: authentication_overview')).toEqual([]);
  });

  // A GitLab pipeline trigger token in a table cell (set E, 1440p 12 px, as tesseract read it): its
  // 40 hex after "glptt-" passed for a build's name and hash, so no rule kept it.
  it("GitLab's prefixes, the hex after them too", () => {
    expect(found('glptt-9f832839d2cas3eb7e6d75cea3cTaceds303aa fa')).toEqual(['glptt-9f832839d2cas3eb7e6d75cea3cTaceds303aa']);
    expect(found('app-9f832839d2ca53eb7e6d75c6a3c7aeed6303aaf4')).toEqual([]);
  });
});

// A generated value after a name that says it is secret, as tesseract read set C's screens: a
// config page's boxes with no separator ("SECRET_KEY BASE", its underscore read as a space), a YAML
// file's keys (app_key, api key:), a .netrc password shaped like a UUID, a key pasted in a message.
// A hex run reads as a hash and a UUID as an id, which the look-alike rules leave alone; the name
// beside it says otherwise. Names that say hash or id keep their values' look-alike reading.
describe('ruleFindings: a random value after a name that says secret', () => {
  const found = (t: string) => foundBy(t, 'named');
  it('finds hex keys, a UUID-shaped password and a password after their names', () => {
    expect(found('SECRET_KEY BASE edaa36434ef2510c632d4e86a538cc03aad56da5590e89al1d2bdasBel12a086 oe')).toEqual(['edaa36434ef2510c632d4e86a538cc03aad56da5590e89al1d2bdasBel12a086']);
    expect(found('TWILIO AUTH TOKEN cf5eda79632fa09922f4075fa70a0cf2 oe')).toEqual(['cf5eda79632fa09922f4075fa70a0cf2']);
    expect(found('ADMIN PASSWORD Harbor62$zmjw oe')).toEqual(['Harbor62$zmjw']);
    // No digit: both cases and a symbol (a generator's password); Title-Case words joined are not one.
    expect(found('ADMIN PASSWORD HjXx%MALkTZY oe')).toEqual(['HjXx%MALkTZY']);
    expect(found('auth header X-Request-Id')).toEqual([]);
    expect(found('MATLGUN APT_KEY key-bead5a13b£a10£098bd681473979843 7')).toEqual(['key-bead5a13b£a10£098bd681473979843']);
    expect(found('10 app_key: 4d3f3d55be5fde5feeBd254242442130aa9c5d0a')).toEqual(['4d3f3d55be5fde5feeBd254242442130aa9c5d0a']);
    expect(found('9 api key: 883c4ffde20fSbd14dcc312684ededaa')).toEqual(['883c4ffde20fSbd14dcc312684ededaa']);
    expect(found('password 9b6f7726-3271-6c43-069c-43a8c3b7cf3c')).toEqual(['9b6f7726-3271-6c43-069c-43a8c3b7cf3c']);
    expect(found('machine ftp.acme.io login deploy password esL2rITDu#R?le')).toEqual(['esL2rITDu#R?le']);
    expect(found('Grace Hopper api key 6f772632716c43069c43a8c3b7cf3c25')).toEqual(['6f772632716c43069c43a8c3b7cf3c25']);
    expect(found('api_key=2b92409d3fb64afebede10d4e8eb2af2')).toEqual(['2b92409d3fb64afebede10d4e8eb2af2']);
  });
  it('leaves hashes and ids named as such, a key with nothing to qualify it, settings and prose', () => {
    for (const line of [
      'commit 2b92409d3fb64afebede10d4e8eb2af2f26165a8',
      'Cache key: node-cache-Linux-x64-npm-2b92409d3fb64afebede10d4e8eb2af2f26165a8',
      '"private_key_id": "2b92409d3fb64afebede10d4e8eb2af2f26165a8",',
      'account sid: AC9b6f772632716c43069c43a8c3bTcf3c',
      'revert token fix 2b92409d3fb64afebede10d4e8eb2af2f26165a8',
      'the key 2b92409d3fb64afebede10d4e8eb2af2f26165a8',
      'Primary key fingerprint: 2B92 409D 3FB6 4AFE BEDE 10D4 E8EB 2AF2 F261 65A8',
      'Token: expires after 3 days',
      'passwordMinLength = 12',
      'password_reset_url https://id.acme.io/reset',
      'Transaction Hash: 0x2b92409d3fb64afebede10d4e8eb2af2f26165a8',
    ]) expect(found(line), line).toEqual([]);
  });
});

// A database URL in a config page's field that shows 40 of its 64 characters: the box cuts it before
// the @, and OCR reads the scheme apart (as tesseract read set C's config-vars page). What shows of
// the password is hidden to the line's end; a port is not a password.
describe('ruleFindings: a URL with credentials cut off before its @', () => {
  const found = (t: string) => foundBy(t, 'url-password');
  it('hides what shows of the password', () => {
    expect(found('DATABASE URL postgres: //uwzpdqrfoifrco: 1kgbpv2khxt1gzq19i1floi fouejbwsigzokys7y747ebskss ~~')).toEqual(['1kgbpv2khxt1gzq19i1floi fouejbwsigzokys7y747ebskss ~~']);
    expect(found('DATABASE URL postgres: //umn2e2hpdufynt :bbeegalaudianbades2adcdshyb263aBezdaxsbist 67qnas,')).toEqual(['bbeegalaudianbades2adcdshyb263aBezdaxsbist 67qnas,']);
  });
  it('leaves a host and its port, and a URL with a path', () => {
    for (const line of ['redis://localhost:6379', 'postgres://db.example.com:5432', 'open http://localhost:3000/path now', 'https: //staging.api.acme. io']) expect(found(line), line).toEqual([]);
  });
});

// A block explorer as set C shows it: a bech32 address after "Bitcoin address:" read as a key by the
// entropy rule, and a transaction hash cut short by its column, its ellipsis read as dots.
describe('identifier: a block explorer’s addresses and cut-short hashes', () => {
  it('are identifiers; a key of the same alphabet with another start is not', async () => {
    expect(await hidden('Block: 19439096 Bitcoin address: bc1qyg7uyuhvyj4qaa5emfqzafrfpkump6px26y43e')).toEqual([]);
    expect(identifier('0x124fbacf20907b054f...')).toBe(true);
    // …an o OCR read in it (bech32 has none) still one.
    expect(identifier('bc1qyg7uyuhvyj4qaa5emfqzafrfpkump6px26yo3e')).toBe(true);
    // Read worse ("bc1q" as "belg", a 0 as O), its name on the line still says what it is; a session id's does not.
    expect(await hidden('Block: 20209543 Bitcoin address: belgpjnwvk38ak34cqp3lg3sqds67tket Sxkkslgds')).toEqual([]);
    expect(await hidden('Block: 20334473 Bitcoin address: bc1ghg08605k74j1k9a6tccOefvwxjmet7fm2qmn70')).toEqual([]);
    expect((await hidden('session id: Xk9qPzLm2v7RtQwB8nJd4Fh')).map((f) => f.rule)).toContain('entropy');
    expect(keyLike('sk1qyg7uyuhvyj4qaa5emfqzafrfpkump6px26y43e')).toBe(true);
  });
});

// A stock sheet's EAN-13s (one in ten passes Luhn too) and npm audit's advisory URL with OCR's
// break in it ("https://github. con/advisories/GHSA-3xjn-q9pv-gpcf"), as tesseract read set C.
describe('look-alikes: an article number, an advisory id', () => {
  it('an EAN-13 that passes Luhn is no card unless the screen says card; an advisory path is no key', async () => {
    expect(await hidden('4 | GZS-OKY87Y-RED 4089108285973 Desk lamp 270')).toEqual([]);
    expect((await hidden('card 4089108285973')).map((f) => f.rule)).toContain('luhn');
    expect(await hidden('Regular Expression Denial of Service - https://github. con/advisories/GHSA-3xjn-q9pv-gpcf')).toEqual([]);
    expect(await hidden('see CVE-2024-21538 and con/advisories/GHSA-puxf-8q7q-g8f2')).toEqual([]);
  });
});

// git show's diff as set C shows it: code that assigns a key a call is no password said in a sentence.
describe('ruleFindings: a key assigned in code', () => {
  const found = (t: string) => foundBy(t, 'said');
  it('is not said; a password said in a sentence still is', () => {
    expect(found('-    const key = hash(item.id);')).toEqual([]);
    expect(found('+    const key = hash(`${item.id}:${item.version}`);')).toEqual([]);
    expect(found('the staging db password is Harbor97?PD7m')).toEqual(['Harbor97?PD7m']);
  });
});

// Shapes no rule knew (held-out set D's leaks, written for their cause): a secret handed to a call
// by its quoted name, a password after its login or in a command's user flag, a URL's signature.
describe('ruleFindings: quoted names, login pairs, signed URLs', () => {
  const by = (rule: string) => (t: string) => foundBy(t, rule);
  it("takes a define()'s whole value as OCR read it, not a setting or a placeholder", () => {
    const q = by('quoted-name');
    expect(q("define( 'NONCE_SALT', 'Z1)N^5YGSyDP)YC6|_<4B[@_Qf WQwT6_}v[TfONSy>]_Y;]vrQ;:BwBy_>`P' );")).toEqual(['Z1)N^5YGSyDP)YC6|_<4B[@_Qf WQwT6_}v[TfONSy>]_Y;]vrQ;:BwBy_>`P']);
    // Its _ read as a space, the value's opening quote lost, the salt split at its signs.
    expect(q('define ("AUTH SALT’, 1108. L201Kc6E VG) {YOa>ZMEWCKMGaB5KEUS (W| . }AQC?d$ } IW) ;')).toHaveLength(1);
    expect(q("define( 'DB_PASSWORD', 'Tiger22!BVgq' );")).toEqual(['Tiger22!BVgq']);
    expect(q("define( 'AUTH _KEY', '1-aS7x*R$p( VS&NdIWN%OLYE4<V $kb9;,@=],KD>a~u.#P9;M/0jKkd7uwG_}YO0' );")).toHaveLength(1);
    expect(q("define( 'DB_NAME', 'acmeshop_wp' );")).toEqual([]);
    expect(q("define( 'AUTH_KEY', 'put your unique phrase here' );")).toEqual([]);
    expect(q("define('WP_DEBUG', false);")).toEqual([]);
    expect(q("    password = models.CharField('password', max_length=128, blank=True)")).toEqual([]);
    expect(q("os.environ.get('SECRET_KEY', 'dev-only-change-me')")).toEqual([]);
  });

  it('finds a password after its login or in a user flag, not a path or a breadcrumb', () => {
    const pair = by('login-pair'), cli = by('cli-user-pass');
    expect(pair('• admin panel (https://admin.staging.acme.io): admin / QuartzMaple2210#')).toEqual(['QuartzMaple2210#']);
    expect(pair('shared login: deploy / CopperFox88!')).toEqual(['CopperFox88!']);
    expect(pair('root:Tiger22!BVgq')).toEqual(['Tiger22!BVgq']);
    expect(pair('Home / Engineering / Runbooks2')).toEqual([]);
    expect(pair('read / write, 2024 / 2025')).toEqual([]);
    expect(pair('root:x:0:0:root:/root:/bin/bash')).toEqual([]);
    // (An Android build's fingerprint as OCR spaced it: "…/33831473 user / release-keys".)
    expect(pair('I Build + fingerprint=google/husky/husky:15/AP4A.241946.001/33831473 user / release-keys')).toEqual([]);
    expect(pair('wiki login: admin / correct-horse-battery')).toEqual(['correct-horse-battery']);
    expect(cli("user@build-01:~/acme$ htpasswd -nbB admin 'kovv51RQ5F4Sqn'")).toEqual(['kovv51RQ5F4Sqn']);
    expect(cli('curl -u admin:Tiger22!BVgq https://staging.acme.io/health')).toEqual(['Tiger22!BVgq']);
    expect(cli('smbclient //srv/share -U alice%Winter2024!')).toEqual(['Winter2024!']);
    expect(cli('curl -u admin https://staging.acme.io/health')).toEqual([]);
    expect(cli('htpasswd -c /etc/nginx/.htpasswd admin')).toEqual([]);
  });

  it("takes a signed URL's signature with what wrapped onto the lines below, not an ordinary query", () => {
    const u = by('url-param');
    expect(u('blob link: https: //acme.blob.core.windows.net/exports?sv=2022-11-02&sp=r&sig=E8N7f\nCLD TEVENrL4VKwSayG1T0C4E%2FVXGU2I 165AAT%3D\nNext paragraph here')).toEqual(['E8N7f\nCLD TEVENrL4VKwSayG1T0C4E%2FVXGU2I 165AAT%3D']);
    expect(u('tps&sig=xOMV%:2F%2FoD3BXkn4Zi tiI1956KCim\nPCejnAQRB2atp8We:3D')).toHaveLength(1);
    expect(u('?X-Amz-Date=20261206T101500Z&X-Amz-Signature=7d9ac99158d6779cda5bb7febafc018d5847896c2facc062bcafff0efd5afe92')).toHaveLength(1);
    expect(u('https://example.com/search?q=hello+world&page=2&sort=created_at&sig=1')).toEqual([]);
    expect(u('https://example.com/a?v=2022-11-02&signature=required\nNext')).toEqual([]);
  });
});

// A chat bot's token cut by OCR at its - and _; a key as a URL's user name (a Sentry DSN), its @ lost.
describe('ruleFindings: bot tokens, keys before a URL host', () => {
  const by = (rule: string) => (t: string) => foundBy(t, rule);
  it('takes a bot token with its id, in the pieces OCR made of it', () => {
    const bot = by('bot-token');
    expect(bot('bot = telebot.TeleBot("109291156:AAG-N7YBDCyoeaM 8R82-S898NjNSN1ZL14")')).toEqual(['109291156:AAG-N7YBDCyoeaM 8R82-S898NjNSN1ZL14']);
    expect(bot("('6935165280: AATKQ]HF -teydUsSrh1iAd_T7xatIXuAAe3')")).toHaveLength(1);
    expect(bot('at 12:34:56 the build 1234567890:Applied migrations to all 12 shards')).toEqual([]);
  });

  it("takes a key before a URL's host, with its @ or when OCR lost it, not a host name", () => {
    const key = by('url-user-key');
    expect(key('dsn="https://75d3a1b7de539592510d869d49312fe3@o123456.ingest.sentry.io/1234567",')).toContain('75d3a1b7de539592510d869d49312fe3');
    expect(key("dsn: 'https://f1£83a0ced]€1bFda80dd85aaT50E5Tc0oBI42667. ingest us. sentry.")).toHaveLength(1);
    expect(key('git clone https://github.com/acme/x && ssh://git@github.com/acme/x')).toEqual([]);
    expect(key('https://d111111abcdef8.cloudfront.net/x https://my-app-git-feature-login-acme.vercel.app https://123456789012.dkr.ecr.eu-west-1.amazonaws.com')).toEqual([]);
  });
});

describe("web addresses: where a thing is, unless the link carries a credential", () => {
  it('takes a document, a video, a product or a post by the ids in its address as public, as OCR reads it', () => {
    for (const url of [
      'https://docs.google.com/document/d/1-9Rnub_dfIZPJfEZxSMCblzSNqiwMudx_PwJUaPJukI/edit',
      'https://www.youtube.com/watch?v=5SJpjUHJETr&t=589s',
      'docs.google.com/spreadsheets/d/1QDn3P_tZTr87s617HC3S4g7tKr8I-KYHZUqgiEz2RKT/edit#gid=0',
      'https://www.notion.so/acme/Release-notes-a36434ef2510c632d4e86a538cc03aa0',
      'https://github.com/acme/api/blob/main/src/app.ts#L120',
      // (Its scheme as OCR reads it, = read as - and & as a, and four pieces joined.)
      'https/drive.google.com/file/d/1nJ7Gl6qZu4ZaVRDA4IGNugIDAVMIaQ_g/view',
      'https/shop.example.com/sale?utm_source-facebookafbclid-IwARXGNpEeU7VKS5uauQEviz3GyweXQjaTNHAWGAFS5z_HEI',
      'ttps:/fwwwfigma.com/design/HjsBjgs0afE1bOkcigSN4l/Design-system?node-id=51-204',
    ]) {
      expect(webAddress(url), url).toBe(true);
      expect(identifier(url), url).toBe(true);
    }
  });

  it('does not take a link that carries a credential for an address', () => {
    for (const url of [
      'https://example.com/reset-password/abcDEF123ghiJKL456mnoPQR',
      'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX',
      'https://discord.com/api/webhooks/123456789012345678/abcdefABCDEF1234567890abcdefABCDEF',
      'https://app.example.com/login?token=eyJabc123DEF456ghi789',
      'https://app.example.com/x?api_key-abcDEF123ghiJKL456',
      'https://bucket.s3.amazonaws.com/x.pdf?X-Amz-Signature=abcdef0123456789abcdef',
      'https://user:pw@example.com/x',
      'https://api.telegram.org/bot123456789:AAHabcdefghijABCDEFGHIJ0123456789ab/getMe',
      'https://example.com/cb#access_token=abcDEF123ghiJKL456',
      'https://example.com/oauth/callback?code=4f9a2b7c1d8e&state=xyz',
      'https://app.example.com/invite/Xk9fP2qL7mZ3',
      'https://share.1password.com/s#Xk9fP2qL7mZ3abcdEFGH1234',
    ]) expect(webAddress(url), url).toBe(false);
  });

  it("joins an ad click's id that wraps to its link above, and not a value under a link that ended", () => {
    const wrapped = 'https: //wwa.example-shop.con/dp/BOGNSSXPEL 7ref=sr_1_3&gclid=oxHAyxOUvCEDTTUaqIpyqeGasds\n_mMonm6X6DCPAgAyTz6bL11XIpgECZMIC';
    const at = wrapped.indexOf('_mMon');
    expect(inIdentifier(wrapped, at, at + 10)).toBe(true);
    const after = 'See https://www.example.com/docs/setup for more\nXk9fP2qL7mZ3abcdEFGH1234wQ';
    expect(inIdentifier(after, after.indexOf('Xk9f'), after.length)).toBe(false);
  });

  it("takes the token of a link through a secret's place, in the pieces OCR made of it, and nothing of an address", () => {
    const link = (t: string) => foundBy(t, 'link-token');
    expect(link('https: //hooks. slack. con/services/TI522HDFOTK/BSL6SHYINLH/Q5T JUECWYPJIYT 3gaqVehvxDM')).toEqual(['TI522HDFOTK', 'BSL6SHYINLH', 'Q5T JUECWYPJIYT 3gaqVehvxDM']);
    expect(link('https: //accounts. example. con/reset-password/-9Rnub_df 12 JEEZxSMCh12SNqiwMudx_BuJUaBIukT')).toEqual(['-9Rnub_df 12 JEEZxSMCh12SNqiwMudx_BuJUaBIukT']);
    expect(link('https://discord.com/api/webhooks/6603486336095561081/tRpSi TEHLEChYxQF_~A3HZmhYEISIniCKn')).toEqual(['tRpSi TEHLEChYxQF_~A3HZmhYEISIniCKn']);
    expect(link('https://docs.google.com/document/d/1ZvN3xGLsCz9V620dnbNI8pCm1KI/edit?usp=sharing and https://www.youtube.com/watch?v=11znky3zZut&t=151s')).toEqual([]);
  });

  // The two judge a link's place by one test: a link that is no address for the place it passes
  // through has that place's token hidden — a segment with digits or a file's dot in it, a
  // credential's parameter in the path — and an address has nothing hidden.
  it('hides the token of every link it does not take for an address because of its place', () => {
    const link = (t: string) => foundBy(t, 'link-token');
    for (const [url, token] of [
      ['https://example.com/account/password-reset.php/Zx81Kq0LmPz7', 'Zx81Kq0LmPz7'],
      ['https://app.example.com/u/reset2/Q8vN3xKp1LzR', 'Q8vN3xKp1LzR'],
      ['https://api.example.com/v1/access/Ab12Cd34Ef56Gh78', 'Ab12Cd34Ef56Gh78'],
      ['https://example.com/oauth/callback?code=4f9a2b7c1d8e&state=xyz', '4f9a2b7c1d8e'],
    ] as const) {
      expect(webAddress(url), url).toBe(false);
      expect(link(`see ${url} now`), url).toEqual([token]);
    }
    expect(link('see https://www.example.com/docs/reset.html/v2/Zx81Kq0LmPz7 now')).toEqual(['Zx81Kq0LmPz7']);
    expect(link('see https://www.example.com/blog/2024/11/Zx81Kq0LmPz7 now')).toEqual([]);
  });
});

describe("a log's fields: a cursor, a name in capitals and its value, a time that passes Luhn", () => {
  it("judges a field's value, not its name's capitals beside it; a key after a name in capitals still counts", () => {
    expect(keyLike('_SYSTEMD_UNIT=nginx.service')).toBe(false);
    expect(keyLike('TIMESTANP-1765000087614186')).toBe(false);
    expect(keyLike('API_KEY=Xk9fP2qL7mZ3abcdEFGH1234wQ')).toBe(true);
    expect(keyLike('GOCSPX-Xk9fP2qL7mZ3abcdEFGH1234wQ')).toBe(true);
  });

  it("takes a journal entry's cursor for a place in a log, from any of its fields, as OCR reads it", () => {
    expect(identifier('[s=45804d2c666d7f41b0bcadSal3bfalof;i=lebco;b=8ea75c1c36d92a5f0e023077af375081;n=58dcef;tx=8bd681d73979843¢]')).toBe(true);
    expect(identifier('i=aecc7;b=ff49b6£772632716c43069c43a8c3b7c;m=3a47c3;t')).toBe(true);
    // (Set H's journalctl at 1440p 12 px: its i read as 1, a 5 as %.)
    expect(identifier('[s=defeBda3adfaB64caf766fd58a6658ce;1=92257;b=df8b2e53fc89543d3f30c77f9b721237;m=5dB825166;t=00c7795af859%a;x=030bc6614cabc43c]')).toBe(true);
    // (A session's id is a key to the session, its "ID" and hex notwithstanding.)
    expect(identifier('PHPSESSID=9f8e7d6c5b4a39281706f5e4d3c2b1a0;')).toBe(false);
    expect(identifier('JSESSIONID=9F8E7D6C5B4A39281706F5E4D3C2B1A0')).toBe(false);
    expect(identifier('trace_id=9f8e7d6c5b4a39281706f5e4d3c2b1a0')).toBe(true);
  });

  it("counts a card number only with its network's first digit, unless the screen says card", () => {
    const luhn = (t: string) => foundBy(t, 'luhn');
    // Both pass Luhn: a time in microseconds, and a Visa number.
    expect(luhn('_SOURCE_REALTIME_TIMESTAMP=1765000026301401')).toEqual([]);
    expect(luhn('order 4539578763621486 shipped')).toEqual(['4539578763621486']);
    expect(luhn('Card number: 1765000026301401')).toEqual(['1765000026301401']);
  });
});

describe('public identifiers: SSH public keys, ARNs and resource ids, digests (as OCR reads them)', () => {
  const any = (t: string) => ruleFindings(t, ALL).map((f) => `${f.rule} ${t.slice(f.start, f.end)}`);
  const ed = 'AAAAC3NzaC1lZDI1NTE5AAAAIH6t2ePEtIJzg1A09uD3NL20uLIjvbL6wiLFqtgL+4TE';

  it('an SSH public key, its wrapped base64 and a known_hosts line are no key; a secret on the next line is', () => {
    expect(identifier(ed)).toBe(true);
    expect(identifier('AAAAC3NzaCllZDIINTESAAAAILgAdXkLoJppab2us')).toBe(true); // 1 as l, 5 as S
    const wrapped = ['ssh-rsa AAAAB3NzaClyc2EAAAADAQABAAABgQQI85qNX6NQxWFJI9b93tMBHBCZnLFGDXSg26IKUATOEg8UL4MTG', 'YKDZCMsy LWwRNRLOT1TcKuHN6KgA9 fkmMEPLr4tNMvcHNh8155nmCzFZ461AZ/pXvpss5Yz', '1sNubgrN7BUdpDd7F jMPDZsxFP1S2KnvF+e45945P5PNGCDWFZVOCpp5h6FKQ== deploy@ci'];
    const known = '|1|7+FVbC5wpbjE/R72Qrgl5xI7Wlc=|vCXg+6LYZyTqlIj8PhyolM/DGL4= ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBI5qReeRHC3CyHFU4s1X';
    expect(any([...wrapped, known].join('\n'))).toEqual([]);
    // After the comment that ends a key, a line is judged on its own.
    expect(any([...wrapped, 'Xk9fPq2LmN7vRt4WzY8bQc3Hd7Gs'].join('\n'))).toEqual(['entropy Xk9fPq2LmN7vRt4WzY8bQc3Hd7Gs']);
    // An age recipient is public; its secret key is not.
    expect(identifier('age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p')).toBe(true);
    expect(any('AGE-SECRET-KEY-1QQPQZ8Q7Z3XH7R0N0L2JYXJZ6N5K9HNQ7ZQ0P2XW4V0NQ9J8Y5XS2Z3QK6Q').length).toBeGreaterThan(0);
  });

  it('an ARN and its pieces, resource ids and IAM unique ids are public; a value after an ARN in the next field is not', () => {
    expect(any('arn = "arn:aws:ec2:eu-central-1:674944142140: instance/i-06c43069c43a8c3b7"')).toEqual([]);
    expect(any('am = "arn:aws:kms:eu-central-1:909345082382 key/eedd2ce7 -99af 2cb8-224-0f0b93600578"')).toEqual([]);
    expect(any('arn:aws:secretsmanager:us-east-1:586437172485: secret: prod/orders-db-NbKLaE')).toEqual([]);
    expect(any('arn:aws:secretsmanager:us-east-1:586437172485:secret:prod-AbCdEf 2024-12-06T10:00:00 prod Xk9fPq2LmN7vRt4WzY8bQc3Hd')).toEqual(['entropy Xk9fPq2LmN7vRt4WzY8bQc3Hd']);
    for (const id of ['i-06c43069c43a8c3b7', '1-04a38d80edec6b25bO', 'sg-@eb2af2f26165a881', 'subnet-0bfdaB0ddB85ee750£f', 'vpc-0a1b2c3d', 'AROAZ3IFJ4JEURKDECIVU', 'AIDAEVL7BSBEGA60U7HOL']) expect(identifier(id), id).toBe(true);
    expect(any('unique_id = "AROAZ3IFJ4JEURKDECIVU"')).toEqual([]);
    // An access key's id still is a key.
    expect(foundBy('aws_access_key_id = AKIAZ3QX7LMN2PQR8TUV', 'aws-id')).toEqual(['AKIAZ3QX7LMN2PQR8TUV']);
  });

  it('a digest named by its algorithm however short, a hash after a path; "key" qualified only by a word before it', () => {
    expect(identifier('£ha256:4925£020230')).toBe(true);
    expect(identifier('api/orders.ts-58f1adc3e276d78d840ec27f54c9171d')).toBe(true);
    expect(identifier('apiforders.ts-fbciOefBcge2bcac329350d662ea8dc')).toBe(true);
    expect(foundBy("KeyError: 'currency' 4207c575F112", 'named')).toEqual([]);
    expect(foundBy('mailgun key: 9b6f0c3e2a7d41f8', 'named')).toEqual(['9b6f0c3e2a7d41f8']);
    // (A PowerShell list's set of names, one of them a feature named for credentials.)
    expect(foundBy('DeviceGuardSecurityServicesRunning : {CredentialGuard, HypervisorEnforcedCodeIntegrity}', 'named')).toEqual([]);
    expect(foundBy('Settings : {a}, password Xk9fP2qL7mZ3abcd', 'named')).toEqual(['Xk9fP2qL7mZ3abcd']);
  });
});

// A card's big embossed digits as OCR misread them on a phone (held-out set D's bank app).
describe('ruleFindings: a card in misread groups', () => {
  const cards = (t: string) => ruleFindings(t, ALL).filter((f) => f.kind === 'card number').map((f) => t.slice(f.start, f.end));
  it('takes four groups a digit long or short or with a stray dot where the screen says card, not elsewhere', () => {
    expect(cards('ACME BANK VISA\n4674\n9447.\n4214\n0371')).toEqual(['4674\n9447.\n4214\n0371']);
    expect(cards('ACME BANK VISA 53212 5107 4783 6260')).toEqual(['53212 5107 4783 6260']);
    expect(cards('VISA 4099 229810 0476 4476')).toEqual(['4099 229810 0476 4476']);
    expect(cards('Order 53212 5107 4783 6260 shipped')).toEqual([]);
    expect(cards('card: call 0800 123 4567 8901')).toEqual([]);
  });
});

describe('values whose name says public, data or hash', () => {
  const rules = async (text: string) => (await hidden(text)).map((f) => f.rule);
  it('leaves a JSON Web Key\'s public members alone, also where its modulus wraps, but not a secret member beside them', async () => {
    const n = 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm2n';
    expect(await hidden(`{"kty": "RSA", "kid": "${n}",\n"n": "${n}\n${n}\n${n}", "e": "AQAB"}`)).toEqual([]);
    expect(await rules(`{"kty": "oct", "kid": "k1",\n"k": "${n}\n${n}"}`)).toContain('entropy');
    // No key set around it: "n" alone is no public key's modulus.
    expect(await rules(`"n": "${n}"`)).toContain('entropy');
  });
  it('leaves an integrity hash, a site key and a file\'s content alone; a client secret that wraps, a session id, a secret\'s name are not', async () => {
    const v = 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm2n';
    expect(await hidden(`<script integrity="sha384-${v}\n${v}" crossorigin>`)).toEqual([]);
    expect(await hidden(`<div class="g-recaptcha" data-sitekey="6Lc${v.slice(0, 37)}"></div>`)).toEqual([]);
    expect(await hidden(`"content": "${v}\\n${v}",\n"encoding": "base64"`)).toEqual([]);
    expect(await rules(`"client_secret": "${v}\n${v}"`)).toContain('entropy');
    expect(await rules(`session id: ${v.slice(0, 24)}`)).toContain('entropy');
    expect(await rules(`"data": "sk_live_${v.slice(0, 30)}"`)).not.toEqual([]);
    // A kubeconfig's client key: "data" in its name, and a key its first word qualifies.
    const kube = '    client-key-data: LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCmhDS0tVSWxxdlNKM0tR';
    expect(publicValue(kube, kube.indexOf('LS0t'))).toBe(false);
    expect(await rules(kube)).not.toEqual([]);
    // Set H's document viewer at 4K@1 11 px, as tesseract read it: a thumbnail's bytes in the call that
    // makes them; a secret's name before such a call still names a secret.
    const thumb = "thumbnail: Binary.createFronBase64(( '+kOY1]4Hn0TkgOAZXOSHLra6LY231apK0aqq2WS39AF";
    expect(publicValue(thumb, thumb.indexOf('+kOY'))).toBe(true);
    expect(await hidden(thumb)).toEqual([]);
    expect(publicValue("_id: ObjectId('7478893a0ec50a6dcBa47703", 16)).toBe(true);
    const token = `api_token: Buffer.from('${v}')`;
    expect(publicValue(token, token.indexOf(v))).toBe(false);
    expect(await rules(token)).not.toEqual([]);
  });
  it('a hash of a secret is not the secret; a placeholder in the secret\'s place is no value', async () => {
    expect(await hidden('checksum/secrets: 4e42a851214aa1883c4ffd0205bd14dcc312684ededaa36434ef2510c632d4e')).toEqual([]);
    expect(await hidden('checksun/secret: 4e42a851214aa1883c4ffd0205bd14dcc312684ededaa36434ef2510c632d4e')).toEqual([]);
    expect(await hidden("DATABASE_PASSWORD:  <set to the key 'password' in secret 'api-db'>  Optional: false")).toEqual([]);
    expect(await rules('DATABASE_PASSWORD: Xk9#qPzLm2v7')).not.toEqual([]);
  });
  it('a payments vendor\'s object ids, its underscore read as a space or not, and its publishable keys are public; its secret keys and a word before a key are not', async () => {
    expect(await hidden('€12.40 Succeeded pi_3PSp75q4z5HC1S2f6rkp6I8K ada@example.org cus_HYUofgEyeQKS3R')).toEqual([]);
    expect(await hidden('pi 3QUECWYPJyT3gaqVPhvxDMno evt_1OMeAJVk8X1LgZYELofCTFn94')).toEqual([]);
    expect(identifier('containerd://86a538cc03aa056da5590e89a11d2b4ad8e112a086c4110d16986b24980293')).toBe(true);
    expect(identifier('pk_live_51Hq2xYAbCdEfGhIjKlMnOpQr')).toBe(true);
    expect(identifier('sk_live_51Hq2xYAbCdEfGhIjKlMnOpQr')).toBe(false);
    expect(await rules('prod Xk9fPq2LmN7vRt4WzY8bQc3Hd')).toContain('entropy');
    // (Its prefix read in capitals.)
    expect(identifier('Pi_3PFzt16MESMNzX0PUXDEVSEE')).toBe(true);
    // A git blob's address; a webhook's path ending in its token is not one.
    expect(identifier('"https://api.github.com/repos/acme/site/git/blobs/8b0868852878d286ef0565b42108cce9aas1786b"')).toBe(true);
    expect(identifier('https://discord.com/api/webhooks/1234567890/Xk9fPq2LmN7vRt4WzY8bQc3HdAb3dEf6hIj9kLm2n')).toBe(false);
  });
  it('a value its name says is a hash, a Kubernetes object by kind and name, a file\'s content after OCR\'s * for a quote', async () => {
    expect(await hidden('Labels: app=api\n  pod-template-hash=1qxhvcd75x\nControlled By: ReplicaSet/api-1lgxhvcd75x')).toEqual([]);
    expect(await hidden('"content": *S8rTVDpEwXCITI000tBB2UOkOHjyTuRIEESbadkHyWabuitt22CSWNTX\nXuyarF+ENOTLxeep5v+F/MAV6AQ1knkl/0ige/GLRUGRUEry1T05sCBpYZ2t')).toEqual([]);
    expect(await rules('session_id=Xk9fPq2LmN7vRt4WzY8bQc3Hd')).not.toEqual([]);
  });
  it('a help text\'s placeholder in capitals and the stars a prompt shows are no values; a password on the command line is', async () => {
    expect(await hidden('  -p, --password TEXT       Password: read from the prompt when omitted; never stored.')).toEqual([]);
    expect(await hidden('  Password: ********  (what the prompt shows while you type)')).toEqual([]);
    expect(await rules('acme login --password Xk9#qPzLm2v7')).toContain('cli-flag');
    expect(await rules('Password: Xk9#qPzLm2v7')).not.toEqual([]);
  });
});

describe('where a value named public lies (publicValueBoxes)', () => {
  it('a line\'s band, not the box of a scrap OCR boxed over three lines: the next line\'s key is not in it', async () => {
    const { publicValueBoxes, middleInAny } = await import('./context.ts');
    const w = (text: string, x: number, y: number, width: number, height: number, line: number) => ({ text, x, y, width, height, line });
    const words = [
      w('PublicKey', 227, 243, 58, 10, 12), w('=', 293, 246, 6, 3, 12), w('BOEXH/G7W+xSNttvVGYJx9u+qNbSDLOL', 306, 243, 291, 10, 12), w('CBE', 521, 232, 17, 28, 12), w('ICcLe2g=', 540, 232, 61, 28, 12),
      w('Presharedkey', 227, 259, 78, 10, 13), w('=', 312, 262, 6, 3, 13), w('PRSUS1s', 326, 259, 44, 8, 13), w('1LpKTpJEKZxcKZHKD2p69n119ViHaTV6Ss=', 373, 259, 243, 10, 13),
    ];
    const named = publicValueBoxes(words);
    expect(named.length).toBe(1);
    expect(middleInAny({ x: 320, y: 257, width: 303, height: 15 }, named)).toBe(false);
    expect(middleInAny({ x: 306, y: 241, width: 291, height: 13 }, named)).toBe(true);
  });
});

// A name whose value came before, a comma after it, names nothing after that: set F's git history at
// 4K@2 had "Signature: good, key <GPG key id>" masked, the key id taken for a value "Signature" named.
describe('ruleFindings: a value after a finished name and value', () => {
  it('is named by the words after the comma alone', () => {
    expect(foundBy('Signature: good, key 4AEE18F83AFDEB23', 'named')).toEqual([]);
    expect(foundBy('Login: admin, password Xy7pQ2mZ!rT', 'named')).toEqual(['Xy7pQ2mZ!rT']);
    expect(foundBy('Status: ok, API key 4aee18f83afdeb23c1d2e3f4a5b6c7d8', 'named')).toEqual(['4aee18f83afdeb23c1d2e3f4a5b6c7d8']);
  });
});

// A payments list's date beside a customer's e-mail, its day lost to OCR ("Dec, 14:44." at 1440p 12 px
// in set E's payments list): no saved password; the row was masked whole.
describe('credentialRows: a date and time in a list', () => {
  it('is no password, its day read or not', async () => {
    const { credentialRows } = await import('./context.ts');
    const row = (date: string[]) => [{ text: 'ada@example.org', x: 1383, y: 205, width: 120, height: 11, line: 1 }, ...date.map((text, i) => ({ text, x: 2262 + i * 48, y: 200, width: 40, height: 20, line: 2 }))];
    expect(credentialRows(row(['Dec,', '14:44.']))).toEqual([]);
    expect(credentialRows(row(['Dec3,', '17:30']))).toEqual([]);
    expect(credentialRows(row(['Hx7,pQ2m:Zr9']))).toHaveLength(1);
  });
});

// Set J's xxd of a firmware at 1440p 12 px, a row as tesseract read it: a group of hex digits ("034c")
// passed for a login and the dump's printable column beside it for the saved password.
describe('credentialRows: a row of a hex dump', () => {
  it('is bytes of a file, not a login and its password', async () => {
    const { credentialRows, hexDumpRow } = await import('./context.ts');
    const texts = ['00000030:', '96a2', '2a5d', '611b', 'ale9', '4725', '5277', 'eel5', '034c', '..*]a...G3Rw...L'];
    const xs = [9, 82, 117, 154, 189, 225, 261, 297, 333, 378];
    const row = (ws: string[]) => ws.map((text, i) => ({ text, x: xs[i] as number, y: 144, width: i === 9 ? 113 : 28, height: 9, line: 7 }));
    expect(credentialRows(row(texts))).toEqual([]);
    expect(hexDumpRow('000000£0: 5021 8f66 022a 8b6B 6411 7a54 7852 641a P!.f.*.hd.zTxRd.')).toBe(true);
    // A login beside a password, in a row that does not start with an offset, is still one.
    expect(credentialRows(row(['ada', '..*]a...G3Rw...L']).map((w, i) => ({ ...w, x: [82, 378][i] as number })))).toHaveLength(1);
    expect(hexDumpRow('2026-12-07 ada 7bRWBJ2rhApZtR')).toBe(false);
  });
});

// Set E's kubectl describe pod (1440p 12 px): a pod's name read with digits as capitals was taken for a
// key; the next variable's name under "DATABASE_PASSWORD:" ("STRIPE KEY:") for the password column's
// value; an image's reference beside "kubelet" for a saved password.
describe("kubectl describe's names and references", () => {
  it('a pod name with a digit read as a capital is one; a key of that shape is not', () => {
    expect(identifier('api-q94vbgztIg-BevhE')).toBe(true);
    expect(identifier('svc-Ab9XkQ2mPz-R7tWq')).toBe(false);
  });
  it('a name and its colon is no value under a label, a host and a path no password', async () => {
    const { secretValue, passwordLike } = await import('./context.ts');
    expect(secretValue('STRIPE KEY:', 'PASSWORD')).toBe(false);
    expect(secretValue('Xy7pQ2mZ!rT:', 'PASSWORD')).toBe(true);
    expect(passwordLike('"registry.acms.io/api:4.18.2%')).toBe(false);
    expect(passwordLike('Hx7,pQ2m:Zr9')).toBe(true);
    // (The look-alike pod screen: a mount's path under "SMTP_PASSWORD:", grep's flag and its argument beside "grep".)
    expect(secretValue('/var/run/secrets/kubernetes.io/serviceaccount', 'PASSWORD')).toBe(false);
    expect(secretValue('/x9Kq/2mZ!', 'PASSWORD')).toBe(true);
    const { credentialRows } = await import('./context.ts');
    const row = (ws: string[]) => ws.map((text, i) => ({ text, x: [180, 442, 466][i] as number, y: 134, width: [30, 20, 98][i] as number, height: 12, line: 1 }));
    expect(credentialRows(row(['grep', '-A3', 'Environment']))).toEqual([]);
  });
});

// Content addresses: names made of the hash of what they name, shown wherever the thing is shared.
// Set G's ordinary screens had them masked: a pinning service's CIDs (61–66% of its text), a flake's
// store paths (the entropy rule on their hashes), a response's CSP hashes where they wrap at a line's
// end (83%), its ETag whole, and Sentry's public key in the CSP's report-uri. Each as tesseract read it.
describe('content addresses, known by their form', () => {
  it("a torrent's info hash in a magnet link, as OCR reads it (set H's download page at 1440p 16 px: its & read as s)", () => {
    expect(identifier('?xt=urn:btih:6895bdef300F8e8f4e1fI8bcBaed1b2cc26e26dbsdn=ubuntu-26.04-desktop-and6d.')).toBe(true);
    expect(identifier('-:urn:btih:6895bdef300f8e8f4elf98bc8aedlb2cc26e26db&dn=ubuntu-26.04-desktop-amd64.')).toBe(true);
    expect(identifier('?xt=urn:btih:6895bd')).toBe(false);
  });
  const rules = async (text: string) => (await hidden(text)).map((f) => f.rule);
  it('leaves IPFS CIDs, in pieces as OCR cut them, and what follows ipfs://', async () => {
    expect(await hidden('bafybeisyllerh26itv2e26ldkebinihbybntiqsitdhkaiyairyzrtunci')).toEqual([]);
    expect(await hidden('site.tar   batybeinnmyIohuvzo035p5TanpztoprastugiavlvkulecTnel   318 KB')).toEqual([]);
    expect(await hidden('bafybeil322xb221 jafobdxdl Tal neicpy ck ani ipTxhizhemmepno26\nbafybeioq3guwtx3Ty2zvi3x332tknn62ohrdzalcgtnrs jebznrhlni fna')).toEqual([]);
    expect(await hidden('ipfs://QnBAeeMS25ukLRZbaqsSSINuINShFRTVIN] 0Dgf3vXboca/metadata/1. json')).toEqual([]);
    expect(await hidden('ipfs://QnBAeeMS25ukLRZbaqsSSINuINShFRTVIN]0Dgf3vXboca/metadata/1.json')).toEqual([]);
    expect(await hidden('ipfs://QmyAMUBSDribaE1sPBCHs 3YQLEStBLroLE64BVKunVuNUx /metadata/1. json')).toEqual([]);
  });
  it('leaves a Nix store path, a CSP or integrity hash that wraps, a nonce and an ETag', async () => {
    expect(await hidden('copying path /nix/store/vmsyqszéndqri6SIndwxcsfc3iavda-openss-3.3.2 fron ‘https: //cache.nix0s.org" ..')).toEqual([]);
    expect(await hidden('copying path /nix/store/8sw2npf88Lrkrkzszx9SLrpLa2yvanj -nodejs-22.11.8 from')).toEqual([]);
    expect(await hidden("script-src 'self' ‘nonce-aWmlNttk6qLoFFhMCmfjYA==' ‘sha\n256-dA6v1IDWIez1YRU7Y4HMyVvWSRrsp9KaxwLmVnlRPCnQ=\" 'strict-dynamic'; style-src ‘self’ 'sha256-6uy9UpI\nP9uy7atZ+kNeLyj f33T7MILXDIBWNGPK8Zfs=\"; report-uri")).toEqual([]);
    expect(await hidden("style-src 'self' 'sha256-XCwpyIF\nrMngRnsGhHOfpNk8G8TB3257/5223qq)plWw=\"; report-uri")).toEqual([]);
    expect(await hidden('etag: W/"5c5d6160-blezjBtF_D3vcxynVYulDpdAlnj"')).toEqual([]);
  });
  // Set E's key set page: the map vendor's public token "pk.eyJ…" read in six pieces.
  it("leaves a publishable token OCR cut into many pieces; a secret token so cut, a vendor's key or a named value after its prefix is not left", async () => {
    const cut = 'pk. eyJ 11301 YWNtZS1tYXB2I1wiYSI6T] hyd RiNHgyZnSAdWFNMGV1ZnV6bXdhMTk1FQ. AYpjOMStQuS0zIBJ1Z1DNY';
    expect(await hidden(`Mapbox public token (site config): ${cut}`)).toEqual([]);
    expect(await hidden('Mapbox public token (site config): pk. eyJ11§01YHNtZS1tYXB2T iwi YSTEInhoNTo4YWEWb2p20KcwNGS tHHV2ETZpbTHS FQ. SnyBHISLORA-TZLnf -WESY')).toEqual([]);
    // A key set's thumbprint, its x5t read as "XS".
    expect(await hidden('"kty": "RSA", "alg": "RS256",\n"e": "AQAB",\n"XS": "nFULUYWSJSGRNOHGAAMNZTYELSYk9Qx"')).toEqual([]);
    expect(await rules(`Mapbox token: ${cut.replace('pk.', 'sk.')}`)).toContain('entropy');
    expect(await rules('pk. eyJ 11301 ghp_R8sT2vX9kL4mN7pQ1wZ5yB3cD6fG0hJ2aE4u')).toContain('github-shape');
    expect(await rules('pk. eyJ password: Xk9fPq2LmN7vRt4WzY8bQc3HdAb3')).toContain('label');
  });
  it('a trace id with a 0 read as @ is no user and password before a host; a password before one is', async () => {
    expect(await hidden('traceparent: 00-49851cb@e2c2369453df5a78caf6led5-44fcOff0d649cb13-01')).toEqual([]);
    expect(await rules('redis: hunter22pass@cache.acme.io')).toContain('url-password');
  });
  it("leaves Sentry's public key by its name, not its DSN's key or its secret", async () => {
    expect(await hidden('report-uri https://o656993.ingest.sentry.io/api/4310243/secu\nrity/?sentry_key=bc5aba224e9008c71a5af855093a0daf')).toEqual([]);
    expect(await hidden('rity/?sentry key=bc5aba224e9008c71a5af855093a0daf')).toEqual([]);
    expect(await rules('SENTRY_DSN=https://afcdba54452d43555af04a8a71ca0724@o1.ingest.sentry.io/42')).not.toEqual([]);
    expect(await rules('sentry_secret=afcdba54452d43555af04a8a71ca0724')).not.toEqual([]);
  });
  // Text in an image may be written by anyone: a content address's form or a public name beside a
  // secret does not make a vendor's key, a checksum-valid card or a value a name calls secret public.
  it('never drops a vendor rule\'s finding nor a value a name calls secret, whatever form or name is around it', async () => {
    const ghp = 'ghp_R8sT2vX9kL4mN7pQ1wZ5yB3cD6fG0hJ2aE4u';
    expect(await rules(`ipfs://${ghp}`)).toContain('github-shape');
    expect(await rules(`rity/?sentry_key=${ghp}`)).toContain('github-shape');
    expect(await rules(`/nix/store/${ghp}-nodejs`)).toContain('github-shape');
    expect(await rules(`'sha256-AbC\n${ghp}`)).toContain('github-shape');
    expect(await rules(`W/"${ghp}"`)).toContain('github-shape');
    expect(await rules(`bafybei ${randomCard()}`)).toContain('luhn');
    expect(await rules('password: bafybeiroi5ngzunmxxo5syuj25yc2rcddexr5joshneurhcuz23vez4nc3')).not.toEqual([]);
    expect(await rules('api_key=QmyAMUBSDribaE1sPBCHs3YQLEStBLroLE64BVKunVuNUx')).not.toEqual([]);
    // A hash's head at a line's end does not carry over a name and its value on the next line.
    expect(await rules("style-src 'sha256-XCwpyIF\napi_key: Xk9fPq2LmN7vRt4WzY8bQc3HdAb3dEf6")).not.toEqual([]);
  });
});

// Set J's chat and notes screens: a secret named a few words before its value, in a sentence.
describe('ruleFindings: a secret named in a sentence, its value after a colon or an "is"', () => {
  const found = (t: string) => foundBy(t, 'named-said');
  it('takes the value a clause naming a secret introduces, a comma read for its colon too', () => {
    expect(found('ok. and the new wifi password for when you come sunday: lantern_orbit9947')).toEqual(['lantern_orbit9947']);
    expect(found('my api token for the staging box is k8Qz2vNw7LpX')).toEqual(['k8Qz2vNw7LpX']);
    expect(found('and the new wifi password for when you come sunday, gAYj8aye7KmIQSPend ii')).toEqual(['gAYj8aye7KmIQSPend']);
  });
  it('leaves a clause about a setting, a place, an id or a target, and a value that is a word', () => {
    expect(found('Enter your credentials to connect to: fileserver01')).toEqual([]);
    expect(found('The password reset link: https://acme.io/r/abc123')).toEqual([]);
    expect(found('Your password manager is 1Password7')).toEqual([]);
    expect(found('the api key id for the build: key-2024a')).toEqual([]);
    expect(found('the wifi password for the guest network is: printed on the router')).toEqual([]);
    expect(found('I changed the password yesterday, sorry2024')).toEqual([]);
  });
});

describe("ruleFindings: a card's verification code after its name", () => {
  const found = (t: string) => foundBy(t, 'card-code');
  it('takes three or four digits after CVC, CVV, a security code, the numbers on the back', () => {
    expect(found('new card for the car insurance form, CVC 457')).toEqual(['457']);
    expect(found('the three numbers on the back: 700')).toEqual(['700']);
    expect(found('Security code is 0123')).toEqual(['0123']);
  });
  it('leaves a count of digits, a date and a longer number', () => {
    expect(found('CVV 3 digits on the back of your card')).toEqual([]);
    expect(found('CVC expiry 12/29')).toEqual([]);
    expect(found('security code 482913 sent')).toEqual([]);
  });
});

describe('ruleFindings: codes listed after the caption that names them on its line', () => {
  const found = (t: string) => foundBy(t, 'code-list');
  it('takes each code of the list, to the first word that is none', () => {
    expect(found('backup codes: 64217807, 26230075 (used 1 of 5)')).toEqual(['64217807', '26230075']);
    expect(found('Recovery codes 4821-0931 7730-1184')).toEqual(['4821-0931', '7730-1184']);
    // Set K's Aegis entry: a remark in brackets between the caption and its colon.
    expect(found('Backup codes (Discord): Okby663i')).toEqual(['Okby663i']);
  });
  it('leaves words and short numbers after such a caption', () => {
    expect(found('backup codes: used 1 of 5')).toEqual([]);
    expect(found('Recovery codes are shown once, 10 of them')).toEqual([]);
  });
});

// Set J's WeeChat screen: /msg NickServ identify and /oper took the password as an argument (0–1 of 3 hidden).
describe('ruleFindings: an argument of a command that logs in or identifies', () => {
  const found = (t: string) => foundBy(t, 'auth-command');
  it('takes the last argument of identify, /oper, AUTH, login, where a line, a prompt or a speaker starts it', () => {
    expect(found('09:35:29 ada | identify *Cn6Cs-~JU2yV+I*yH')).toEqual(['*Cn6Cs-~JU2yV+I*yH']);
    expect(found('[ada(Zi)] /oper ada KNIAMwGv7WwFzt')).toEqual(['KNIAMwGv7WwFzt']);
    expect(found('/msg NickServ identify ada Tr0ub4dor&3')).toEqual(['Tr0ub4dor&3']);
    expect(found('redis> AUTH s3cr3tPass')).toEqual(['s3cr3tPass']);
    expect(found('ftp> login ada Passw0rd!')).toEqual(['Passw0rd!']);
  });
  it('leaves a host, a word, joined words, and the command in a sentence', () => {
    expect(found('$ docker login ghcr.io')).toEqual([]);
    expect(found('we need to pass build42')).toEqual([]);
    expect(found('ada | identify *Cn6Cs-~JU2yV+I*yH bot-ci')).toEqual([]);
    expect(found('$ npm login')).toEqual([]);
    expect(found('> identify ada@acme.io')).toEqual([]);
  });
});

// Set I's Excel grid: a Riot and a Postman key read right but taken for a UUID and hex.
describe('ruleFindings: a key its prefix names', () => {
  const found = (t: string) => foundBy(t, 'key-prefix');
  it('takes a UUID or hex after a prefix in capitals that says API or key', () => {
    expect(found('| RGAPI-e6ddc9a9-b84d-447f-a601-455386047642 |')).toEqual(['RGAPI-e6ddc9a9-b84d-447f-a601-455386047642']);
    expect(found('PMAK-e37e58b993fad57756866df0-ab194a762b6b745e75c939e356e6b6')).toEqual(['PMAK-e37e58b993fad57756866df0-ab194a762b6b745e75c939e356e6b6']);
  });
  it('leaves an id with another prefix, and a name in capitals', () => {
    expect(found('TASK-e6ddc9a9-b84d-447f-a601-455386047642')).toEqual([]);
    expect(found('x-request-id: REQ-e6ddc9a9-b84d-447f-a601-455386047642')).toEqual([]);
    expect(found('MY_API_KEY_FILE_PATH_NAME')).toEqual([]);
  });
});

// Set J's Bitrix24 page: an inbound webhook's /rest/<user>/<token>/ (0 of 4 hidden).
describe('ruleFindings: a generated token after an account number in a path', () => {
  it('takes the token, not a commit, a slug or a word', () => {
    expect(foundBy('https://avtodom.bitrix24.ru/rest/1/te6tzSokmlirnz99/', 'link-token')).toEqual(['te6tzSokmlirnz99']);
    expect(ruleFindings('https://avtodom.bitrix24.ru/rest/1/../crm.deal.list.json', ALL)).toEqual([]);
    expect(ruleFindings('https://github.com/acme/app/pull/123/commits/3f2a9c1b4d5e6f708192a3b4c5d6e7f809123456', ALL)).toEqual([]);
    expect(ruleFindings('https://stackoverflow.com/questions/12345678/how-to-parse-json-2024', ALL)).toEqual([]);
    expect(webAddress('https://stackoverflow.com/questions/12345678/how-to-parse-json-2024')).toBe(true);
  });
});

describe("ruleFindings: a value after an HTTP request's Authorization", () => {
  it('takes a hex key after authorization:, not an endpoint or a grant type', () => {
    expect(foundBy('curl -s https://api.assemblyai.com/v2/transcript -H "authorization: ba4b1d9feff6d953b5833d2f86342deb" -d', 'named')).toEqual(['ba4b1d9feff6d953b5833d2f86342deb']);
    expect(ruleFindings('authorization_endpoint: https://accounts.google.com/o/oauth2/v2/auth', ALL)).toEqual([]);
    expect(ruleFindings('grant_type=authorization_code', ALL)).toEqual([]);
  });
});

// Set K's Airbnb host thread and TUHH letter: a code said in a sentence that names what it opens,
// or a PIN a few words before its colon (0 of 6 door and alarm codes, 1 of 6 PINs hidden).
describe('ruleFindings: a code said in a sentence that names what it opens', () => {
  const found = (t: string) => foundBy(t, 'code-said');
  it('takes the number after "code" where the sentence names a door, a keypad, a lockbox', () => {
    expect(found('The building door has a keypad: code 71721 then #. The flat is on the 3rd floor, left.')).toEqual(['71721']);
    expect(found('the lockbox combination is 0451, top left')).toEqual(['0451']);
  });
  it('takes the number one disarms, unlocks or opens with, or punches in at a keypad', () => {
    expect(found('If the alarm beeps, disarm with 8456 on the panel behind the door.')).toEqual(['8456']);
    expect(found('open the gate by typing 1234')).toEqual(['1234']);
    expect(found('punch in 4821 at the keypad')).toEqual(['4821']);
  });
  it('takes a PIN named a few words before its colon or "is"', () => {
    expect(found('PIN für den Studierendenausweis: 9107')).toEqual(['9107']);
    expect(found('the PIN you chose is 4821')).toEqual(['4821']);
  });
  it('leaves an error code, a year, a count and a number with no word that names it', () => {
    expect(found('The error code 4012 when opening the door')).toEqual([]);
    expect(found('Enter 2024 in the year field')).toEqual([]);
    expect(found('open the report with 2024 data')).toEqual([]);
    expect(found('PIN attempts remaining: 3; PIN length: 6; PIN changed on: 2026-01-01')).toEqual([]);
    expect(found('call the building manager on 5551234, the door is green')).toEqual([]);
    expect(found('punch in 2000 points at the door to win')).toEqual([]);
  });
});

// Set K's Minecraft chat: a login without its slash, a digit first ("1bFuw2ro-HQB" as OCR read
// lbFuw2rO-HQB), and AuthMe's /register, a text cursor after it (0 of 4 hidden).
describe('ruleFindings: a game server login and /register', () => {
  const found = (t: string) => foundBy(t, 'auth-command');
  it('takes a password that starts with a digit, and each of /register’s', () => {
    expect(found('<ada> login 1bFuw2ro-HQB')).toEqual(['1bFuw2ro-HQB']);
    expect(found('/register Harbor287Hiyy_')).toEqual(['Harbor287Hiyy']);
    expect(found('/register Abc12345x Abc12345x')).toEqual(['Abc12345x', 'Abc12345x']);
  });
  it('leaves a count, and register in a sentence', () => {
    expect(found('please register 2025plans')).toEqual([]);
    expect(found('> login 3rdparty')).toEqual([]);
  });
});

// Set K's Minecraft chat: "rcon for the admin panel is QfmMfTKaCSHsSyDb btw" — a noun that names a
// credential, and a generated value of letters alone (its digits read as letters; 0 of 2 hidden).
describe('ruleFindings: a credential named by what it opens, in a sentence', () => {
  it('takes the value after "rcon … is", letters alone too; not a name in camelCase', () => {
    expect(foundBy('<ada> whatever. rcon for the admin panel is QfmMfTKaCSHsSyDb btw, dont share', 'named-said')).toEqual(['QfmMfTKaCSHsSyDb']);
    expect(foundBy('the panel for the admin is getUserNameFromDatabase', 'named-said')).toEqual([]);
    expect(foundBy('rcon.port=25575 enable-rcon=true', 'named-said')).toEqual([]);
  });
  // Set K's Zulip channel: an unseal key share OCR read in pieces under a red ellipse.
  it('takes a key share read in pieces after its colon; not words after a name', () => {
    expect(foundBy('key share 2 of 3: bH/ i +cluSBaXmt jXg2uulT8D14cngeX PPI 1NDGSOFP', 'named-said')).toEqual(['bH/ i +cluSBaXmt jXg2uulT8D14cngeX PPI 1NDGSOFP']);
    expect(foundBy('API key: see the docs page 2 for details', 'named-said')).toEqual([]);
    expect(secretName('key share')).toBe(true);
  });
  it('reads a compound name in its parts: preauthkeys, authkey, masterkey; not monkey or hotkey', () => {
    expect(secretName('preauthkeys')).toBe(true);
    expect(secretName('masterkey')).toBe(true);
    expect(secretName('admin macaroon')).toBe(true);
    expect(secretName('monkey')).toBe(false);
    expect(secretName('hotkeys')).toBe(false);
  });
});

// Set K's Zulip channel: a YubiKey's OTP posted by a touch of the key, as OCR read it (0 of 4 hidden).
describe('ruleFindings: a YubiKey one-time password', () => {
  const found = (t: string) => foundBy(t, 'modhex-otp');
  it('takes 36–48 letters of modhex, a few misread', () => {
    expect(found('ccccccfftjtcefnuceidgujlcfdkrbtrvjglibikhvcg')).toEqual(['ccccccfftjtcefnuceidgujlcfdkrbtrvjglibikhvcg']);
    expect(found('Linus T 15:02\ncececcfiicemuceldgulicfakbrviglioikhveg')).toEqual(['cececcfiicemuceldgulicfakbrviglioikhveg']);
  });
  it('leaves a browser extension’s id, the alphabet and a long word', () => {
    expect(found('chrome-extension://aapbdbdomjkkjkaonfhkkikfgjllcleb/index.html')).toEqual([]);
    expect(found('abcdefghijklmnopqrstuvwxyzabcdefghijklmnopq')).toEqual([]);
    expect(found('pneumonoultramicroscopicsilicovolcanoconiosis')).toEqual([]);
  });
});

// Set K's Ride The Lightning page: LND's admin macaroon in hex under its caption (0 of 2 hidden).
describe('ruleFindings: a macaroon by its first bytes', () => {
  const found = (t: string) => foundBy(t, 'macaroon');
  it('takes hex that starts 0201 and base64 that starts AgE, long as a macaroon is', () => {
    const hex = `0201036c6e6402f801030a10${'4b34fff63cd0ad8e9f5e770aa9af7dbf'.repeat(4)}`;
    expect(found(hex)).toEqual([hex]);
    const b64 = `AgEDbG5kAvgBAwoQ${'S0z/9jzQrY6fXncKqa99v+'.repeat(4)}`;
    expect(found(b64)).toEqual([b64]);
  });
  it('leaves a sha256 and short hex that happen to start so', () => {
    expect(found('0201a7c3e0c2f1d4b5a6978877665544332211000ffeeddccbbaa99887766554')).toEqual([]);
    expect(found('AgEDbG5k')).toEqual([]);
  });
});

// Set K's headscale in tmux: "preauthkeys list" prints a table whose "Key" column holds the keys,
// 48 hex each — a hash to every other rule (0 of 4 hidden).
describe('ruleFindings: a text table’s column named secret', () => {
  const found = (t: string) => foundBy(t, 'table-column');
  it('takes the cells under "Key" and "Token", hex too', () => {
    const table = 'ID | Key | Reusable | Ephemeral | Used | Expiration | Tags\n1 | 5673cel61c3b564T9165665bc14edcdeb7469eadfal6doc] | true | false | false | 2026-12-20 10:00:00 | tag:server\n2 | 7fecle6915eb705cfc345c207257c80db52342afd532c269 | false | false | false | 2026-12-25 10:00:00 | tag:server\nada@hs:~$';
    expect(found(table)).toEqual(['5673cel61c3b564T9165665bc14edcdeb7469eadfal6doc]', '7fecle6915eb705cfc345c207257c80db52342afd532c269']);
    expect(found('| Name | Token | Scope |\n| ci | a1b2c3d4e5f6a7b8c9d0 | repo |')).toEqual(['a1b2c3d4e5f6a7b8c9d0']);
  });
  it('counts from the right where OCR lost the header’s first caption, and joins a cell it read a space into', () => {
    const table = '| Key | Reusable | Ephemeral | Used | Expiration | Tags\n1 | 225102017ec6fe21bs2f7fecd102defI2bdd7d432495€741 | true | false | false | 2026-12-12 10:00:60 | tag:server\n2 | 57995125060622971a4700a1250109e2a51F Ffcb71561cba | false | false | false | 2026-12-15 10:00:60 | tag:server';
    expect(found(table)).toEqual(['225102017ec6fe21bs2f7fecd102defI2bdd7d432495€741', '57995125060622971a4700a1250109e2a51F Ffcb71561cba']);
  });
  it('leaves a table of keys and values, a key id’s column and cells of words', () => {
    expect(found('| Key | Value | Note |\n| API_TOKEN | abc123def456ghi789 | x |')).toEqual([]);
    expect(found('| Name | Key ID | Created |\n| ci | 3f2a9c1b4d5e6f708192 | today |')).toEqual([]);
    expect(found('| Name | Token | Scope |\n| ci | not shown again | repo |')).toEqual([]);
  });
});

// A phone's authenticator (set K's Aegis entry): "Backup codes (Discord): 0kby663i" — the aside between
// the codes' name and its colon hid the name from the rule that lists codes after it.
describe('ruleFindings: a short aside between a name and its colon', () => {
  it('reads past it', () => {
    expect(foundBy('Backup codes (Discord): Okby663i', 'code-list')).toEqual(['Okby663i']);
    expect(ruleFindings('API key (prod) = 9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c', ALL).length).toBeGreaterThan(0);
  });

  it('leaves what was public public, and an aside with a digit as it is (it may be the secret)', () => {
    expect(ruleFindings('Version (latest): 2.11.0', ALL)).toEqual([]);
    expect(ruleFindings('Token (ghp_1234): see docs', ALL)).toEqual([]);
    expect(withoutAsides('Token (ghp_1234): x')).toBe('Token (ghp_1234): x');
    expect(withoutAsides('Backup codes (Discord): x')).toBe('Backup codes          : x');
  });
});
