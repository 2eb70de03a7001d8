// A hidden token's continuation on the lines below it, found in the pixels (DESIGN §3b): a token in a
// narrow pane, a table cell or an 80-column terminal wraps, and its last few characters stand alone
// at the start of the next line. The rules follow a continuation OCR read as more of a key
// (context.ts wrappedOn); this follows one OCR read poorly (letters alone, "ytbbnwiohmo") or not at
// all (a faint token the fail-safe hid as ink): when a hidden token's line ends at the right edge of
// its column, the next line's first run of ink with no space in it is the token's too.
import type { Redaction } from '../../common/privacy.ts';
import type { ReadWord } from './locate.ts';
import type { Grey } from './secondLook.ts';

/** A step this large from the paper is ink (as the second look's). */
const STEP = 20;
/** At most this many lines below a token are taken as its continuation. */
const MAX_LINES = 12;

/**
 * A word of prose or a label a sure read made ("never", "Created", "rotated", "OK"): letters of one
 * case (a capital first), with a word's share of vowels and no long run of consonants. A token's
 * tail of letters alone ("ytbbnwiohmo", "rbctng") has few.
 */
function prose(text: string): boolean {
  const t = text.replace(/[.,:;!?)"']+$/, '').replace(/^["'(]+/, '');
  if (!/^(?:[A-Za-z][a-z]*|[A-Z]+)$/.test(t)) return false;
  if (t.length <= 3) return true;
  const vowels = t.replace(/[^aeiou]/gi, '').length;
  return vowels >= t.length * 0.3 && !/[^aeiouy]{5}/i.test(t);
}

/**
 * The boxes that continue `region` onto the lines below it, each over the next line's first run of
 * ink, while the line above it ends at its column's right edge: no ink right of the box for three
 * line heights, and the box reaching within a line height and a half of the right end of the lines
 * around it. The next line must start at the left of the token's line (or under the token's start),
 * and the run must not be a sure read of a word of prose.
 */
export function wrappedInk(grey: Grey, region: Redaction, words: readonly (ReadWord & { confidence?: number })[]): Redaction[] {
  const { data, width, height } = grey;
  const out: Redaction[] = [];
  let box: { x: number; y: number; width: number; height: number } = region;
  for (let n = 0; n < MAX_LINES; n++) {
    const x0 = Math.max(0, Math.floor(box.x)), x1 = Math.min(width, Math.ceil(box.x + box.width));
    const y0 = Math.max(0, Math.floor(box.y)), y1 = Math.min(height, Math.ceil(box.y + box.height));
    if (x1 - x0 < 4 || y1 - y0 < 4) break;
    // Paper: the grey most common along the box's top and bottom rows (its margin).
    const hist = new Uint32Array(256);
    for (let x = x0; x < x1; x++) {
      hist[data[y0 * width + x] as number]!++;
      hist[data[(y1 - 1) * width + x] as number]!++;
    }
    let paper = 0;
    for (let v = 1; v < 256; v++) if ((hist[v] as number) > (hist[paper] as number)) paper = v;
    const ink = (x: number, y: number) => Math.abs((data[y * width + x] as number) - paper) >= STEP;
    const inkInRows = (x: number, top: number, bottom: number) => {
      for (let y = top; y < bottom; y++) if (ink(x, y)) return true;
      return false;
    };
    // The token's glyph rows inside the box.
    let top = -1, bottom = -1;
    for (let y = y0; y < y1; y++) {
      let any = false;
      for (let x = x0; x < x1 && !any; x++) any = ink(x, y);
      if (any) {
        if (top < 0) top = y;
        bottom = y + 1;
      }
    }
    if (top < 0) break;
    const lh = bottom - top;
    if (lh < 5 || lh > 120) break;
    // A column of ink from a line height above the line to one below it is a rule (a pane's or a
    // cell's border), not a glyph: it ends the column.
    // (Down to the next line too: a pane's border beside both lines is no ink of either.)
    const rules = new Map<number, boolean>();
    const rule = (x: number) => {
      const known = rules.get(x);
      if (known !== undefined) return known;
      let n = 0;
      const a = Math.max(0, top - lh), b = Math.min(height, bottom + lh * 2);
      for (let y = a; y < b; y++) if (ink(x, y)) n++;
      rules.set(x, n >= (b - a) * 0.9);
      return n >= (b - a) * 0.9;
    };
    const glyphIn = (x: number, a: number, b: number) => !rule(x) && inkInRows(x, a, b);
    // Its line ends here: no glyph right of the box for three line heights (up to a rule).
    const right = x1;
    let after = false;
    for (let x = right; x < Math.min(width, right + lh * 3) && !after; x++) {
      if (!inkInRows(x, top, bottom)) continue;
      if (rule(x)) break;
      after = true;
    }
    if (after) break;
    // The left of its line: ink leftwards from the box with no gap wider than two line heights.
    let left = x0;
    for (let x = x0 - 1, gap = 0; x >= 0 && gap <= lh * 2 && !rule(x); x--) {
      if (inkInRows(x, top, bottom)) {
        left = x;
        gap = 0;
      } else gap++;
    }
    // The next line: the first rows of ink below, within a line height and a half, in the columns
    // from the line's left to the box's right.
    const rowInk = (y: number) => {
      for (let x = Math.max(0, left - lh); x < right; x++) if (ink(x, y) && !rule(x)) return true;
      return false;
    };
    let nTop = -1;
    for (let y = bottom + 1; y < Math.min(height, bottom + lh * 1.5 + 2); y++) {
      if (rowInk(y)) {
        nTop = y;
        break;
      }
    }
    if (nTop < 0 || nTop - bottom < 1) break;
    let nBottom = nTop;
    while (nBottom < height && nBottom - nTop < lh * 1.6 && rowInk(nBottom)) nBottom++;
    const nh = nBottom - nTop;
    if (nh < lh * 0.5 || nh > lh * 1.5) break;
    // Its first ink: at the line's left or under the token's start.
    let start = -1;
    for (let x = Math.max(0, left - lh); x < right; x++) {
      if (glyphIn(x, nTop, nBottom)) {
        start = x;
        break;
      }
    }
    if (start < 0 || !(Math.abs(start - left) <= lh || Math.abs(start - x0) <= lh * 1.5)) break;
    // The run from there with no gap as wide as a space.
    const maxGap = Math.max(2, Math.round(lh * 0.3));
    let end = start, gap = 0;
    for (let x = start; x < Math.min(width, right + lh) && gap <= maxGap && !rule(x); x++) {
      if (inkInRows(x, nTop, nBottom)) {
        end = x + 1;
        gap = 0;
      } else gap++;
    }
    if (end - start < lh) break;
    // The token's line reached its column's right edge: the lines around it (above and below, in its
    // columns) end no further right than a line height and a half past it.
    let reach = right;
    for (const [a, b] of [[Math.max(0, top - lh * 2), top - Math.ceil(lh * 0.3)], [nTop, nBottom]] as const) {
      let edge = Math.min(width, right + lh * 3);
      for (let x = right; x < edge; x++) if (rule(x)) edge = x;
      for (let x = edge - 1; x > reach; x--) {
        if (inkInRows(x, Math.max(0, Math.floor(a)), Math.max(0, Math.floor(b)))) {
          reach = x + 1;
          break;
        }
      }
    }
    if (reach - right > lh * 1.5) break;
    const run = { x: start, y: nTop, width: end - start, height: nh };
    // A sure read of a word of prose there is the next line's text, not the token's tail.
    const over = words.filter((w) => w.x < run.x + run.width && w.x + w.width > run.x && w.y + w.height / 2 > run.y && w.y + w.height / 2 < run.y + run.height);
    // (…nor, however sure, a shell's prompt, "ada@build-01:~/infra$", "PS C:\src>": the next command, under a token a command printed.)
    if (over.some((w) => ((w.confidence ?? 100) >= 60 && prose(w.text)) || /^[\w.-]+@[\w.-]+:|^PS$|^[A-Z]:\\/.test(w.text))) break;
    const m = Math.ceil(nh * 0.3);
    const next = { x: Math.max(0, run.x - m), y: Math.max(0, run.y - m), width: Math.min(width, run.x + run.width + m) - Math.max(0, run.x - m), height: Math.min(height, run.y + run.height + m) - Math.max(0, run.y - m) };
    out.push({ ...next, kind: region.kind, rule: `${region.rule.replace(/\+wrap$/, '')}+wrap` });
    // On down while this line, too, fills its column.
    if (end < right - lh * 1.5) break;
    box = next;
  }
  return out;
}
