// From OCR words to rectangles to fill. The words of each line are joined into text (with their
// offsets kept), every rule runs over it, and each finding becomes the box of the words it
// touches — whole words, never part of one — plus a margin of a third of the line's height, so
// no stroke of a hidden character is left at an edge. OCR sometimes splits one key into two
// "words" with no real gap between them ("AKIA3X7L MN2PQ…"); the text is therefore read twice,
// once as OCR spaced it and once with the gaps narrower than a space closed, and a finding in
// either counts.
import type { Finding } from './findings.ts';

/** A word read from the image, in the original's pixels. `line` groups the words of one line. */
export type ReadWord = { text: string; line: number; x: number; y: number; width: number; height: number };
export type Box = { x: number; y: number; width: number; height: number };

/** A gap narrower than this share of the line's height is not a space a person typed. */
const TIGHT_GAP = 0.3;
const MARGIN = 0.35;
const MIN_MARGIN_PX = 3;

export type WordText = { text: string; /** For each character of text, the index of its word (-1 for separators). */ owner: Int32Array };

/** The words as one text, lines on their own lines; `compact` closes the gaps OCR invented inside a run. */
export function wordText(words: readonly ReadWord[], compact: boolean): WordText {
  const parts: string[] = [];
  const owners: number[] = [];
  let prev: ReadWord | undefined;
  words.forEach((w, i) => {
    if (prev) {
      const sameLine = prev.line === w.line;
      const gap = w.x - (prev.x + prev.width);
      const sep = !sameLine ? '\n' : compact && gap < Math.max(prev.height, w.height) * TIGHT_GAP ? '' : ' ';
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
        if (right.x - (left.x + left.width) >= Math.max(a.height, b.height) * TIGHT_GAP) break;
        j += step;
        picked.add(j);
      }
    }
  }
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, h = 0;
  for (const i of picked) {
    const w = words[i];
    if (!w) continue;
    x0 = Math.min(x0, w.x);
    y0 = Math.min(y0, w.y);
    x1 = Math.max(x1, w.x + w.width);
    y1 = Math.max(y1, w.y + w.height);
    h = Math.max(h, w.height);
  }
  if (!Number.isFinite(x0)) return undefined;
  const m = Math.max(MIN_MARGIN_PX, Math.ceil(h * MARGIN));
  const x = Math.max(0, Math.floor(x0 - m));
  const y = Math.max(0, Math.floor(y0 - m));
  const right = Math.min(image.width, Math.ceil(x1 + m));
  const bottom = Math.min(image.height, Math.ceil(y1 + m));
  if (right <= x || bottom <= y) return undefined;
  return { x, y, width: right - x, height: bottom - y };
}

export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

export function union(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x), y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}
