// Secrets in text read from an image: Glance's own rules beside secretlint's (secretlintScan.ts).
// Each rule knows something a file scanner does not need to: a checkout form's card number is
// only a card number when its Luhn digit checks out; an IBAN when it is 1 mod 97; a value after
// `password:` is a secret whatever it looks like; and a key that OCR read with one wrong letter
// no longer matches its vendor's pattern but still looks like a key (20+ characters, mixed
// classes, high entropy).
import type { RedactCategory, RedactionKind } from '../../common/privacy.ts';

/** A secret found in a text: [start, end) offsets into it. */
export type Finding = { start: number; end: number; kind: RedactionKind; rule: string };

type Rule = { category: RedactCategory; kind: RedactionKind; rule: string; find(text: string): Iterable<[number, number]> };

function* matches(text: string, re: RegExp, group = 0, accept: (m: RegExpExecArray) => boolean = () => true): Iterable<[number, number]> {
  for (const m of text.matchAll(re)) {
    if (!accept(m)) continue;
    const value = m[group];
    if (value === undefined || m.index === undefined) continue;
    const at = group === 0 ? m.index : m.index + m[0].indexOf(value);
    yield [at, at + value.length];
  }
}

/** Luhn's check digit: every card network's numbers pass it, most other digit runs do not. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** ISO 13616: move the first four characters to the end, letters to 10–35, the number mod 97 is 1. */
export function ibanValid(iban: string): boolean {
  const s = iban.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s)) return false;
  const moved = s.slice(4) + s.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const n = ch >= 'A' ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    rest = (n > 9 ? rest * 100 + n : rest * 10 + n) % 97;
  }
  return rest === 1;
}

/** Bits per character of a string's own distribution (Shannon). */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

/**
 * A run that reads like a generated key: 20+ characters of key alphabet, letters and digits,
 * and either both cases or a long hex/base32 run, with high entropy. Identifiers (camelCase, no
 * digits), paths and prose do not pass.
 */
export function keyLike(run: string): boolean {
  if (run.length < 20) return false;
  const lower = /[a-z]/.test(run), upper = /[A-Z]/.test(run), digit = /\d/.test(run);
  if (!(lower || upper)) return false;
  if (!digit && !(lower && upper)) return false;
  const digits = run.replace(/\D/g, '').length;
  if ((run.match(/[/.]/g) ?? []).length > 3 && !/[+=]/.test(run)) return false; // a path or a host name
  const h = entropy(run);
  if (lower && upper && digits >= 2 && h >= 3.6) return true;
  // OCR reads a key's digits as letters (5 → S, 0 → O): a long run whose capitals fall anywhere,
  // not at word starts as in camelCase, is a key even with one digit left.
  const letters = run.replace(/[^A-Za-z]/g, '');
  const upperShare = letters.replace(/[^A-Z]/g, '').length / Math.max(1, letters.length);
  if (lower && upper && run.length >= 24 && h >= 4.2 && upperShare >= 0.25 && upperShare <= 0.75) return true;
  if (lower && upper) return false;
  // Hex or single-case base32/base36 keys (an AWS key id OCR read with a character too many).
  return (run.length >= 32 && h >= 3.3 && digits >= 4) || (h >= 3.5 && digits >= 3 && run.length - digits >= 3);
}

/** IBAN lengths of the countries whose accounts are most often on a screen (SWIFT's registry). */
const IBAN_LENGTHS: Record<string, number> = {
  AT: 20, BE: 16, CH: 21, CZ: 24, DE: 22, DK: 18, ES: 24, FI: 18, FR: 27, GB: 22, GR: 27, HU: 28, IE: 22,
  IT: 27, LU: 20, NL: 18, NO: 15, PL: 28, PT: 25, RO: 24, SE: 24, SI: 19, SK: 24,
};

const LABEL = String.raw`(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|client[_-]?secret|credentials?|bearer)`;

const RULES: readonly Rule[] = [
  {
    // An AWS key id with a character OCR added or dropped: secretlint wants exactly 16 after the prefix.
    category: 'keys',
    kind: 'aws key',
    rule: 'aws-id',
    find: (t) => matches(t, /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{12,20}\b/g),
  },
  {
    // A GitHub token OCR split or misread (secretlint wants its exact length): the prefix and what follows.
    category: 'keys',
    kind: 'github token',
    rule: 'github-shape',
    find: (t) => matches(t, /\b(?:gh[pousr]|github_pat)[_ ]\s?[A-Za-z0-9]{6,}(?: ?[A-Za-z0-9_]{4,}){0,4}/g),
  },
  {
    category: 'cards',
    kind: 'card number',
    rule: 'luhn',
    find: (t) => matches(t, /(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d])/g, 0, (m) => {
      const digits = m[0].replace(/\D/g, '');
      return digits.length >= 13 && digits.length <= 19 && luhnValid(digits) && !/^(\d)\1+$/.test(digits);
    }),
  },
  {
    category: 'banking',
    kind: 'iban',
    rule: 'iban',
    find: (t) => matches(t, /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g, 0, (m) => ibanValid(m[0])),
  },
  {
    // The same for an IBAN: in groups of four with its country's length, a failed check is a misread.
    category: 'banking',
    kind: 'iban',
    rule: 'iban-shape',
    find: (t) => matches(t, /\b([A-Z]{2})\d{2}(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,4})?\b/g, 0, (m) => IBAN_LENGTHS[m[1] as string] === m[0].replace(/ /g, '').length),
  },
  {
    // OCR misreads a digit now and then (0 → 6), and a card number that fails Luhn by one misread
    // digit is still one: printed in the networks' groups (4-4-4-4, Amex 4-6-5) it counts.
    category: 'cards',
    kind: 'card number',
    rule: 'card-shape',
    find: (t) => matches(t, /(?<![\d-])(?:\d{4}([ -])\d{4}\1\d{4}\1\d{4}|3[47]\d{2}([ -])\d{6}\2\d{5})(?![\d-])/g),
  },
  {
    category: 'keys',
    kind: 'jwt',
    rule: 'jwt',
    // A signed token's header always starts eyJ ('{"'); OCR may drop a dot, so the header alone counts.
    find: (t) => matches(t, /\beyJ[A-Za-z0-9_-]{8,}(?:[.,][A-Za-z0-9_-]{4,}){0,2}/g),
  },
  {
    category: 'keys',
    kind: 'private key',
    rule: 'pem',
    find: (t) => pemBlocks(t),
  },
  {
    category: 'passwords',
    kind: 'password',
    rule: 'label',
    // KEY=value, key: value, "token": "value", Authorization: Bearer value. The value is hidden, not the label.
    find: (t) => matches(t, new RegExp(String.raw`[\w.-]*${LABEL}[\w.-]*["']?\s*(?:[:=]|=>|:=)\s*(?:bearer\s+|basic\s+)?["']?([^\s"'<>]{3,})`, 'gi'), 1),
  },
  {
    // user:password@host in any URL, even when OCR garbled its scheme (secretlint needs it exact).
    category: 'passwords',
    kind: 'password',
    rule: 'url-password',
    find: (t) => matches(t, /[\w.%+-]+: ?([^\s:@/]{3,})@[\w-]+(?:\.[\w-]+)*/g, 1),
  },
  {
    // …and when OCR lost the @ too: scheme://user:value, a value with letters in it (a port has none).
    category: 'passwords',
    kind: 'password',
    rule: 'url-password',
    find: (t) => matches(t, /[a-z][\w+.-]*:\/\/[^\s:/@]+: ?((?=[^\s/]*[A-Za-z])[^\s/]{6,})/gi, 1),
  },
  {
    // An environment file's secret: NAME_KEY=…, NAME_SECRET: …, the rest of the line (OCR splits
    // values at underscores it misses: "sk live Jqfw…").
    category: 'passwords',
    kind: 'secret',
    rule: 'env',
    find: (t) => matches(t, /\b[A-Z][A-Z0-9]*(?:[_ ][A-Z0-9]+)*?[_ ]?(?:KEY(?:[_ ]ID)?|SECRET|TOKEN|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?|DSN)\s*[:=]\s*(\S[^\n]*)/g, 1),
  },
  {
    category: 'passwords',
    kind: 'password',
    rule: 'bearer',
    find: (t) => matches(t, /\b(?:bearer|basic)\s+([A-Za-z0-9+/._~-]{12,}=*)/gi, 1),
  },
  {
    category: 'highEntropy',
    kind: 'key-like text',
    rule: 'entropy',
    find: (t) => matches(t, /[A-Za-z0-9+/=_~.-]{20,}/g, 0, (m) => keyLike(m[0].replace(/^[._~-]+|[._~-]+$/g, ''))),
  },
  {
    category: 'contact',
    kind: 'email',
    rule: 'email',
    find: (t) => matches(t, /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g),
  },
  {
    category: 'contact',
    kind: 'phone number',
    rule: 'phone',
    find: (t) => matches(t, /(?<![\w])\+?\(?\d{1,4}\)?(?:[ .-]?\(?\d{2,4}\)?){2,4}(?![\w])/g, 0, (m) => {
      const n = m[0].replace(/\D/g, '').length;
      return n >= 9 && n <= 15 && /[ .()+-]/.test(m[0]);
    }),
  },
];

/**
 * PEM private keys: from the BEGIN line to the END line, or, when OCR garbled the END line, to the
 * last line of base64 that follows. Certificates and public keys are not secret and are left.
 */
function* pemBlocks(text: string): Iterable<[number, number]> {
  const begin = /-{2,}\s*BEGIN[A-Z ]*PRIVATE\s*KEY\s*-*/gi;
  for (const m of text.matchAll(begin)) {
    const start = m.index ?? 0;
    let end = start + m[0].length;
    const endLine = /-{2,}\s*END[A-Z ]*PRIVATE\s*KEY\s*-*/gi;
    endLine.lastIndex = end;
    const closing = endLine.exec(text);
    if (closing && closing.index - end < 8000) {
      end = closing.index + closing[0].length;
    } else {
      let at = text.indexOf('\n', end);
      while (at >= 0) {
        const next = text.indexOf('\n', at + 1);
        const line = text.slice(at + 1, next < 0 ? undefined : next).trim();
        if (!/^[A-Za-z0-9+/=]{16,}$/.test(line.replace(/\s/g, ''))) break;
        end = next < 0 ? text.length : next;
        at = next;
      }
    }
    yield [start, end];
  }
}

/** Glance's own rules over `text`, those of the categories that are on. */
export function ruleFindings(text: string, categories: Readonly<Record<RedactCategory, boolean>>): Finding[] {
  const out: Finding[] = [];
  for (const r of RULES) {
    if (!categories[r.category]) continue;
    for (const [start, end] of r.find(text)) if (end > start) out.push({ start, end, kind: r.kind, rule: r.rule });
  }
  return out;
}
