// Public identifiers that look random but are known by their structure, and where they have one by
// their checksum: what a log, a wallet, a registry or a network tool shows to anyone who looks.
// ULIDs (a time and randomness in Crockford's base32), KSUIDs (the same in base62), coin addresses
// (base58check, with a double SHA-256 checksum; bech32 and bech32m, with a BCH checksum), Nostr's
// public keys and note ids (npub1…, note1…), Ethereum addresses (0x and 40 hex), an image's
// reference by digest (name@sha256:…), MAC addresses, the names Kubernetes generates for a workload's
// objects, a YouTube channel's and a Spotify item's ids, GitHub's node ids, libp2p's peer ids.
//
// Each is judged as OCR reads it: a 0 read as O, a 1 as l or I, a checksum that fails by one misread
// character. These only say that a run is no key to the shape rules (the entropy rule, a row's cell,
// the fail-safe's unread ink): a value a naming word or a vendor's prefix calls secret stays one,
// and the families whose shape is a secret's (a WIF private key, 5…/K…/L…; an extended private key,
// xprv…; Nostr's nsec1…) are none of these.
import { createHash } from 'node:crypto';

/** Whether a run (a token as OCR read it) is a public identifier of a well-known family. */
export function knownPublicId(run: string): boolean {
  // (Quotes, brackets and a trailing comma round it; OCR's ellipsis or a bracket for the last glyph.)
  const s = run.replace(/^["'“”‘’(<[{]+|["'“”‘’)>\]},;.…]+$/g, '');
  if (s.length < 8) return false;
  if (macAddress(s) || generatedName(s) || mediaId(s) || graphNodeId(s) || peerId(s)) return true;
  const value = unnamed(s);
  if (value === undefined || value.length < 20) return false;
  return ulid(value) || ksuid(value) || coinAddress(value) || ethAddress(value) || imageReference(value);
}

/**
 * The value of a run that may start with its name ("order_id=01J…", "event id-2uJ…", OCR's dash for
 * the =): the value, or the run when it has no name; undefined when the name says secret (a token's,
 * a key's, a password's, a session's — a naming word is never overruled here).
 */
function unnamed(s: string): string | undefined {
  // (A name OCR read apart, "id: -01J0…": the dash or colon left before the value.)
  // (Its i read as 1 now and then: "1d=2BFD…".)
  const m = /^([A-Za-z_1][\w.]{0,30})(?:=|:|-(?=[0-9]))(.+)$/.exec(s);
  if (!m) return s.replace(/^[-=:]+/, '');
  const name = (m[1] as string).toLowerCase();
  if (/sess|cookie|token|secret|auth|key|pass|pwd|csrf|xsrf|cred|priv|sig|nsec|otp|pin|code/.test(name)) return undefined;
  return m[2] as string;
}

/** Crockford's base32, as a ULID is written. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID: 26 characters of Crockford's base32 (no I, L, O or U), its first ten a time in
 * milliseconds — of this century, which puts a 0 first and 0–3 second — and sixteen random ones.
 * Upper case (or lower, which Crockford reads the same), as OCR reads it: O for 0, I, l or | for 1,
 * a character dropped or added.
 */
export function ulid(v: string): boolean {
  if (v.length < 24 || v.length > 28) return false;
  // One case: a base62 id or a key has both in plenty (OCR's l for a 1 aside).
  const letters = v.replace(/[^A-Za-z]/g, '').replace(/l/g, '');
  const upper = letters.replace(/[^A-Z]/g, '').length, lower = letters.length - upper;
  if (Math.min(upper, lower) > 1) return false;
  const t = v.toUpperCase().replace(/O/g, '0').replace(/[IL|!]/g, '1').replace(/U/g, 'V');
  const bad = [...t].filter((c) => !CROCKFORD.includes(c)).length;
  if (bad > 1 || !/^0[0-3]/.test(t)) return false;
  // A time from 2000 to 2100: its ten characters read as a number of milliseconds.
  let ms = 0;
  for (const c of t.slice(0, 10)) ms = ms * 32 + Math.max(0, CROCKFORD.indexOf(c));
  return ms >= Date.UTC(2000, 0, 1) && ms < Date.UTC(2100, 0, 1);
}

/**
 * A KSUID: 27 characters of base62, a 32-bit time in seconds from 2014-05-13 and 128 random bits;
 * its first character 0–5 while the time is before 2036. Both cases, as base62 has them.
 * (OCR may read a character as a sign — "%", "é" — or add one: one such at most.)
 */
export function ksuid(v: string): boolean {
  const signs = v.replace(/[A-Za-z0-9]/g, '').length;
  const t = v.replace(/[^A-Za-z0-9]/g, '');
  if (signs > 1 || t.length < 26 || t.length > 28) return false;
  return /^[0-5]/.test(t) && /[a-z]/.test(t) && /[A-Z]/.test(t);
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 to bytes (leading 1s are zero bytes); undefined on a character base58 has not. */
export function base58Decode(s: string): Buffer | undefined {
  let n = 0n;
  for (const c of s) {
    const d = BASE58.indexOf(c);
    if (d < 0) return undefined;
    n = n * 58n + BigInt(d);
  }
  const hex = n === 0n ? '' : n.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = /^1*/.exec(s)?.[0].length ?? 0;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

/** Whether base58 text is base58check: its last four bytes the first four of its double SHA-256. */
function base58check(s: string): Buffer | undefined {
  const bytes = base58Decode(s);
  if (!bytes || bytes.length < 5) return undefined;
  const payload = bytes.subarray(0, -4);
  const sum = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest();
  return sum.subarray(0, 4).equals(bytes.subarray(-4)) ? payload : undefined;
}

/**
 * Version bytes of pay-to addresses (21 bytes with the hash): Bitcoin's 1… and 3… (and testnet's m,
 * n, 2), Litecoin's L… and M…, Dogecoin's D… and A…/9…, Tron's T…. A private key's (WIF: 0x80, 0xef) is not one.
 */
const ADDRESS_VERSIONS = new Set([0x00, 0x05, 0x6f, 0xc4, 0x30, 0x32, 0x1e, 0x16, 0x41]);

/** Characters OCR reads for one base58 has (it has no 0, O, I or l) and for one it may have read wrong. */
const BASE58_READ: Record<string, string> = { '0': 'oQD', O: 'oQD', I: '1iLjT', l: '1iLj', '|': '1iL', '!': '1i', S: '5', '5': 'S', B: '8', '8': 'B', Z: '2', '2': 'Z', g: '9q', q: 'g9', '9': 'gq', u: 'v', v: 'u', U: 'V', V: 'U', c: 'e', e: 'c', n: 'h', h: 'bn', b: 'h6', '6': 'bG', G: '6' };

/** A base58check address of a coin, its checksum right as read or after one or two of OCR's misreads. */
function base58Address(s: string): boolean {
  // (Base58 of 25 random bytes has both cases: a run of one case, a hash in hex, is none.)
  // (Its leading 1 as OCR reads it, l or I, is put back as the other misreads are.)
  if (s.length < 26 || s.length > 35 || !/^[13mn2LMDA9TlI|]/.test(s) || !/[a-z]/.test(s) || !/[A-Z]/.test(s)) return false;
  const ok = (t: string) => {
    const p = base58check(t);
    return p !== undefined && p.length === 21 && ADDRESS_VERSIONS.has(p[0] as number);
  };
  return corrected(s, BASE58, BASE58_READ, ok);
}

/**
 * Whether `s` passes `ok` as read, or with its characters outside `alphabet` put back (each as one
 * of the characters OCR takes it for) and at most one more that OCR read as another of the alphabet.
 */
function corrected(s: string, alphabet: string, read: Record<string, string>, ok: (t: string) => boolean): boolean {
  const wrong = [...s].flatMap((c, i) => (alphabet.includes(c) ? [] : [i]));
  if (wrong.length > 3) return false;
  const options = wrong.map((i) => [...(read[s[i] as string] ?? '')].filter((c) => alphabet.includes(c)));
  if (options.some((o) => !o.length)) return false;
  // (A budget of checks: a run of many characters outside the alphabet is no such id, and a screen has many runs.)
  let budget = 400;
  const check = (t: string[]) => budget-- > 0 && ok(t.join(''));
  const each = (t: string[], k: number): boolean => {
    if (k < wrong.length) return (options[k] as string[]).some((c) => {
      t[wrong[k] as number] = c;
      return each(t, k + 1);
    });
    if (check(t)) return true;
    // One more misread, among the characters the alphabet has.
    for (let i = 0; i < t.length && budget > 0; i++) {
      if (wrong.includes(i)) continue;
      const was = t[i] as string;
      for (const c of read[was] ?? '') {
        if (!alphabet.includes(c)) continue;
        t[i] = c;
        if (check(t)) return true;
      }
      t[i] = was;
    }
    return false;
  };
  return each([...s], 0);
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** bech32's checksum (BIP-173) over its human part and data: 1 for bech32, 0x2bc830a3 for bech32m (BIP-350). */
function bech32Polymod(hrp: string, data: readonly number[]): number {
  const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  const values = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31), ...data];
  for (const v of values) {
    const top = chk >>> 25;
    chk = (((chk & 0x1ffffff) << 5) ^ v) >>> 0;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk = (chk ^ (GEN[i] as number)) >>> 0;
  }
  return chk;
}

/** Whether `hrp1data` (lower case) has a valid bech32 or bech32m checksum. */
export function bech32Valid(hrp: string, data: string): boolean {
  const d = [...data].map((c) => BECH32.indexOf(c));
  if (d.length < 7 || d.some((x) => x < 0)) return false;
  const p = bech32Polymod(hrp, d);
  return p === 1 || p === 0x2bc830a3;
}

/** Characters OCR reads for one bech32 has (it has no 1, b, i or o after the separator) or for another it has. */
const BECH32_READ: Record<string, string> = { o: '0', O: '0', b: '6h', i: 'l', I: 'l', '1': 'l', '|': 'l', '!': 'l', é: 'e', '£': 'f', g: 'q9', q: 'g9', '9': 'gq', s: '5', '5': 's', z: '2', '2': 'z', e: 'c', c: 'e', u: 'v', v: 'u', n: 'h', h: 'n', l: '7', '7': 'l', '6': 'g' };

/**
 * Human parts of bech32 strings that name a public thing: a coin's address (Bitcoin's bc and tb,
 * Litecoin's, Cosmos chains', Cardano's addr and stake), Nostr's public key and event ids (npub,
 * note, nprofile, nevent, naddr). Not nsec (Nostr's secret key), lnurl (a link that may withdraw),
 * Cardano's *_sk / *_xsk keys, AGE-SECRET-KEY.
 */
// (Bitcoin's bc as OCR reads it now and then: "pc1q…".)
const PUBLIC_HRP = /^(bc|pc|tb|bcrt|ltc|tltc|npub|note|nprofile|nevent|naddr|cosmos|cosmosvaloper|osmo|celestia|juno|akash|kava|inj|sei|dydx|addr|addr_test|stake|stake_test)[1lI|!i]/;

/**
 * A bech32 or bech32m identifier of a public family (PUBLIC_HRP), its checksum right as read or
 * after OCR's misreads put back. A segwit address and an npub are also known by their length and
 * alphabet alone (a Bitcoin address is 42 or 62 characters with q or p after bc1, an npub 63),
 * where OCR misread more than a checksum search mends.
 */
function bech32Id(s: string): boolean {
  // (bech32 is of one case; OCR's odd capital is a small letter misread.)
  const low = s.toLowerCase();
  const m = PUBLIC_HRP.exec(low);
  if (!m) return false;
  const hrp = m[1] === 'pc' ? 'bc' : (m[1] as string);
  const data = low.slice(m[0].length);
  if (data.length < 20 || data.length > 100) return false;
  if (corrected(data, BECH32, BECH32_READ, (t) => bech32Valid(hrp, t))) return true;
  // Length and alphabet: nine in ten of its characters bech32's (as OCR reads them).
  const fit = [...data].filter((c) => BECH32.includes(c) || BECH32.includes(BECH32_READ[c]?.[0] ?? '')).length;
  if (fit < data.length * 0.88) return false;
  // (OCR reads the q after bc1 as g, 9 or a, and adds or drops a character or two.)
  if (hrp === 'bc' || hrp === 'tb') return /^[qgpa9]/.test(data) && (Math.abs(data.length - 39) <= 2 || Math.abs(data.length - 59) <= 2);
  if (hrp === 'npub') return Math.abs(data.length - 58) <= 1;
  return false;
}

/** A coin's address: base58check or bech32 (coinAddress's parts). */
export function coinAddress(s: string): boolean {
  return bech32Id(s) || base58Address(s);
}

/**
 * An Ethereum account's or contract's address: 0x and 40 hex (EIP-55 writes some of its letters in
 * capitals, so both cases). A private key is 64 hex, a transaction's hash too; neither is this.
 * (OCR reads 0 as O, 1 as l or I: two such at most.)
 */
export function ethAddress(s: string): boolean {
  if (!/^[0O]x/.test(s)) return false;
  const body = s.slice(2);
  if (body.length !== 40) return false;
  const misread = body.replace(/[0-9a-fA-F]/g, '');
  return misread.length <= 2 && /^[OoIl|]*$/.test(misread);
}

/**
 * An image's reference by its digest ("ghcr.io/acme/api:2.14.0@sha256:76d7…", OCR's "i0" for io
 * and its misreads in the hex aside): a registry's name for an image's bytes, shown by every
 * docker, kubectl and cosign command.
 */
export function imageReference(s: string): boolean {
  const m = /^[\w.-]+(?:\/[\w.-]+)*(?::[\w.-]+)?@[sS5£$]ha(?:256|512|384|2S6)[:;]([0-9A-Za-z£€%¢]{12,})$/.exec(s);
  if (!m) return false;
  const hex = (m[1] as string).toLowerCase().replace(/[£]/g, 'f').replace(/[€]/g, 'e');
  return hex.replace(/[^0-9a-f]/g, '').length >= hex.length * 0.85;
}

/**
 * A network card's address: six groups of two hex digits between colons or dashes (Cisco's three
 * groups of four between dots), as OCR reads it — a group read a character long or short, a colon as
 * a semicolon or an i.
 */
export function macAddress(s: string): boolean {
  if (/^[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}$/.test(s)) return true;
  // (An i between two groups is OCR's for a colon: "00:ebi29:e6:16:c8".)
  const groups = s.split(/[:;-]|(?<=[0-9A-Za-z])i(?=[0-9A-Za-z])/);
  if (groups.length !== 6 || groups.some((g) => g.length < 1 || g.length > 3)) return false;
  const hex = groups.join('').toLowerCase().replace(/[oO]/g, '0').replace(/[lI|]/g, '1').replace(/£/g, 'f');
  return hex.replace(/[^0-9a-f]/g, '').length >= hex.length - 1;
}

/** The alphabet Kubernetes draws a generated name's suffix from (no vowels, no 0, 1 or 3: no words). */
const K8S = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * A name Kubernetes generated for an object of a workload: its name, a dash and a suffix of 5–10
 * characters of K8S with a digit among them — a ReplicaSet's pod-template hash ("api-74fwd6fhg2"), an
 * EndpointSlice's or a Job's pod's five ("api-415shm"). (One character OCR read otherwise, an é for a 6.)
 */
export function generatedName(s: string): boolean {
  const m = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(\S{5,10})$/.exec(s);
  if (!m) return false;
  const suffix = m[1] as string;
  return /\d/.test(suffix) && /[a-z]/.test(suffix) && [...suffix].filter((c) => !K8S.includes(c)).length <= (suffix.length >= 8 ? 1 : 0);
}

/**
 * A video platform's or a music service's public id: a YouTube channel's (UC and 22 characters of
 * base64url, 16 bytes, so its last one of A, Q, g or w) and a Spotify URI's (spotify:track:<22 of base62>).
 */
export function mediaId(s: string): boolean {
  return /^UC[A-Za-z0-9_-]{21}[AQgw]$/.test(s) || /^spotify:(?:track|album|artist|playlist|episode|show|user|audiobook|chapter):[A-Za-z0-9]{22}$/.test(s);
}

/**
 * GitHub's GraphQL node id, what its API and a page's source show for a user, a repository, an issue:
 * a type's prefix and base64 of its database id ("PR_kwDOHdd8Ks5Kj3Ab", "U_kgDOABCDEF"), or the older
 * base64 of "<n>:<Type><number>" ("MDQ6VXNlcjU4MzIzMQ==", "04:User583231"), which decodes to that.
 */
export function graphNodeId(s: string): boolean {
  if (/^[A-Z]{1,5}_k[gw]D[O-Z][A-Za-z0-9_-]{4,40}$/.test(s)) return true;
  if (!/^M[A-Za-z0-9+/]{10,60}={0,2}$/.test(s)) return false;
  return /^\d{2,3}:[A-Z][A-Za-z]+\d+$/.test(Buffer.from(s, 'base64').toString('latin1'));
}

/**
 * A libp2p peer's id (an IPFS node's, in its logs and its swarm's addresses): an Ed25519 key's,
 * "12D3KooW" and 44 characters of base58; and an IPNS name for such a key in base36 ("k51qzi5uqu5…").
 * (Nine in ten characters right, as OCR reads them.)
 */
export function peerId(s: string): boolean {
  const m = /^(?:12D3K[o0O][o0O]W(\S{42,46})|k5[1l]qz[i1l]5uqu5(\S{48,54}))$/.exec(s);
  if (!m) return false;
  const rest = (m[1] ?? m[2]) as string;
  const alphabet = m[1] ? BASE58 : '0123456789abcdefghijklmnopqrstuvwxyz';
  return [...rest].filter((c) => alphabet.includes(c)).length >= rest.length * 0.9;
}
