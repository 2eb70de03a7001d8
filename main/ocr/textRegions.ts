// Where text is on a screen, found cheaply before any recognition: tesseract spends its
// time per pixel of layout and per line of text, so a screen is cut into the blocks that hold text
// and only those are read. A block is also the unit of reuse (its pixels' hash) and of the worker
// pool's work.
//
// How: the greyscale image is split into 8 px cells; a cell holds text when it has strong
// horizontal AND vertical steps (a window's straight edge has only one kind, a flat area none).
// Text cells a word gap or a line gap apart are joined (union–find), each group's box plus a
// margin is a region, overlapping regions are merged so no pixel is read twice. A region is dark
// when most of it is (light text on a dark theme): it is inverted before reading, because
// tesseract reads dark-on-light and otherwise reads each line twice, the second time inverted
// (a dark 4K editor: 94 s as it is, 41 s inverted; docs/ocr.md). Tall regions are cut into bands
// at blank rows, never through a line of text.

export type TextRegion = { x: number; y: number; width: number; height: number; /** Light text on a dark background. */ dark: boolean };

const CELL = 8;
/** A step between neighbouring pixels at least this large is an edge of a glyph. */
const STEP = 28;
/** Text cells at most this many cells apart on a row are one block (a word gap at 28 px text is ~17 px; wider gaps of big text are closed when the rows are joined). */
const JOIN_X = 3;
/** …and at most this many cell rows apart (a line gap). */
const JOIN_Y = 2;
/** Around each block, so tesseract sees the glyphs' edges and some background. */
const MARGIN = 8;
/**
 * Regions taller than this are cut into bands at blank rows (work units for the pool, finer reuse).
 * Not much smaller: tesseract reads a band of 5 lines of 14 px digits less well than the same lines
 * among 12 (its block statistics; 855170 came back as 855176), and the read_text test wants digits.
 */
export const BAND_HEIGHT = 320;

/** The blocks of `grey` (one byte a pixel, `width` × `height`) that hold text, top to bottom. */
export function findTextRegions(grey: Uint8Array, width: number, height: number): TextRegion[] {
  const cw = Math.ceil(width / CELL);
  const ch = Math.ceil(height / CELL);
  const across = new Uint16Array(cw * ch);
  const down = new Uint16Array(cw * ch);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const cellRow = ((y / CELL) | 0) * cw;
    const below = y + 1 < height ? row + width : -1;
    for (let x = 0; x < width; x++) {
      const p = grey[row + x]!;
      const cell = cellRow + ((x / CELL) | 0);
      if (x + 1 < width && Math.abs(p - grey[row + x + 1]!) >= STEP) across[cell]!++;
      if (below >= 0 && Math.abs(p - grey[below + x]!) >= STEP) down[cell]!++;
    }
  }
  const text = new Uint8Array(cw * ch);
  for (let i = 0; i < text.length; i++) text[i] = across[i]! >= 2 && down[i]! >= 2 ? 1 : 0;

  // Join text cells near each other (union–find over the cells).
  const parent = new Int32Array(cw * ch).map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (let cy = 0; cy < ch; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      const i = cy * cw + cx;
      if (!text[i]) continue;
      for (let k = 1; k <= JOIN_X && cx - k >= 0; k++) if (text[i - k]) union(i, i - k);
      for (let r = 1; r <= JOIN_Y && cy - r >= 0; r++) {
        for (let d = -JOIN_X; d <= JOIN_X; d++) {
          const x = cx + d;
          if (x >= 0 && x < cw && text[(cy - r) * cw + x]) union(i, (cy - r) * cw + x);
        }
      }
    }
  }
  const boxes = new Map<number, { x0: number; y0: number; x1: number; y1: number; cells: number }>();
  for (let i = 0; i < text.length; i++) {
    if (!text[i]) continue;
    const root = find(i);
    const cx = i % cw;
    const cy = (i / cw) | 0;
    const b = boxes.get(root);
    if (!b) boxes.set(root, { x0: cx, y0: cy, x1: cx, y1: cy, cells: 1 });
    else {
      b.x0 = Math.min(b.x0, cx);
      b.x1 = Math.max(b.x1, cx);
      b.y0 = Math.min(b.y0, cy);
      b.y1 = Math.max(b.y1, cy);
      b.cells++;
    }
  }
  // A lone cell is a corner of a window or a speck, not a word.
  let rects = [...boxes.values()]
    .filter((b) => b.cells >= 2)
    .map((b) => ({
      x: Math.max(0, b.x0 * CELL - MARGIN),
      y: Math.max(0, b.y0 * CELL - MARGIN),
      right: Math.min(width, (b.x1 + 1) * CELL + MARGIN),
      bottom: Math.min(height, (b.y1 + 1) * CELL + MARGIN),
    }));
  rects = mergeOverlapping(rects);
  return rects
    .sort((a, b) => a.y - b.y || a.x - b.x)
    .map((r) => {
      const region = { x: r.x, y: r.y, width: r.right - r.x, height: r.bottom - r.y };
      return { ...region, dark: background(grey, width, region) < 128 };
    });
}

type Rect = { x: number; y: number; right: number; bottom: number };

/** Boxes that overlap become their union, until none do (an L-shaped block's box covers another's). */
function mergeOverlapping(rects: Rect[]): Rect[] {
  let merged = true;
  while (merged) {
    merged = false;
    const out: Rect[] = [];
    for (const r of rects) {
      const hit = out.find((o) => r.x < o.right && o.x < r.right && r.y < o.bottom && o.y < r.bottom);
      if (hit) {
        hit.x = Math.min(hit.x, r.x);
        hit.y = Math.min(hit.y, r.y);
        hit.right = Math.max(hit.right, r.right);
        hit.bottom = Math.max(hit.bottom, r.bottom);
        merged = true;
      } else out.push({ ...r });
    }
    rects = out;
  }
  return rects;
}

/** The median grey of a box: text is a minority of a text block's pixels, so this is its background. */
export function background(grey: Uint8Array, width: number, box: { x: number; y: number; width: number; height: number }): number {
  const histogram = new Uint32Array(256);
  // Every other pixel of every other row is plenty for a median.
  for (let y = box.y; y < box.y + box.height; y += 2) {
    const row = y * width;
    for (let x = box.x; x < box.x + box.width; x += 2) histogram[grey[row + x]!]!++;
  }
  let total = 0;
  for (const n of histogram) total += n;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen * 2 >= total) return v;
  }
  return 255;
}

/**
 * A region cut into bands of at most about BAND_HEIGHT rows, each cut in the middle of a run of
 * blank rows (no pixel further than STEP from the region's background), so no line is cut.
 * A region with no blank row to cut at stays whole. Each band is then narrowed to its own ink.
 */
export function bands(grey: Uint8Array, width: number, region: TextRegion): TextRegion[] {
  const bg = background(grey, width, region);
  const ink = (x: number, y: number) => Math.abs(grey[y * width + x]! - bg) >= STEP;
  const out: TextRegion[] = [];
  if (region.height <= BAND_HEIGHT) out.push(region);
  else {
    const blank: boolean[] = [];
    for (let y = region.y; y < region.y + region.height; y++) {
      let inked = false;
      for (let x = region.x; x < region.x + region.width && !inked; x++) inked = ink(x, y);
      blank.push(!inked);
    }
    // Cut candidates: the middle row of each blank run.
    const cuts: number[] = [];
    for (let i = 0; i < blank.length; ) {
      if (!blank[i]) {
        i++;
        continue;
      }
      let j = i;
      while (j < blank.length && blank[j]) j++;
      if (i > 0 && j < blank.length) cuts.push((i + j) >> 1);
      i = j;
    }
    let top = 0;
    while (region.height - top > BAND_HEIGHT) {
      const within = cuts.filter((c) => c > top && c <= top + BAND_HEIGHT);
      const cut = within.at(-1) ?? cuts.find((c) => c > top);
      if (cut === undefined) break;
      out.push({ ...region, y: region.y + top, height: cut - top });
      top = cut;
    }
    out.push({ ...region, y: region.y + top, height: region.height - top });
  }
  // Each band as wide as its own ink (plus the margin), so its pixels, and so its hash, do not
  // change when a line elsewhere in the block gets longer.
  return out.map((band) => {
    let left = band.x + band.width;
    let right = band.x;
    for (let y = band.y; y < band.y + band.height; y++) {
      for (let x = band.x; x < left; x++) if (ink(x, y)) left = x;
      for (let x = band.x + band.width - 1; x >= right; x--) if (ink(x, y)) right = x + 1;
    }
    if (right <= left) return band;
    const x = Math.max(band.x, left - MARGIN);
    return { ...band, x, width: Math.min(band.x + band.width, right + MARGIN) - x };
  });
}
