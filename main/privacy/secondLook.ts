// A second look where the first read missed text, and a fail-safe where the second misses too
// (DESIGN §3b). Text OCR did not read — light grey on white, pink inline code on grey, a selected
// line in a low-contrast theme, a field's text inside its border, a block turned a few degrees — is
// still ink: cells of the image with glyph edges both ways that no word read with confidence
// covers. Each such block is read again on its own, contrast stretched (inverted when light on
// dark), enlarged when small, and turned ±5° when the upright read finds nothing; the words found
// join the first read's, so every rule runs over them. What stays unread and is shaped like a token
// — a long, unbroken, dense run of ink the height of a line of text — is hidden as it is.
import sharp, { type Sharp } from 'sharp';
import type { Redaction } from '../../common/privacy.ts';
import { identifier, NAMED_IDENTIFIER } from './findings.ts';
import { overlaps, type Box, type ReadWord } from './locate.ts';

/** Local OCR of one image (the same reader as the first look, injected). */
type Read = (image: { data: Uint8Array; mime: string }) => Promise<{ ok: true; words: ReadWord[]; size: { width: number; height: number } } | { ok: false }>;

export type Grey = { data: Uint8Array; width: number; height: number };

const CELL = 8;
/** A step this large between neighbours is a glyph's edge (light grey #ccc on white is 51). */
const STEP = 20;
/** A word read at least this sure covers its ink; below it its ink counts as unread. */
const SURE = 30;
/** At most this many blocks get a second look per image, and at most this share of its pixels. */
const MAX_BLOCKS = 16;
const MAX_SHARE = 0.3;
/** …and at most this many reads in all (a block read upright, then turned ±5° when that found nothing). */
const MAX_READS = 12;

export async function greyOf(pixels: Sharp): Promise<Grey> {
  const { data, info } = await pixels.flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** Blocks of glyph-like ink that no sure word covers, largest first. */
export function unreadBlocks(grey: Grey, words: readonly (ReadWord & { confidence?: number })[]): Box[] {
  const { data, width, height } = grey;
  const cw = Math.ceil(width / CELL), ch = Math.ceil(height / CELL);
  const across = new Uint16Array(cw * ch), down = new Uint16Array(cw * ch);
  for (let y = 0; y < height - 1; y++) {
    const row = y * width, cellRow = ((y / CELL) | 0) * cw;
    for (let x = 0; x < width - 1; x++) {
      const p = data[row + x] as number;
      const cell = cellRow + ((x / CELL) | 0);
      if (Math.abs(p - (data[row + x + 1] as number)) >= STEP) across[cell]!++;
      if (Math.abs(p - (data[row + width + x] as number)) >= STEP) down[cell]!++;
    }
  }
  const text = new Uint8Array(cw * ch);
  for (let i = 0; i < text.length; i++) text[i] = (across[i] as number) >= 2 && (down[i] as number) >= 2 ? 1 : 0;
  // Cells under a sure word (with a little margin) were read.
  for (const w of words) {
    if ((w.confidence ?? 100) < SURE) continue;
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
  const boxes = new Map<number, { x0: number; y0: number; x1: number; y1: number; n: number }>();
  for (let i = 0; i < text.length; i++) {
    if (!text[i]) continue;
    const r = find(i), cx = i % cw, cy = (i / cw) | 0;
    const b = boxes.get(r);
    if (!b) boxes.set(r, { x0: cx, y0: cy, x1: cx, y1: cy, n: 1 });
    else Object.assign(b, { x0: Math.min(b.x0, cx), y0: Math.min(b.y0, cy), x1: Math.max(b.x1, cx), y1: Math.max(b.y1, cy), n: b.n + 1 });
  }
  // Three cells or more, wider than tall (a line of text, not an icon's corner).
  return [...boxes.values()]
    .filter((b) => b.n >= 3 && b.x1 - b.x0 >= 3)
    .map((b) => ({ x: b.x0 * CELL, y: b.y0 * CELL, width: Math.min(width, (b.x1 + 1) * CELL) - b.x0 * CELL, height: Math.min(height, (b.y1 + 1) * CELL) - b.y0 * CELL }))
    .sort((a, b) => b.width * b.height - a.width * a.height);
}

/** The block's pixels made easy to read: contrast stretched, dark text on light, at least 48 px tall lines. */
async function lookAgain(grey: Grey, box: Box, angle: number): Promise<{ png: Buffer; scale: number; crop: Box; out: { width: number; height: number } }> {
  const pad = 8;
  const crop = { x: Math.max(0, box.x - pad), y: Math.max(0, box.y - pad), width: 0, height: 0 };
  crop.width = Math.min(grey.width, box.x + box.width + pad) - crop.x;
  crop.height = Math.min(grey.height, box.y + box.height + pad) - crop.y;
  const scale = crop.height < 160 ? 2 : 1;
  let img = sharp(Buffer.from(grey.data.buffer, grey.data.byteOffset, grey.data.length), { raw: { width: grey.width, height: grey.height, channels: 1 } }).extract({ left: crop.x, top: crop.y, width: crop.width, height: crop.height });
  const stats = await img.clone().stats();
  const mean = stats.channels[0]?.mean ?? 255;
  if (mean < 128) img = img.negate();
  img = sharp(await img.normalise({ lower: 1, upper: 99 }).png().toBuffer());
  if (scale !== 1) img = img.resize(crop.width * scale, crop.height * scale, { kernel: 'lanczos3' });
  if (angle) img = sharp(await img.png().toBuffer()).rotate(angle, { background: '#ffffff' });
  const { data, info } = await img.png().toBuffer({ resolveWithObject: true });
  return { png: data, scale, crop, out: { width: info.width, height: info.height } };
}

/** A point of the turned, enlarged crop back in the image's pixels. */
function back(p: { x: number; y: number }, look: { scale: number; crop: Box; out: { width: number; height: number } }, angle: number): { x: number; y: number } {
  const w = look.crop.width * look.scale, h = look.crop.height * look.scale;
  const t = (-angle * Math.PI) / 180;
  const dx = p.x - look.out.width / 2, dy = p.y - look.out.height / 2;
  const x = dx * Math.cos(t) - dy * Math.sin(t) + w / 2, y = dx * Math.sin(t) + dy * Math.cos(t) + h / 2;
  return { x: look.crop.x + x / look.scale, y: look.crop.y + y / look.scale };
}

export type SecondLook = { words: ReadWord[]; failSafe: Redaction[]; blocks: number };

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
  let line = 1_000_000;
  let calls = 0;
  for (const block of blocks) {
    signal?.throwIfAborted();
    let sure: ReadWord[] = [];
    for (const angle of [0, -5, 5]) {
      if (calls++ >= MAX_READS) break;
      const look = await lookAgain(grey, block, angle);
      const got = await read({ data: look.png, mime: 'image/png' });
      if (!got.ok) continue;
      const mapped = got.words
        .filter((w) => w.text.trim())
        .map((w) => {
          const corners = [back({ x: w.x, y: w.y }, look, angle), back({ x: w.x + w.width, y: w.y }, look, angle), back({ x: w.x, y: w.y + w.height }, look, angle), back({ x: w.x + w.width, y: w.y + w.height }, look, angle)];
          const x0 = Math.min(...corners.map((c) => c.x)), y0 = Math.min(...corners.map((c) => c.y));
          const x1 = Math.max(...corners.map((c) => c.x)), y1 = Math.max(...corners.map((c) => c.y));
          return { ...w, line: line + w.line, x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
        });
      const good = mapped.filter((w) => ((w as { confidence?: number }).confidence ?? 100) >= SURE);
      if (good.length > sure.filter((w) => ((w as { confidence?: number }).confidence ?? 100) >= SURE).length || !sure.length) sure = mapped;
      // Text read upright needs no turning; only a block that gave nothing is turned.
      if (mapped.length) break;
    }
    line += 10_000;
    found.push(...sure);
    // The first read's unsure words over the block count as well: what they say was judged by the rules.
    failSafe.push(...tokenRuns(grey, block, [...words.filter((w) => overlaps(w, block)), ...sure]));
  }
  return { words: found, failSafe, blocks: blocks.length };
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
      if (span(over) >= run.width * 0.7 && over.every((w) => identifier(w.text) || /^[A-Za-z][a-z]*[.,:;]?$|^\W*$/.test(w.text))) continue;
      // …or on a row that names it a hash, an id or a payload ("integrity": "sha512-…, trace_id=…).
      const rowText = sure.filter((w) => w.y < run.y + run.height && w.y + w.height > run.y).map((w) => w.text).join(' ');
      if (span(over) >= run.width * 0.7 && NAMED_IDENTIFIER.test(rowText)) continue;
      const m = Math.ceil(h * 0.3);
      out.push({ x: Math.max(0, run.x - m), y: Math.max(0, run.y - m), width: Math.min(grey.width, run.x + run.width + m) - Math.max(0, run.x - m), height: Math.min(grey.height, run.y + run.height + m) - Math.max(0, run.y - m), kind: 'key-like text', rule: 'unread-ink' });
    }
  }
  return out;
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
  // A space is a quarter of an em and more; the box is about 1.5 em high with its margins.
  const maxGap = Math.max(2, Math.round(h * 0.15));
  const walk = (from: number, step: 1 | -1): number => {
    let x = from, last = from, gap = 0;
    while (x >= 0 && x < width && gap <= maxGap) {
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
  if (right < width && inkAt(Math.min(width - 1, right - 1))) newRight = Math.min(width, walk(right, 1) + 1 + Math.ceil(h * 0.3));
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
  const replaced = new Set<number>();
  const placed = again.map((w) => {
    first.forEach((f, i) => {
      const sure = (f.confidence ?? 100) < SURE || (f.confidence ?? 100) < ((w as { confidence?: number }).confidence ?? 100);
      const across = Math.min(f.x + f.width, w.x + w.width) - Math.max(f.x, w.x);
      const sameRow = Math.abs(f.y + f.height / 2 - (w.y + w.height / 2)) < Math.max(f.height, w.height) * 0.6;
      if (sure && sameRow && across >= 0.5 * Math.min(f.width, w.width)) replaced.add(i);
    });
    // The row it sits on: a first-read word beside it with the same middle.
    const mid = w.y + w.height / 2;
    let mate: ReadWord | undefined, best = Infinity;
    first.forEach((f, i) => {
      const d = Math.abs(f.y + f.height / 2 - mid);
      if (replaced.has(i) || d >= Math.max(f.height, w.height) * 0.6 || Math.abs(f.height - w.height) >= Math.max(f.height, w.height) * 0.5 || d >= best) return;
      mate = f;
      best = d;
    });
    return mate ? { ...w, line: mate.line } : w;
  });
  const all = [...first.filter((_, i) => !replaced.has(i)), ...placed];
  const top = new Map<number, number>();
  for (const w of all) top.set(w.line, Math.min(top.get(w.line) ?? Infinity, w.y + w.height / 2));
  return all.sort((a, b) => (a.line === b.line ? a.x - b.x : (top.get(a.line) as number) - (top.get(b.line) as number) || a.line - b.line));
}
