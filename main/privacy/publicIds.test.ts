// Public identifiers known by structure and checksum: left alone by the shape rules, as OCR reads
// them; a secret of the same shape that a name calls secret, and the secret families beside them
// (a WIF private key, an xprv, an nsec), still found.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findSecrets } from './detect.ts';
import { keyLike, NAMED_IDENTIFIER, ruleFindings } from './findings.ts';
import { bech32Valid, coinAddress, ethAddress, generatedName, graphNodeId, imageReference, knownPublicId, ksuid, macAddress, mediaId, peerId, ulid } from './publicIds.ts';

const found = async (text: string) => (await findSecrets(text)).findings.map((f) => ({ rule: f.rule, text: text.slice(f.start, f.end) }));
const ALL = { keys: true, cards: true, banking: true, passwords: true, highEntropy: true, contact: true };

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58check(payload: Buffer): string {
  const sum = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest().subarray(0, 4);
  const bytes = Buffer.concat([payload, sum]);
  let n = BigInt(`0x${bytes.toString('hex')}`), out = '';
  while (n > 0n) {
    out = (B58[Number(n % 58n)] as string) + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}
const CROCK = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function newUlid(ms = Date.UTC(2026, 11, 7)): string {
  let t = '';
  for (let i = 0, v = ms; i < 10; i++, v = Math.floor(v / 32)) t = (CROCK[v % 32] as string) + t;
  return t + [...randomBytes(16)].map((b) => CROCK[b % 32]).join('');
}
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const newKsuid = () => `2${[...randomBytes(26)].map((b) => ALNUM[b % 62]).join('')}`;

describe('public identifiers by their structure', () => {
  it('a ULID, named or not, and as OCR reads its 0s and 1s, is no key; a secret of its shape named so is found', async () => {
    for (let i = 0; i < 20; i++) {
      const id = newUlid();
      expect(ulid(id)).toBe(true);
      expect(keyLike(`order_id=${id}`)).toBe(false);
      expect(await found(`INFO order created order_id=${id} attempt=1`)).toEqual([]);
    }
    // (OCR: O for 0, I and l for 1, a character added; the name's = read as a dash.)
    expect(knownPublicId('id-01JVIKXR7D646YIYKAGEVBKIMD')).toBe(true);
    expect(knownPublicId('O1JMP3A26JEY7B7ZY3ABKFOHES')).toBe(true);
    expect(knownPublicId('01J11SHFS5FSAGSOWCRP7BHAPI9S')).toBe(true);
    // Not a key of capitals and digits whose time would be no time (it starts 7, or Z).
    expect(ulid('7ZZZZZZZZZQ4VNB2HK5RXJ8T6W')).toBe(false);
    expect(ulid('ZK4RT7QW2M9XN5P8VJ3B6HDC1F')).toBe(false);
    const id = newUlid();
    expect((await found(`api token: ${id}`)).map((f) => f.text)).toContain(id);
    expect((await found(`token=${id}`)).map((f) => f.text)).toContain(id);
  });

  it("a KSUID is no key; one read with a sign for a letter still is one; a token's name still hides one", async () => {
    for (let i = 0; i < 20; i++) {
      const id = newKsuid();
      expect(ksuid(id)).toBe(true);
      expect(await found(`WARN email queued event_id=${id} attempt=2`)).toEqual([]);
    }
    expect(knownPublicId('_id=2Smztyv3CH0i9m71JY7iJQ579%u3')).toBe(true);
    // (27 characters of base62 that start past 5 would be a time after 2036: no KSUID of now.)
    expect(ksuid('zSmztyv3CH0i9m71JY7iJQ579u3')).toBe(false);
    const id = newKsuid();
    expect((await found(`client secret: ${id}`)).map((f) => f.text)).toContain(id);
    // A value its own name in the run calls an id is an id, however OCR read it (three characters too
    // many for a KSUID); not one a session's, a key's or a token's name calls so.
    for (const named of ['event_id=', 'REQUEST_ID=', 'event _id=']) expect(await found(`INFO ${named}2tPO6MTIWUWYKvVQQcKGJIJt1d97JN attempt=1`)).toEqual([]);
    for (const named of ['session_id=', 'api_key_id=', 'token_id=', 'SECRET_ID=', 'AWS ACCESS KEY ID=']) expect((await found(`INFO ${named}2tPO6MTIWUWYKvVQQcKGJIJt1d97JN attempt=1`)).map((f) => f.rule)).toContain('entropy');
  });

  it("a Bitcoin address is known by its checksum, also with OCR's l for 1; a WIF key or an xprv is still found", async () => {
    expect(coinAddress('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(true);
    expect(coinAddress('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBe(true);
    for (let i = 0; i < 20; i++) {
      const p2pkh = base58check(Buffer.concat([Buffer.from([0]), randomBytes(20)]));
      const p2sh = base58check(Buffer.concat([Buffer.from([5]), randomBytes(20)]));
      expect(await found(`received ${p2pkh} and ${p2sh}`)).toEqual([]);
      // (Its leading 1 read as l, an o as 0, an i as I: what base58 has not is put back, and the checksum decides.)
      expect(knownPublicId(`l${p2pkh.slice(1).replace(/o/, '0').replace(/i/, 'I')}`)).toBe(true);
    }
    // One character changed (no misread): the checksum fails, and it is a key's shape again.
    expect(coinAddress('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfMa')).toBe(false);
    expect(keyLike('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfMa')).toBe(true);
    // A private key in base58check (WIF, 5… uncompressed, K…/L… compressed) and an extended private key.
    const wif = base58check(Buffer.concat([Buffer.from([0x80]), randomBytes(32)]));
    const wifCompressed = base58check(Buffer.concat([Buffer.from([0x80]), randomBytes(32), Buffer.from([1])]));
    const xprv = base58check(Buffer.concat([Buffer.from('0488ade4', 'hex'), randomBytes(74)]));
    for (const key of [wif, wifCompressed, xprv, '5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ']) {
      expect(knownPublicId(key)).toBe(false);
      expect((await found(`import ${key}`)).map((f) => f.text)).toContain(key);
    }
    // A password of an address's shape is a password where its name says so.
    expect((await found('password = 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).map((f) => f.text)).toContain('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa');
  });

  it('a bech32 address or npub is known by its checksum or its shape, as OCR reads bc1 ("bclq"); an nsec is a secret', async () => {
    expect(bech32Valid('bc', 'qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe(true);
    expect(bech32Valid('bc', 'qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5')).toBe(false);
    for (const a of ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'bclqw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'bclg6x5capx10gormpa3hoc2827dgjgzrdy9xmeehp', 'npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg']) {
      expect(knownPublicId(a)).toBe(true);
      expect(keyLike(a)).toBe(false);
    }
    const nsec = 'nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5';
    expect(knownPublicId(nsec)).toBe(false);
    expect((await found(`nostr ${nsec}`)).map((f) => f.text)).toContain(nsec);
  });

  it("an Ethereum address, an image's reference by digest and a MAC address are no secrets", async () => {
    expect(ethAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBe(true);
    expect(await found('to 0x52908400098527886E0F7030069857D2E4169EE7 value 0.1 ETH')).toEqual([]);
    // (64 hex after 0x is a private key's length as much as a hash's: not an address.)
    expect(ethAddress(`0x${randomBytes(32).toString('hex')}`)).toBe(false);
    const ref = `ghcr.io/acme/api:2.14.0@sha256:${randomBytes(32).toString('hex')}`;
    expect(imageReference(ref)).toBe(true);
    // Its tag and the digest's algorithm are no user:password@host.
    expect(ruleFindings(`  Name:        ${ref}`, ALL)).toEqual([]);
    expect(ruleFindings('redis: ada:Quartz-11x@cache.acme.io', ALL).map((f) => f.rule)).toContain('url-password');
    expect(macAddress('cd:82:6a:50:4e:b3')).toBe(true);
    expect(macAddress('00:ebi29:e6:16:c8')).toBe(true);
    expect(macAddress('Quartz:11:Harbor')).toBe(false);
    expect(NAMED_IDENTIFIER.test('fe80::1 dev wlp0s20f3 1laddr 6b:8c:SLi5fiobies DELAY')).toBe(true);
  });

  it("a ReplicaSet's generated name is no password beside its workload's; a KSUID named 'id' as OCR reads it (1d=) is an id", () => {
    expect(generatedName('api-74fwd6fhg2')).toBe(true);
    expect(generatedName('api-74fwédfhg2')).toBe(true);
    expect(generatedName('api-4x5sm')).toBe(true);
    // (Words have vowels; a password has capitals.)
    expect(generatedName('build-cache2')).toBe(false);
    expect(generatedName('summer-Hgf2x9')).toBe(false);
    expect(knownPublicId('1d=2BFDZEeltNLgdRZZGNRsTVEpdHP')).toBe(true);
    expect(knownPublicId('token=2BFDZEeltNLgdRZZGNRsTVEpdHP')).toBe(false);
  });

  it("a YouTube channel's, a Spotify item's, a GitHub node's and a libp2p peer's ids are no keys; a token of their length is", async () => {
    for (const id of ['UCBJycsmduvYEL83R_U4JriQ', 'spotify:track:4uLU6hMCjMI75M1A2tKUQC', 'PR_kwDOHdd8Ks5Kj3Ab9x', 'MDQ6VXNlcjU4MzIzMQ==', '12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SA', 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8', 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8']) {
      expect(knownPublicId(id)).toBe(true);
      expect(await found(`id ${id} ok`)).toEqual([]);
    }
    // (A channel id's last character carries two bits of its 16 bytes: a random 24 after UC mostly does not fit.)
    expect(mediaId('UCBJycsmduvYEL83R_U4JriZ')).toBe(false);
    expect(graphNodeId('MDQ6VXNlcjU4MzIzMQ')).toBe(true);
    expect(graphNodeId('MTk4NzY1NDMyMTA5ODc2NTQzMjE=')).toBe(false);
    expect(peerId('12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SA')).toBe(true);
  });
});
