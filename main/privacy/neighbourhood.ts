// A value is a secret when a word that names one stands in its neighbourhood, whatever its kind: the
// clause it ends ("pickup code 124608", "Ihr TAN für die Überweisung: 577248", "needs the erlang
// cookie for the cluster: ZOWS…"), the question the bubble above asks where it starts a reply ("and
// the bike lock?" over "6-7-6-4 same as the shed"), its row of a list or a card ("GOG.com key" beside
// a key in a box at the row's right) and the caption right over it. The value must be shaped like a
// credential (a code of digits, or a generated run: not a word, a sentence or a known public
// identifier), and the naming word must not be qualified into something public (an order's, a zip's
// or an error's code; a key's id; a public key). Pure geometry over the words OCR read, as
// context.ts; detect.ts boxes what this picks.
import type { RedactionKind } from '../../common/privacy.ts';
import type { ContextFinding, Line } from './context.ts';
import { identifier, NOT_CODE, publicIdentifier, randomValue, secretName } from './findings.ts';
import { knownPublicId } from './publicIds.ts';
import type { ReadWord } from './locate.ts';

/** Words that name a code of digits, as a sentence or a note says it (a PIN, a TAN, a lock's combination, an account's number). */
const CODE_NAME = /^(?:codes?|pins?|passcodes?|pin-?codes?|tans?|otp|totp|puk2?|combination|combo|password|passwort|kennwort|pw|pwd)$/i;
/** …what a code opens, which a question names for the code ("and the bike lock?"). */
const OPENS = /^(?:locks?|padlocks?|(?:d|cl)oors?|gates?|alarms?|safes?|lockers?|garages?|keypads?|lockbox|keysafe|wi-?fi|wlan)$/i;
/** Roots that name a credential beyond secretName's (a cookie, a licence, a code that activates, pairs or unlocks). */
const TOKEN_ROOT = /^(?:cookies?|licen[cs]es?|activation|pairing|unlock|recovery|seed|memorable|passcodes?|passphrases?)$/i;
/** Words that make what such a root names a public thing (a cookie's policy, a licence's terms, a serial number). */
const PUBLIC_WORD = /^(?:public|publishable|ids?|identifier|uuid|guid|hash|digest|checksum|fingerprint|address|number|no|order|invoice|tracking|reference|ref|version|commit|transaction|tx|policy|banner|consent|terms|agreement|type|holder|expires?|expiry|name|url)$/i;
/** A word that ends a clause: its own stop, or a dash alone. */
const CLAUSE_END = /[.!?;]["'”’)]*$|^[—–-]$/;

const bare = (t: string) => t.replace(/^["'“”‘’`(<[{]+|["'“”‘’`)>\]},;.!?…]+$/g, '');

/** Whether a word is a code of digits: 4–12 digits, or digits in short groups joined by dashes ("6-7-6-4", "34-73-80"); not a year alone. */
export function codeShaped(word: string): boolean {
  const v = bare(word).replace(/:$/, '');
  if (/^\d{4,12}$/.test(v)) return !/^(?:19|20)\d\d$/.test(v);
  return /^\d{1,4}(?:-\d{1,4}){1,5}$/.test(v) && v.replace(/\D/g, '').length >= 4 && v.replace(/\D/g, '').length <= 12 && !/^\d{4}-\d{1,2}-\d{1,2}$|^\d{1,2}-\d{1,2}-\d{4}$/.test(v);
}

/**
 * Whether a word is shaped like a generated credential: 12–200 characters of a key's alphabet that
 * randomValue reads as generated (a hex key too: the naming word says what it is), a key in groups
 * of four to six ("FY9KW-T2G4A-B7KPM"), or a run of 16 or more capitals with few vowels (an Erlang
 * cookie) — not a word, a URL, a path, a date, a version or a known public identifier.
 */
export function tokenShaped(word: string): boolean {
  const v = bare(word).replace(/:$/, '');
  // (Not a name and its value in one word, "DeviceID=bf92…": the line's rules judge those by the name.)
  if (v.length < 12 || v.length > 200 || /^[A-Za-z_][\w.-]*[=:]|^[A-Za-z_]\w*I[dD]-/.test(v)) return false;
  // (Hex alone passes for a hash, an identifier: here a word beside it says what it is. Not a
  // content address, a coin's address, a ULID: those are known by their own form.)
  const hex = v.length >= 16 && /^[0-9A-Za-z£€]+$/.test(v) && v.replace(/[^0-9A-Fa-f£€]/g, '').length >= v.length * 0.85;
  if (hex ? knownPublicId(v) : identifier(v) || publicIdentifier(v)) return false;
  if (hex) return /\d/.test(v) && /[A-Za-z]/.test(v);
  if (/^[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){2,5}$/.test(v)) return /\d/.test(v) && /[A-Z]/.test(v);
  if (/^[A-Z]{16,64}$/.test(v)) return v.replace(/[^AEIOUY]/g, '').length < v.length * 0.35;
  return randomValue(v);
}

/** Whether the words (a clause, a caption, a row's cell) name a credential, and nothing qualifies it public. */
export function namesToken(words: readonly string[]): boolean {
  const ws = words.map((w) => bare(w).replace(/:$/, '')).filter(Boolean);
  if (!ws.length) return false;
  if (ws.some((w) => PUBLIC_WORD.test(w) && !/^(?:number|no|name|type)$/i.test(w))) return false;
  return ws.some((w, i) => {
    if (TOKEN_ROOT.test(w)) return !PUBLIC_WORD.test(ws[i + 1] ?? '');
    // (secretName over the word with up to two before it: "erlang cookie" aside, "GOG.com key", "Admin API Key".)
    // (…and in small letters, where OCR read a label's capitals oddly: "APIKeY".)
    const name = ws.slice(Math.max(0, i - 2), i + 1).join(' ');
    return (secretName(name) || secretName(name.toLowerCase())) && !PUBLIC_WORD.test(ws[i + 1] ?? '');
  });
}

/**
 * Whether the words before a code of digits on its line, back to the clause's start, name it: a
 * code's word (CODE_NAME) two words before it at most ("pickup code 124608", "Acc no 43499146" —
 * an account's number), or up to six before where a colon or an "is" stands right before it ("Ihr
 * TAN für die Überweisung: 577248"); no word before the code's word makes it a zip's, an error's or
 * an order's (NOT_CODE).
 */
export function namesCode(before: readonly string[]): boolean {
  const ws = before.map((w) => w.replace(/^["'“”‘’`(]+/, ''));
  const said = /:$/.test(ws.at(-1) ?? '') || /^(?:is|ist|=|was)$/i.test(ws.at(-1) ?? '');
  for (let k = 1; k <= Math.min(6, ws.length); k++) {
    const w = bare(ws[ws.length - k] as string).replace(/:$/, '');
    if (k > 2 && !said) break;
    const qualifier = ws.slice(Math.max(0, ws.length - k - 2), ws.length - k).map((q) => bare(q)).join(' ');
    if (CODE_NAME.test(w)) return !NOT_CODE.test(qualifier);
    // An account's number, "Acc no", "account number", "Kontonummer".
    if (/^(?:no|number|nr|#)$/i.test(w) && /^(?:acc|acct|account|konto)$/i.test(bare(ws[ws.length - k - 1] ?? ''))) return true;
  }
  return false;
}

/** Names of a secret that is a word: a bank's memorable word, a secret answer, a passphrase. */
const WORD_SECRET = /\b(?:memorable\s+(?:word|name|place|date)|secret\s+(?:word|answer)|security\s+answer|passphrase|pass\s+phrase|code\s*word|safe\s*word)\b/i;

/** Words of a sentence or a prompt, which a caption has none of. */
const SENTENCE = /^(?:to|your|the|a|an|is|are|was|enter|please|of|for|with|and|or|from|this|that|you|it|in|on|at|by)$/i;

/** A word OCR made of a border, an icon or a counter: not text a person reads. */
const junk = (t: string) => t.replace(/[^A-Za-z0-9=]/g, '').length < 1;

/**
 * Values named by a word in their neighbourhood (the file's head): each word of a line shaped like a
 * code or a credential, named by its clause, the question above its reply, its row or its caption.
 */
export function neighbourValues(words: readonly ReadWord[], lines: readonly Line[]): ContextFinding[] {
  const out: ContextFinding[] = [];
  const text = (i: number) => (words[i] as ReadWord).text;
  const real = lines.map((l) => l.words.filter((i) => !junk(text(i))));
  const heights = lines.map((l) => l.height).sort((a, b) => a - b);
  const usual = heights[Math.floor(heights.length / 2)] ?? 0;
  const push = (i: number, kind: RedactionKind) => {
    if (!out.some((f) => f.words.includes(i))) out.push({ words: [i], kind, rule: 'neighbourhood' });
  };
  /** The line just above line `li` a reply answers: the nearest with words, within four lines' height, not wholly left of it (a side bar's). */
  const asked = (li: number): string[] | undefined => {
    const line = lines[li] as Line, h = Math.max(line.height, usual);
    for (let k = li - 1; k >= 0; k--) {
      const l = lines[k] as Line;
      if ((l.top + l.bottom) / 2 >= (line.top + line.bottom) / 2 - line.height * 0.5) continue;
      if (line.top - l.bottom > h * 4) return undefined;
      if (l.right < line.left) continue;
      const ws = (real[k] as number[]).map(text);
      if (ws.length) return ws;
    }
    return undefined;
  };
  lines.forEach((line, li) => {
    const ws = real[li] as number[];
    ws.forEach((wi, n) => {
      const t = text(wi);
      // The clause before it on its line: back to the last word that ends one.
      let from = n;
      while (from > 0 && !CLAUSE_END.test(text(ws[from - 1] as number))) from--;
      const before = ws.slice(from, n).map(text);
      if (codeShaped(t)) {
        if (namesCode(before)) return push(wi, 'password');
        // A short reply that starts with the code, under a question that names it or what it opens.
        const question = n === 0 && ws.length <= 8 ? asked(li) : undefined;
        if (question && /\?["'”’)]*$/.test(question.at(-1) ?? '') && question.length <= 12 && question.some((q) => CODE_NAME.test(bare(q)) || OPENS.test(bare(q))) && !NOT_CODE.test(question.join(' ').replace(/\?.*$/, ''))) push(wi, 'password');
        return;
      }
      // A secret that is a word, named just before its "=" or colon ("memorable word = mirror (they ask
      // for 3 letters of it)"): the word, where its line ends after it or a remark in brackets follows.
      if (/^[A-Za-z][a-z]{3,19}$/.test(t) && (before.at(-1) === '=' || /[^:]:$/.test(before.at(-1) ?? '')) && WORD_SECRET.test(before.slice(-4).join(' ')) && (n === ws.length - 1 || /^\(/.test(text(ws[n + 1] as number)))) return push(wi, 'password');
      if (!tokenShaped(t)) return;
      // Its clause names it ("the erlang cookie for the cluster: ZOWS…"): the words right before, a colon before it.
      // (Not inside a name of colons, an ARN as OCR read it apart: "arn:aws:secretsmanager:…:5864…: secret: prod/orders-db-NbKLaE".)
      if (before.length && before.length <= 16 && /:$/.test(before.at(-1) as string) && !before.some((b) => /\S:\S/.test(b)) && namesToken(before)) return push(wi, 'secret');
      // Its row: the lines left of it whose middle is within a line and a half of its own (a list's
      // title and sub-line beside a key in a box), near it, each a few words.
      const w = words[wi] as ReadWord, h = Math.max(w.height, usual);
      const mid = w.y + w.height / 2;
      const row = lines.filter((l, k) => k !== li && l.right <= w.x && w.x - l.right < h * 60 && Math.abs((l.top + l.bottom) / 2 - mid) < h * 1.5 && (real[k] as number[]).length <= 6);
      if (row.some((l) => namesToken(l.words.map(text)))) return push(wi, 'secret');
      // Its caption: the nearest line over it that reaches over its start, a few words, near it —
      // where the value starts its cell ("Steam Game Server Login Token (Valheim box)" over a field).
      const cellStart = n === 0 || w.x - ((words[ws[n - 1] as number] as ReadWord).x + (words[ws[n - 1] as number] as ReadWord).width) > h * 2;
      if (!cellStart) return;
      const over = lines.findLast((l, k) => k < li && (l.top + l.bottom) / 2 < w.y && l.left <= w.x + h * 2 && l.right >= w.x && (real[k] as number[]).length > 0);
      const k = over ? lines.indexOf(over) : -1;
      // (A caption names: a few words with no sentence's, "Enter your credentials to connect to:" is a prompt over a login.)
      const caption = over ? (real[k] as number[]).map(text).join(' ').replace(/\([^)]*\)?/g, ' ').trim().split(/\s+/) : [];
      if (over && w.y - over.bottom < h * 3.5 && caption.length <= 6 && !caption.some((c) => SENTENCE.test(c)) && !(real[k] as number[]).some((i) => tokenShaped(text(i)) || codeShaped(text(i)) || /[=:]\S{6,}/.test(text(i))) && namesToken((real[k] as number[]).map(text))) push(wi, 'secret');
    });
  });
  return out;
}
