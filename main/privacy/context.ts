// Secrets a line alone does not show (DESIGN §3b "Rules"): a value whose label is not on its line —
// a column header ("Password" over a password manager's column), a form's or a detail view's
// caption above the value, a label on the line above — and a secret that wraps: its continuation
// on the next line of an 80-column terminal, a narrow pane or a table cell. Pure geometry over the
// words OCR read; detect.ts boxes what this picks.
import type { RedactionKind } from '../../common/privacy.ts';
import { entropy, identifier, identifierName, inIdentifier, NAMED_IDENTIFIER, publicIdentifier, publicValue, randomValue, secretLabel, secretName, sshKeyLines } from './findings.ts';
import { wordsOf, wordText, type Box, type ReadWord } from './locate.ts';

export type Line = { id: number; words: number[]; top: number; bottom: number; height: number; left: number; right: number };

/** The image's lines, top to bottom, each with its words left to right. */
export function linesOf(words: readonly ReadWord[]): Line[] {
  const by = new Map<number, number[]>();
  words.forEach((w, i) => by.set(w.line, [...(by.get(w.line) ?? []), i]));
  const lines: Line[] = [];
  for (const [id, ws] of by) {
    ws.sort((a, b) => (words[a] as ReadWord).x - (words[b] as ReadWord).x);
    const hs = ws.map((i) => (words[i] as ReadWord).height).sort((a, b) => a - b);
    const height = hs[Math.floor(hs.length / 2)] as number;
    const sound = ws.filter((i) => (words[i] as ReadWord).height >= height * 0.35);
    const top = Math.min(...sound.map((i) => (words[i] as ReadWord).y));
    const bottom = Math.max(...sound.map((i) => (words[i] as ReadWord).y + (words[i] as ReadWord).height));
    const first = words[ws[0] as number] as ReadWord, last = words[ws.at(-1) as number] as ReadWord;
    lines.push({ id, words: ws, top, bottom, height: Math.max(1, height), left: first.x, right: last.x + last.width });
  }
  return lines.sort((a, b) => a.top - b.top || a.left - b.left);
}

/**
 * The words again, with lines OCR read apart that are one row of text joined (the reader reads the
 * blocks it finds, and a card number in big digits can come back as three "lines"): same height,
 * same middle, at most about a space apart. Ordered line by line, left to right, as wordText wants.
 */
export function joinRows(words: readonly ReadWord[]): ReadWord[] {
  const lines = linesOf(words);
  const into = new Map<number, number>();
  const root = (id: number): number => {
    let r = id;
    while (into.has(r)) r = into.get(r) as number;
    return r;
  };
  const byLeft = [...lines].sort((a, b) => a.left - b.left);
  for (const a of byLeft) {
    for (const b of byLeft) {
      if (a === b || b.left < a.right - a.height * 0.5 || root(a.id) === root(b.id)) continue;
      const h = Math.max(a.height, b.height);
      if (Math.max(a.height, b.height) > Math.min(a.height, b.height) * 1.6) continue;
      if (Math.abs((a.top + a.bottom) / 2 - (b.top + b.bottom) / 2) > h * 0.3) continue;
      if (b.left - a.right > h * 1.2) continue;
      into.set(root(b.id), root(a.id));
    }
  }
  if (!into.size) return [...words];
  const order = new Map(lines.map((l, i) => [l.id, i]));
  return words
    .map((w) => ({ ...w, line: root(w.line) }))
    .sort((p, q) => (order.get(p.line) ?? 0) - (order.get(q.line) ?? 0) || p.x - q.x);
}

/**
 * The words again, with each run of single characters on a row joined into one word: a code typed
 * one character a box (OCR reads each box, or two of them, as a word of its own, a box's border as
 * a bracket or a bar), a letter-spaced key, a value one character a cell. Such a run is one value,
 * and the rules judge it as one — by its caption, its shape — not as scraps no rule names. A run is
 * three pieces or more, four characters or more, of letters and digits one or two long (two only
 * with a digit or in capitals: "am", "to" are prose's) or a dash between groups, as tall as one
 * another and evenly spaced, no gap wider than three times their height.
 */
export function joinSingles(words: readonly ReadWord[]): ReadWord[] {
  const pieces = (t: string): string[] | undefined => {
    const ps = t.split(/[[\]|]+/).filter(Boolean);
    return ps.length && ps.every((q) => /^[A-Za-z0-9]$|^(?=.*[0-9A-Z])[A-Za-z0-9]{2}$|^[A-Z0-9]{2}$|^-$/.test(q)) ? ps : undefined;
  };
  const lines = linesOf(words);
  const joined = new Map<number, ReadWord>();
  const dropped = new Set<number>();
  for (const line of lines) {
    const ws = line.words;
    let n = 0;
    while (n < ws.length) {
      if (!pieces((words[ws[n] as number] as ReadWord).text)) {
        n++;
        continue;
      }
      let end = n + 1;
      const gaps: number[] = [];
      while (end < ws.length) {
        const p = words[ws[end - 1] as number] as ReadWord, w = words[ws[end] as number] as ReadWord;
        const h = Math.max(p.height, w.height);
        const gap = w.x - (p.x + p.width);
        if (!pieces(w.text) || gap > h * 3 || Math.max(p.height, w.height) > Math.min(p.height, w.height) * 1.5) break;
        const usual = gaps.length ? [...gaps].sort((a, b) => a - b)[gaps.length >> 1] as number : gap;
        if (gaps.length && gap > Math.max(usual * 2.2, h * 0.6)) break;
        gaps.push(gap);
        end++;
      }
      const run = ws.slice(n, end);
      const text = run.map((i) => (pieces((words[i] as ReadWord).text) as string[]).join('')).join('');
      const alnum = text.replace(/-/g, '').length;
      const count = run.reduce((k, i) => k + (pieces((words[i] as ReadWord).text) as string[]).length, 0);
      if (count >= 3 && alnum >= 4 && text.length <= 48 && !/^-|-$|--/.test(text)) {
        joined.set(run[0] as number, oneWord(words, run, text));
        for (const i of run.slice(1)) dropped.add(i);
      }
      n = end;
    }
  }
  if (!joined.size) return [...words];
  return words.flatMap((w, i) => (dropped.has(i) ? [] : [joined.get(i) ?? w]));
}

/** The words of a run as one word with `text`, boxed over them all. */
function oneWord(words: readonly ReadWord[], run: readonly number[], text: string): ReadWord {
  const ws = run.map((i) => words[i] as ReadWord);
  const x0 = Math.min(...ws.map((w) => w.x)), y0 = Math.min(...ws.map((w) => w.y));
  const x1 = Math.max(...ws.map((w) => w.x + w.width)), y1 = Math.max(...ws.map((w) => w.y + w.height));
  return { ...(ws[0] as ReadWord), text, x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * The words again without the icons OCR read as a sign or two ("©" for a help icon's ⓘ, "~" for an
 * eye, "®"): between a label and its value ("Voicemail PIN ⓘ 1280") such a sign made the label no
 * cell of its own. Only signs no label, value or separator is made of.
 */
export function withoutIcons(words: readonly ReadWord[]): ReadWord[] {
  return words.filter((w) => !ICON.test(w.text));
}
// (Not ¢ £ € ¥: OCR reads a c or an f inside a key as one of them, a piece of the key.)
const ICON = /^[©®™~•°¤§¶†‡]{1,2}$/u;

/**
 * The words again, with a token OCR cut into pieces with no space between them joined into one word:
 * a long hex key in a wide monospace type read as "482576b 154 68 6258h 0bh5277d3955 …", its pieces
 * 3–5 px apart where a space would be a whole cell. Pieces of letters and digits (and a token's signs)
 * as tall as one another, each gap a quarter of their height or less (a space in any type is about a
 * third of its height or more); joined, a token: 16 characters or more, with a digit.
 */
export function joinTight(words: readonly ReadWord[]): ReadWord[] {
  const piece = (t: string) => /^[A-Za-z0-9+/=_.~-]+$/.test(t);
  const joined = new Map<number, ReadWord>();
  const dropped = new Set<number>();
  for (const line of linesOf(words)) {
    const ws = line.words;
    let n = 0;
    while (n < ws.length) {
      let end = n + 1;
      while (end < ws.length) {
        const p = words[ws[end - 1] as number] as ReadWord, w = words[ws[end] as number] as ReadWord;
        const h = Math.min(p.height, w.height);
        if (!piece(p.text) || !piece(w.text) || Math.max(p.height, w.height) > h * 1.3 || w.x - (p.x + p.width) > h * 0.25 || w.x < p.x + p.width - h * 0.3) break;
        end++;
      }
      const run = ws.slice(n, end);
      const text = run.map((i) => (words[i] as ReadWord).text).join('');
      if (run.length >= 2 && text.length >= 16 && /\d/.test(text)) {
        joined.set(run[0] as number, oneWord(words, run, text));
        for (const i of run.slice(1)) dropped.add(i);
      }
      n = end;
    }
  }
  if (!joined.size) return [...words];
  return words.flatMap((w, i) => (dropped.has(i) ? [] : [joined.get(i) ?? w]));
}

/** "CVC" or "CVV" as OCR reads a short caption in a light grey: "ove", "cvC", "CcvC". */
const CVC = String.raw`[co]{1,2}[vy][cveo]`;
/** Labels that name a secret when they stand alone in a cell, a header or a caption. */
// (And the nouns of credentials that open one thing: an SNMP community string, a macaroon, a
// vault's unseal key or key share, a game server's rcon password; and an account's number, which
// names digits: a bank account's, a VPN's account that is its login.)
const LABEL = new RegExp(String.raw`\b(one[- ]time password|one[- ]time code|verification code|security code|2fa code|secret access key|secret[- ]key|access key id|access key|access token|api[- _]?key|api token|client secret|private key|(?:recovery|restore|backup|rescue|emergency|reset|unlock|unseal) (?:codes?|keys?)|key shares?|security keys?|community strings?|macaroons?|rcon(?: password)?|account (?:number|no\.?)|passwords?|passwort|passphrase|passcode|pin|secret|[tf]okens?|credentials?|otp|totp|iban|${CVC})\b:?`, 'gi');
/** The first word of an action link beside a caption. */
const ACTION = /^(?:generate|regenerate|copy|show|hide|reveal|edit|rotate|roll|reset|manage|view|revoke|delete|remove)$/i;
/** Captions over a list of values, one a line. */
const LIST = /codes|keys|[tf]okens|passwords/i;
const OTP = new RegExp(String.raw`one[- ]time|verification|security code|2fa|otp|totp|\b${CVC}\b|pin|passcode`, 'i');
/** Captions of an account's number: digits, in groups or not. */
const ACCOUNT = /account (?:number|no)/i;

/** Whether the text under a label looks like the secret it names, not prose, a URL, an e-mail or a date. */
export function secretValue(value: string, label: string): boolean {
  const v = value.trim();
  if (OTP.test(label)) return /^\d{3}[ -]?\d{3}$|^\d{3,8}$/.test(v);
  // (An account's number: 6–20 digits, in groups as an app prints it to be read, "0765 4127 2184 7094".)
  if (ACCOUNT.test(label)) return /^\d[\d -]*\d$/.test(v) && v.replace(/\D/g, '').length >= 6 && v.replace(/\D/g, '').length <= 20 && !/^\d{1,4}[-/]\d{1,2}[-/]\d{1,4}$/.test(v);
  // An account number under or beside "IBAN": its shape, however OCR read its groups (a Z read as 2
  // fails the check digits; a group read short, "RCO" or "I", breaks the groups of four; a J read
  // as ")", "WQM)").
  if (/iban/i.test(label)) return /^[A-Z]{2}\s?[0-9OlI]{2}(?:\s?[A-Z0-9()[\]|]{1,5}){2,9}$/.test(v) && v.replace(/\s/g, '').length >= 12 && v.replace(/\s/g, '').length <= 36;
  if (v.length < 6 || v.length > 200) return false;
  if (/\s\S+\s/.test(v)) return false; // three words or more: a sentence
  if (/:\/\/|^www\.|@\w+\.\w|^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/.test(v)) return false;
  if (/^(?:hidden|none|n\/a|not set|empty|unknown|active|inactive|expired|revoked|never|copy|show|reveal)$/i.test(v)) return false;
  // A name and its colon is the next label, not a value ("STRIPE_SECRET_KEY:" under "DATABASE_PASSWORD:", read "STRIPE KEY:"),
  // nor a file's path of lower-case names ("/var/run/secrets/kubernetes.io/serviceaccount" under "SMTP_PASSWORD:").
  if (/^[A-Za-z_][\w .-]*:$/.test(v) || /^(?:~|\.{1,2})?\/(?:[a-z0-9_.-]+\/)+[a-z0-9_.-]*$/.test(v)) return false;
  if (identifier(v)) return false;
  const t = v.replace(/\s/g, '');
  if (/^[•*·●.]+$/.test(t)) return false;
  // Letters and digits, symbols, or capitals inside: what a generated or chosen secret has.
  return /\d/.test(t) || /[^A-Za-z0-9]/.test(t) || /.[A-Z]/.test(t) || t.length >= 16;
}

/**
 * A value in the cell right of its label: what secretValue accepts, or, after a label that names a
 * key, token or secret, one unbroken run of key alphabet (a hex API key is one, named so).
 */
function besideValue(value: string, label: string): boolean {
  if (secretValue(value, label)) return true;
  return !OTP.test(label) && /key|token|secret/i.test(label) && /^[A-Za-z0-9+/=_.-]{16,200}$/.test(value.trim()) && /\d/.test(value);
}

/**
 * Words in a label that make what it names public, whatever else it says: an id (a client's, an
 * app's, a key's), a public, publishable or site key, a user name, an e-mail, a fingerprint, a hint.
 */
const PUBLIC_LABEL = /\b(?:ids?|identifier|public|publishable|site|fingerprint|user\s?names?|e-?mail|hint)\b/i;

/** A line that is a caption naming a public thing and nothing more ("App ID", "Client ID"): a few words, no digits. */
function publicCaption(text: string): boolean {
  return text.split(/\s+/).length <= 4 && PUBLIC_LABEL.test(text) && !/\d/.test(text);
}

/**
 * Characters in groups of one length, as a generated secret is printed to be typed: an app password
 * in four groups of four letters ("bjzx euom sqkc dems"), backup codes in fours ("4566 5307"); a
 * group OCR read a character long or short ("1z1lm") still counts. Words of a sentence differ in
 * length and have vowels: groups of letters alone count from four, of one case, with few vowels
 * (or a group with none).
 */
export function groupedValue(value: string): boolean {
  const groups = value.trim().split(/[ -]/);
  if (groups.length < 2 || groups.length > 8 || !groups.every((g) => /^[A-Za-z0-9]+$/.test(g))) return false;
  const body = groups.length > 2 ? groups.slice(0, -1) : groups;
  const lengths = body.map((g) => g.length);
  const least = Math.min(...lengths), most = Math.max(...lengths);
  if (least < 3 || most > 8 || most - least > 1 || (groups.at(-1) as string).length > most || (groups.at(-1) as string).length < 2) return false;
  if (/\d/.test(value)) return true;
  if (groups.length < 4 || !(groups.every((g) => /^[a-z]+$/.test(g)) || groups.every((g) => /^[A-Z]+$/.test(g)))) return false;
  const letters = groups.join('');
  return letters.replace(/[^aeiouy]/gi, '').length < letters.length * 0.4 || groups.some((g) => !/[aeiouy]/i.test(g));
}

/**
 * A glyph OCR was unsure of in a long run: a sign of another script ("¢", "®", "€"), a bracket or a
 * bar for a j or an l ("NzMrEj SEC50E] yvSa…"), a % for a 9. A few of them in a key are misreads.
 */
const MISREAD = /[^\x20-\x7E]|[[\]|!{}%]/g;

/**
 * Whether the text a label captions (under it, or in the cell beside it) is the value it names. What
 * secretValue accepts; or, when the label names a secret and nothing public (secretName: "Client
 * Secret", "Signing Secret", "Admin API Key", "App password"), one run of a key's alphabet with
 * letters and digits however it is shaped — hex, which alone would pass for a hash, included: the
 * label says what it is — or characters in groups (groupedValue). Not a sentence, a URL, an e-mail
 * or a date.
 */
export function labelledValue(value: string, label: string, strict = false): boolean {
  // (A key in groups joined by dashes, as OCR reads it now and then: a space either side of a dash,
  // "A3-CTNZNB-JHSSRQ- LLKSV - 5VSH-V87WA-APYMD".)
  value = value.replace(/(?<=[A-Za-z0-9])\s*-\s*(?=[A-Za-z0-9])/g, '-');
  if (!strict && secretValue(value, label)) return true;
  // (Its name without a remark in brackets: "Client Secret (copy it now, it will not be shown again)".)
  // (…or the name in the brackets, where a label is in them: "Linear account (Access Token)".)
  const inner = (label.match(/\([^)]*\)?/g) ?? []).join(' ').replace(/[()]/g, ' ').trim();
  const named = secretName(label.replace(/\([^)]*\)?/g, ' ')) || (inner !== '' && inner.split(/\s+/).length <= 3 && secretName(inner));
  if (OTP.test(label) || ACCOUNT.test(label) || /iban/i.test(label) || PUBLIC_LABEL.test(label) || !named) return false;
  const v = value.trim();
  if (groupedValue(v)) return true;
  // (OCR splits a long run at a character it is unsure of: up to three pieces; up to five in a long
  // one whose pieces have digits, all but one — a hex key read in four, "4120…eBbc 1325436502085 131db144cA7 T6550".)
  const pieces = v.split(/\s+/);
  // (A few misread signs are misreads, not what makes it something else: up to one in twelve, a long
  // hex key with three f's read as "£"; one in a short password, "qdfi1TLB1AL1£h3".)
  const joined = pieces.join(''), signs = (joined.match(MISREAD) ?? []).length;
  const packed = joined.length >= 8 && signs <= Math.max(1, Math.floor(joined.length / 12)) ? joined.replace(MISREAD, '') : joined;
  const split = pieces.length > 3 && !(pieces.length <= 5 && packed.length >= 24 && pieces.filter((p) => !/\d/.test(p)).length <= 1);
  // (A colon inside joins a token's parts, "2/<id>/<id>:<hex>"; not one at either end, a name's.)
  if (split || packed.length < 8 || packed.length > 200 || !/^[A-Za-z0-9+/=_.~-]+(?::[A-Za-z0-9+/=_.~-]+)*$/.test(packed)) return false;
  if (/^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$|^v?\d+(?:\.\d+)+$/.test(packed)) return false;
  return /\d/.test(packed) && /[A-Za-z]/.test(packed);
}

export type ContextFinding = { words: number[]; kind: RedactionKind; rule: string };

/**
 * The words by their vertical middle, to find those within `reach` of a height in a binary search
 * (a page dense with labels, which anyone can write, would otherwise cost each label a walk over
 * every word on it).
 */
function middles(words: readonly ReadWord[]): { around(mid: number, reach: number): number[] } {
  const mid = (i: number) => (words[i] as ReadWord).y + (words[i] as ReadWord).height / 2;
  const order = words.map((_, i) => i).sort((p, q) => mid(p) - mid(q));
  const first = (m: number) => {
    let lo = 0, hi = order.length;
    while (lo < hi) {
      const k = (lo + hi) >> 1;
      if (mid(order[k] as number) <= m) lo = k + 1;
      else hi = k;
    }
    return lo;
  };
  return {
    around(m, reach) {
      const out: number[] = [];
      for (let k = first(m - reach); k < order.length && mid(order[k] as number) < m + reach; k++) out.push(order[k] as number);
      return out.filter((i) => Math.abs(mid(i) - m) < reach).sort((p, q) => p - q);
    },
  };
}

/**
 * Values under a label that stands alone: each label cell's column below it (a header) or the line
 * right below it (a caption), while the text in that column looks like the secret it names.
 */
export function labelledBelow(words: readonly ReadWord[], lines: readonly Line[] = linesOf(words)): ContextFinding[] {
  const out: ContextFinding[] = [];
  const byMiddle = middles(words);
  lines.forEach((line, li) => {
    const text = lineText(words, line);
    // An environment variable's name over its value (a Kubernetes secret's "SESSION_SECRET",
    // "JWT_SIGNING_KEY"): its parts are words, and the name names a secret as a whole or not at all
    // (not "SECRET_NAME", "CLIENT_SECRET_ID").
    for (const m of text.text.replace(/_/g, ' ').matchAll(LABEL)) {
      const start = m.index, end = start + m[0].length;
      const cell = text.wordsIn(start, end);
      if (!cell.length) continue;
      const joined = cell.map((i) => (words[i] as ReadWord).text).join(' ');
      if (joined.includes('_') && !secretName(joined)) continue;
      // A word inside a placeholder in angle brackets names no value beside or below it (kubectl's
      // "<set to the key 'smtp' in secret 'mail'>" where a secret's value would be).
      // (Quoted there too: "the key 'password' in".)
      if (/<[a-z]+(?: [^<>=\s]+)* ["'‘’“”]?$/.test(text.text.slice(0, start))) continue;
      const h = line.height;
      // Its row: OCR may read each cell of a table as a line of its own.
      const mid = (line.top + line.bottom) / 2;
      const inRow = byMiddle.around(mid, h * 0.5).sort((p, q) => (words[p] as ReadWord).x - (words[q] as ReadWord).x);
      const gap = (p: number, q: number) => (words[q] as ReadWord).x - ((words[p] as ReadWord).x + (words[p] as ReadWord).width);
      const first = inRow.indexOf(cell[0] as number), last = inRow.indexOf(cell.at(-1) as number);
      let from = -1;
      /** A second label joined to this one by a slash ("Password / PIN"): a value fits either. */
      let also: string | undefined;
      if (first >= 0 && last >= first) {
        // A parenthetical after the label is the label's ("Security code (CVV)", "Password (optional)",
        // "CVC (3 digits)" with its "(3" read as "@", "Secret (read-only, managed by config)"): up to
        // twelve words on, the last ending in ")".
        // (A form's mark of a required field after its caption, "API Token *", is the caption's, and
        // so is an info icon, "ⓘ" as OCR reads it: "©", "®", "@", "(i)" — after a parenthetical
        // is looked for, whose "(3" OCR reads as "@" too.)
        // (So is a second label joined to it by a slash, "Password / PIN" over a column of both.)
        // (A remark in brackets too: "Client Secret (copy it now, it will not be shown again)".)
        const parenFrom = (tail: number): boolean => {
          const paren: number[] = [];
          for (let j = tail + 1; j < inRow.length && j <= tail + 12; j++) {
            const t = (words[inRow[j] as number] as ReadWord).text;
            if (gap(inRow[j - 1] as number, inRow[j] as number) >= h * 1.2) break;
            if (!paren.length && !t.startsWith('(') && t.length > 2) break;
            paren.push(inRow[j] as number);
            if (t.endsWith(')')) {
              cell.push(...paren);
              return true;
            }
          }
          return false;
        };
        const mark = (j: number) => /^(?:[*✱©®ⓘ@]|\(i\))$/.test((words[inRow[j] as number] as ReadWord | undefined)?.text ?? '') && gap(inRow[j - 1] as number, inRow[j] as number) < h * 1.2;
        if (!parenFrom(last)) {
          let tail = last;
          if (mark(tail + 1)) cell.push(inRow[++tail] as number);
          const joinedLabel = /^[/&]$|^or$/i.test((words[inRow[tail + 1] as number] as ReadWord | undefined)?.text ?? '') ? new RegExp(`^(?:${LABEL.source})$`, 'i').exec((words[inRow[tail + 2] as number] as ReadWord | undefined)?.text ?? '') : null;
          if (joinedLabel && gap(inRow[tail] as number, inRow[tail + 1] as number) < h * 1.2 && gap(inRow[tail + 1] as number, inRow[tail + 2] as number) < h * 1.2) {
            cell.push(inRow[tail + 1] as number, inRow[tail + 2] as number);
            tail += 2;
            also = joinedLabel[1] as string;
          }
          if (tail > last) parenFrom(tail);
        }
        // A caption may say whose secret it is in a word or three before ("Card security code",
        // "Signing Secret", "Admin API Key", "Generated app password"): words that start their
        // cell, run on to the label. Beyond a code's, the whole must still name a secret
        // (secretName), and nothing public.
        let k = first;
        // (In small type a space between a caption's words can be more than 1.2 times their height:
        // "Auth Token" in 11 px, 9 px apart in letters 7 px tall.)
        while (k > 0 && first - k < 3 && /^[A-Za-z][A-Za-z'-]*$/.test((words[inRow[k - 1] as number] as ReadWord).text) && gap(inRow[k - 1] as number, inRow[k] as number) < h * 1.5) k--;
        if (k < first && (k === 0 || gap(inRow[k - 1] as number, inRow[k] as number) >= h * 1.2)) {
          const name = [...inRow.slice(k, first), ...cell].map((i) => (words[i] as ReadWord).text).join(' ');
          if (OTP.test(m[0]) ? first - k <= 2 : secretName(name)) {
            cell.unshift(...inRow.slice(k, first));
            from = k;
          }
        }
      }
      // (A caption with words before its label may be a heading, "Your temporary password" over
      // "Hello Ada,": what it captions must be shaped like a value, not merely not a sentence.)
      const headed = from >= 0 && !OTP.test(m[0]);
      const name = cell.map((i) => (words[i] as ReadWord).text).join(' ');
      // A label that names something public ("Client ID", "Key ID", "Public key") captions no secret.
      if (PUBLIC_LABEL.test(name)) continue;
      const a = words[cell[0] as number] as ReadWord, z = words[cell.at(-1) as number] as ReadWord;
      let row = inRow.filter((i) => !cell.includes(i));
      // A caption's action link beside it ("Auth Token  Hide", "Server API tokens  Generate another
      // token") is neither a value nor more of the caption: its row ends before it.
      const link = row.findIndex((i) => (words[i] as ReadWord).x > z.x);
      // (No action's word has an f: in small type OCR reads a t as one, "Generafe".)
      if (link >= 0 && ACTION.test((words[row[link] as number] as ReadWord).text.replace(/f/g, 't'))) {
        let n = link + 1;
        while (n < row.length && gap(row[n - 1] as number, row[n] as number) < h * 1.2) n++;
        row = [...row.slice(0, link), ...row.slice(n)];
      }
      const before = row.filter((i) => (words[i] as ReadWord).x < a.x).at(-1);
      const after = row.find((i) => (words[i] as ReadWord).x > z.x);
      // A cell of its own: a column's gap (or nothing) before and after — not a word in a sentence.
      const gapBefore = before === undefined ? Infinity : a.x - ((words[before] as ReadWord).x + (words[before] as ReadWord).width);
      const gapAfter = after === undefined ? Infinity : (words[after] as ReadWord).x - (z.x + z.width);
      if (gapBefore < h * 1.2 || gapAfter < h * 1.2) continue;
      // …nor the start of a sentence: "Password: must be at least 12 characters" (OCR may give the
      // label a box short of its colon, and the gap after it looks like a column's).
      if (/^:?\s+[a-z]+\s+[a-z]+\s+(?:[a-z]+|\d+)\b/.test(text.text.slice(end))) continue;
      // The whole label cell must be the label (a word or two more is a heading, not a header).
      const caption = row.length === 0;
      const left = a.x - h * 1.5;
      const right = after === undefined ? a.x + h * 60 : (words[after] as ReadWord).x - h * 0.3;
      const kind: RedactionKind = OTP.test(m[0]) ? 'password' : /iban/i.test(m[0]) ? 'iban' : /key|oken|secret|credential/i.test(m[0]) ? 'secret' : 'password';
      // A form's or a key-value table's row: the label in a cell of its own, its value in the next
      // cell to the right (OCR reads the two cells as lines apart, so no line rule sees them together).
      if (after !== undefined) {
        const value = [after];
        // The gap from the furthest right the value has reached: a scrap the second look read
        // inside a word sorts after it and ends short of it.
        let reach = (words[after] as ReadWord).x + (words[after] as ReadWord).width;
        for (let j = row.indexOf(after) + 1; j < row.length; j++) {
          const w = words[row[j] as number] as ReadWord;
          if (w.x - reach > h * 1.2) break;
          value.push(row[j] as number);
          reach = Math.max(reach, w.x + w.width);
        }
        const text = value.map((i) => (words[i] as ReadWord).text).join(' ');
        if ((!headed && (besideValue(text, m[0]) || (also !== undefined && besideValue(text, also)))) || labelledValue(text, name, headed)) out.push({ words: value, kind, rule: 'beside' });
        // (…or its first word, a token, where the cell runs on into a control beside it: a secret
        // field's "👁 secret" toggle a little more than a space after a long key.)
        else if (value.length > 1 && (words[after] as ReadWord).text.length >= 16 && labelledValue((words[after] as ReadWord).text, name, headed)) out.push({ words: [after], kind, rule: 'beside' });
      }
      let lastBottom = line.bottom;
      for (let k = li + 1; k < lines.length; k++) {
        const below = lines[k] as Line;
        if ((below.top + below.bottom) / 2 < line.bottom) continue;
        if (below.top - lastBottom > Math.max(h, below.height) * 3.5) break;
        // Its row: the words of lines OCR read beside it at its height (a value's pieces either side
        // of a character it lost, read again one by one, are lines of their own).
        const bm = (below.top + below.bottom) / 2;
        const rowOf = lines.filter((l) => Math.abs((l.top + l.bottom) / 2 - bm) < below.height * 0.3 && Math.abs(l.height - below.height) < below.height * 0.3).flatMap((l) => l.words);
        const inCol = rowOf.filter((i) => {
          const w = words[i] as ReadWord;
          return w.x >= left && w.x < right;
        }).sort((p, q) => (words[p] as ReadWord).x - (words[q] as ReadWord).x);
        if (!inCol.length) continue;
        const value = inCol.map((i) => (words[i] as ReadWord).text).join(' ');
        // Another label in the column ends it (the next caption of a detail view), one that names a
        // public thing too ("App ID" under a section's heading "App Credentials").
        if (new RegExp(LABEL.source, 'i').test(value) && !secretValue(value, m[0]) && !(also !== undefined && secretValue(value, also))) break;
        if (publicCaption(value)) break;
        // …and so does another variable's name in capitals ("TWILIO_ACCOUNT_SID" under "SECRET_KEY_BASE").
        if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value.trim())) break;
        // The value's own cell: its first run of words with no column's gap inside, a field's
        // border ("|") aside — not the buttons beside it ("Hide", "Regenerate", "Copy").
        // (Nor is a scrap OCR boxed over two lines, "61d" 28 px tall over 8 px hex where it lost
        // characters: a word of three characters or fewer, twice the height of the caption's
        // letters. It bridges the value's pieces either side of it, but is not the value.)
        // (Twice as tall as the caption and as the words beside it: a value in bigger type than its
        // caption, a generated password under "Password" in pieces its colours cut, is no scrap.)
        const scrap = (w: ReadWord) => {
          if (w.text.length > 3 || w.height <= h * 2) return false;
          const beside = words.filter((o) => o !== w && o.y + o.height / 2 > w.y && o.y + o.height / 2 < w.y + w.height && o.x < w.x + w.width + h * 3 && o.x + o.width > w.x - h * 3);
          return beside.length > 0 && beside.every((o) => o.height * 2 < w.height);
        };
        // (…nor a sign or two with no letter or digit: an input box's edge read as "-" or "~" on a line of its own between the caption and its value.)
        const border = (i: number) => /^[|[\]{}()]+$|^[^\p{L}\p{N}]{1,2}$/u.test((words[i] as ReadWord).text);
        const own = inCol.filter((i) => !border(i) && !scrap(words[i] as ReadWord));
        // (A line of the field's border alone, "| |", or of scraps, is no value: the value is on the next.)
        if (!own.length) continue;
        const gapAt = (n: number) => {
          const p = words[own[n - 1] as number] as ReadWord, q = words[own[n] as number] as ReadWord;
          const bridge = words.find((w) => scrap(w) && w.x >= p.x + p.width - h && w.x + w.width <= q.x + h && w.y < q.y + q.height && w.y + w.height > q.y);
          return bridge ? Math.max(bridge.x - (p.x + p.width), q.x - (bridge.x + bridge.width)) : q.x - (p.x + p.width);
        };
        let end = 1;
        while (end < own.length && gapAt(end) < h * 1.2) end++;
        const head = own.slice(0, end);
        const whole = !headed && (secretValue(value, m[0]) || (also !== undefined && secretValue(value, also)));
        const ok = whole || (head.length > 0 && labelledValue(head.map((i) => (words[i] as ReadWord).text).join(' '), name, headed));
        // (A field's border or a focus ring read as "]" beside the value is not the value's: its box may reach into the next column.)
        if (ok) out.push({ words: whole ? inCol.filter((i) => !border(i)) : head, kind, rule: caption ? 'caption' : 'column' });
        lastBottom = below.bottom;
        // A caption names one value, unless it names a list ("backup codes:" over a code a line).
        // (A label with words before it is a caption or a heading, not a table's header, whatever
        // else OCR put on its row: it names the one value under it, if any.)
        if ((caption || headed) && (!ok || !LIST.test(m[0]))) break;
      }
    }
  });
  return out;
}

/**
 * Whether a word reads like a password someone chose or a generator made: 8–64 characters, no
 * spaces, lower case with two of capitals, digits and symbols, the classes changing often (a
 * name, a camelCase identifier or a hash changes seldom), and not an e-mail, a host, a URL or an
 * identifier. Enough alone only where a row says what it is (credentialRows).
 */
export function passwordLike(word: string): boolean {
  const t = word.replace(/^["'(]+|["'),;]+$/g, '');
  if (t.length < 8 || t.length > 64 || /\s/.test(t) || !/[a-z]/.test(t)) return false;
  const symbol = /[^A-Za-z0-9._-]/.test(t);
  if (Number(/[A-Z]/.test(t)) + Number(/\d/.test(t)) + Number(symbol) < 2) return false;
  if (/^[\w.+-]+@[\w-]+\.[\w.-]+$|:\/\/|^[\w-]+(?:\.[\w-]+)+$|^\d{1,4}[./:-]\d{1,2}/.test(t) || identifier(t)) return false;
  // A date and time as a list shows it, its spaces lost ("Dec2,8:34", "Dec 5, 13:55" read as one word),
  // its day too now and then ("Dec,14:44.").
  if (/^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[.,]?\d{0,2},?\d{1,2}:\d{2}/i.test(t)) return false;
  // A key and its value read as one word, a lock file's '"version":"2.11.0",' or '"lockfileVersion":Br'
  // (OCR's quotes curly as often as not), and a hex number ('0x9£2492b0508', an address read in part).
  if (/^["'“”‘’]?[A-Za-z_][\w.-]*["'“”‘’]?:|^0x[\dA-Fa-f]/.test(t)) return false;
  // Markup ('<artifact name="okhttp-4.12.0.jar">', a tag and its attribute read as one word).
  if (/^<[A-Za-z/?!]|[A-Za-z_]=["'“”]/.test(t)) return false;
  // A host and a path: an image's reference, a URL without its scheme ('registry.acme.io/api:4.18.2').
  if (/^[\w-]+(?:\.[\w-]+)+\/[\w.-]/.test(t)) return false;
  // camelCase with digits (getUser2ById): every capital starts a lower-case run.
  if (!symbol && /^[a-z]/.test(t) && !/[A-Z](?![a-z])/.test(t)) return false;
  const kind = (ch: string) => (/[a-z]/.test(ch) ? 0 : /[A-Z]/.test(ch) ? 1 : /\d/.test(ch) ? 2 : 3);
  let switches = 0;
  for (let i = 1; i < t.length; i++) if (kind(t[i] as string) !== kind(t[i - 1] as string)) switches++;
  return switches >= 4 && switches >= t.length * 0.25;
}

type Cell = { words: number[]; text: string; left: number; right: number; mid: number; h: number };

/** Each line's cells: runs of words with no column's gap between them (more than about a space). */
function cellsOf(words: readonly ReadWord[], lines: readonly Line[]): Cell[] {
  const cells: Cell[] = [];
  for (const line of lines) {
    let cur: number[] = [];
    const close = () => {
      if (!cur.length) return;
      const a = words[cur[0] as number] as ReadWord, z = words[cur.at(-1) as number] as ReadWord;
      // Pieces that touch are one word OCR split; a space between them is kept.
      let text = a.text;
      for (let j = 1; j < cur.length; j++) {
        const p = words[cur[j - 1] as number] as ReadWord, w = words[cur[j] as number] as ReadWord;
        text += (w.x - (p.x + p.width) < line.height * 0.25 ? '' : ' ') + w.text;
      }
      cells.push({ words: cur, text, left: a.x, right: z.x + z.width, mid: (line.top + line.bottom) / 2, h: line.height });
      cur = [];
    };
    for (const i of line.words) {
      const prev = cur.at(-1);
      if (prev !== undefined && (words[i] as ReadWord).x - ((words[prev] as ReadWord).x + (words[prev] as ReadWord).width) > line.height * 1.2) close();
      cur.push(i);
    }
    close();
  }
  return cells;
}

/**
 * A value whose name is in a cell of its own to its left on its row, read by OCR as a line apart (a
 * config page's "TWILIO_AUTH_TOKEN" box beside its value's box, an API client's variable table): the
 * nearest cell left of the value that is not a value itself names it secret (secretName), and the
 * value reads as generated or chosen (randomValue) — a hex key or a UUID too, when so named.
 */
export function namedCells(words: readonly ReadWord[], lines: readonly Line[] = linesOf(words)): ContextFinding[] {
  const cells = cellsOf(words, lines);
  const valueOf = (c: Cell) => (c.words.length <= 3 ? c.text.replace(/\s+/g, '') : c.text);
  const out: ContextFinding[] = [];
  for (const c of cells) {
    if (!randomValue(valueOf(c))) continue;
    const left = cells
      .filter((o) => o !== c && o.right <= c.left + c.h * 0.3 && Math.abs(o.mid - c.mid) < Math.max(o.h, c.h) * 0.5)
      .sort((a, b) => b.right - a.right);
    const name = left.find((o) => !randomValue(valueOf(o)) && /[A-Za-z]{2}/.test(o.text));
    if (name && name.words.length <= 4 && secretName(name.text)) out.push({ words: c.words, kind: 'secret', rule: 'named cell' });
  }
  return out;
}

/**
 * The spans (top to bottom) of armoured blocks that are public, as read: a BEGIN line that names a
 * public key, a certificate or a signature, and the next END line below it, with no other BEGIN or
 * END line between (a private key's block between them is not public).
 */
export function publicBlocks(words: readonly ReadWord[]): Array<{ top: number; bottom: number }> {
  const rows = new Map<number, ReadWord[]>();
  for (const w of words) rows.set(w.line, [...(rows.get(w.line) ?? []), w]);
  const marks: Array<{ y: number; begin: boolean; public: boolean }> = [];
  for (const ws of rows.values()) {
    const text = [...ws].sort((a, b) => a.x - b.x).map((w) => w.text).join(' ');
    const m = /-{2,}\s*(BEGIN|END)\b([A-Z ]*)/.exec(text);
    if (!m) continue;
    marks.push({ y: Math.min(...ws.map((w) => w.y + w.height / 2)), begin: m[1] === 'BEGIN', public: /PUBLIC\s*KEY|CERTIFICATE|SIGNATURE/.test(m[2] as string) && !/PRIVATE/.test(m[2] as string) });
  }
  marks.sort((a, b) => a.y - b.y);
  const out: Array<{ top: number; bottom: number }> = [];
  for (let i = 0; i + 1 < marks.length; i++) {
    const a = marks[i] as (typeof marks)[number], b = marks[i + 1] as (typeof marks)[number];
    if (a.begin && a.public && !b.begin && b.public) out.push({ top: a.y, bottom: b.y });
  }
  return out;
}

/**
 * Where the words lie of values whose name says they are public or data (publicValue: a JSON Web
 * Key's "n", a "kid", an integrity="sha384-…", a data-sitekey, a file's "content"), a box on each
 * line. The second look reads such lines again in pieces, without their names; what the first read
 * saw them named stays true of the ink there.
 */
export function publicValueBoxes(words: readonly ReadWord[]): Box[] {
  // One box a line, from the value's first run there to its last: OCR's scraps between are the value's too.
  const byLine = new Map<number, Box>();
  for (const b of boxesOf(words, (text, m) => publicValue(text, m.index), true)) {
    const key = Math.round(b.y + b.height / 2);
    const at = [...byLine.keys()].find((k) => Math.abs(k - key) < b.height / 2);
    const o = at === undefined ? undefined : byLine.get(at);
    if (at === undefined || !o) byLine.set(key, b);
    else {
      // (Along the line only: the band stays the narrower run's, a scrap boxed over three lines aside.)
      const x = Math.min(o.x, b.x), [y, height] = o.height <= b.height ? [o.y, o.height] : [b.y, b.height];
      byLine.set(at, { x, y, width: Math.max(o.x + o.width, b.x + b.width) - x, height });
    }
  }
  return [...byLine.values()];
}

/**
 * Where the words lie that the first read read as an identifier (identifier: a payments object's id,
 * a container's id after its scheme, a hash), a box on each line: the second look may read one again
 * without its underscore ("sub. 2PR1…"), and then it only looks random.
 */
export function identifierBoxes(words: readonly ReadWord[]): Box[] {
  // (With the pieces OCR cut it into on its line, and the head of a hash that wraps onto it.)
  return boxesOf(words, (text, m) => identifier(m[0]) || inIdentifier(text, m.index, m.index + m[0].length));
}

/** A table's column header that names an identifier, a version or a hash ("Version ID", "ETag", "Commit", "Key ID", "SHA-256"). */
const ID_HEADER = /\b(?:ids?|identifier|uuid|guid|version|revision|rev|etag|digest|hash|checksum|sha-?(?:1|256|512)?|md5|commit|fingerprint|serial|public|publishable)\b/i;
/** …and words that make a header a secret's whatever else it says ("Secret ID", "Session ID", "Token ID"). */
const SECRET_HEADER = /secret|token|pass|pwd|credential|private|auth|signature|session|cookie/i;

/**
 * Where a table's cells lie under a header that names an identifier and nothing secret — a listing's
 * "Version ID", "ETag" or "Commit" column — a box on each row of the column, from the header's left
 * to the next header's: what only looks random there (the entropy rule, a row's cell taken for a
 * saved password, ink the fail-safe would hide) is the column's data. A header is one of two cells or
 * more on a row of captions (a few words each, not values); the column runs down the rows of the table
 * below it (two cells or more each, a line's gap apart at most) to one that names a secret. A cell
 * that names a secret itself is not given a box.
 */
export function publicColumnBoxes(words: readonly ReadWord[], lines: readonly Line[] = linesOf(words)): Box[] {
  const cells = cellsOf(words, lines).sort((a, b) => a.mid - b.mid || a.left - b.left);
  const rows: Cell[][] = [];
  // (A row's cells by their middles' mean: a side bar's entry a little above it does not set it.)
  for (const c of cells) {
    const row = rows.at(-1);
    const mid = row ? row.reduce((n, o) => n + o.mid, 0) / row.length : 0;
    if (row && Math.abs(c.mid - mid) < Math.max(c.h, ...row.map((o) => o.h)) * 0.5) row.push(c);
    else rows.push([c]);
  }
  for (const row of rows) row.sort((a, b) => a.left - b.left);
  // (A caption as OCR reads it: a stop or a colon after it; a checkbox's or a sort arrow's scrap beside it is no cell.)
  const caption = (c: Cell) => {
    // (A word in brackets and an ampersand are a caption's too: "ID (hash)", "Service & Operation".)
    const t = c.text.replace(/[.:,;'"*|^]+$/, '');
    return /^[A-Za-z][A-Za-z &()-]*(?:\d{1,3})?\)?$/.test(t) && t.split(/\s+/).length <= 4 && !randomValue(t.replace(/[\s()&]+/g, ''));
  };
  const namesSecret = (t: string) => SECRET_HEADER.test(t) || (new RegExp(LABEL.source, 'i').test(t) && !PUBLIC_LABEL.test(t) && !ID_HEADER.test(t));
  const out: Box[] = [];
  rows.forEach((header, ri) => {
    const heads = header.filter((c) => !junk(c.text));
    if (heads.length < 2 || !heads.every(caption)) return;
    heads.forEach((head, hi) => {
      if (!ID_HEADER.test(head.text) || namesSecret(head.text)) return;
      const h = head.h;
      const left = head.left - h * 1.5;
      const next = heads[hi + 1];
      const right = next ? next.left - h * 0.3 : Infinity;
      let bottom = Math.max(...heads.map((c) => c.mid + c.h / 2));
      // (The table's cells only: a side bar's entries left of it are rows of their own.)
      const tableLeft = (heads[0] as Cell).left - h * 3;
      for (const all of rows.slice(ri + 1)) {
        const row = all.filter((c) => c.right > tableLeft);
        if (!row.length) continue;
        const top = Math.min(...row.map((c) => c.mid - c.h / 2));
        // A row of the table itself — a cell under each of its captions, or all but one — names its
        // item in its other cells ("api auth.verify", a message "Forgot your password?"): the column's
        // cell is still named by the column's header, unless the cell just left of it is a secret's
        // label ("Auth token"). A row shaped otherwise that names a secret ends the column.
        const ofTable = row.length >= Math.max(2, heads.length - 1);
        const label = row.filter((c) => c.left < left).at(-1);
        if (row.length < 2 || top - bottom > Math.max(h, row[0]?.h ?? h) * 3.5 || (ofTable ? !!label && secretLabel(label.text) : row.some((c) => namesSecret(c.text) && !ID_HEADER.test(c.text)))) break;
        bottom = Math.max(...row.map((c) => c.mid + c.h / 2));
        const inCol = row.filter((c) => c.left >= left && c.left < right);
        if (!inCol.length || inCol.some((c) => namesSecret(c.text))) continue;
        const x = Math.max(0, left), end = Number.isFinite(right) ? right : Math.max(...inCol.map((c) => c.right)) + h * 2;
        out.push({ x, y: top, width: end - x, height: bottom - top });
      }
    });
  });
  return out;
}

function boxesOf(words: readonly ReadWord[], take: (text: string, m: RegExpExecArray) => boolean, /** On along its line to where the value's quote closes. */ onward = false): Box[] {
  const map = wordText(words, false);
  const out: Box[] = [];
  for (const m of map.text.matchAll(/[^\s"'“”‘’,]{8,}/g)) {
    if (!take(map.text, m)) continue;
    const byLine = new Map<number, ReadWord[]>();
    const picked = wordsOf({ start: m.index, end: m.index + m[0].length }, map);
    for (let j = picked.at(-1) ?? -1; onward && j >= 0 && words[j + 1]?.line === words[j]?.line && !/["“”*]/.test((words[j] as ReadWord).text.slice(1)); j++) picked.push(j + 1);
    for (const i of picked) {
      const w = words[i] as ReadWord;
      byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
    }
    // Its line's band from the words' middles and usual height: OCR's box for a scrap may reach over
    // the lines above and below ("ICcLe2g=" boxed three lines tall), and the line below is another value.
    const median = (xs: number[]) => xs.sort((p, q) => p - q)[Math.floor(xs.length / 2)] as number;
    for (const ws of byLine.values()) {
      const low = Math.min(...ws.map((w) => w.height)), core = ws.filter((w) => w.height <= low * 1.5);
      const x = Math.min(...ws.map((w) => w.x)), mid = median(core.map((w) => w.y + w.height / 2)), h = median(core.map((w) => w.height));
      out.push({ x, y: mid - h / 2, width: Math.max(...ws.map((w) => w.x + w.width)) - x, height: h });
    }
  }
  return out;
}

/** Whether a box's middle lies in one of `areas` (a line's band, a quarter of a line more each way). */
export function middleInAny(b: Box, areas: readonly Box[]): boolean {
  const mx = b.x + b.width / 2, my = b.y + b.height / 2;
  return areas.some((a) => mx >= a.x && mx <= a.x + a.width && my >= a.y - a.height / 4 && my <= a.y + a.height * 1.25);
}

/**
 * The spans (top to bottom) of the rows that hold an SSH public key, its wrapped base64 or a
 * known_hosts entry (sshKeyLines), as read: the words of each line OCR read, rows in the order of
 * their middles (the second look's lines beside the first read's).
 */
export function sshKeyRows(words: readonly ReadWord[]): Array<{ top: number; bottom: number }> {
  // Rows by where the words sit, not by the line OCR gave them: the second look's words of a row are
  // lines of their own, and a scrap it read between two rows would end a key's wrapped lines.
  const sorted = words.filter((w) => w.height > 0).sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2));
  const rows: ReadWord[][] = [];
  let mid = -Infinity, h = 0;
  for (const w of sorted) {
    const m = w.y + w.height / 2;
    if (m - mid > Math.max(h, w.height) * 0.5) {
      rows.push([]);
      [mid, h] = [m, w.height];
    }
    rows.at(-1)?.push(w);
  }
  const lines = rows.map((ws) => ({ text: [...ws].sort((a, b) => a.x - b.x).map((w) => w.text).join(' '), top: Math.min(...ws.map((w) => w.y)), bottom: Math.max(...ws.map((w) => w.y + w.height)) }));
  const flags = sshKeyLines(lines.map((l) => l.text));
  return lines.filter((_, i) => flags[i]).map(({ top, bottom }) => ({ top, bottom }));
}

/**
 * A row of a hex dump (xxd, hexdump -C, od): an offset, then groups of two or four hex digits, most
 * of its words — as OCR reads them, an f as £, a 1 as l, a 0 as O, a stray % or ¥ in a group. Its
 * groups are bytes of a file, not a login and its password side by side.
 */
export function hexDumpRow(row: string): boolean {
  const m = /^\s*(?:0x)?\d[\dA-Fa-f£Ol]{3,15}:?\s+(.+)$/.exec(row);
  if (!m) return false;
  const groups = (m[1] as string).split(/\s+/);
  const hex = groups.filter((g) => /^[\dA-Fa-f£OlBS%¥]{2,5}$/.test(g)).length;
  return hex >= 4 && hex * 2 >= groups.length;
}

/** A login in a table's cell: a user name, an e-mail or a host, in lower case (with two letters side by side: digits alone, or with a unit, are a count — "78k" —, a block, an article). */
const LOGIN = /^[a-z0-9][a-z0-9_.+-]{1,39}(?:@[a-z0-9.-]+)?$/;

/**
 * A password in a row with no header over it (a browser's saved passwords: site, user name, the
 * revealed password): a cell of its own that reads like a password (passwordLike), right of a cell
 * on its row that is a login. OCR reads each cell of a row as a line of its own, so a row is the
 * cells whose middles meet.
 */
export function credentialRows(words: readonly ReadWord[], lines: readonly Line[] = linesOf(words)): ContextFinding[] {
  const cells = cellsOf(words, lines);
  const open = publicBlocks(words);
  const out: ContextFinding[] = [];
  for (const c of cells) {
    // OCR reads a symbol of a password as a space now and then ("Jj 756@Xe+UcQ$2"): two pieces in one cell.
    // (Not a command line's flag and its argument so joined: "grep -A3 Environment".)
    if (!passwordLike(c.text) && !(c.words.length === 2 && !/^--?[A-Za-z][\w-]*$/.test((words[c.words[0] as number] as ReadWord).text) && passwordLike(c.text.replace(/\s+/g, '')))) continue;
    // A value after = or : is a setting's, named by the cell to its left ('instance_type = "t3.medium"'
    // in terraform's output): whether it is secret is its name's to say (namedCells), not a login's.
    if (/^[=:]/.test(c.text)) continue;
    // An identifier is no password (a payments list's customer id beside the customer's e-mail).
    if (publicIdentifier(c.text.replace(/\s+/g, ''))) continue;
    // A row that names what it holds a hash or a payload ("integrity": "sha512-…" read in scraps on a
    // 4K screen) is a lock file's or a log's, not a saved password's.
    const row = cells.filter((o) => Math.abs(o.mid - c.mid) < Math.max(o.h, c.h) * 0.5).sort((a, b) => a.left - b.left).map((o) => o.text).join(' ');
    if (NAMED_IDENTIFIER.test(row) || hexDumpRow(row)) continue;
    // …nor a line of an armoured public key's base64 (OCR reads its scraps as cells).
    if (open.some((b) => c.mid > b.top && c.mid < b.bottom)) continue;
    // (A hex number is no login: a crash report's registers, "fp: 0x1511230270536bfa lr: O0xafa5…".)
    const login = cells.some((o) => o !== c && o.right <= c.left && Math.abs(o.mid - c.mid) < Math.max(o.h, c.h) * 0.5 && LOGIN.test(o.text.replace(/\s+/g, '')) && /[a-z]{2}/.test(o.text) && !/^0x[\da-f]+$/.test(o.text));
    if (login) out.push({ words: c.words, kind: 'password', rule: 'credential row' });
  }
  return out;
}

/**
 * A one-time code shown big (an authenticator's list): a line that is six digits, or two groups of
 * three, in text at least half again the height of the screen's usual line.
 */
export function bigCodes(words: readonly ReadWord[], lines: readonly Line[] = linesOf(words)): ContextFinding[] {
  const heights = lines.map((l) => l.height).sort((a, b) => a - b);
  const usual = heights[Math.floor(heights.length / 2)] ?? 0;
  const out: ContextFinding[] = [];
  for (const line of lines) {
    const value = line.words.map((i) => (words[i] as ReadWord).text).join(' ');
    if (/^\d{3} ?\d{3}$/.test(value) && line.height >= usual * 1.35) out.push({ words: [...line.words], kind: 'password', rule: 'one-time code' });
  }
  return out;
}

/** Words near a lone value that say it is a password (a dialog's field caption, a chat's question). */
const SPEAKS_OF_PASSWORD = /pass(?:word|wort|phrase|wd)?s?\b|\bpwd?\b(?![=+/])|wi-?fi|wlan|network\s+secur|secur\w*\s+\w?ey\b|credentials?\b|\bsecret\b|(?:security|secret)\s+question|memorable\s+word/i;
/** …of a generated token or key, as a console's dialog or a page shows it ("Copy the generated token"). */
const SPEAKS_OF_TOKEN = /\b(?:tokens?|api[- ]?keys?|secret(?:\s+key)?|access\s+keys?|private\s+keys?|credentials?)\b/i;
/** …of a one-time code. */
const SPEAKS_OF_CODE = /\bcodes?\b|\botp\b|totp|verification|2fa|two-factor|authenticator|passcode|\bpin\b/i;
/** …of a key to type into an authenticator. */
const SPEAKS_OF_SEED = /\bkey\b|secret|seed|authenticator|2fa|totp/i;
/** Headings over a list of one-time recovery codes. */
const CODE_LIST = /(?:recovery|backup|scratch|emergency|one[- ]time)\s+codes?/i;

/** The share of a run's characters that are base32's (A–Z, 2–7) as OCR reads them: 0 for O, 1 for I, 8 for B, a small letter for its capital. */
const base32Share = (t: string) => t.toUpperCase().replace(/0/g, 'O').replace(/1/g, 'I').replace(/8/g, 'B').replace(/[^A-Z2-7]/g, '').length / Math.max(1, t.length);

/** A word OCR made of a border, an icon or a counter (|, ®, "17", "0"): not text a person reads. */
const junk = (t: string) => t.replace(/[^A-Za-z0-9]/g, '').length < 2 || (t.length <= 2 && !/^\d{3}$/.test(t));

/**
 * A word shaped like a password and like nothing else on a screen: 6–64 characters of a password's
 * alphabet (no slash, colon, backslash or brackets: not a path, a URL, an account, code; a quote only
 * inside, where OCR reads a ^ as one), letters
 * with digits or symbols, not an e-mail, a host, a version, a date or a hash. Enough only where the
 * words around it speak of a password.
 */
export function passwordShaped(word: string, strong = false): boolean {
  const t = word.replace(/^["'([{<|]+|["')\]}>|,;:]+$/g, '').replace(/[.!?]$/, (m) => (word.length > 8 ? m : ''));
  if (t.length < 6 || t.length > 64 || !/^[A-Za-z0-9!#$%&*+?@^~._=-][A-Za-z0-9!#$%&*+?@^~._="'°\\()|-]*$/.test(t) || !/[A-Za-z]/.test(t)) return false;
  if (/@[\w-]+\.[A-Za-z]|^[\w-]+(?:\.[\w-]+)+$|^v?\d+(?:[.-]\d+)+|^\d{1,4}[./-]\d{1,2}/.test(t) || identifier(t)) return false;
  // An account (ACME\ada.byron) or a call (getPassword(), f(x)); a \ ( ) | or ' inside is OCR's for a sign.
  if (/^[\w-]+\\[\w.-]+$|\w\(.*\)/.test(t)) return false;
  // An SSH key's type (ssh-ed25519, ecdsa-sha2-nistp256, as OCR reads ssh).
  if (/^(?:[sS5$]{2}h-(?:ed2|rsa|dss)|ecdsa-sha|sk-ssh-)/.test(t)) return false;
  const core = t.replace(/[.!?]+$/, '');
  const digits = core.replace(/\D/g, '').length, symbol = /[^A-Za-z0-9._-]/.test(core);
  // Letters alone only in both cases changing often, capitals inside that do not start words (a
  // generated Wi-Fi key "QfbhwWBeRnoaR"; not camelCase, a Title or a name with an acronym, JSONParser).
  if (!digits && !symbol) return !strong && core.length >= 8 && /[a-z]/.test(core) && /[A-Z]{2}|[a-z][A-Z]$/.test(core.slice(1)) && (core.match(/[a-z](?=[A-Z])|[A-Z](?=[a-z])/g) ?? []).length >= 4;
  // In a sentence a word and a number are often a name (Windows10, node24): a chosen password has more.
  return !strong || symbol || digits >= 3 || (/[A-Z]/.test(core.slice(1)) && digits > 0);
}

/** Whether a word reads as a generated token: 16–100 characters, no address, path or code, digits and two more kinds of character, spread wide. */
function generatedToken(word: string): boolean {
  const t = word.replace(/^["'`(]+|["'`),;.]+$/g, '');
  if (t.length < 16 || t.length > 100 || /\s|:\/\/|^[~.]?\/|@[\w-]+\.|^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\(?/.test(t) || identifier(t)) return false;
  const kinds = Number(/[a-z]/.test(t)) + Number(/[A-Z]/.test(t)) + Number(/[^A-Za-z0-9]/.test(t));
  return /\d/.test(t) && kinds >= 2 && (kinds === 3 || /[a-z]/.test(t) && /[A-Z]/.test(t)) && entropy(t) >= 3.5;
}

/**
 * A value alone with nothing on its line that names it, where the words just before it do: a dialog's
 * field under or beside its caption ("Network security key", a credential prompt under "Enter your
 * credentials"), a password alone in a chat bubble under "what is the password?", a temporary password
 * in a box of its own under the e-mail's sentence about it, a six-digit code under "enter the code your
 * app shows", an authenticator's key in groups of four, and a list of recovery codes under its heading
 * with a paragraph between. Each shape counts only with such words on its line (left of it) or on the
 * three lines of text above it.
 */
export function namedNearby(words: readonly ReadWord[], lines: readonly Line[] = linesOf(words)): ContextFinding[] {
  const out: ContextFinding[] = [];
  const text = (ws: readonly number[]) => ws.map((i) => (words[i] as ReadWord).text).join(' ');
  const real = lines.map((l) => l.words.filter((i) => !junk((words[i] as ReadWord).text)));
  const heights = lines.map((l) => l.height).sort((a, b) => a - b);
  const usual = heights[Math.floor(heights.length / 2)] ?? 0;
  /** The text of up to `n` lines of words above line `li` (a line with a word of three letters or more), near it. */
  const above = (li: number, n: number): string => {
    const line = lines[li] as Line;
    const reach = Math.max(line.height, usual) * 8;
    const mid = (line.top + line.bottom) / 2;
    const found: string[] = [];
    for (let k = li - 1; k >= 0 && found.length < n; k--) {
      const l = lines[k] as Line;
      if ((l.top + l.bottom) / 2 >= mid - line.height * 0.3) continue;
      if (line.top - l.bottom > reach) break;
      // (Not a pane's beside it: a line above that lies wholly left or right of the value, far off, is another column's.)
      if (l.left > line.right + reach * 1.5 || l.right < line.left - reach * 1.5) continue;
      const t = text(real[k] as number[]);
      if (/[A-Za-z]{3}/.test(t)) found.push(t);
    }
    return found.join('\n');
  };
  // A list of recovery codes: lines that are each one code (a bullet aside), under a heading that names them.
  /** The words of line `li` and of the lines OCR read beside it on its row (the same middle, the same height; or lower, `scraps`). */
  const sameRow = (li: number, scraps = false): number[] => {
    const line = lines[li] as Line, mid = (line.top + line.bottom) / 2;
    return lines
      .filter((l) => Math.abs((l.top + l.bottom) / 2 - mid) < line.height * 0.3 && (Math.abs(l.height - line.height) < line.height * 0.3 || (scraps && l.height < line.height)))
      .flatMap((l) => l.words)
      .sort((a, b) => (words[a] as ReadWord).x - (words[b] as ReadWord).x);
  };
  const codeShaped = (t: string) => (/^[^\s-]{4,8}(?:[- ][^\s-]{4,8}){1,3}$/.test(t) || /^[A-Za-z0-9]{8,16}$/.test(t)) && /\d/.test(t) && t.replace(/[^A-Za-z0-9]/g, '').length >= t.replace(/[ -]/g, '').length * 0.8;
  /** A line of a list of codes: one code, or a code in each column (a list in two columns, read as one line). */
  // (A line of digits alone is as tall as a digit, with no ascender or descender to add: the space
  // between a code's groups of digits can be wider than that height, so a gap of twice it is looked
  // at too before the groups are taken for columns.)
  const codeRow = (ws: readonly number[], h: number): boolean => {
    if (!ws.length) return false;
    const split = (gap: number) => {
      const cells: number[][] = [[ws[0] as number]];
      for (let n = 1; n < ws.length; n++) {
        const p = words[ws[n - 1] as number] as ReadWord, w = words[ws[n] as number] as ReadWord;
        if (w.x - (p.x + p.width) > h * gap) cells.push([]);
        cells.at(-1)?.push(ws[n] as number);
      }
      return cells.length <= 4 && cells.every((c) => c.length <= 2 && codeShaped(text(c)));
    };
    return split(1.2) || split(2);
  };
  lines.forEach((line, li) => {
    const ws = real[li] as number[];
    if (!ws.length) return;
    const t = text(ws);
    // A value right under a caption that names a public thing ("App ID", "Client ID") is that thing,
    // whatever the words further up say ("App Credentials").
    // (All its words: "ID" alone is too short for a word of text.)
    const up = lines.slice(0, li).findLast((l) => (l.top + l.bottom) / 2 < (line.top + line.bottom) / 2 - line.height * 0.3);
    const caption = up && line.top - up.bottom < Math.max(line.height, usual) * 3 ? text(up.words) : '';
    if (publicCaption(caption)) return;
    // A one-time code alone, six digits or two threes (an icon or a countdown beside it aside); spaced
    // out in its field, OCR reads it in pieces ("2 7 342"), lines apart: the digits on its row.
    // (A digit it lost to a scrap, "-" for a 1, still leaves five.)
    const row = sameRow(li, true);
    const digits = row.filter((i) => /^\d+$/.test((words[i] as ReadWord).text));
    const spaced = digits.length > 1 && row.every((i) => digits.includes(i) || /^[-|lI.]$/.test((words[i] as ReadWord).text)) && /^\d{5,7}$/.test(text(digits).replace(/ /g, '')) && !row.some((i, n) => n > 0 && (words[i] as ReadWord).x - ((words[row[n - 1] as number] as ReadWord).x + (words[row[n - 1] as number] as ReadWord).width) > line.height * 3);
    if ((/^\d{6}$|^\d{3} \d{3}$/.test(t) || spaced) && SPEAKS_OF_CODE.test(above(li, 3))) {
      out.push({ words: spaced ? row : ws, kind: 'password', rule: 'named nearby' });
      return;
    }
    // An authenticator's key in groups of four: base32 (A–Z, 2–7; OCR reads O as 0 and I as 1).
    const packed = line.words.map((i) => (words[i] as ReadWord).text).join('');
    const groups = line.words.filter((i) => (words[i] as ReadWord).text.length === 4).length;
    // (A key's fingerprint in groups of four is hex: nine in ten of its characters 0–9 and A–F, as OCR
    // reads them; base32's are two in five.)
    const hexShare = packed.replace(/[^0-9A-F]/g, '').length / Math.max(1, packed.length);
    if (packed.length >= 16 && packed.length <= 64 && groups >= 4 && groups >= line.words.length * 0.6 && hexShare < 0.7 && base32Share(packed) >= 0.9 && /[2-7]/.test(packed) && /[G-Z]/.test(packed) && SPEAKS_OF_SEED.test(above(li, 3))) {
      // The rest of its groups: on its row where OCR read them as lines of their own, and on the line
      // below where the key wraps.
      const group = (i: number) => /^[A-Z0-9]{3,5}$/.test((words[i] as ReadWord).text);
      const more = row.filter((i) => !line.words.includes(i) && group(i));
      const next = lines[li + 1];
      const wrap = next && next.top - line.bottom < line.height * 1.5 && next.words.every(group) && next.words.length <= 4 ? next.words : [];
      out.push({ words: [...line.words, ...more, ...wrap], kind: 'secret', rule: 'named nearby' });
      return;
    }
    if (codeRow(ws, line.height)) {
      // Up the list (codes in columns are lines of their own) to the text above its first code.
      let k = li;
      while (k > 0 && codeRow(real[k - 1] as number[], (lines[k - 1] as Line).height)) k--;
      if (CODE_LIST.test(above(k, 6))) {
        out.push({ words: ws, kind: 'password', rule: 'named nearby' });
        return;
      }
    }
    // A generated password in groups ("bjzx euom sqkc dems", an app password) under words about it.
    // (Its groups spaced wide, OCR may read the row as lines apart: the words of its row.)
    // (Its dashes read with a space beside them, "pzan-nghi -imey-hhwe", it is still its groups: three or more.)
    const grouped = row.filter((i) => !junk((words[i] as ReadWord).text));
    const dashed = text(grouped).replace(/\s*-\s*/g, '-');
    if (dashed.split(/[ -]/).length >= 3 && groupedValue(dashed) && SPEAKS_OF_PASSWORD.test(above(li, 3))) {
      out.push({ words: grouped, kind: 'password', rule: 'named nearby' });
      return;
    }
    // A value after the colon that ends a clause naming a password, in a sentence however long ("Last
    // changed 3 months ago — new password saved in the launcher notes: Copper4055."): the clause from
    // the sentence's last stop or dash to the colon says what follows; shaped as a chosen password, strictly.
    for (let n = 1; n + 1 < ws.length; n++) {
      if (!/[^:]:$/.test((words[ws[n] as number] as ReadWord).text)) continue;
      let from = n;
      while (from > 0 && !/[.!?;]$|^[—–-]$/.test((words[ws[from - 1] as number] as ReadWord).text)) from--;
      const clause = text(ws.slice(from, n + 1));
      const next = ws[n + 1] as number;
      if (n + 1 - from <= 12 && SPEAKS_OF_PASSWORD.test(clause) && !/\b(?:user\s?name|login|e-?mail|account|hint)s?:$/i.test(clause) && passwordShaped((words[next] as ReadWord).text, true)) {
        out.push({ words: [next], kind: 'password', rule: 'named nearby' });
        return;
      }
    }
    // A generated token alone on its line under words about one ("Generated token" / "Copy the
    // generated token. It won't be shown again." / "2pp4.YD3g:BiOJP00_bR"): 16–100 characters with
    // digits, capitals and small letters or signs, spread wide — signs a password's shape refuses
    // (a colon, brackets) included; not an address, a path, a name in code or an identifier.
    if (ws.length === 1 && SPEAKS_OF_TOKEN.test(above(li, 3)) && generatedToken((words[ws[0] as number] as ReadWord).text)) {
      out.push({ words: ws, kind: 'secret', rule: 'named nearby' });
      return;
    }
    // A password: alone, or last on a short line whose other words name it ("Network security key |
    // …"), or in a short reply under a question about it ("it's velvet4142 lowercase").
    if (ws.length > 5) return;
    // An icon at the field's far end (an eye read as "ou") is not part of the line's text.
    const gapBefore = (n: number, of: readonly number[]) => (words[of[n] as number] as ReadWord).x - ((words[of[n - 1] as number] as ReadWord).x + (words[of[n - 1] as number] as ReadWord).width);
    let vs = ws;
    while (vs.length > 1 && (words[vs.at(-1) as number] as ReadWord).text.length <= 3 && gapBefore(vs.length - 1, vs) > line.height * 3) vs = vs.slice(0, -1);
    const last = vs.at(-1) as number;
    // (Pieces that touch are one word OCR split: "Jj 756@Xe+UcQ$2", "Gap$x4\ 'Mqbru".)
    const touching = vs.length > 1 && vs.length <= 3 && vs.every((_, n) => n === 0 || gapBefore(n, vs) < line.height * 0.25);
    const lone = vs.length === 1 || (touching && passwordShaped(text(vs).replace(/ /g, '')));
    const value = lone ? vs : [last];
    const word = lone ? text(vs).replace(/ /g, '') : (words[last] as ReadWord).text;
    const label = lone ? '' : text(vs.slice(0, -1));
    // A value its own line names an identifier ('msgid "rw7AGL"', "commit 3f2a…") is that, whatever
    // the words above it say: the name on its line is its name.
    if (!lone && identifierName((words[vs.at(-2) as number] as ReadWord).text)) return;
    if (passwordShaped(word) && (lone || SPEAKS_OF_PASSWORD.test(label)) && (SPEAKS_OF_PASSWORD.test(label) || SPEAKS_OF_PASSWORD.test(above(li, 3)))) {
      out.push({ words: value, kind: 'password', rule: 'named nearby' });
      return;
    }
    if (!lone && ws.length <= 4 && SPEAKS_OF_PASSWORD.test(above(li, 3))) {
      const picked = ws.filter((i) => passwordShaped((words[i] as ReadWord).text, true));
      if (picked.length === 1) out.push({ words: picked, kind: 'password', rule: 'named nearby' });
    }
  });
  return out;
}

/** A shell's prompt and what is typed after it: PowerShell's "PS C:\src>", a POSIX shell's "ada@box:~$", a root "#". */
const PROMPT = /(?:^|\s)(?:PS\s+\S*>|\S*[$#%>])\s+(\S.*)$/;
/** Commands that print a variable or a file as it is. */
const PRINTS = /^(?:echo|printenv|printf(?:\s+\S+)?|print|cat|type|gc|get-content|write-output|write-host|more|head)\s+/i;

/** A command's words that make or show a secret, and those that list, remove or explain one. */
const MAKES = /^(?:create|generate|gen|new|issue|mint|add|rotate|regenerate|roll|reset|print|show|reveal|get|display)$/i;
const NOT_MAKES = /^(?:list|ls|revoke|delete|del|rm|remove|expire|describe|help|inspect|status|info|verify|check|validate|import|login|logout|use)$/i;

/**
 * Whether a command line makes or prints a secret: before its flags, a word that names one
 * (secretName, a compound read in parts: "preauthkeys" is pre-auth keys, "apitoken") and a verb that
 * makes or shows it — "headscale preauthkeys create --user homelab", "vault token create",
 * "kubeadm token create", "gcloud auth print-access-token" — not one that lists or revokes them.
 */
export function makesSecret(typed: string): boolean {
  const words = typed.split(/\s+/);
  const end = words.findIndex((w) => /^-/.test(w));
  const command = (end < 0 ? words : words.slice(0, end)).slice(0, 6).flatMap((w) => w.split(/[-_]/)).filter(Boolean);
  if (command.some((w) => NOT_MAKES.test(w) || w.includes('='))) return false;
  const named = command.some((w, i) => secretName(w) || (i > 0 && secretName(`${command[i - 1] as string} ${w}`)));
  return named && command.some((w) => MAKES.test(w));
}

/**
 * The output of a command that prints a variable or a file whose name says secret — "echo
 * $GITHUB_TOKEN", PowerShell's "$env:PULUMI_ACCESS_TOKEN", "cat ~/.config/hub/token": the lines
 * right under the command, to the next prompt or the first line that is no value (three at most), each one run of a key's alphabet
 * with letters and digits (in up to four pieces, as OCR splits a long run) — a hex key too, which
 * alone passes for a hash: the command says what it is.
 */
export function printedValues(words: readonly ReadWord[], lines: readonly Line[] = linesOf(words)): ContextFinding[] {
  const out: ContextFinding[] = [];
  const text = (ws: readonly number[]) => ws.map((i) => (words[i] as ReadWord).text).join(' ');
  lines.forEach((line, li) => {
    // (A comment after the command is the person's note, not the command's: "cat …/node-token # the old box".)
    const typed = PROMPT.exec(text(line.words))?.[1]?.replace(/\s+#(?:\s.*)?$/, '');
    // (Not a pipe, a redirect or an assignment; a flag's value after = is a command's that makes a key.)
    if (!typed || /[|<]/.test(typed) || (/=/.test(typed) && !makesSecret(typed))) return;
    // (OCR reads the $ as an S now and then: "Senv:PULUMI ACCESS TOKEN"; an underscore as a space.)
    const name = typed.replace(PRINTS, '').replace(/^["'${(]*(?:S(?=env:))?(?:env:)?/i, '').replace(/["'})]+$/, '');
    // (One name: a variable's or a file's, or a variable's in capitals OCR split at its underscores — not a command's words and flags.)
    // (A file's own name says what it holds where its path is long: "/var/lib/rancher/k3s/server/node-token".)
    if (!(/^[A-Za-z_~./][\w.:/~-]*$|^[A-Z][A-Z0-9]*(?: [A-Z0-9]+){1,4}$/.test(name) && (secretName(name.replace(/\s+/g, '_')) || secretName(name.split('/').at(-1) as string))) && !makesSecret(typed)) return;
    let bottom = line.bottom;
    for (let k = li + 1, seen = 0; k < lines.length && seen < 3; k++) {
      const below = lines[k] as Line;
      if ((below.top + below.bottom) / 2 < line.bottom) continue;
      if (below.top - bottom > Math.max(line.height, below.height) * 1.5 || Math.abs(below.left - line.left) > line.height * 3) break;
      const t = text(below.words);
      if (PROMPT.test(t)) break;
      seen++;
      bottom = below.bottom;
      const pieces = t.trim().split(/\s+/);
      const joined = pieces.join(''), signs = (joined.match(MISREAD) ?? []).length;
      const packed = signs <= 2 ? joined.replace(MISREAD, '') : joined;
      if (!(pieces.length <= 4 && packed.length >= 16 && packed.length <= 200 && /^[A-Za-z0-9+/=_.~:-]+$/.test(packed) && /\d/.test(packed) && /[A-Za-z]/.test(packed))) break;
      out.push({ words: [...below.words], kind: 'secret', rule: 'printed' });
    }
  });
  return out;
}

/**
 * Words of a heading that name what its panel holds a secret: a caption's label (LABEL: "PIN",
 * "Backup codes", "Security code", "One-time password"), a secret's name ("API token", "Client
 * secret"), a one-time code's words, or a code, key, PIN or number a qualifier makes one to keep
 * ("Activation code", "Unlock key", "PUK", "Recovery number"); not one that names a public thing.
 */
const SECRET_HEADING = /\b(?:(?:recovery|backup|scratch|emergency|one[- ]time|verification|security|activation|unlock|access|sign[- ]?in|log[- ]?in|authentication|auth|2fa|mfa|pairing|setup|master|puk|sim|card|door|alarm|safe)\s+(?:codes?|keys?|pins?|numbers?)|pins?|puk\d?|passcodes?|activation|tan)\b/i;

export function secretHeading(text: string): boolean {
  if (PUBLIC_LABEL.test(text) || publicCaption(text)) return false;
  return SECRET_HEADING.test(text) || OTP.test(text) || CODE_LIST.test(text) || new RegExp(LABEL.source, 'i').test(text) || secretName(text);
}

/**
 * A value alone on its line whose only label is the heading of its panel — a card's, a dialog's, a
 * page's section — with a paragraph or more between: a SIM's PUK under "Your PUK code", a new PIN
 * under "Card PIN", an activation code, a recovery code under its heading. A heading is a short line
 * (six words at most, no value in it) that names a secret (secretHeading); its panel is the lines
 * below it in its column up to the next heading, a gap of four lines, or ten lines. Its lone values
 * that are shaped like a code — digits (4–16, in groups or not), or letters and digits in groups or a
 * run of 6–24 with both — count as secrets; what the line above names public ("Order ID") does not.
 */
export function headedValues(words: readonly ReadWord[], lines: readonly Line[] = linesOf(words)): ContextFinding[] {
  const out: ContextFinding[] = [];
  const text = (ws: readonly number[]) => ws.map((i) => (words[i] as ReadWord).text).join(' ');
  const real = lines.map((l) => l.words.filter((i) => !junk((words[i] as ReadWord).text) || /^\d{4,}$/.test((words[i] as ReadWord).text)));
  const heights = lines.map((l) => l.height).sort((a, b) => a - b);
  const usual = heights[Math.floor(heights.length / 2)] ?? 0;
  const code = (t: string) => {
    const v = t.trim();
    if (/^\d{4,16}$/.test(v) || /^\d{2,6}(?:[ -]\d{2,6}){1,3}$/.test(v)) return v.replace(/\D/g, '').length <= 16;
    const alnum = v.replace(/[^A-Za-z0-9]/g, '');
    if (!/^[A-Za-z0-9]{3,8}(?:[ -][A-Za-z0-9]{3,8}){1,4}$|^[A-Za-z0-9]{6,24}$/.test(v) || alnum.length < 6) return false;
    if (identifier(alnum) || !/\d/.test(v) || !/[A-Za-z]/.test(v)) return false;
    // Groups of a code, not words: a group of small letters alone is a word ("b7119bd merge branch main",
    // a commit's line of git log --oneline under "docs: explain the token rotation").
    if (/[ -]/.test(v) && v.split(/[ -]/).some((g) => /^[a-z]+$/.test(g))) return false;
    // In capitals, or mixed as a generator mixes them (not a word with a number, "Page2of7").
    return !/[a-z]/.test(v) || randomValue(alnum);
  };
  /** The words on line `li`'s row near it, its own and those of lines OCR read beside it (a table's other cells). */
  const rowOf = (li: number) => {
    const line = lines[li] as Line, mid = (line.top + line.bottom) / 2, near = line.height * 8;
    return lines.flatMap((l, k) => (Math.abs((l.top + l.bottom) / 2 - mid) < line.height * 0.5 && l.right > line.left - near && l.left < line.right + near ? (real[k] as number[]) : []));
  };
  // (A question or a sentence is no heading: a table's cell "Forgot your password?".)
  const heading = (li: number) => {
    const ws = real[li] as number[];
    if (!ws.length || ws.length > 6) return false;
    const t = text(ws);
    return /[A-Za-z]{3}/.test(t) && !/\d{3}|[?.!]$/.test(t) && secretHeading(t);
  };
  /** Words with no column's gap between them: one cell. */
  const oneCell = (ws: readonly number[], h: number) => ws.every((i, n) => n === 0 || (words[i] as ReadWord).x - ((words[ws[n - 1] as number] as ReadWord).x + (words[ws[n - 1] as number] as ReadWord).width) < h * 1.5);
  lines.forEach((head, hi) => {
    if (!heading(hi)) return;
    const h = Math.max(head.height, usual);
    let bottom = head.bottom;
    for (let k = hi + 1, seen = 0; k < lines.length && seen < 10; k++) {
      const line = lines[k] as Line;
      if ((line.top + line.bottom) / 2 < head.bottom) continue;
      // Its column: lines that reach under the heading (not a side bar's or another pane's).
      if (line.right < head.left - h * 2 || line.left > head.right + h * 12) continue;
      if (line.top - bottom > Math.max(h, line.height) * 4) break;
      seen++;
      bottom = line.bottom;
      const ws = real[k] as number[];
      if (!ws.length) continue;
      if (heading(k)) break;
      const t = text(ws);
      // The next heading: a short line of words as tall as this one, taller than the text around.
      if (ws.length <= 6 && !/\d/.test(t) && line.height >= head.height * 0.85 && line.height > usual * 1.1 && head.height > usual * 1.1) break;
      // (One cell, alone on its row near it: a table row's first and last cells, read as one line, are not one value.)
      if (ws.length > 4 || rowOf(k).length > ws.length || !oneCell(ws, line.height) || !code(t)) continue;
      const up = lines.slice(hi + 1, k).findLast((l) => (l.top + l.bottom) / 2 < (line.top + line.bottom) / 2 - line.height * 0.3);
      if (up && publicCaption(text(up.words))) continue;
      out.push({ words: ws, kind: 'password', rule: 'headed panel' });
    }
  });
  return out;
}

/** A word that can be the rest of a wrapped key: no spaces, no prose, letters with digits or capitals inside. */
function continuation(text: string, hex = false): boolean {
  // (A percent-encoded value's % as OCR reads it now and then: ':' before its two hex digits.)
  let t = text.replace(/^["'(]+|["'),;]+$/g, '').replace(/%?:(?=[0-9A-Fa-f]{2})/g, '%');
  // (A few signs in a long run are misreads, as in labelledValue: up to one in twelve, a hex line's c read as "¢".)
  const signs = (t.match(MISREAD) ?? []).length;
  if (t.length >= 16 && signs && signs <= Math.floor(t.length / 12)) t = t.replace(MISREAD, '');
  if (t.length < 3 || !/^[A-Za-z0-9+/=_.~%-]+$/.test(t)) return false;
  // (A short hash alone is an identifier; under a hex secret's line, it is the secret's end, digits
  // alone too.)
  if (hex && /^[0-9a-f]{4,}$/i.test(t)) return true;
  if (identifier(t) && t.length < 20) return false;
  // A log line's timestamp starts the next entry, not more of a key ("2026-12-05T10:35:36.799Z").
  if (/^\d{4}-\d{2}-\d{2}(?:T\d|$)/.test(t)) return false;
  return (/\d/.test(t) && /[A-Za-z]/.test(t)) || /.[A-Z].*[a-z]|.[a-z].*[A-Z]/.test(t) || /^[A-Za-z0-9+/]{12,}={0,2}$/.test(t);
}

/** Each word's line, by its place in `lines`: built once per set of lines, not once per finding (a
 * screen of thousands of labelled values — a page anyone can write — made it quadratic). */
const lineIndexes = new WeakMap<readonly Line[], Map<number, number>>();
function lineIndex(lines: readonly Line[]): Map<number, number> {
  let lineOf = lineIndexes.get(lines);
  if (!lineOf) {
    lineOf = new Map();
    for (const [li, l] of lines.entries()) for (const w of l.words) lineOf.set(w, li);
    lineIndexes.set(lines, lineOf);
  }
  return lineOf;
}

/**
 * The words that continue a secret on the lines below it, when it wraps: its last word ends its line
 * (or its cell), and the next line starts under the secret's first word or at the line's left edge
 * with a word that can be more of a key. Up to 12 lines (a JWT in a narrow pane).
 */
export function wrappedOn(words: readonly ReadWord[], picked: readonly number[], lines: readonly Line[] = linesOf(words)): number[] {
  if (!picked.length) return [];
  const lineOf = lineIndex(lines);
  const sorted = [...picked].sort((a, b) => (lineOf.get(a) ?? 0) - (lineOf.get(b) ?? 0) || (words[a] as ReadWord).x - (words[b] as ReadWord).x);
  const first = words[sorted[0] as number] as ReadWord;
  let li = lineOf.get(sorted.at(-1) as number);
  let last = sorted.at(-1) as number;
  const out: number[] = [];
  const secret = sorted.map((i) => (words[i] as ReadWord).text).join('');
  // (OCR reads a hex key's b as h now and then: "6258h0bh5277".)
  const hex = secret.length >= 16 && secret.replace(/[^0-9a-f]/gi, '').length >= secret.length * 0.85;
  for (let n = 0; n < 12 && li !== undefined; n++) {
    const line = lines[li] as Line;
    // The rest of the run the secret's words end in, to its line's end: OCR splits a key at a
    // character it is unsure of ("…RtA30Z2] 00] CPBk23Nv06 rmMugisann/8"), and a rule may have
    // taken only the first piece. Pieces that touch and read as more of a key, or as a scrap.
    let at = line.words.indexOf(last);
    for (let j = at + 1; j < line.words.length; j++) {
      const p = words[line.words[j - 1] as number] as ReadWord, w = words[line.words[j] as number] as ReadWord;
      if (w.x - (p.x + p.width) >= line.height * 1.2 || !(continuation(w.text, hex) || (w.text.length <= 4 && (hex || /[^A-Za-z]/.test(w.text))))) break;
      if (j < line.words.length - 1) continue;
      out.push(...line.words.slice(at + 1));
      at = j;
    }
    const after = line.words[at + 1];
    last = line.words[at] as number;
    const lw = words[last] as ReadWord;
    // (An icon beside it, read as a sign or two — a secret field's eye, a copy button — is no more text on its line.)
    if (after !== undefined && (words[after] as ReadWord).x - (lw.x + lw.width) < line.height * 1.2 && !/^[^\p{L}\p{N}]{1,2}$/u.test((words[after] as ReadWord).text)) break;
    // The next line down with a word under the secret's start or at its line's left edge (OCR may
    // have read the cells of a table row as lines of their own: the one below is not always next).
    let next: Line | undefined, head: number | undefined, nextAt = -1;
    for (let k = li + 1; k < lines.length; k++) {
      const l = lines[k] as Line;
      if ((l.top + l.bottom) / 2 < line.bottom) continue;
      if (l.top - line.bottom > line.height * 1.2) break;
      const h = Math.max(line.height, l.height);
      head = l.words.find((i) => {
        const w = words[i] as ReadWord;
        return Math.abs(w.x - first.x) < h * 1.5 || Math.abs(w.x - line.left) < h * 1.5;
      });
      if (head !== undefined) {
        next = l;
        nextAt = k;
        break;
      }
    }
    if (!next || head === undefined || !continuation((words[head] as ReadWord).text, hex)) break;
    const h = Math.max(line.height, next.height);
    // The first word below and what touches it on its line (a key OCR split).
    const run = [head];
    for (let j = next.words.indexOf(head) + 1; j < next.words.length; j++) {
      const prev = words[run.at(-1) as number] as ReadWord, w = words[next.words[j] as number] as ReadWord;
      // (In a hex key's line a scrap of a few letters between its pieces is a misread piece, "caj".)
      if (w.x - (prev.x + prev.width) > h * 0.6 || !(continuation(w.text, hex) || (hex && w.text.length <= 4 && /^[\w[\]|=-]+$/.test(w.text)))) break;
      run.push(next.words[j] as number);
    }
    out.push(...run);
    last = run.at(-1) as number;
    li = nextAt;
  }
  return out;
}

type LineText = { text: string; wordsIn(start: number, end: number): number[] };

function lineText(words: readonly ReadWord[], line: Line): LineText {
  let text = '';
  const spans: Array<[number, number, number]> = [];
  for (const i of line.words) {
    if (text) text += ' ';
    spans.push([text.length, text.length + (words[i] as ReadWord).text.length, i]);
    text += (words[i] as ReadWord).text;
  }
  return { text, wordsIn: (start, end) => spans.filter(([a, b]) => a < end && b > start).map(([, , i]) => i) };
}
