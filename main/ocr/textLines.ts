// The lines of a text block, found from its pixels before any recognition: the unit of reuse finer
// than a block. A terminal that printed five lines changes the block it prints in, but most of that
// block's lines are the same pixels as before (only moved, or not at all): those are answered from
// memory and only the new lines are read, stacked into one small image (one recognise call).
// Pixels here are a block's own, dark text on light (regionReader.ts inverts dark blocks first).
import { createHash } from 'node:crypto';
import type { OcrLine, OcrWord } from './textReader.ts';

/** A run of rows holding ink (one line of text, or two whose descenders and ascenders touch), and the columns its ink spans. */
export type InkLine = { y0: number; y1: number; x0: number; x1: number };

/** What was read in one line, in the line's own pixels (origin at its ink's top-left). */
export type LineReading = { lines: OcrLine[]; words: OcrWord[] };

/** A pixel this much darker than the paper is ink. */
const INK = 60;
/** Rows of anti-aliased glyph edges above and below a line's ink that still belong to it. */
const PAD = 3;

/** The block's paper: the median of every third pixel. */
export function paperOf(pixels: Uint8Array): number {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < pixels.length; i += 3) histogram[pixels[i]!]!++;
  let seen = 0;
  const half = Math.ceil(pixels.length / 3) / 2;
  for (let v = 0; v < 256; v++) if ((seen += histogram[v]!) >= half) return v;
  return 255;
}

/**
 * Ink held unbroken for this many pixels down a column, or three times as many along a row, and at
 * least {@link RULE_SLENDER} times as long as it is thick, is a rule, not a glyph: a form field's
 * border, a table's or a gutter's line, an editor's indent guide. (A glyph's stem is at most a line
 * of text high and thicker for its length: '[' at 28 px type is 34 px by 3, a heading's stems are
 * thick; a field's border at 4K@2 is 50 px by 2.)
 */
const RULE_PX = 24;
const RULE_SLENDER = 12;

/**
 * The block's rules (see {@link RULE_PX}) painted over with its paper, in place; returns how many
 * pixels were painted. A bordered field read with its border was read as one "line" as tall as the
 * field — tesseract read a card number in it as "[waszmosars" and a CVC as "(oss" — and every row
 * from the border's top to its bottom held ink, so the block was read at a quarter of its size.
 */
export function eraseRules(pixels: Uint8Array, width: number, height: number, paper = paperOf(pixels)): number {
  const ink = (i: number) => paper - pixels[i]! >= INK;
  const painted: number[] = [];
  // Thickness across a run: ink pixels beside its middle, on the cross axis.
  const across = (i: number, step: number, limit: number) => {
    let n = 1;
    for (let k = 1; k < limit && ink(i + k * step); k++) n++;
    for (let k = 1; k < limit && ink(i - k * step); k++) n++;
    return n;
  };
  const scan = (lines: number, length: number, at: (line: number, k: number) => number, min: number, cross: number, crossLimit: (line: number) => number) => {
    for (let line = 0; line < lines; line++) {
      let start = -1;
      for (let k = 0; k <= length; k++) {
        if (k < length && ink(at(line, k))) {
          if (start < 0) start = k;
          continue;
        }
        if (start >= 0 && k - start >= min) {
          const mid = at(line, (start + k) >> 1);
          if ((k - start) >= RULE_SLENDER * across(mid, cross, crossLimit(line))) for (let j = start; j < k; j++) painted.push(at(line, j));
        }
        start = -1;
      }
    }
  };
  // Down each column (the cross axis is the row: step 1, as far as the row's ends).
  scan(width, height, (x, y) => y * width + x, RULE_PX, 1, (x) => Math.min(x + 1, width - x));
  // Along each row (the cross axis is the column: step width).
  scan(height, width, (y, x) => y * width + x, RULE_PX * 3, width, (y) => Math.min(y + 1, height - y));
  for (const i of painted) pixels[i] = paper;
  return painted.length;
}

/** A band this much darker than the block's paper is a fill of its own (a selected row, a button, a bubble). */
const BAND = 70;
/** …at least this many rows tall (thinner is a rule or a glyph's bar) and this many times as wide as tall. */
const BAND_ROWS = 8;
const BAND_WIDE = 3;
/** …with text in it: at least this share of its pixels far from its fill. */
const BAND_TEXT = 0.03;

/**
 * Bands of a block on a fill much darker than the block's paper — a selected row white on blue in
 * a light list, a dark button or toolbar in a light page — turned dark text on their own paper, as
 * the block is: read as they were, tesseract boxed such a row's whole height as one unsure scrap
 * ("VRE", "TARE") and never read the line in it. A band is found by its rows' median and, within
 * those rows, the columns whose mean is as dark; its text is lighter than its fill when most of
 * its pixels are darker than the midpoint between the two (text is a minority of a line's pixels).
 * Returns the bands turned.
 */
export function flipBands(pixels: Uint8Array, width: number, height: number, paper = paperOf(pixels)): number {
  if (width < BAND_ROWS * BAND_WIDE || height < BAND_ROWS) return 0;
  const histogram = new Uint32Array(256);
  const dark = new Uint8Array(height);
  for (let y = 0; y < height; y++) {
    histogram.fill(0);
    const row = y * width;
    let n = 0;
    for (let x = 0; x < width; x += 2, n++) histogram[pixels[row + x]!]!++;
    let seen = 0, median = 255;
    for (let v = 0; v < 256; v++) if ((seen += histogram[v]!) * 2 >= n) { median = v; break; }
    dark[y] = paper - median >= BAND ? 1 : 0;
  }
  let flipped = 0;
  for (let y0 = 0; y0 < height; ) {
    if (!dark[y0]) { y0++; continue; }
    let y1 = y0;
    while (y1 < height && dark[y1]) y1++;
    if (y1 - y0 >= BAND_ROWS) flipped += flipColumns(pixels, width, y0, y1, paper);
    y0 = y1;
  }
  return flipped;
}

/** Within rows y0..y1 of a dark band, the runs of columns as dark as it, each turned; how many. */
function flipColumns(pixels: Uint8Array, width: number, y0: number, y1: number, paper: number): number {
  const rows = y1 - y0;
  let turned = 0;
  for (let x0 = 0; x0 < width; ) {
    const mean = (x: number) => {
      let sum = 0;
      for (let y = y0; y < y1; y++) sum += pixels[y * width + x]!;
      return sum / rows;
    };
    if (paper - mean(x0) < BAND) { x0++; continue; }
    let x1 = x0;
    while (x1 < width && paper - mean(x1) >= BAND) x1++;
    if (x1 - x0 >= rows * BAND_WIDE && turnBand(pixels, width, x0, x1, y0, y1)) turned++;
    x0 = x1;
  }
  return turned;
}

/**
 * One band made dark text on light paper: inverted when its text is the lighter, then stretched so
 * its fill is white. Only a fill with text inside it is a band: a glyph's own bar in large type (the
 * tops of "PORT" in 48 px, read at twice that) is as dark and as wide, but solid, and turned white it
 * took the T's bar away ("PORI"). Returns whether it turned the band.
 */
function turnBand(pixels: Uint8Array, width: number, x0: number, x1: number, y0: number, y1: number): boolean {
  let lo = 255, hi = 0;
  const histogram = new Uint32Array(256);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) histogram[pixels[y * width + x]!]!++;
  const total = (x1 - x0) * (y1 - y0);
  let seen = 0, fill = 0;
  for (let v = 0; v < 256; v++) if ((seen += histogram[v]!) * 2 >= total) { fill = v; break; }
  for (let v = 0; v < 256; v++) if (histogram[v]) { lo = Math.min(lo, v); hi = v; }
  // The fill is the median; the text is whichever end lies further from it.
  const lightText = hi - fill > fill - lo;
  const paperAfter = lightText ? 255 - fill : fill;
  if (paperAfter <= 0) return false;
  // Text inside the fill: pixels as far from it as the fill is from the paper, away from the band's
  // top and bottom rows (a bar's antialiased edges), in a share of the band a line of glyphs fills.
  let text = 0;
  for (let y = y0 + 2; y < y1 - 2; y++) for (let x = x0; x < x1; x++) if (Math.abs(pixels[y * width + x]! - fill) >= BAND) text++;
  if (text < total * BAND_TEXT) return false;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * width + x;
      const v = lightText ? 255 - pixels[i]! : pixels[i]!;
      pixels[i] = Math.min(255, Math.round((v * 255) / paperAfter));
    }
  }
  return true;
}

/** Runs of rows with two or more ink pixels, top to bottom. */
export function inkRuns(pixels: Uint8Array, width: number, height: number, paper = paperOf(pixels)): { y0: number; y1: number }[] {
  const runs: { y0: number; y1: number }[] = [];
  let start = -1;
  for (let y = 0; y <= height; y++) {
    let n = 0;
    if (y < height) {
      const row = y * width;
      for (let x = 0; x < width && n < 2; x++) if (paper - pixels[row + x]! >= INK) n++;
    }
    if (n >= 2) {
      if (start < 0) start = y;
    } else if (start >= 0) {
      runs.push({ y0: start, y1: y });
      start = -1;
    }
  }
  return runs;
}

/** The block's lines: each ink run widened by a few rows (never past half the gap to its neighbours), with its ink's columns. */
export function inkLines(pixels: Uint8Array, width: number, height: number): InkLine[] {
  const paper = paperOf(pixels);
  const runs = inkRuns(pixels, width, height, paper);
  return runs.map((run, i) => {
    const above = i > 0 ? Math.floor((run.y0 - runs[i - 1]!.y1) / 2) : run.y0;
    const below = i + 1 < runs.length ? Math.floor((runs[i + 1]!.y0 - run.y1) / 2) : height - run.y1;
    const y0 = run.y0 - Math.min(PAD, above);
    const y1 = run.y1 + Math.min(PAD, below);
    let x0 = width;
    let x1 = 0;
    for (let y = run.y0; y < run.y1; y++) {
      const row = y * width;
      for (let x = 0; x < x0; x++) if (paper - pixels[row + x]! >= INK) x0 = x;
      for (let x = width - 1; x >= x1; x--) if (paper - pixels[row + x]! >= INK) x1 = x + 1;
    }
    return { y0, y1, x0: Math.min(x0, x1), x1 };
  });
}

/** A line's key: the hash of its ink's pixels (where it sits in the block does not count). */
export function lineKey(pixels: Uint8Array, width: number, line: InkLine): string {
  const hash = createHash('sha256').update(`line ${line.x1 - line.x0}x${line.y1 - line.y0}\n`);
  for (let y = line.y0; y < line.y1; y++) hash.update(pixels.subarray(y * width + line.x0, y * width + line.x1));
  return hash.digest('hex');
}

/**
 * The given lines of a block, one under another with a line gap between (the block's own pitch),
 * on the block's paper and as wide as the block, so tesseract reads them as it reads the block.
 * `top` is where each line's first row is in the stack.
 */
export function stackLines(pixels: Uint8Array, width: number, all: readonly InkLine[], pick: readonly number[], margin: number): { pixels: Buffer; height: number; top: number[] } {
  const gaps = all.slice(1).map((l, i) => l.y0 - all[i]!.y1).sort((a, b) => a - b);
  const heights = all.map((l) => l.y1 - l.y0).sort((a, b) => a - b);
  const gap = Math.max(4, gaps.length ? gaps[gaps.length >> 1]! : Math.round(heights[heights.length >> 1]! * 0.5));
  const top: number[] = [];
  let height = margin;
  for (const i of pick) {
    top.push(height);
    height += all[i]!.y1 - all[i]!.y0 + gap;
  }
  height += margin - gap;
  const out = Buffer.alloc(width * height, paperOf(pixels));
  pick.forEach((i, k) => {
    const line = all[i]!;
    out.set(pixels.subarray(line.y0 * width, line.y1 * width), top[k]! * width);
  });
  return { pixels: out, height, top };
}

/**
 * A reading of a block (or of a stack of its lines) split into its lines: each tesseract line goes
 * to the ink line its centre is in (or the nearest), with its words. `rows[k]` is where ink line k
 * starts in the image that was read; coordinates come back relative to each line's ink top-left.
 */
export function splitByLine(reading: LineReading, units: readonly InkLine[], rows: readonly number[]): LineReading[] {
  const out: LineReading[] = units.map(() => ({ lines: [], words: [] }));
  const unitOf = (box: OcrLine['box']) => {
    const cy = box.y + box.height / 2;
    let best = 0;
    let distance = Infinity;
    units.forEach((u, k) => {
      const top = rows[k]!;
      const bottom = top + u.y1 - u.y0;
      const d = cy < top ? top - cy : cy >= bottom ? cy - bottom + 0.5 : 0;
      if (d < distance) [best, distance] = [k, d];
    });
    return best;
  };
  const shift = (box: OcrLine['box'], k: number) => ({ ...box, x: box.x - units[k]!.x0, y: box.y - rows[k]! });
  for (const line of reading.lines) {
    const k = unitOf(line.box);
    out[k]!.lines.push({ ...line, box: shift(line.box, k) });
  }
  const first = new Map<number, number>();
  const units_ = reading.words.map((word) => {
    const k = unitOf(word.box);
    first.set(k, Math.min(first.get(k) ?? Infinity, word.line));
    return k;
  });
  reading.words.forEach((word, i) => {
    const k = units_[i]!;
    out[k]!.words.push({ ...word, line: word.line - first.get(k)!, box: shift(word.box, k) });
  });
  return out;
}
