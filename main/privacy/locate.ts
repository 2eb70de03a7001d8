// From OCR words to rectangles to fill. The words of each line are joined into text (with their
// offsets kept), every rule runs over it, and each finding becomes the box of the words it
// touches — whole words, never part of one — plus a margin (half the line's height at the ends), so
// no stroke of a hidden character is left at an edge. OCR sometimes splits one key into two
// "words" with no real gap between them ("AKIA3X7L MN2PQ…"); the text is therefore read twice,
// once as OCR spaced it and once with the gaps narrower than a space closed, and a finding in
// either counts.
import type { Finding } from './findings.ts';

/** A word read from the image, in the original's pixels. `line` groups the words of one line. */
export type ReadWord = { text: string; line: number; x: number; y: number; width: number; height: number; /** Read from a slanted block turned upright: the box is the slanted word's bounds. */ tilted?: true };
export type Box = { x: number; y: number; width: number; height: number };

/** A gap narrower than this share of the line's height is not a space a person typed. */
const TIGHT_GAP = 0.3;
const MARGIN_X = 0.5;
const MARGIN_Y = 0.12;
const MIN_MARGIN_PX = 3;

type WordText = { text: string; /** For each character of text, the index of its word (-1 for separators). */ owner: Int32Array };

/** The words as one text, lines on their own lines; `compact` closes the gaps OCR invented inside a run. */
export function wordText(words: readonly ReadWord[], compact: boolean): WordText {
  const parts: string[] = [];
  const owners: number[] = [];
  // A line's usual space: in a proportional font a space is a quarter of an em, below the tight gap
  // above, and prose would be closed up into one run ("expresafter3days;"). On a line of several
  // words a gap is tight only when it is well under the line's usual one too.
  const usual = new Map<number, number>();
  if (compact) {
    const gaps = new Map<number, number[]>();
    for (let i = 1; i < words.length; i++) {
      const a = words[i - 1] as ReadWord, b = words[i] as ReadWord;
      if (a.line === b.line) gaps.set(b.line, [...(gaps.get(b.line) ?? []), b.x - (a.x + a.width)]);
    }
    for (const [line, g] of gaps) if (g.length >= 3) usual.set(line, g.sort((p, q) => p - q)[Math.floor(g.length / 2)] as number);
  }
  let prev: ReadWord | undefined;
  words.forEach((w, i) => {
    if (prev) {
      const sameLine = prev.line === w.line;
      const gap = w.x - (prev.x + prev.width);
      const tight = Math.min(Math.max(prev.height, w.height) * TIGHT_GAP, (usual.get(w.line) ?? Infinity) * 0.6);
      const sep = !sameLine ? '\n' : compact && gap < tight ? '' : ' ';
      for (const ch of sep) {
        parts.push(ch);
        owners.push(-1);
      }
    }
    for (let k = 0; k < w.text.length; k++) owners.push(i);
    parts.push(w.text);
    prev = w;
  });
  return { text: parts.join(''), owner: Int32Array.from(owners) };
}

/** The words a finding touches. */
export function wordsOf(finding: Pick<Finding, 'start' | 'end'>, map: WordText): number[] {
  const set = new Set<number>();
  for (let i = Math.max(0, finding.start); i < Math.min(finding.end, map.owner.length); i++) {
    const w = map.owner[i] as number;
    if (w >= 0) set.add(w);
  }
  return [...set].sort((a, b) => a - b);
}

/** The rectangle over `indices` (and any word touching them on their line), with the margin, inside the image. */
export function boxOver(words: readonly ReadWord[], indices: readonly number[], image: { width: number; height: number }): Box | undefined {
  if (indices.length === 0) return undefined;
  const picked = new Set(indices);
  // Grow along each line over words that touch the run: a key OCR split leaves no readable end.
  for (const i of indices) {
    for (const step of [-1, 1]) {
      let j = i;
      for (;;) {
        const a = words[j], b = words[j + step];
        if (!a || !b || a.line !== b.line) break;
        const [left, right] = step > 0 ? [a, b] : [b, a];
        const gap = right.x - (left.x + left.width);
        const h = Math.max(a.height, b.height);
        // A key OCR split at its - or _ reads as words with spaces between: a fragment that looks
        // like more of the key (letters and digits, no prose) one or two spaces away is hidden too.
        if (gap >= h * TIGHT_GAP && !(gap < h * 2.5 && keyFragment(b.text))) break;
        j += step;
        picked.add(j);
      }
    }
  }
  const bands = lineBands(words);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, h = 0;
  for (const i of picked) {
    const w = words[i];
    if (!w) continue;
    // tesseract now and then gives a word a box twice its line's height, reaching into the lines
    // around it; its line's usual top and bottom are where its glyphs are.
    // A word read turned upright (a slanted block) keeps its whole slanted box.
    const band = bands.get(w.line);
    const top = band ? Math.max(w.y, band.top) : w.y;
    const bottom = band ? Math.min(w.y + w.height, band.bottom) : w.y + w.height;
    x0 = Math.min(x0, w.x);
    y0 = Math.min(y0, w.tilted ? w.y : top);
    x1 = Math.max(x1, w.x + w.width);
    y1 = Math.max(y1, w.tilted ? w.y + w.height : bottom);
    h = Math.max(h, bottom - top);
  }
  if (!Number.isFinite(x0)) return undefined;
  // Wide at the ends (a split key's last characters), shallow above and below: word boxes run from
  // ascender to descender already, and a deeper margin would cut into the lines around it.
  const mx = Math.max(MIN_MARGIN_PX, Math.ceil(h * MARGIN_X));
  const my = Math.max(2, Math.ceil(h * MARGIN_Y));
  const x = Math.max(0, Math.floor(x0 - mx));
  // The margin stops short of the lines above and below: a fill touching a line's glyphs makes OCR
  // (and a reader) lose that line's words, though none of them was hidden.
  const lines = new Set([...picked].map((i) => words[i]?.line));
  let above = -Infinity, below = Infinity;
  for (const [line, band] of bands) {
    if (lines.has(line)) continue;
    if (band.bottom <= y0) above = Math.max(above, band.bottom);
    if (band.top >= y1) below = Math.min(below, band.top);
  }
  const y = Math.max(0, Math.floor(Math.max(y0 - my, Math.min(y0, above + 1))));
  const right = Math.min(image.width, Math.ceil(x1 + mx));
  const bottom = Math.min(image.height, Math.ceil(Math.min(y1 + my, Math.max(y1, below - 1))));
  if (right <= x || bottom <= y) return undefined;
  return { x, y, width: right - x, height: bottom - y };
}

/** A word that reads like a piece of a key: 4+ characters of letters and digits mixed, or capitals inside. */
function keyFragment(text: string): boolean {
  // OCR ends a token it half read with a sign no key has ("…S61y¢", "-2nt’"): signs at the ends are not the key.
  const t = text.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  if (t.length < 4 || !/^[A-Za-z0-9+/=_.~-]+$/.test(t)) return false;
  const digit = /\d/.test(t), letter = /[A-Za-z]/.test(t);
  return (digit && letter) || /[a-z][A-Z]|[A-Z]{2}[a-z]/.test(t.slice(1));
}

const BANDS = new WeakMap<readonly ReadWord[], Map<number, { top: number; bottom: number }>>();

/** Each line's glyph band: the median top and bottom of its words, widened by a fifth of its height. */
function lineBands(words: readonly ReadWord[]): Map<number, { top: number; bottom: number }> {
  const known = BANDS.get(words);
  if (known) return known;
  const byLine = new Map<number, ReadWord[]>();
  for (const w of words) byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
  // The upper median of tops and the lower median of bottoms: with as many inflated boxes as sound ones, the sound ones win.
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
  const bands = new Map<number, { top: number; bottom: number }>();
  for (const [line, all] of byLine) {
    // tesseract gives a line number or a dash now and then a box 1 px high: it says nothing of
    // where the line's glyphs are, and with one other word it would squash the band to a sliver.
    const tallest = Math.max(...all.map((w) => w.height));
    const ws = all.length > 1 ? all.filter((w) => w.height >= tallest * 0.35) : all;
    const top = sorted(ws.map((w) => w.y))[Math.floor(ws.length / 2)] as number;
    const bottom = sorted(ws.map((w) => w.y + w.height))[Math.floor((ws.length - 1) / 2)] as number;
    const slack = (bottom - top) * 0.2;
    bands.set(line, { top: top - slack, bottom: bottom + slack });
  }
  BANDS.set(words, bands);
  return bands;
}

export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

export function union(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x), y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}
