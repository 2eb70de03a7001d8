// What to hide in an image and in text made from one (architecture §3 "Redact"). Pure of pixels:
// it gets the words OCR read (in the original's pixels) and the windows on the screen, and says
// which rectangles to fill and why. maskImage.ts fills them; the door decides when (main/images).
import { DEFAULT_REDACT_CATEGORIES, RedactionKind, type OwnPattern, type RedactCategory, type Redaction } from '../../common/privacy.ts';
import { ruleFindings, type Finding } from './findings.ts';
import { bigCodes, credentialRows, headedValues, joinRows, joinSingles, joinTight, labelledBelow, withoutIcons, linesOf, namedCells, namedNearby, printedValues, wrappedOn } from './context.ts';
import { inEnglish } from './localWords.ts';
import { neighbourValues } from './neighbourhood.ts';
import { boxOver, overlaps, union, wordText, wordsOf, type Box, type ReadWord } from './locate.ts';
import { ownPatternMatches } from './ownPatterns.ts';
import { secretlintFindings } from './secretlintScan.ts';

/** What the person chose in Settings → Privacy (and per command). */
export type DetectOptions = {
  categories?: Readonly<Record<RedactCategory, boolean>>;
  patterns?: readonly OwnPattern[];
  excludedApps?: readonly string[];
};

/** A window on the captured screen, in the image's pixels (from the capture backend's window list). */
export type ScreenWindow = {
  app: string;
  title: string;
  /**
   * Every other name the system gives the window (X11: WM_NAME beside _NET_WM_NAME, WM_CLASS's
   * instance and class): a password manager that sets only the legacy title is still known.
   */
  names?: readonly string[];
  x: number;
  y: number;
  width: number;
  height: number;
  /** A password field its window's accessibility marked: always filled, whatever its names. */
  password?: true;
  /** A secret found in the window's own words (accessibility), at its own box: always filled. */
  secret?: { kind: string; rule: string };
};

type Detection = { regions: Redaction[]; /** Own patterns that could not run, in words. */ skipped: string[] };

/** Every finding in `text`: secretlint's rules (category keys), Glance's own, the person's patterns. */
export async function findSecrets(text: string, options: DetectOptions = {}): Promise<{ findings: Finding[]; skipped: string[] }> {
  const own = await ownPatternMatches([text], options.patterns ?? []);
  const findings = await ruleSecrets(text, options);
  findings.push(...(own.perText[0] ?? []));
  return { findings, skipped: own.skipped };
}

/** The built-in rules' findings in `text` (secretlint's and Glance's own). */
async function ruleSecrets(text: string, options: DetectOptions): Promise<Finding[]> {
  const categories = options.categories ?? DEFAULT_REDACT_CATEGORIES;
  const findings = ruleFindings(text, categories);
  if (categories.keys) findings.push(...(await secretlintFindings(text)));
  return findings;
}

/** A generic rule's kind gives way to a specific one when their boxes meet ("aws key" over "key-like text"). */
export const GENERIC: ReadonlySet<RedactionKind> = new Set(['key-like text', 'password', 'secret']);

/** The rectangles to fill in an image of `size`, given the words OCR read in it and the windows on it. */
export async function detectRedactions(read: readonly ReadWord[], size: { width: number; height: number }, options: DetectOptions & { windows?: readonly ScreenWindow[]; /** A box on each line a finding's words are on, never one over two lines. */ lineBoxes?: boolean } = {}): Promise<Detection> {
  const regions: Redaction[] = windowRegions(options.windows ?? [], options.excludedApps ?? [], size);
  // One row of text that OCR read as several lines is one line again (a card number in big digits),
  // and a run of single characters on it one word (a code typed a digit a box, a letter-spaced key);
  // a secret's name in another language is read as its English words (localWords.ts); a token OCR
  // cut into pieces with no space between them is one word again; an icon read as a sign is no word.
  const words = inEnglish(joinSingles(joinTight(joinRows(withoutIcons(read)))));
  const skipped = new Set<string>();
  const boxes: Array<Box & { kind: RedactionKind; rule: string }> = [];
  const lines = linesOf(words);
  const lineOf = new Map<number, number>();
  for (const l of lines) for (const w of l.words) lineOf.set(w, l.id);
  /** One box per line the words are on: a wrapped secret's box never covers the text beside it. */
  const boxEach = (indices: readonly number[], kind: RedactionKind, rule: string) => {
    const byLine = new Map<number, number[]>();
    for (const i of indices) byLine.set(lineOf.get(i) ?? -1, [...(byLine.get(lineOf.get(i) ?? -1) ?? []), i]);
    for (const group of byLine.values()) {
      const box = boxOver(words, group, size);
      if (box) boxes.push({ ...box, kind, rule });
    }
  };
  const maps = [wordText(words, false), wordText(words, true)];
  // The person's patterns over both texts at once: one time budget for the image, off the main thread.
  const own = await ownPatternMatches(maps.map((m) => m.text), options.patterns ?? []);
  for (const s of own.skipped) skipped.add(s);
  for (const [pass, map] of maps.entries()) {
    const found = [...(await ruleSecrets(map.text, options)), ...(own.perText[pass] ?? [])];
    for (const f of found) {
      const picked = wordsOf(f, map);
      // A card number wrapped in a paragraph (a signed link's value that wraps) gets a box on each line, not one over the text between;
      // other findings across lines (a PEM block, secretlint's) keep one box over all of them.
      if (f.rule === 'luhn-wrap' || f.rule === 'card-groups' || f.rule === 'url-param' || options.lineBoxes) boxEach(picked, f.kind, f.rule);
      else {
        const box = boxOver(words, picked, size);
        if (box) boxes.push({ ...box, kind: f.kind, rule: f.rule });
      }
      // Its continuation when it wraps (a terminal's 80 columns, a narrow pane, a table cell).
      const more = wrappedOn(words, picked, lines);
      if (more.length) boxEach(more, f.kind, `${f.rule}+wrap`);
    }
  }
  // Values whose label is not on their line: a column header, a caption, a big one-time code, a
  // password in a row beside its login, a lone value under or after words that name it, a lone code
  // whose only label is its panel's heading.
  const categories = options.categories ?? DEFAULT_REDACT_CATEGORIES;
  if (categories.passwords) {
    for (const c of [...labelledBelow(words, lines), ...bigCodes(words, lines), ...credentialRows(words, lines), ...namedCells(words, lines), ...namedNearby(words, lines), ...headedValues(words, lines), ...printedValues(words, lines), ...neighbourValues(words, lines)]) {
      boxEach(c.words, c.kind, c.rule);
      const more = wrappedOn(words, c.words, lines);
      if (more.length) boxEach(more, c.kind, `${c.rule}+wrap`);
    }
  }
  // Overlapping boxes are one region: the count the label gives is what a person would count.
  // (Not boxes on lines apart when each line is to keep its own: OCR's box for one line's words may
  // reach into the next, and the two would merge into one box over both.)
  const merged = options.lineBoxes ? boxes : mergeBoxes(boxes);
  // Inside an excluded window everything is already filled, and a box inside another is filled with
  // it — not a rule's box inside a run that only looks random: redactImage keeps the first read's
  // boxes a rule named and drops such runs, and a caption's box inside one went with it.
  const windows = [...regions];
  for (const b of merged) if (!windows.some((r) => contains(r, b)) && !regions.some((r) => contains(r, b) && (r.kind !== 'key-like text' || b.kind === 'key-like text'))) regions.push(b);
  return { regions, skipped: [...skipped] };
}

type KindBox = Box & { kind: RedactionKind; rule: string };

/**
 * Boxes that meet become one, in the place of the first of them; a grown box may meet others, which
 * are folded in until none meet. The kind is the kept box's unless a specific rule's box joins a
 * generic one ("aws key" over "key-like text").
 */
export function mergeBoxes<T extends KindBox>(boxes: readonly T[]): T[] {
  const merged: T[] = [];
  for (const b of boxes) {
    let grown: T = { ...b };
    let at = merged.length;
    for (let again = true; again; ) {
      again = false;
      for (let i = merged.length - 1; i >= 0; i--) {
        const o = merged[i] as T;
        if (!overlaps(grown, o)) continue;
        const keep = GENERIC.has(o.kind) && !GENERIC.has(grown.kind) ? grown : o;
        grown = { ...grown, ...union(grown, o), kind: keep.kind, rule: keep.rule };
        merged.splice(i, 1);
        at = Math.min(at > i ? at - 1 : at, i);
        again = true;
      }
    }
    merged.splice(Math.min(at, merged.length), 0, grown);
  }
  return merged;
}

function contains(outer: Box, inner: Box): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
}

/** A kind the rules named (the window's words were read by the same rules); anything else is a secret all the same. */
function asKind(kind: string): RedactionKind {
  const parsed = RedactionKind.safeParse(kind);
  return parsed.success ? parsed.data : 'secret';
}

/** Windows whose app name, title or any other name the system gives holds an excluded name (case-insensitive) are filled whole. */
export function windowRegions(windows: readonly ScreenWindow[], excludedApps: readonly string[], size: { width: number; height: number }): Redaction[] {
  const names = excludedApps.map((a) => a.trim().toLowerCase()).filter(Boolean);
  const out: Redaction[] = [];
  for (const w of windows) {
    const given = [w.app, w.title, ...(w.names ?? [])].map((n) => n.toLowerCase()).filter(Boolean);
    const name = w.password || w.secret ? undefined : names.find((n) => given.some((g) => g.includes(n)));
    if (name === undefined && !w.password && !w.secret) continue;
    const x = Math.max(0, Math.floor(w.x)), y = Math.max(0, Math.floor(w.y));
    const right = Math.min(size.width, Math.ceil(w.x + w.width)), bottom = Math.min(size.height, Math.ceil(w.y + w.height));
    if (right <= x || bottom <= y) continue;
    if (w.password) out.push({ x, y, width: right - x, height: bottom - y, kind: 'password', rule: 'accessibility:password text' });
    else if (w.secret) out.push({ x, y, width: right - x, height: bottom - y, kind: asKind(w.secret.kind), rule: `accessibility:${w.secret.rule}` });
    else out.push({ x, y, width: right - x, height: bottom - y, kind: 'excluded window', rule: `window:${w.app || w.names?.find(Boolean) || name}` });
  }
  return out;
}

/** What a hidden span says in text sent to a model: it is told that something was there. */
const hiddenMark = (kind: RedactionKind): string => `[hidden: ${kind}]`;

/**
 * Text read from an image, with every secret replaced by `[hidden: kind]` (read_text, a blind
 * model's transcription). `hidden` lists what was replaced, in order.
 */
export async function redactText(text: string, options: DetectOptions = {}): Promise<{ text: string; hidden: Array<{ kind: RedactionKind; rule: string }>; skipped: string[] }> {
  const spans: Finding[] = [];
  const found = await findSecrets(text, options);
  // Text OCR made has the same split keys as the image: a run of non-space characters is the unit.
  for (const f of found.findings) {
    let start = f.start, end = f.end;
    while (start > 0 && !/\s/.test(text[start - 1] as string)) start--;
    while (end < text.length && !/\s/.test(text[end] as string)) end++;
    spans.push({ ...f, start, end });
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Finding[] = [];
  for (const s of spans) {
    const last = kept[kept.length - 1];
    if (last && s.start <= last.end) {
      last.end = Math.max(last.end, s.end);
      if (GENERIC.has(last.kind) && !GENERIC.has(s.kind)) Object.assign(last, { kind: s.kind, rule: s.rule });
    } else kept.push({ ...s });
  }
  let out = '';
  let at = 0;
  for (const s of kept) {
    out += text.slice(at, s.start) + hiddenMark(s.kind);
    at = s.end;
  }
  out += text.slice(at);
  return { text: out, hidden: kept.map((s) => ({ kind: s.kind, rule: s.rule })), skipped: found.skipped };
}
