// A wallet's recovery (seed) phrase: 12 to 24 words of BIP-39's public list of 2048, which is the
// wallet's private key in words. A wallet shows it once, as a numbered grid or a line of words, for
// the person to write down — and a screenshot of that screen gives the wallet away. No other rule
// sees a secret in a run of ordinary lower-case words; this one knows the list.
import { wordlist } from '@scure/bip39/wordlists/english.js';

/** BIP-39's English list, as wallets draw their phrases from it. */
export const SEED_WORDS: readonly string[] = wordlist;
const WORDS: ReadonlySet<string> = new Set(wordlist);
/** BIP-39's words differ in their first four letters: a word OCR misread after them is still known. */
const BY_HEAD: ReadonlyMap<string, string> = new Map(wordlist.map((w) => [w.slice(0, 4), w]));

/** Words above a phrase that say what it is (any wallet's: "Secret Recovery Phrase", "seed words", "mnemonic"). */
const HEADING = /\b(?:recovery|seed|secret|backup|wallet)\s+(?:phrase|words?)\b|\bmnemonic\b|\bseed\b/i;

/** Whether `token` is a list word as OCR read it: exact, or one letter off the word its first four letters name. */
function listWord(token: string): boolean {
  if (WORDS.has(token)) return true;
  if (token.length < 5) return false;
  const word = BY_HEAD.get(token.slice(0, 4));
  return word !== undefined && oneLetterOff(token, word);
}

/** Whether `a` and `b` are at most one letter apart (one changed, added or dropped). */
export function oneLetterOff(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0, j = 0, edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/**
 * Runs of 12 or more BIP-39 words in `text` ([start, end) offsets), numbered or not ("1. auction
 * 2. athlete …", a grid read row by row), with at most one word in four that OCR misread past
 * knowing; under a heading that names a recovery phrase, 8 known words of 10 will do (OCR drops a
 * word of a grid now and then, or reads it past knowing). Prose does
 * not make such a run: the list has none of English's small words (the, and, of, to, is).
 */
export function* seedPhrases(text: string): Iterable<[number, number]> {
  type Tok = { start: number; end: number; known: boolean; word: string };
  const run: Tok[] = [];
  const flush = function* (): Iterable<[number, number]> {
    // Trim unknown words at the ends; count what is left.
    while (run.length && !run[0]?.known) run.shift();
    while (run.length && !run.at(-1)?.known) run.pop();
    const knownWords = run.filter((t) => t.known).map((t) => t.word);
    const known = knownWords.length;
    const first = run[0], last = run.at(-1);
    // A phrase is drawn at random from 2048 words: in 12 or 24 a word comes twice now and then, not
    // more. A log's "step 1 ok … step 120 ok" (its numbers and "ok" skipped as numbering) is one word
    // over and over.
    if (first && last && known >= 8 && new Set(knownWords).size * 4 >= known * 3) {
      const headed = HEADING.test(text.slice(Math.max(0, first.start - 400), first.start));
      if (known >= 12 || (headed && run.length >= 10)) yield [first.start, last.end];
    }
    run.length = 0;
  };
  let misses = 0;
  for (const m of text.matchAll(/\S+/g)) {
    const raw = m[0];
    // A list's numbering ("1.", "12)", "#3") between words, alone or glued to the word ("1.auction"),
    // or as OCR misread it ("a1", "1TN", "IY.", "ls"): a short scrap with a digit or no small
    // letter, or of two characters (no list word is shorter than three).
    if (/^#?\d{1,2}[.):]?$/.test(raw) || raw.length <= 2 || (raw.length <= 4 && (/\d/.test(raw) || !/[a-z]/.test(raw)))) continue;
    const lead = (/^#?\d{0,2}[.):]?/.exec(raw) as RegExpExecArray)[0].length;
    // OCR's scraps on a word's ends (a cell's border read as ‘ or |, a comma from a dot below): a
    // word that ends in a sign starts no run ("…in a safe place."), though inside one it is a word.
    const opening = (/^[‘’'"`([{|]*/.exec(raw.slice(lead)) as RegExpExecArray)[0].length;
    const bare = raw.slice(lead + opening);
    const closed = bare.replace(/[.,;:!?'"’)\]}|]+$/, '');
    const word = closed !== bare && run.length < 4 ? bare : closed;
    const start = m.index + lead + opening;
    if (/^[a-z]{3,8}$/.test(word)) {
      const known = listWord(word);
      if (!known) misses++;
      // More than one in four unknown: this is not a phrase (or it ended) — start again from here.
      if (!known && misses * 4 > run.length + 1) {
        yield* flush();
        misses = 0;
        continue;
      }
      run.push({ start, end: start + word.length, known, word });
      continue;
    }
    yield* flush();
    misses = 0;
  }
  yield* flush();
}
