// Runs whose shape alone says credential, whatever their kind or vendor: a product key in groups, a
// run of capitals no word is made of, capitals' hex of a key's length, random parts joined by a
// structure's separators ("<hex>::server:<hex>"), and a grid of hex over several lines (a static key,
// a licence block). Hashes, ids and addresses stay public where a checksum, a known structure, their
// name or their column says so (publicIds.ts, identifier, publicValue, the public columns): this is
// the default for what nothing names.
import { entropy, hexShare } from './findings.ts';

/** Letters a word is made of between its consonants (Y aside: in a random run it is one more consonant). */
const VOWELS = /[AEIOU]/g;

/**
 * A product key, a gift card's or a licence's code: three to eight groups of 4–6 letters and digits
 * joined by dashes (as OCR reads them, a space either side now and then), the groups of one length
 * (one off where OCR dropped a character), letters in all groups but one and digits among them, and
 * no group a word (a lower-case run of letters). A date, a phone number, a UUID (groups of 8-4-4-4-12)
 * or a model's name ("RTX-4090") is none.
 */
export function groupedKey(run: string): boolean {
  const groups = run.split(/ ?[-–—] ?/);
  if (groups.length < 3 || groups.length > 8 || groups.some((g) => !/^[A-Za-z0-9]{4,6}$/.test(g))) return false;
  const lengths = groups.map((g) => g.length);
  if (Math.max(...lengths) - Math.min(...lengths) > 1) return false;
  if (groups.some((g) => /^[a-z]+$/.test(g) || /^[A-Z][a-z]+$/.test(g))) return false;
  const all = groups.join('');
  const digits = all.replace(/\D/g, '').length, letters = all.replace(/[^A-Za-z]/g, '').length;
  if (digits < 2 || letters < 3) return false;
  if (groups.filter((g) => /[A-Za-z]/.test(g)).length < groups.length - 1) return false;
  // (A prefix in capitals, then groups in small letters: an advisory's id, "GHSA-p425-3g5m-x7hg", as OCR reads it.)
  if (groups.slice(1).every((g) => !/[A-Z]/.test(g))) return false;
  // (Mostly capitals: a key's letters are; OCR reads a few of them small.)
  return all.replace(/[^A-Z]/g, '').length >= letters * 0.4;
}

/**
 * A run of 16–40 capitals (digits among them or not) that no word is made of: few vowels among its
 * letters and a long run of consonants ("GPQALRPWZBHTVOXZRAVI", a cluster's cookie; "9MV84QFMO0XPDZRAFF",
 * a store's key). Not hex alone (a hash in capitals: capitalHex), not a DNA sequence, not a name in
 * SCREAMING_CASE (its underscores keep the words apart), not a serial number, not a ULID.
 */
export function capitalKey(run: string): boolean {
  // (With digits among them, 18 or more: a disk's or a device's serial number is shorter.)
  if (!/^[A-Z0-9]{16,40}$/.test(run) || (/\d/.test(run) && run.length < 18)) return false;
  // (Crockford's base32 — no I, L, O or U — of a ULID's length: a ULID OCR read a character of wrong.)
  if (run.length >= 22 && run.length <= 28 && !/[ILOU]/.test(run)) return false;
  const letters = run.replace(/[^A-Z]/g, '');
  if (letters.length < 10 || /^[ACGTNU]+$/.test(letters)) return false;
  if (letters.replace(/[A-F]/g, '').length < 3) return false;
  if ((letters.match(VOWELS) ?? []).length > letters.length * 0.25) return false;
  const longest = Math.max(...letters.split(/[AEIOU]+/).map((r) => r.length));
  return longest >= 5 && entropy(run) >= 3.3;
}

/**
 * Hex in capitals of a key's length, 32 characters: a game server's login token, an API key.
 * A tool shows a hash in small letters (git, sha256sum, a trace id), and a digest in capitals is
 * SHA-1's 40 or SHA-256's 64 characters; a run of 32 is a key's unless its name or column says hash.
 */
export function capitalHex(run: string): boolean {
  if (run.length !== 32 || /[a-z]/.test(run) || !/^[0-9A-Z]+$/.test(run)) return false;
  if (hexShare(run) < 0.9) return false;
  const digits = run.replace(/\D/g, '').length;
  return digits >= 8 && run.length - digits >= 6;
}

/**
 * Random parts joined by a structure's separators — "::", or "::" and a role's name and a colon
 * ("K10<hex>::server:<hex>", a cluster's join token) — as OCR reads them, a space around each colon:
 * each part 16 characters or more of letters and digits, both, with a spread. A path in code
 * ("std::collections::HashMap") has words for parts, an IPv6 address short groups.
 */
export function joinedKey(left: string, right: string): boolean {
  const random = (p: string) => p.length >= 16 && /\d/.test(p) && /[A-Za-z]/.test(p) && entropy(p) >= 3;
  return random(left) && random(right);
}

/** Whether a line (trimmed) is a row of a hex grid: only hex runs of 8 or more, 24 hex characters or more in all. */
function hexRow(line: string): boolean {
  const t = line.trim().replace(/^[|'"“”‘’]+|[|'"“”‘’,]+$/g, '').trim();
  if (!t) return false;
  const tokens = t.split(/\s+/);
  // (Each a run of hex as OCR reads it, no name before it: journalctl's "_BOOT_ID=<hex>" rows are fields.)
  if (tokens.length > 8 || tokens.some((w) => w.length < 8 || !/^[0-9A-Za-z£€|]+$/.test(w) || hexShare(w) < 0.8)) return false;
  const all = tokens.join('');
  return all.length >= 24 && hexShare(all) >= 0.85 && /\d/.test(all) && /[A-Fa-f]/.test(all);
}

/** Words over a block that say what follows is hashes, not a key: a checksum list's, a commit list's heading. */
const HASH_HEAD = /checksum|digest|hash|sha-?\d|md5|commit|fingerprint|integrity|sums?\b/i;

/**
 * Each row of a grid of hex — four rows or more (three are a machine's and a boot's ids and one more), a row's place taken by up to two short lines of
 * other words (a side bar's entries OCR read between them) — a span a row: a key written over several
 * lines (a VPN's static key, a licence block), not a log (whose lines have words) nor a checksum list
 * (its file names beside each hash; its heading names them hashes).
 */
export function hexGridRows(text: string): Array<[number, number]> {
  const lines: Array<{ start: number; end: number; text: string }> = [];
  let at = 0;
  for (const l of text.split('\n')) {
    lines.push({ start: at, end: at + l.length, text: l });
    at += l.length + 1;
  }
  const out: Array<[number, number]> = [];
  let i = 0;
  while (i < lines.length) {
    if (!hexRow((lines[i] as { text: string }).text)) {
      i++;
      continue;
    }
    const rows: number[] = [i];
    let j = i + 1, gap = 0;
    while (j < lines.length) {
      const l = lines[j] as { text: string };
      if (hexRow(l.text)) {
        rows.push(j);
        gap = 0;
      } else if (gap < 2 && l.text.trim().split(/\s+/).length <= 2 && !/[0-9a-f]{8}/i.test(l.text)) gap++;
      else break;
      j++;
    }
    const head = lines.slice(Math.max(0, i - 2), i).map((l) => l.text).join(' ');
    // (Rows of one run each of a hash's length, SHA-1's 40 or SHA-256's 64, are a list of hashes: git rev-list's.)
    const hashes = rows.every((r) => [40, 64].includes((lines[r] as { text: string }).text.trim().length));
    if (rows.length >= 4 && !HASH_HEAD.test(head) && !hashes) for (const r of rows) out.push([(lines[r] as { start: number }).start, (lines[r] as { end: number }).end]);
    i = (rows.at(-1) as number) + 1;
  }
  return out;
}

/**
 * Spans of `text` whose shape alone says credential (see above), before any public exception a caller
 * applies, each with whether it is hex by shape (a hash's alphabet: identifier() would call it a hash,
 * and here the shape overrules that default) or not (an identifier's structure still makes it public).
 */
export function keyShapeSpans(text: string): Array<[number, number, 'hex' | 'other']> {
  const out: Array<[number, number, 'hex' | 'other']> = [];
  for (const m of text.matchAll(/(?<![\w-])[A-Za-z0-9]{4,6}(?: ?[-–—] ?[A-Za-z0-9]{4,6}){2,7}(?![\w-])/g)) if (groupedKey(m[0])) out.push([m.index, m.index + m[0].length, 'other']);
  for (const m of text.matchAll(/(?<![A-Za-z0-9])[A-Z0-9]{16,40}(?![A-Za-z0-9])/g)) {
    if (capitalKey(m[0])) out.push([m.index, m.index + m[0].length, 'other']);
    else if (capitalHex(m[0])) out.push([m.index, m.index + m[0].length, 'hex']);
  }
  for (const m of text.matchAll(/(?<![A-Za-z0-9])([A-Za-z0-9]{16,})(?: ?: ?: ?)(?:[a-z]{2,12} ?: ?)?([A-Za-z0-9]{16,})(?![A-Za-z0-9])/g)) if (joinedKey(m[1] as string, m[2] as string)) out.push([m.index, m.index + m[0].length, 'hex']);
  out.push(...hexGridRows(text).map(([a, b]): [number, number, 'hex'] => [a, b, 'hex']));
  return out;
}
