// A second look where the first read missed text, and a fail-safe where the second misses too
// (DESIGN §3b). Text OCR did not read — light grey on white, pink inline code on grey, a selected
// line in a low-contrast theme, a field's text inside its border, a block turned a few degrees — is
// still ink: cells of the image with glyph edges both ways that no word read with confidence
// covers. Each such block is read again on its own, contrast stretched (inverted when light on
// dark), enlarged when small, made smaller when its type is very large (found on the screen made
// smaller, where such lines are the size text is), and turned upright when its lines slant (the
// slant measured from its glyphs; lines the first read read slanting are read again so too) or run
// sideways (a sheet's header turned 90°, read both ways up; a header so read names its column as an
// upright one does); the words found
// join the first read's, so every rule runs over them. What stays unread and is shaped like a token
// — a long, unbroken, dense run of ink the height of a line of text — is hidden as it is.
import sharp, { type Sharp } from 'sharp';
import type { Redaction } from '../../common/privacy.ts';
import { publicBlocks, sshKeyRows } from './context.ts';
import { NAMED_IDENTIFIER, publicIdentifier } from './findings.ts';
import { overlaps, union, type Box, type ReadWord } from './locate.ts';

/** Local OCR of one image (the same reader as the first look, injected). */
type Read = (image: { data: Uint8Array; mime: string }) => Promise<{ ok: true; words: ReadWord[]; size: { width: number; height: number } } | { ok: false }>;

export type Grey = {
  data: Uint8Array;
  width: number;
  height: number;
  /** 1 where the pixel is coloured (its channels MARK or more apart): an annotation's stroke, a highlighter's, a focus ring's — or coloured text. */
  marks?: Uint8Array;
};

/** Channels this far apart make a pixel coloured (a red pen's (220, 30, 30) is 190 apart, a grey's 0, anti-aliased black on white under 10). */
const MARK = 80;

const CELL = 8;
/** A step this large between neighbours is a glyph's edge (light grey #ccc on white is 51). */
const STEP = 20;
/** A block of blurred ink this tall or less is a line (or two) of text; taller, a photo's or a picture's. */
const SOFT_LINE = 80;
/** Pixels this far apart are compared too when looking for glyphs' edges (a blurred edge's step spreads over them). */
const SOFT_REACH = 3;
/** A word read at least this sure covers its ink; below it its ink counts as unread. */
const SURE = 30;
/** Lines slanting by this many degrees or more are turned upright before they are read again. */
const MIN_SKEW = 1.5;
/** …up to this slant (a block turned further is not a screen's text). */
const MAX_SKEW = 12;
/** At most this many blocks get a second look per image, and at most this share of its pixels. */
const MAX_BLOCKS = 16;
const MAX_SHARE = 0.3;
/** …and at most this many reads in all (one a block, upright or turned by its slant). */
const MAX_READS = 12;

export async function greyOf(pixels: Sharp): Promise<Grey> {
  // (The image decoded once: its grey made from its colours in memory.)
  const colour = await pixels.flatten({ background: '#ffffff' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const channels = colour.info.channels;
  const { data, info } = await sharp(colour.data, { raw: { width: colour.info.width, height: colour.info.height, channels } }).greyscale().raw().toBuffer({ resolveWithObject: true });
  const grey: Grey = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  if (channels < 3) return grey;
  const rgb = colour.data, marks = new Uint8Array(info.width * info.height);
  for (let i = 0, p = 0; i < marks.length; i++, p += channels) {
    const r = rgb[p] as number, g = rgb[p + 1] as number, b = rgb[p + 2] as number;
    if (Math.max(r, g, b) - Math.min(r, g, b) >= MARK) marks[i] = 1;
  }
  return { ...grey, marks };
}

/** Blocks of glyph-like ink that no sure word covers, largest first. */
export function unreadBlocks(grey: Grey, words: readonly (ReadWord & { confidence?: number })[]): Box[] {
  // Three cells or more, wider than tall (a line of text, not an icon's corner); on one line, half
  // again as wide as tall at least: an icon, a badge's logo or a button's glyph is about square,
  // and a run of three characters or more is not.
  const cover = words.filter((w) => (w.confidence ?? 100) >= SURE);
  const found = (reach: number) => inkBlocks(grey, cover, reach)
    .filter((b) => b.n >= 3 && b.x1 - b.x0 >= 3 && (b.y1 - b.y0 >= 6 || (b.x1 - b.x0 + 1) >= (b.y1 - b.y0 + 1) * 1.5))
    .map((b) => cellBox(grey, b));
  // Blurred ink (text under a frosted bar, a line smeared by a scroll's motion blur) steps by little
  // between neighbours: its cells are found by steps between pixels SOFT_REACH apart, and a block so
  // found whose ink is blurred (softInk) stands for the pieces found among neighbours' steps inside
  // it. Sharp ink's blocks are found as ever (farther steps would join a token to the emoji beside it).
  // (A line's block only: a blurred photo of a monitor is one block as big as the photo, and read as
  // one it gave nothing where its sharper pieces were read.)
  const soft = found(SOFT_REACH).filter((b) => b.height <= SOFT_LINE && b.width >= b.height * 3 && softInk(grey, b));
  const sharp = found(1);
  if (!soft.length) return sharp;
  return [...sharp.filter((b) => !soft.some((s) => overlaps(s, b))), ...soft].sort((a, b) => b.width * b.height - a.width * a.height);
}

/**
 * Blocks of unread ink shaped like a line of text turned 90° (a sheet's column header printed
 * upwards, a sidebar's tab label): a stack of glyph cells at least five cells tall, two and a half
 * times as tall as wide or more, and no wider than a few lines. Words the first read made of it are
 * no cover: read upright, turned glyphs come back as sure scraps ("H", "2", "in" boxed taller than
 * wide), so only a sure word wider than tall (upright text) covers its ink. Largest first.
 */
export function turnedBlocks(grey: Grey, words: readonly (ReadWord & { confidence?: number })[]): Box[] {
  return inkBlocks(grey, words.filter((w) => (w.confidence ?? 100) >= SURE && w.width >= w.height * 1.2 && String(w.text).trim().length >= 3))
    .filter((b) => b.n >= 4 && b.y1 - b.y0 + 1 >= 5 && b.y1 - b.y0 + 1 >= (b.x1 - b.x0 + 1) * 2.5 && b.x1 - b.x0 + 1 <= 8)
    .map((b) => cellBox(grey, b));
}

type CellBlock = { x0: number; y0: number; x1: number; y1: number; n: number };

function cellBox(grey: Grey, b: CellBlock): Box {
  return { x: b.x0 * CELL, y: b.y0 * CELL, width: Math.min(grey.width, (b.x1 + 1) * CELL) - b.x0 * CELL, height: Math.min(grey.height, (b.y1 + 1) * CELL) - b.y0 * CELL };
}

/** Cells of the image with glyph edges both ways that none of `cover` lies over, joined into blocks (in cells), largest first. */
function inkBlocks(grey: Grey, cover: readonly ReadWord[], reach = 1): CellBlock[] {
  const { data, width, height } = grey;
  const cw = Math.ceil(width / CELL), ch = Math.ceil(height / CELL);
  const across = new Uint16Array(cw * ch), down = new Uint16Array(cw * ch);
  // An edge is a step between neighbours, or (`reach` over 1) between pixels that far apart: a
  // blurred glyph's edge spreads its step over a few pixels.
  const r = reach;
  for (let y = 0; y < height - 1; y++) {
    const row = y * width, cellRow = ((y / CELL) | 0) * cw, far = r > 1 && y + r < height;
    for (let x = 0; x < width - 1; x++) {
      const p = data[row + x] as number;
      const cell = cellRow + ((x / CELL) | 0);
      if (Math.abs(p - (data[row + x + 1] as number)) >= STEP || (r > 1 && x + r < width && Math.abs(p - (data[row + x + r] as number)) >= STEP)) across[cell]!++;
      if (Math.abs(p - (data[row + width + x] as number)) >= STEP || (far && Math.abs(p - (data[row + r * width + x] as number)) >= STEP)) down[cell]!++;
    }
  }
  const text = new Uint8Array(cw * ch);
  for (let i = 0; i < text.length; i++) text[i] = (across[i] as number) >= 2 && (down[i] as number) >= 2 ? 1 : 0;
  // Cells under a covering word (with a little margin) were read.
  for (const w of cover) {
    const m = w.height * 0.4;
    const x0 = Math.max(0, Math.floor((w.x - m) / CELL)), x1 = Math.min(cw - 1, Math.floor((w.x + w.width + m) / CELL));
    const y0 = Math.max(0, Math.floor((w.y - m) / CELL)), y1 = Math.min(ch - 1, Math.floor((w.y + w.height + m) / CELL));
    for (let cy = y0; cy <= y1; cy++) for (let cx = x0; cx <= x1; cx++) text[cy * cw + cx] = 0;
  }
  // Join what is left: cells a word gap apart on a row, rows a line apart.
  const parent = Int32Array.from({ length: cw * ch }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  const join = (a: number, b: number) => {
    const ra = find(a), rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (let cy = 0; cy < ch; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      const i = cy * cw + cx;
      if (!text[i]) continue;
      for (let k = 1; k <= 2 && cx - k >= 0; k++) if (text[i - k]) join(i, i - k);
      if (cy > 0) for (let d = -1; d <= 1; d++) if (cx + d >= 0 && cx + d < cw && text[i - cw + d]) join(i, i - cw + d);
    }
  }
  const boxes = new Map<number, CellBlock>();
  for (let i = 0; i < text.length; i++) {
    if (!text[i]) continue;
    const r = find(i), cx = i % cw, cy = (i / cw) | 0;
    const b = boxes.get(r);
    if (!b) boxes.set(r, { x0: cx, y0: cy, x1: cx, y1: cy, n: 1 });
    else Object.assign(b, { x0: Math.min(b.x0, cx), y0: Math.min(b.y0, cy), x1: Math.max(b.x1, cx), y1: Math.max(b.y1, cy), n: b.n + 1 });
  }
  return [...boxes.values()].sort((a, b) => (b.x1 - b.x0 + 1) * (b.y1 - b.y0 + 1) - (a.x1 - a.x0 + 1) * (a.y1 - a.y0 + 1));
}

/** A screen looked at this many times smaller to find text in very large type (a slide, a Large Type window, a page zoomed far in). */
const COARSE = 4;

/**
 * Blocks of very large type (lines {@link BIG_LINE} px tall or more) that no sure word of ordinary
 * size covers, largest first: found on the screen made {@link COARSE} times smaller, where such
 * lines are the size cells of text find — at its own size a glyph of 120 px is strokes with no
 * corner in most cells, and its blocks fall apart into single letters. A word that tall is no
 * cover: tesseract reads such lines badly, and what it read is read again, smaller.
 */
export function largeBlocks(grey: Grey, words: readonly (ReadWord & { confidence?: number })[]): Box[] {
  const f = COARSE, width = Math.floor(grey.width / f), height = Math.floor(grey.height / f);
  if (width < CELL * 4 || height < CELL * 2) return [];
  const data = new Uint8Array(width * height);
  const sums = new Uint32Array(width);
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    for (let k = 0; k < f; k++) {
      const row = (y * f + k) * grey.width;
      for (let x = 0; x < width; x++) for (let j = 0, at = row + x * f; j < f; j++) sums[x]! += grey.data[at + j] as number;
    }
    for (let x = 0; x < width; x++) data[y * width + x] = Math.round((sums[x] as number) / (f * f));
  }
  const cover = words.filter((w) => (w.confidence ?? 100) >= SURE && (w.height < BIG_LINE || ((w.confidence ?? 100) >= 85 && w.text.length >= 3))).map((w) => ({ ...w, x: w.x / f, y: w.y / f, width: w.width / f, height: w.height / f }));
  const small = { data, width, height };
  return inkBlocks(small, cover)
    .filter((b) => b.n >= 3 && b.x1 - b.x0 >= 2 && (b.x1 - b.x0 + 1) >= (b.y1 - b.y0 + 1) * 1.5)
    .map((b) => {
      // A cell more all round: the flat tops and feet of big glyphs are edges one way only, no text cells.
      const box = cellBox(small, b);
      const x = Math.max(0, (box.x - CELL) * f), y = Math.max(0, (box.y - CELL) * f);
      return wholeRows(grey, { x, y, width: Math.min(grey.width, (box.x + box.width + CELL) * f) - x, height: Math.min(grey.height, (box.y + box.height + CELL) * f) - y });
    })
    .map((b) => ({ ...b, tall: runHeight(grey, b) }))
    .filter((b) => b.tall >= BIG_LINE)
    // A line of big type is read whole, the words read sure on it too, and pieces a sure word of it
    // parted are one block: "sk", "live" read and the key after them not, the key read again alone
    // is no key (its prefix is what names it).
    .map((b) => {
      let box: Box & { tall: number } = b;
      for (let round = 0; round < 2; round++) {
        for (const w of words) {
          if (w.height < BIG_LINE * 0.8 || Math.min(w.y + w.height, box.y + box.height) - Math.max(w.y, box.y) < w.height * 0.5) continue;
          if (Math.max(w.x, box.x) - Math.min(w.x + w.width, box.x + box.width) < box.tall * 4) box = { ...union(box, { x: Math.floor(w.x), y: box.y, width: Math.ceil(w.width), height: box.height }), tall: box.tall };
        }
      }
      return box;
    })
    .reduce<Array<Box & { tall: number }>>((rows, b) => {
      const i = rows.findIndex((r) => Math.min(r.y + r.height, b.y + b.height) - Math.max(r.y, b.y) >= Math.min(r.height, b.height) * 0.5 && Math.max(r.x, b.x) - Math.min(r.x + r.width, b.x + b.width) < Math.max(r.tall, b.tall) * 4);
      if (i < 0) return [...rows, b];
      const r = rows[i] as Box & { tall: number };
      rows[i] = { ...union(r, b), tall: Math.max(r.tall, b.tall) };
      return rows;
    }, [])
    .map(({ x, y, width, height }) => ({ x, y, width, height }));
}

/**
 * A block grown up and down over rows with ink in its columns, by at most its height each way: a
 * block whose edge cuts through a line of big type (a sure word of ordinary size beside it covered
 * some of its cells) takes in the whole line, not the tops of its glyphs.
 */
function wholeRows(grey: Grey, b: Box): Box {
  const { data, width } = grey;
  const hist = new Uint32Array(256);
  for (let y = b.y; y < b.y + b.height; y += 2) for (let x = b.x; x < b.x + b.width; x += 2) hist[data[y * width + x] as number]!++;
  let paper = 0;
  for (let v = 1; v < 256; v++) if ((hist[v] as number) > (hist[paper] as number)) paper = v;
  const inky = (y: number) => {
    let n = 0;
    for (let x = b.x, row = y * width; x < b.x + b.width && n < 2; x++) if (Math.abs((data[row + x] as number) - paper) >= STEP * 2) n++;
    return n >= 2;
  };
  let y0 = b.y, y1 = b.y + b.height;
  while (y0 > 0 && b.y - y0 < b.height && inky(y0 - 1)) y0--;
  while (y1 < grey.height && y1 - (b.y + b.height) < b.height && inky(y1)) y1++;
  return { x: b.x, y: y0, width: b.width, height: y1 - y0 };
}

/**
 * The usual height of a block's lines in the image's pixels: runs of rows (or, `turned`, of
 * columns) that cross glyphs' edges four times or more, or 0. Edges, not ink against the commonest
 * grey: a light note on a dark page would be one "line" as tall as the note (its fill is not the
 * page), and a fill's row crosses two edges, its sides.
 */
export function runHeight(grey: Grey, box: Box, turned = false, /** Pixels not ink (coloured marks made paper). */ skip?: Uint8Array): number {
  const { data, width } = grey;
  const x0 = Math.max(0, box.x), y0 = Math.max(0, box.y), x1 = Math.min(grey.width, box.x + box.width), y1 = Math.min(grey.height, box.y + box.height);
  const [a0, a1, b0, b1, step] = turned ? [x0, x1, y0, y1, width] : [y0, y1, x0, x1, 1];
  const runs: number[] = [];
  let start = -1;
  for (let a = a0; a <= a1; a++) {
    let n = 0;
    if (a < a1) {
      for (let b = b0; b < b1 - 1 && n < 4; b++) {
        const i = turned ? b * width + a : a * width + b;
        if (Math.abs((data[i] as number) - (data[i + step] as number)) >= STEP * 2 && !(skip && (skip[i] || skip[i + step]))) n++;
      }
    }
    if (n >= 4 && start < 0) start = a;
    else if (n < 4 && start >= 0) {
      if (a - start > 3) runs.push(a - start);
      start = -1;
    }
  }
  return runs.length ? (runs.sort((p, q) => p - q)[runs.length >> 1] as number) : 0;
}

/**
 * The slant of the text lines in `box`, in degrees clockwise (a block a page turned with CSS
 * `rotate(5deg)` gives about 5): the angle at which the block's ink, projected across it, falls into
 * the sharpest rows (the projection profile's sum of squares is largest when each line's ink lands
 * in the same few rows).
 */
export function skewOf(grey: Grey, box: Box): number {
  const { data, width } = grey;
  const x0 = Math.max(0, Math.floor(box.x)), y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(grey.width, Math.ceil(box.x + box.width)), y1 = Math.min(grey.height, Math.ceil(box.y + box.height));
  // Glyphs' edges, not ink against the commonest grey: a block half on a note and half on a dark
  // page would count the whole note as ink.
  const xs: number[] = [], ys: number[] = [];
  const stride = Math.max(1, Math.round(Math.sqrt(((x1 - x0) * (y1 - y0)) / 60_000)));
  for (let y = y0; y < y1 - 1; y += stride) {
    for (let x = x0; x < x1 - 1; x += stride) {
      const p = data[y * width + x] as number;
      if (Math.abs(p - (data[y * width + x + 1] as number)) < STEP && Math.abs(p - (data[(y + 1) * width + x] as number)) < STEP) continue;
      xs.push(x - x0);
      ys.push(y - y0);
    }
  }
  if (xs.length < 50) return 0;
  const diag = Math.ceil(Math.hypot(x1 - x0, y1 - y0)) + 2;
  const rows = new Float64Array(2 * diag);
  const sharpness = (deg: number) => {
    const t = (deg * Math.PI) / 180, c = Math.cos(t), s = Math.sin(t);
    rows.fill(0);
    // Rows as far apart as the samples are: finer, the upright rows alone would look sharp.
    for (let i = 0; i < xs.length; i++) rows[Math.round(((ys[i] as number) * c - (xs[i] as number) * s) / stride) + diag]! += 1;
    let sum = 0;
    for (const n of rows) sum += n * n;
    return sum;
  };
  let best = 0, bestScore = sharpness(0);
  for (let deg = -MAX_SKEW; deg <= MAX_SKEW; deg += 0.5) {
    const score = sharpness(deg);
    if (score > bestScore * 1.0001) [best, bestScore] = [deg, score];
  }
  for (let deg = best - 0.4; deg <= best + 0.4; deg += 0.1) {
    const score = sharpness(deg);
    if (score > bestScore * 1.0001) [best, bestScore] = [deg, score];
  }
  return Math.round(best * 10) / 10;
}

/** How a block is read when its plain reading is poor: mirrored left to right, or its ink and paper parted at one grey (binary). */
type Variant = { mirror?: boolean; binary?: boolean; /** Coloured pixels made paper (a pen's ellipse through the lines, a highlighter's edge). */ unmarked?: boolean };

/**
 * The block's pixels made easy to read: contrast stretched, dark text on light, short lines enlarged
 * and very tall ones made smaller, turned by `angle` (±90 for text printed sideways); `how.mirror`,
 * flipped left to right at the end (a paper held up to a webcam that mirrors the picture).
 */
async function lookAgain(grey: Grey, box: Box, angle: number, how: Variant = {}): Promise<Look> {
  const sideways = Math.abs(angle) === 90;
  // (Not a slanted block: its rows are not its lines.)
  const tall = angle && !sideways ? 0 : runHeight(grey, box, sideways, how.unmarked ? grey.marks : undefined);
  const pad = tall >= BIG_LINE ? Math.round(tall * 0.25) : 8;
  const crop = { x: Math.max(0, box.x - pad), y: Math.max(0, box.y - pad), width: 0, height: 0 };
  crop.width = Math.min(grey.width, box.x + box.width + pad) - crop.x;
  crop.height = Math.min(grey.height, box.y + box.height + pad) - crop.y;
  // The crop's pixels and their mean taken here: a pipeline over the whole screen's pixels (and a
  // second one for its statistics) cost more than the crop's read on a 4K screen. Between steps the
  // pixels stay raw (no PNG made and decoded again); the image read is the same.
  let px = new Uint8Array(crop.width * crop.height);
  let sum = 0;
  for (let y = 0; y < crop.height; y++) {
    const from = (crop.y + y) * grey.width + crop.x;
    const row = grey.data.subarray(from, from + crop.width);
    px.set(row, y * crop.width);
    for (const v of row) sum += v;
  }
  const rawOf = async (pipeline: Sharp) => {
    const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
    return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  };
  if (!inkIsDark(px, crop.width, crop.height, sum / px.length)) for (let i = 0; i < px.length; i++) px[i] = 255 - (px[i] as number);
  if (how.unmarked && grey.marks) unmark(px, grey.marks, grey.width, crop);
  // Very large type (a slide, a Large Type window: lines 60–200 px tall) is read smaller, its lines
  // about FIT_LINE tall: tesseract reads such lines badly or not at all at their own size. Made
  // smaller before the paper is flattened: a stroke wider than the paper's square would turn paper.
  let width = crop.width, height = crop.height, scale = 1;
  if (tall >= BIG_LINE) {
    scale = FIT_LINE / tall;
    width = Math.max(1, Math.round(crop.width * scale));
    height = Math.max(1, Math.round(crop.height * scale));
    const { data } = await sharp(px, { raw: { width: crop.width, height: crop.height, channels: 1 } }).resize(width, height, { fit: 'fill' }).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    px = new Uint8Array(data.buffer, data.byteOffset, data.length);
  }
  flattenPaper(px, width, height, PAPER_RADIUS);
  if (!angle) clearCutLines(px, width, height, Math.round((box.y - crop.y) * scale), Math.round((box.y + box.height - crop.y) * scale));
  // Enlarged when its lines are short; not when they are tall already (a phone's text at 3×, lines
  // 40 px tall: read at twice that, tesseract made "y yr kdz2 Ya GC." of a Wi-Fi key it reads whole
  // at its own size). (Text printed sideways: its lines are runs of columns.)
  if (scale === 1 && (sideways ? crop.width < 160 && tall < TALL_LINE : crop.height < 160 && lineHeight(px, width, height) < TALL_LINE)) scale = 2;
  let img = sharp(px, { raw: { width, height, channels: 1 } });
  img = await rawOf(img.normalise({ lower: 1, upper: 99 }));
  if (scale === 2) {
    [width, height] = [width * 2, height * 2];
    img = img.resize(width, height, { kernel: 'lanczos3' });
  }
  if (angle) img = (await rawOf(img)).rotate(angle, { background: '#ffffff' });
  if (how.mirror) img = (await rawOf(img)).flop();
  if (how.binary) {
    const { data, info } = await img.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    img = sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).threshold(otsu(data) + 1);
  }
  const { data, info } = await img.png().toBuffer({ resolveWithObject: true });
  return { png: data, scale, crop, size: { width, height }, out: { width: info.width, height: info.height }, mirror: how.mirror === true };
}

/**
 * The crop's coloured pixels (`marks`) made its paper: the grey most of its uncoloured pixels have
 * (ink dark on light here, so the paper is the lighter half's most common grey). A red pen's ellipse
 * drawn through the lines, a highlighter's or a focus ring's edge is gone; grey and black ink stay.
 */
export function unmark(px: Uint8Array, marks: Uint8Array, stride: number, crop: Box): void {
  const bins = new Uint32Array(256);
  for (let y = 0; y < crop.height; y++) {
    for (let x = 0; x < crop.width; x++) if (!marks[(crop.y + y) * stride + crop.x + x]) bins[px[y * crop.width + x] as number]!++;
  }
  let paper = 255;
  for (let v = 255, best = -1; v >= 128; v--) if ((bins[v] as number) > best) [best, paper] = [bins[v] as number, v];
  for (let y = 0; y < crop.height; y++) {
    for (let x = 0; x < crop.width; x++) if (marks[(crop.y + y) * stride + crop.x + x]) px[y * crop.width + x] = paper;
  }
}

/** Share of a box's pixels that are coloured. */
export function markShare(grey: Grey, box: Box): number {
  const marks = grey.marks;
  if (!marks) return 0;
  const x0 = Math.max(0, box.x), y0 = Math.max(0, box.y), x1 = Math.min(grey.width, box.x + box.width), y1 = Math.min(grey.height, box.y + box.height);
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) n += marks[y * grey.width + x] as number;
  return n / Math.max(1, (x1 - x0) * (y1 - y0));
}

type Look = { png: Buffer; scale: number; crop: Box; /** The crop's size scaled, before it is turned. */ size: { width: number; height: number }; out: { width: number; height: number }; /** Flipped left to right after it was turned. */ mirror: boolean };

/** Lines at least this tall (ink rows, ascenders to descenders) are very large type, read smaller… */
const BIG_LINE = 44;
/** …with lines this tall. */
const FIT_LINE = 24;

/**
 * Lines of text this tall (ink rows, ascenders to descenders) or taller are not enlarged for the
 * second look: a phone's text at 3× (40 px) is read at its own size, and so is 4K@2 text at 14–16 px
 * (lines 28–33 px). Enlarging those as well (from 36 px) hid nothing more on set H and lost a 4K@1
 * slide's key on set G.
 */
const TALL_LINE = 28;

/**
 * The usual height of the runs of rows with ink in a crop of dark ink on paper flattened to white
 * (flattenPaper): its lines' height, ascenders to descenders. A run of three rows or fewer is a rule,
 * not text; with no run, 0.
 */
export function lineHeight(px: Uint8Array, width: number, height: number): number {
  const runs: number[] = [];
  let start = -1;
  for (let y = 0; y <= height; y++) {
    let inky = false;
    if (y < height) for (let x = 0, row = y * width; x < width && !inky; x++) inky = (px[row + x] as number) < 255 - STEP * 2;
    if (inky && start < 0) start = y;
    else if (!inky && start >= 0) {
      if (y - start > 3) runs.push(y - start);
      start = -1;
    }
  }
  return runs.length ? (runs.sort((a, b) => a - b)[runs.length >> 1] as number) : 0;
}

/**
 * Whether a crop's text is darker than the paper it is on. The paper is the grey most common just
 * beside its glyphs' edges (a stroke is thinner than the paper between strokes), not the crop's
 * mean: a light note turned on a dark page fills less than half of the area read around it, and
 * inverted as a whole it came out white text on a black box, which OCR read as "er Sy ==".
 * With no clear paper (no edges, or ink as common as paper beside them), a light crop is dark ink.
 */
export function inkIsDark(px: Uint8Array, width: number, height: number, mean: number): boolean {
  const bins = new Uint32Array(16);
  let sum = 0, n = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 2; x < width - 3; x++) {
      if (Math.abs((px[row + x] as number) - (px[row + x + 1] as number)) < STEP) continue;
      for (const v of [px[row + x - 2] as number, px[row + x + 3] as number]) {
        bins[v >> 4]!++;
        sum += v;
        n++;
      }
    }
  }
  if (n < 40) return mean >= 128;
  let mode = 0;
  for (let b = 1; b < 16; b++) if ((bins[b] as number) > (bins[mode] as number)) mode = b;
  const paper = mode * 16 + 8, average = sum / n;
  // Paper and ink about equally often beside the edges (bold type): the crop's mean decides.
  if (Math.abs(paper - average) < 8) return mean >= 128;
  return paper > average;
}

/** Half the side of the square whose lightest pixel is taken as the paper under a pixel: wider than a stroke, narrower than a bubble's padding. */
const PAPER_RADIUS = 10;

/**
 * Each pixel (dark text on light) divided by the lightest one near it — the paper under it — so a
 * bubble's, a badge's or a selected line's fill becomes paper as the page's is, and the text on it
 * the only ink. White text on a blue chat bubble on a dark page, inverted, is black on mid grey
 * beside a light page: read as it was, the bubble and its text were one dark box ("GED").
 */
export function flattenPaper(px: Uint8Array, width: number, height: number, r: number): void {
  const along = new Uint8Array(px.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let m = 0;
      for (let k = Math.max(0, x - r), end = Math.min(width - 1, x + r); k <= end; k++) m = Math.max(m, px[row + k] as number);
      along[row + x] = m;
    }
  }
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      let m = 0;
      for (let k = Math.max(0, y - r), end = Math.min(height - 1, y + r); k <= end; k++) m = Math.max(m, along[k * width + x] as number);
      const i = y * width + x;
      px[i] = m ? Math.min(255, Math.round(((px[i] as number) * 255) / m)) : 255;
    }
  }
}

/**
 * The crop's margin takes in a slice of the lines above and below the block (the bottom half of a
 * row's title over a dim line of ids): ink that touches the crop's top or bottom edge, outside the
 * block, up to the first blank row, is painted paper — a cut line is read as nonsense ("SELIVITEIAT
 * TV es VV") that runs into the block's own words. Where no blank row parts them, nothing is.
 * `px` is dark ink on paper flattened to white (flattenPaper).
 */
export function clearCutLines(px: Uint8Array, width: number, height: number, top: number, bottom: number): void {
  const inky = (y: number) => {
    for (let x = 0, row = y * width; x < width; x++) if ((px[row + x] as number) < 255 - STEP) return true;
    return false;
  };
  const clear = (from: number, to: number) => px.fill(255, from * width, to * width);
  if (inky(0)) {
    let y = 0;
    while (y < Math.min(top, height) && inky(y)) y++;
    if (y < top) clear(0, y);
  }
  if (inky(height - 1)) {
    let y = height - 1;
    while (y >= Math.max(bottom, 0) && inky(y)) y--;
    if (y >= bottom) clear(y + 1, height);
  }
}

/** A point of the turned, scaled crop back in the image's pixels. */
function back(p: { x: number; y: number }, look: Look, angle: number): { x: number; y: number } {
  if (look.mirror) p = { x: look.out.width - p.x, y: p.y };
  const { width: w, height: h } = look.size;
  const t = (-angle * Math.PI) / 180;
  const dx = p.x - look.out.width / 2, dy = p.y - look.out.height / 2;
  const x = dx * Math.cos(t) - dy * Math.sin(t) + w / 2, y = dx * Math.sin(t) + dy * Math.cos(t) + h / 2;
  return { x: look.crop.x + (x * look.crop.width) / w, y: look.crop.y + (y * look.crop.height) / h };
}

export type SecondLook = {
  words: ReadWord[];
  failSafe: Redaction[];
  blocks: number;
  /** Slanted areas read turned upright: their words replace the first read's there. */
  turned: Box[];
  /** Areas read mirrored: their words stand flipped across the area (read the right way round), and what is found there is flipped back (flipAcross). */
  mirrored: Box[];
};

/** A box flipped left to right across `area` (its mirror image there). */
export function flipAcross<T extends Box>(b: T, area: Box): T {
  return { ...b, x: 2 * area.x + area.width - b.x - b.width };
}

/**
 * Reads the unread blocks again and returns the words found there (in the image's pixels, on lines
 * of their own), and the token-shaped runs of ink still unread.
 */
export async function secondLook(grey: Grey, words: readonly (ReadWord & { confidence?: number })[], read: Read, signal?: AbortSignal): Promise<SecondLook> {
  const blocks: Box[] = [];
  let area = 0;
  for (const b of unreadBlocks(grey, words)) {
    if (blocks.length >= MAX_BLOCKS || area + b.width * b.height > grey.width * grey.height * MAX_SHARE) break;
    blocks.push(b);
    area += b.width * b.height;
  }
  const found: ReadWord[] = [];
  const failSafe: Redaction[] = [];
  // Blocks whose lines slant are read turned upright (the slant measured from their glyphs), not as
  // they are; slanted blocks near one another are one area, with the words the first read did read
  // on it (they cut a slanted line into pieces): what is read there turned replaces what the first
  // read made of it (redactImage), and the blocks inside it get no look of their own.
  const turned: Box[] = [];
  const queue: Array<{ block: Box; skew: number }> = [];
  const upright: Box[] = [];
  // …and lines the first read read sure but slanting (their words step down or up along them).
  for (const b of [...blocks, ...slantedLines(grey, words)]) {
    if (Math.abs(skewOf(grey, b)) < MIN_SKEW) {
      upright.push(b);
      continue;
    }
    const m = Math.max(CELL * 2, Math.min(b.height, 64));
    let area: Box = { x: b.x - m, y: b.y - m, width: b.width + 2 * m, height: b.height + 2 * m };
    for (let i = turned.length - 1; i >= 0; i--) {
      if (!overlaps(area, turned[i] as Box)) continue;
      area = union(area, turned[i] as Box);
      turned.splice(i, 1);
    }
    turned.push(area);
  }
  const slanted: Box[] = [];
  for (const near of turned) {
    const area = slantedArea(near, words, grey);
    const skew = skewOf(grey, area);
    if (Math.abs(skew) < MIN_SKEW) continue;
    slanted.push(area);
    queue.push({ block: area, skew });
  }
  // Very large type is read as whole lines, made smaller (lookAgain); the blocks its glyphs fell
  // into at their own size get no look of their own.
  const large = largeBlocks(grey, words).filter((b) => !slanted.some((t) => overlaps(b, t))).slice(0, MAX_LARGE);
  for (const b of large) queue.push({ block: b, skew: 0 });
  const held = new Map<Box, Box[]>();
  for (const b of upright) {
    if (!blocks.includes(b) || slanted.some((t) => inside(b, t))) continue;
    const l = large.find((l) => middleIn(b, l) && b.x + b.width / 2 >= l.x && b.x + b.width / 2 <= l.x + l.width);
    if (l) held.set(l, [...(held.get(l) ?? []), b]);
    else queue.push({ block: b, skew: 0 });
  }
  // Text printed sideways, read both ways up (the better reading kept) beside the upright blocks.
  const sideways = sidewaysLook(grey, words, slanted, read, signal);
  sideways.catch(() => undefined);
  // The blocks are read side by side (the reader's pool has a worker a core, and a block is little
  // work for one); what each gives is taken in the queue's order. Past MAX_READS a block gets no
  // read, only the fail-safe.
  const readAs = async (block: Box, angle: number, how: Variant = {}) => {
    signal?.throwIfAborted();
    const look = await lookAgain(grey, block, angle, how);
    const got = await read({ data: look.png, mime: 'image/png' });
    return got.ok ? { look, words: got.words.filter((w) => w.text.trim()) } : undefined;
  };
  const plain = await Promise.all(queue.map(({ block, skew }, i) => (i < MAX_READS ? readAs(block, skew ? -skew : 0) : undefined)));
  // What looked like very large type and read as nothing was ordinary lines set close beside an icon
  // (a dialog's lines whose ink rows run together into one "line" 45 px tall, a bulb's 60 px beside
  // them): the blocks under it are read at their own size after all.
  const missed = queue.flatMap(({ block }, i) => (large.includes(block) && !(plain[i]?.words ?? []).some(sureWord) ? (held.get(block) ?? []) : []));
  plain.push(...(await Promise.all(missed.map((block, k) => (queue.length + k < MAX_READS ? readAs(block, 0) : undefined)))));
  queue.push(...missed.map((block) => ({ block, skew: 0 })));
  // Where a block's reading is poor (under half of its 8 or more letters and digits read sure), it is
  // read again mirrored (a paper held up to a webcam that flips the picture, text seen through
  // glass); the mirrored reading is kept when it is no poor reading itself and has clearly more
  // characters read sure (junk read either way is still junk). The largest
  // such blocks only: a few reads a screen, and none where every block read well.
  const poor = queue
    .map((_, i) => i)
    .filter((i) => {
      const got = plain[i];
      return got !== undefined && poorReading(got.words) && charsOf(got.words) >= 8;
    })
    .slice(0, MAX_AGAIN);
  const again = await Promise.all(poor.map(async (i) => ({ i, mirror: await readAs((queue[i] as (typeof queue)[number]).block, queue[i]?.skew ? -(queue[i]?.skew as number) : 0, { mirror: true }) })));
  // A block that reads better mirrored is part of a mirrored paper or screen: the first read made
  // sure-looking nonsense of the rest of it (a mirrored "Password:" beside the value, the lines
  // above). The block with the first read's words around it is read mirrored as one area, and what
  // is read there replaces what the first read made of it (as a slanted area's reading does).
  const mirrored: Box[] = [];
  for (const { i, mirror: t } of again) {
    if (!t || poorReading(t.words) || sureChars(t.words) < sureChars((plain[i] as NonNullable<(typeof plain)[number]>).words) * 1.3 + 3) continue;
    plain[i] = t;
    if (queue[i]?.skew) continue;
    let area = mirrorArea((queue[i] as (typeof queue)[number]).block, words, grey);
    for (let k = mirrored.length - 1; k >= 0; k--) {
      if (!overlaps(area, mirrored[k] as Box)) continue;
      area = union(area, mirrored[k] as Box);
      mirrored.splice(k, 1);
    }
    mirrored.push(area);
  }
  // A blurred block read as nothing or as unsure scraps, shaped like a line of text, is read again with its
  // ink and paper parted at one grey: a blurred line's halo (motion blur, a soft screen share) made
  // its rows' ink as tall as two lines, and the reader, measuring its lines by their ink, read it far
  // too small. The binary reading is kept when it has clearly more characters read sure.
  const soft = queue
    .map((_, i) => i)
    .filter((i) => {
      const got = plain[i], b = (queue[i] as (typeof queue)[number]).block;
      return got !== undefined && !poor.includes(i) && !queue[i]?.skew && b.width >= b.height * 3 && (poorReading(got.words) || !got.words.some(sureWord)) && softInk(grey, b);
    })
    .slice(0, MAX_SOFT);
  const binary = await Promise.all(soft.map(async (i) => ({ i, t: await readAs((queue[i] as (typeof queue)[number]).block, 0, { binary: true }) })));
  for (const { i, t } of binary) if (t && sureChars(t.words) >= sureChars((plain[i] as NonNullable<(typeof plain)[number]>).words) * 1.3 + 3) plain[i] = t;
  // A block read as nothing or unsure scraps with coloured strokes through it (a screenshot marked
  // up with a red pen's ellipse or arrow, a highlighter's stroke, a focus ring) is read again with its
  // coloured pixels made paper: the stroke joined its lines into one shape the reader made junk of.
  // Kept when it has clearly more characters read sure (coloured text is gone from that reading; its
  // ink is still unread ink for the fail-safe).
  const marked = queue
    .map((_, i) => i)
    .filter((i) => {
      const got = plain[i], b = (queue[i] as (typeof queue)[number]).block;
      return got !== undefined && !got.look.mirror && !soft.includes(i) && !queue[i]?.skew && (poorReading(got.words) || !got.words.some(sureWord)) && markShare(grey, b) >= MIN_MARKS;
    })
    .slice(0, MAX_MARKED);
  const unmarked = await Promise.all(marked.map(async (i) => ({ i, t: await readAs((queue[i] as (typeof queue)[number]).block, 0, { unmarked: true }) })));
  for (const { i, t } of unmarked) if (t && sureChars(t.words) >= sureChars((plain[i] as NonNullable<(typeof plain)[number]>).words) * 1.3 + 3) plain[i] = t;
  mirrored.length = Math.min(mirrored.length, MAX_AGAIN);
  const mirroredAt = queue.length;
  plain.push(...(await Promise.all(mirrored.map((area) => readAs(area, 0, { mirror: true })))));
  for (const area of mirrored) {
    queue.push({ block: area, skew: 0 });
    slanted.push(area);
  }
  const looks = queue.map(({ block, skew }, i) => {
    const got = plain[i];
    if (!got || (i < mirroredAt && mirrored.some((m) => inside(block, m)))) return [];
    const { look } = got;
    const angle = skew ? -skew : 0;
    const line = 1_000_000 + i * 10_000;
    return (angle ? rowsOf(got.words) : got.words).flatMap((w) => {
      const corners = [back({ x: w.x, y: w.y }, look, angle), back({ x: w.x + w.width, y: w.y }, look, angle), back({ x: w.x, y: w.y + w.height }, look, angle), back({ x: w.x + w.width, y: w.y + w.height }, look, angle)];
      const x0 = Math.min(...corners.map((c) => c.x)), y0 = Math.min(...corners.map((c) => c.y));
      const x1 = Math.max(...corners.map((c) => c.x)), y1 = Math.max(...corners.map((c) => c.y));
      // The crop's margin shows the cut-off edge of the lines above and below (the feet of a line's
      // letters, its underscores): a word read there, its middle outside the block, is a scrap of
      // a line the first read did read, and beside that line's words it would squash its band.
      if (!angle && !middleIn({ y: y0, height: y1 - y0 }, block)) return [];
      // A word read turned covers its whole slanted box: its line's band would cut off its ends.
      return [{ ...w, line: line + w.line, x: x0, y: y0, width: x1 - x0, height: y1 - y0, ...(angle ? { tilted: true as const } : {}) }];
    });
  });
  const side = await sideways;
  signal?.throwIfAborted();
  // A mirrored reading's words are given flipped across its crop (where they stand read the right
  // way round: a label before its value, as the rules expect), and the crop returned, so the boxes
  // found there are flipped back onto the ink (redactImage).
  const flipped: Box[] = [];
  queue.forEach(({ block, skew }, i) => {
    const sure = looks[i] ?? [];
    const look = plain[i]?.look;
    if (look?.mirror && sure.length) {
      flipped.push(look.crop);
      found.push(...sure.map((w) => flipAcross(w, look.crop)));
    } else found.push(...sure);
    // The first read's unsure words over the block count as well: what they say was judged by the
    // rules, and those of its rows beside it: they may name what it is ("integrity", "data:").
    // (Runs of ink are sought along upright rows: a slanted area has none.)
    // (A block inside a mirrored area: the area's runs are sought with what was read there.)
    if (!skew && !(i < mirroredAt && mirrored.some((m) => inside(block, m)))) failSafe.push(...tokenRuns(grey, block, [...words.filter((w) => w.y < block.y + block.height && w.y + w.height > block.y), ...sure]));
  });
  // Lines of an armoured public block (a PGP public key, a certificate) are base64 OCR is unsure of
  // in small type, but anyone may have them: between its BEGIN and END lines, nothing is unread ink.
  // So are an SSH public key's lines (authorized_keys, known_hosts, a wrapped ssh-rsa key's base64).
  const open = [...publicBlocks([...words, ...found]), ...sshKeyRows([...words, ...found])];
  // A sideways line is a caption where upright words can use it: at the foot of its column, as wide
  // as the cell under it (a sheet's header turned 90° over its column of passwords).
  const readUpright = [...words, ...found];
  for (const { lines, block } of side) {
    for (const l of lines) found.push(captionOf(l, readUpright));
    slanted.push(block);
  }
  return { words: found, failSafe: failSafe.filter((r) => !open.some((b) => r.y + r.height / 2 > b.top && r.y + r.height / 2 < b.bottom)), blocks: blocks.length, turned: slanted, mirrored: flipped };
}

/**
 * At most this many blocks whose reading is poor are read again mirrored per image: the largest.
 * (Three cost set I about 2.2 reads a screen, +31%, nearly every screen paying all three for a look
 * few screens have.)
 */
const MAX_AGAIN = 1;

/** At most this many blocks read as nothing or unsure scraps are read again binary per image: the largest. */
const MAX_SOFT = 2;

/** At most this many blocks read as nothing or unsure scraps with coloured strokes through them are read again without them per image: the largest. */
const MAX_MARKED = 2;
/** …when at least this share of the block's pixels are coloured. */
const MIN_MARKS = 0.005;

/**
 * Whether a block's ink is blurred: one way or the other (across its lines or down them), its
 * sharpest steps between neighbours (the 99th percentile) are under {@link SOFT} of its contrast
 * (its 1st to 99th percentile grey). Sharp text of any contrast steps by most of it at its glyphs'
 * edges (0.6–1); text under a frosted bar or smeared by a scroll's motion blur by a tenth to a quarter.
 */
export function softInk(grey: Grey, box: Box): boolean {
  const { data, width } = grey;
  const x0 = Math.max(0, box.x), y0 = Math.max(0, box.y), x1 = Math.min(grey.width, box.x + box.width) - 1, y1 = Math.min(grey.height, box.y + box.height) - 1;
  const values = new Uint32Array(256), across = new Uint32Array(256), down = new Uint32Array(256);
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0, i = y * width + x0; x < x1; x++, i++) {
      const p = data[i] as number;
      values[p]!++;
      across[Math.abs(p - (data[i + 1] as number))]!++;
      down[Math.abs(p - (data[i + width] as number))]!++;
      n++;
    }
  }
  if (n < 100) return false;
  const at = (hist: Uint32Array, share: number) => {
    let k = 0;
    for (let v = 0; v < 256; v++) if ((k += hist[v] as number) >= n * share) return v;
    return 255;
  };
  const contrast = at(values, 0.99) - at(values, 0.01);
  return contrast >= STEP && Math.min(at(across, 0.99), at(down, 0.99)) < contrast * SOFT;
}

/** Steps this share of a block's contrast or less, one way or the other, are blurred ink (softInk). */
const SOFT = 0.4;

/** The grey that parts a crop's ink from its paper best (Otsu: the largest variance between the two). */
export function otsu(px: Uint8Array): number {
  const hist = new Float64Array(256);
  for (const v of px) hist[v]!++;
  let total = 0;
  for (let v = 0; v < 256; v++) total += v * (hist[v] as number);
  let below = 0, sumBelow = 0, best = -1, at = 127;
  for (let v = 0; v < 255; v++) {
    below += hist[v] as number;
    sumBelow += v * (hist[v] as number);
    const above = px.length - below;
    if (!below || !above) continue;
    const between = below * above * (sumBelow / below - (total - sumBelow) / above) ** 2;
    if (between > best) [best, at] = [between, v];
  }
  return at;
}

/** Letters and digits read, each weighed by how sure the reader was of its word. */
export function sureChars(words: readonly { text: string; confidence?: number }[]): number {
  let n = 0;
  for (const w of words) n += (lettersIn(w.text) * (w.confidence ?? 100)) / 100;
  return n;
}

/**
 * A reading of glyphs the reader was unsure of: three letters or digits or more, under half of them
 * read sure. (Nothing read at all is an icon or a chart as often as text: not read again.)
 */
function poorReading(words: readonly { text: string; confidence?: number }[]): boolean {
  const all = charsOf(words);
  return all >= 3 && sureChars(words) < all * 0.5;
}

/** Letters and digits in a text. */
const lettersIn = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, '').length;

/** Letters and digits read. */
const charsOf = (words: readonly { text: string }[]) => words.reduce((n, w) => n + lettersIn(w.text), 0);

/** A word read as one: three letters or digits, read sure. */
const sureWord = (w: ReadWord & { confidence?: number }) => (w.confidence ?? 100) >= SURE && lettersIn(w.text) >= 3;

/** At most this many blocks of very large type are read per image… */
const MAX_LARGE = 4;
/** …and this many blocks of text printed sideways (each read one way up, or both). */
const MAX_SIDEWAYS = 6;
/** A sideways reading at least this good (sure words of prose, see {@link readingQuality}) is not read the other way up. */
const GOOD_READING = 0.6;

type SidewaysLine = { text: string; confidence: number; line: number; box: Box };

/**
 * Blocks of text printed sideways (turnedBlocks), each read turned a quarter clockwise (text that
 * runs bottom to top, as a sheet turns a header) and, unless that reading is good, a quarter the
 * other way; the better reading's lines (words of prose, read sure) in the image's pixels. A block
 * whose readings are both poor (icons, a chart's bars) gives nothing.
 */
async function sidewaysLook(grey: Grey, words: readonly (ReadWord & { confidence?: number })[], slanted: readonly Box[], read: Read, signal?: AbortSignal): Promise<Array<{ block: Box; lines: SidewaysLine[] }>> {
  const blocks = turnedBlocks(grey, words).filter((b) => !slanted.some((t) => overlaps(b, t))).slice(0, MAX_SIDEWAYS);
  const readAt = async (block: Box, angle: 90 | -90) => {
    signal?.throwIfAborted();
    const look = await lookAgain(grey, block, angle);
    const got = await read({ data: look.png, mime: 'image/png' });
    if (!got.ok) return { quality: 0, words: [] as Array<ReadWord & { confidence: number }> };
    const ws = got.words.filter((w) => w.text.trim()).map((w) => {
      const corners = [back({ x: w.x, y: w.y }, look, angle), back({ x: w.x + w.width, y: w.y + w.height }, look, angle)];
      const x0 = Math.min(...corners.map((c) => c.x)), y0 = Math.min(...corners.map((c) => c.y));
      const x1 = Math.max(...corners.map((c) => c.x)), y1 = Math.max(...corners.map((c) => c.y));
      return { ...w, confidence: (w as { confidence?: number }).confidence ?? 0, x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
    });
    return { quality: readingQuality(ws), words: ws };
  };
  const out = await Promise.all(
    blocks.map(async (block, i) => {
      let best = await readAt(block, 90);
      if (best.quality < GOOD_READING) {
        const other = await readAt(block, -90);
        if (other.quality > best.quality) best = other;
      }
      if (best.quality < 0.3) return undefined;
      const byLine = new Map<number, Array<ReadWord & { confidence: number }>>();
      for (const w of best.words) if (w.confidence >= 40) byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
      const lines = [...byLine.entries()].map(([line, ws]) => ({
        text: ws.map((w) => w.text).join(' '),
        confidence: Math.min(...ws.map((w) => w.confidence)),
        line: 2_000_000 + i * 10_000 + line,
        box: ws.reduce<Box>((u, w) => union(u, w), ws[0] as ReadWord),
      }));
      return lines.length ? { block, lines } : undefined;
    }),
  );
  return out.filter((r) => r !== undefined);
}

/**
 * How well a reading reads as text: the share of its letters and digits in words of prose or code
 * (wordLike), each weighed by how sure the reader was. Scraps of glyphs read the wrong way up are
 * neither sure nor words.
 */
export function readingQuality(words: readonly { text: string; confidence: number }[]): number {
  let good = 0, all = 0;
  for (const w of words) {
    const n = w.text.replace(/[^A-Za-z0-9]/g, '').length;
    all += n;
    if (n >= 2 && wordLike(w.text)) good += (n * w.confidence) / 100;
  }
  return all ? good / all : 0;
}

/**
 * A sideways line as an upright word where the rules look for a column's header: its text, a line
 * tall (the sideways line's width), at the foot of the line, from the left of the first cell under
 * it (a header centred over a column of values that start at its left) — so a header turned 90°
 * names the column under it as an upright one does (context.ts labelledBelow).
 */
export function captionOf(side: SidewaysLine, upright: readonly ReadWord[]): ReadWord & { confidence: number } {
  const { box } = side;
  const h = Math.max(1, box.width), bottom = box.y + box.height;
  const mid = (w: ReadWord) => w.y + w.height / 2;
  const under = upright
    .filter((w) => w.y >= bottom - h * 0.5 && w.y < bottom + h * 6 && w.x < box.x + box.width + h && w.x + w.width > box.x - h && w.width >= w.height)
    .sort((a, b) => a.y - b.y)[0];
  let left = box.x, y = bottom - h;
  if (under) {
    // The cell it starts: words on its row to its left, a space apart.
    const row = upright.filter((w) => Math.abs(mid(w) - mid(under)) < under.height * 0.5 && w.x + w.width <= under.x).sort((a, b) => b.x - a.x);
    let start = under.x;
    for (const w of row) {
      if (start - (w.x + w.width) >= under.height * 1.2) break;
      start = w.x;
    }
    left = Math.min(box.x, start);
    y = Math.max(bottom, under.y - h * 1.5) - h;
  }
  return { text: side.text, line: side.line, confidence: side.confidence, x: left, y, width: h, height: h };
}

/**
 * The boxes of the first read's lines whose words' middles climb or fall along them by
 * {@link MIN_SKEW}° or more (the median of the steps between neighbours, all one way), over at
 * least three times the line's height.
 */
export function slantedLines(grey: Grey, words: readonly ReadWord[]): Box[] {
  const byLine = new Map<number, ReadWord[]>();
  for (const w of words) if (w.width > 0 && w.height > 0) byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
  const out: Box[] = [];
  const min = Math.tan((MIN_SKEW * Math.PI) / 180), max = Math.tan((MAX_SKEW * Math.PI) / 180);
  for (const ws of byLine.values()) {
    if (ws.length < 2) continue;
    ws.sort((a, b) => a.x - b.x);
    const steps: number[] = [];
    for (let i = 1; i < ws.length; i++) {
      const a = ws[i - 1] as ReadWord, b = ws[i] as ReadWord;
      const dx = b.x + b.width / 2 - (a.x + a.width / 2);
      if (dx > 0) steps.push((b.y + b.height / 2 - (a.y + a.height / 2)) / dx);
    }
    if (!steps.length || !(steps.every((t) => t > 0) || steps.every((t) => t < 0))) continue;
    const slope = Math.abs(steps.sort((a, b) => a - b)[Math.floor(steps.length / 2)] as number);
    const box = ws.reduce<Box>((u, w) => union(u, w), ws[0] as ReadWord);
    const h = Math.min(...ws.map((w) => w.height));
    if (slope < min || slope > max || box.width < h * 3) continue;
    out.push(inPixels(box, grey));
  }
  return out;
}

/** Whether the vertical middle of `w` lies within `block`'s rows. */
function middleIn(w: { y: number; height: number }, block: Box): boolean {
  const m = w.y + w.height / 2;
  return m >= block.y && m <= block.y + block.height;
}

function inside(inner: Box, outer: Box): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
}

/**
 * A slanted block with the first read's words that lie on it, twice over (a word on it, then a word
 * on that): the whole of a turned note, not the pieces between the words the first read was sure
 * of. At most four times the block's area, so upright text around it is not taken in.
 */
function slantedArea(block: Box, words: readonly ReadWord[], grey: Grey): Box {
  return grownArea(block, words, grey, (area) => area, 4);
}

/**
 * A block of a mirrored paper with the first read's words around it, twice over (a word within a
 * line's height of it, then a word near that): the whole of the paper, not the piece no sure word
 * covered. At most six times the block's area, so upright text around it is not taken in.
 */
function mirrorArea(block: Box, words: readonly ReadWord[], grey: Grey): Box {
  const m = block.height;
  return grownArea(block, words, grey, (area) => ({ x: area.x - m * 2, y: area.y - m, width: area.width + m * 4, height: area.height + m * 2 }), 6);
}

/** A block grown twice over by the words within `reach` of it, while it stays under `most` times its area; in the image's whole pixels. */
function grownArea(block: Box, words: readonly ReadWord[], grey: Grey, reach: (area: Box) => Box, most: number): Box {
  const start = inPixels(block, grey);
  let area = start;
  for (let round = 0; round < 2; round++) {
    let next = area;
    const near = reach(area);
    for (const w of words) if (overlaps(w, near)) next = union(next, w);
    if (next.width * next.height > start.width * start.height * most) break;
    area = next;
  }
  return inPixels(area, grey);
}

/** A box in the image's whole pixels: its edges rounded outwards and cut at the image's. */
function inPixels(box: Box, grey: Grey): Box {
  const x = Math.max(0, Math.floor(box.x)), y = Math.max(0, Math.floor(box.y));
  return { x, y, width: Math.min(grey.width, Math.ceil(box.x + box.width)) - x, height: Math.min(grey.height, Math.ceil(box.y + box.height)) - y };
}

/**
 * Words of a block read turned upright, on lines by where they sit: the reader may give each word of
 * a row a line of its own there, and the rules need a value beside its label.
 */
function rowsOf<W extends ReadWord>(words: readonly W[]): W[] {
  const sorted = [...words].sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2));
  const out: W[] = [];
  let line = -1, mid = -Infinity, h = 0;
  for (const w of sorted) {
    const m = w.y + w.height / 2;
    if (m - mid > Math.max(h, w.height) * 0.5) [line, mid, h] = [line + 1, m, w.height];
    out.push({ ...w, line });
  }
  return out.sort((a, b) => a.line - b.line || a.x - b.x);
}

/**
 * Runs of ink in `block` shaped like a token and not under a sure word: a line's height, at least
 * ten times as long, with no gap as wide as a space, and ink in a text-like share of its pixels.
 */
export function tokenRuns(grey: Grey, block: Box, sure: readonly (ReadWord & { confidence?: number })[]): Redaction[] {
  const { data, width } = grey;
  const x0 = block.x, x1 = Math.min(grey.width, block.x + block.width), y0 = block.y, y1 = Math.min(grey.height, block.y + block.height);
  // Paper: the block's most common grey.
  const hist = new Uint32Array(256);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) hist[data[y * width + x] as number]!++;
  let paper = 0;
  for (let v = 1; v < 256; v++) if ((hist[v] as number) > (hist[paper] as number)) paper = v;
  const ink = (x: number, y: number) => Math.abs((data[y * width + x] as number) - paper) >= STEP;
  // Rows with ink, grouped into lines.
  const rowInk: number[] = [];
  for (let y = y0; y < y1; y++) {
    let n = 0;
    for (let x = x0; x < x1; x++) if (ink(x, y)) n++;
    rowInk.push(n);
  }
  const out: Redaction[] = [];
  let y = 0;
  while (y < rowInk.length) {
    if ((rowInk[y] as number) < 2) {
      y++;
      continue;
    }
    let end = y;
    while (end < rowInk.length && (rowInk[end] as number) >= 2) end++;
    const top = y0 + y, bottom = y0 + end, h = bottom - top;
    y = end;
    if (h < 6 || h > 80) continue;
    // Columns with ink in this line, and runs of them with gaps narrower than a space.
    const cols: boolean[] = [];
    for (let x = x0; x < x1; x++) {
      let any = false;
      for (let yy = top; yy < bottom && !any; yy++) any = ink(x, yy);
      cols.push(any);
    }
    const maxGap = Math.max(2, Math.round(h * 0.3));
    let start = -1, gap = 0;
    for (let i = 0; i <= cols.length; i++) {
      if (i < cols.length && cols[i]) {
        if (start < 0) start = i;
        gap = 0;
        continue;
      }
      if (start < 0) continue;
      gap++;
      if (gap <= maxGap && i < cols.length) continue;
      const runEnd = i - gap + 1;
      const run = { x: x0 + start, y: top, width: runEnd - start, height: h };
      start = -1;
      gap = 0;
      if (run.width < h * 10) continue;
      let n = 0;
      for (let yy = run.y; yy < run.y + run.height; yy++) for (let xx = run.x; xx < run.x + run.width; xx++) if (ink(xx, yy)) n++;
      const density = n / (run.width * run.height);
      if (density < 0.08 || density > 0.6) continue;
      // Read sure enough: the sure words over it span most of it; or read at all, as an identifier
      // (a hash in a colour OCR is unsure of) or as words — what it says the rules have judged.
      const over = sure.filter((w) => overlaps(w, run));
      const span = (ws: typeof over) => ws.reduce((n, w) => n + Math.min(w.x + w.width, run.x + run.width) - Math.max(w.x, run.x), 0);
      if (span(over.filter((w) => (w.confidence ?? 100) >= SURE)) >= run.width * 0.7) continue;
      if (span(over) >= run.width * 0.7 && over.every((w) => publicIdentifier(w.text) || wordLike(w.text))) continue;
      // One reading's words along it (a line of the first read, or of the second look), put together
      // as the one run of ink they are: a hash OCR cut into scraps ("1462-", "48f3-a909-…") is still
      // one, and code or a reference it read is what the rules judged.
      if (readings(over).some((ws) => span(ws) >= run.width * 0.7 && readAsOne(ws))) continue;
      // …or on a row that names it a hash, an id or a payload ("integrity": "sha512-…, trace_id=…).
      const rowText = sure.filter((w) => w.y < run.y + run.height && w.y + w.height > run.y).map((w) => w.text).join(' ');
      if (span(over) >= run.width * 0.7 && NAMED_IDENTIFIER.test(rowText)) continue;
      const m = Math.ceil(h * 0.3);
      out.push({ x: Math.max(0, run.x - m), y: Math.max(0, run.y - m), width: Math.min(grey.width, run.x + run.width + m) - Math.max(0, run.x - m), height: Math.min(grey.height, run.y + run.height + m) - Math.max(0, run.y - m), kind: 'key-like text', rule: 'unread-ink' });
    }
  }
  return out;
}

/** Words of prose or code, cut at their signs: "resetPassword(userId:", "actions/checkout@v4". */
function wordLike(text: string): boolean {
  // (After a setting's name in capitals, its value: "_TRANSPORT=stdout", a log's field.)
  const pieces = text.replace(/^_*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*=/, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return pieces.every((p) => /^(?:[a-z]+|[A-Z][a-z]+|[A-Z]{1,4})(?:[A-Z][a-z]+)*$|^\d{1,4}$|^v\d{1,3}$/.test(p));
}

/** The words over a run by the reading and line they came from, each left to right. */
function readings<T extends ReadWord>(over: readonly T[]): T[][] {
  const by = new Map<number, T[]>();
  for (const w of over) by.set(w.line, [...(by.get(w.line) ?? []), w]);
  return [...by.values()].map((ws) => ws.sort((a, b) => a.x - b.x));
}

/**
 * What one reading's words along a run say, as one run: an identifier (a hash, a UUID, an id named
 * so), words of prose or code, or a reference — capitals, digits and dashes, mostly digits (an order
 * or a tracking number: a generated key is mostly letters; a card number, all digits, is not one).
 */
function readAsOne(ws: readonly ReadWord[]): boolean {
  const text = ws.map((w) => w.text).join('');
  if (publicIdentifier(text) || ws.every((w) => wordLike(w.text))) return true;
  const t = text.replace(/^\W+|\W+$/g, '');
  // (A setting's name in capitals and a number: "_SOURCE_REALTIME_TIMESTAMP=1765000054019555". The
  // rules judged what it says; the ink of a number is no token's.)
  if (/^_*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*[=:-]\d+$/.test(t)) return true;
  const digits = t.replace(/\D/g, '').length;
  return /^[A-Z0-9-]+$/.test(t) && /[A-Z-]/.test(t) && digits >= t.replace(/-/g, '').length * 0.55;
}

/**
 * A found secret's box carried along its line over the rest of its unbroken run of ink: OCR cuts a
 * token it half reads into pieces (a JWT in an italic comment), and what it read as a separate
 * scrap is still the same token when no gap as wide as a space comes between.
 */
export function alongInk(grey: Grey, region: Redaction): Redaction {
  if (region.kind === 'excluded window' || region.rule === 'unread-ink') return region;
  const { data, width } = grey;
  const top = region.y, bottom = Math.min(grey.height, region.y + region.height);
  const h = bottom - top;
  if (h < 4 || h > 120) return region;
  // Paper: the grey most common along the box's top and bottom rows (its margin).
  const hist = new Uint32Array(256);
  for (let x = region.x; x < Math.min(width, region.x + region.width); x++) {
    hist[data[top * width + x] as number]!++;
    hist[data[(bottom - 1) * width + x] as number]!++;
  }
  let paper = 0;
  for (let v = 1; v < 256; v++) if ((hist[v] as number) > (hist[paper] as number)) paper = v;
  // Ink in the middle of the band (a line's glyphs, not the lines above or below).
  const y0 = top + Math.floor(h * 0.2), y1 = bottom - Math.floor(h * 0.2);
  const inkAt = (x: number) => {
    for (let y = y0; y < y1; y++) if (Math.abs((data[y * width + x] as number) - paper) >= STEP) return true;
    return false;
  };
  // A space is a quarter of an em and more; the box is about 1.5 em high with its margins. A token's
  // own glyphs may stand further apart than that (a monospace l or i in its wide cell): the widest
  // gap between the glyphs inside the box (not a space's) is a token's too.
  // (Rightwards only, where a wrapped token's line runs on: leftwards a label's colon may stand as close.)
  const baseGap = Math.max(2, Math.round(h * 0.15));
  const maxGap = Math.max(baseGap, innerGap(region.x, Math.min(width, region.x + region.width)));
  function innerGap(from: number, to: number): number {
    const gaps: number[] = [];
    let run = -1;
    for (let x = from; x < to; x++) {
      if (inkAt(x)) {
        if (run > 0) gaps.push(run);
        run = 0;
      } else if (run >= 0) run++;
    }
    // (At least a few glyphs' gaps; a space’s gap, a fifth of the box’s height or more, is no glyph’s.)
    const glyphs = gaps.filter((g) => g < h * 0.2);
    return glyphs.length >= 8 ? Math.max(...glyphs) : 0;
  }
  const walk = (from: number, step: 1 | -1): number => {
    const most = step === 1 ? maxGap : baseGap;
    let x = from, last = from, gap = 0;
    while (x >= 0 && x < width && gap <= most) {
      if (inkAt(x)) {
        last = x;
        gap = 0;
      } else gap++;
      x += step;
    }
    return last;
  };
  // Only when ink touches the box's edge (the box ends inside a token), not when it ends at paper.
  const right = region.x + region.width;
  const left = region.x;
  let newRight = right, newLeft = left;
  // (…or the box ends in the gap before a glyph of the token, no wider than its glyphs' gaps.)
  const inkWithin = (from: number) => {
    for (let k = 0; k <= maxGap; k++) if (from + k < width && inkAt(from + k)) return true;
    return false;
  };
  if (right < width && (inkAt(Math.min(width - 1, right - 1)) || inkWithin(right))) newRight = Math.min(width, walk(right, 1) + 1 + Math.ceil(h * 0.3));
  if (left > 0 && inkAt(left)) newLeft = Math.max(0, walk(left, -1) - Math.ceil(h * 0.3));
  if (newRight === right && newLeft === left) return region;
  return { ...region, x: newLeft, width: Math.max(newRight, right) - newLeft };
}

/**
 * The first read's words with the second look's put in: a word read again replaces the unsure ones
 * it lies over and joins the line of the row it sits on, so the rules see it in its context (a hash
 * read again still has its "integrity": before it). Ordered line by line, left to right.
 */
export function combineReads(first: readonly (ReadWord & { confidence?: number })[], again: readonly ReadWord[]): ReadWord[] {
  if (!again.length) return [...first];
  const sameRow = (f: ReadWord, w: ReadWord) => Math.abs(f.y + f.height / 2 - (w.y + w.height / 2)) < Math.max(f.height, w.height) * 0.6;
  const across = (f: ReadWord, w: ReadWord) => Math.min(f.x + f.width, w.x + w.width) - Math.max(f.x, w.x);
  const sure = (w: ReadWord) => (w as { confidence?: number }).confidence ?? 100;
  // A word read again that lies over a first-read word as sure as it or more adds nothing but a copy:
  // beside its twin on the row it would read "span_id=…span_id=…", which no rule knows.
  const placed = again.filter((w) => !first.some((f) => sure(f) >= SURE && sure(f) >= sure(w) && sameRow(f, w) && across(f, w) >= 0.7 * w.width));
  // A first-read word is replaced where the surer words read again cover half of it or more (a
  // scrap of two letters read surely does not replace the token it sits in).
  const replaced = new Set<number>();
  first.forEach((f, i) => {
    let covered = 0;
    for (const w of placed) if ((sure(f) < SURE || sure(f) < sure(w)) && sameRow(f, w) && across(f, w) > 0) covered += across(f, w);
    if (covered >= 0.5 * f.width) replaced.add(i);
  });
  const placedOnRows = placed.map((w) => {
    // The row it sits on: a first-read word beside it with the same middle, give or take a few
    // pixels. (Not a row half a line lower: a wrapped JWT's last line in devtools' headers pane
    // joined a network table's row 1,250 px to its left, and that row's band cut the token's box
    // to its lower half.)
    const mid = w.y + w.height / 2;
    let mate: ReadWord | undefined, best = Infinity;
    first.forEach((f, i) => {
      const d = Math.abs(f.y + f.height / 2 - mid);
      if (replaced.has(i) || d >= Math.max(f.height, w.height) * 0.4 || Math.abs(f.height - w.height) >= Math.max(f.height, w.height) * 0.5 || d >= best) return;
      mate = f;
      best = d;
    });
    return mate ? { ...w, line: mate.line } : w;
  });
  const all = [...first.filter((_, i) => !replaced.has(i)), ...placedOnRows];
  const top = new Map<number, number>();
  for (const w of all) top.set(w.line, Math.min(top.get(w.line) ?? Infinity, w.y + w.height / 2));
  return all.sort((a, b) => (a.line === b.line ? a.x - b.x : (top.get(a.line) as number) - (top.get(b.line) as number) || a.line - b.line));
}
