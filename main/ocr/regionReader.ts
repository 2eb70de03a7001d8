// The screen reader Glance uses: tesseract reads only the blocks that hold text
// (textRegions.ts), each the right way up (light-on-dark inverted), at the size its text needs,
// side by side on a pool of workers (readerPool.ts), and a block whose pixels were read before is
// not read again: readings are remembered by the hash of the block's pixels, so a second capture of
// a screen where one window changed reads that window only. Lines and words come back in the
// pixels of the image given, as a single whole-image reading's would.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { errorMessage } from '../errors.ts';
import { joinRows } from './tesseractReader.ts';
import { eraseRules, flipBands, inkLines, inkRuns, lineKey, paperOf, splitByLine, stackLines, type InkLine, type LineReading } from './textLines.ts';
import { bands, findTextRegions, type TextRegion } from './textRegions.ts';
import { OcrError, type OcrLine, type OcrReading, type OcrWord, type TextReader } from './textReader.ts';

/** Remembered blocks: at most this many, and this many characters of text in all. */
const MAX_TILES = 4096;
const MAX_TILE_CHARS = 2_000_000;
/** Remembered lines (the finer reuse inside a changed block): at most this many. */
const MAX_LINES = 16_384;
/**
 * A changed block whose new lines are at most this share of its lines reads only those, stacked
 * into one image; with more, the whole block is read (tesseract reads a line as well among its
 * neighbours, and one call for most of a block costs about what the block does).
 */
const NEW_LINES_SHARE = 0.5;
/** Paper above and below a stack of lines, as a block has. */
const STACK_MARGIN = 8;
const DEFAULT_TIMEOUT_MS = 60_000;
/**
 * Lines of text taller than this (ink rows, ascenders to descenders) are read smaller, down to
 * about this height: tesseract's work grows with a line's pixels, so 2× HiDPI text (28 px lines)
 * costs half as much read at 16. Not lower: 14 px screen text (14 px lines) read at 12 px cost a
 * quarter less CPU but lost 0.7 points of characters, at 10 px 4.3 points (docs/ocr.md).
 */
const TEXT_HEIGHT = 16;
/** Text shorter than this is read at twice its size. */
const SMALL_TEXT = 9;

type Tile = { lines: OcrLine[]; words: OcrWord[]; chars: number };

export class RegionReader implements TextReader {
  readonly #reader: TextReader;
  readonly #tiles = new Map<string, Tile>();
  #tileChars = 0;
  #read = 0;
  #reused = 0;
  readonly #lines = new Map<string, LineReading>();
  #linesRead = 0;
  #linesReused = 0;

  /** `reader` reads one block; pass a ReaderPool to read blocks side by side. */
  readonly #textHeight: number;

  constructor(reader: TextReader, options: { textHeight?: number } = {}) {
    this.#reader = reader;
    this.#textHeight = options.textHeight ?? TEXT_HEIGHT;
  }

  get engine(): string {
    return this.#reader.engine;
  }

  /** Blocks read by tesseract and blocks answered from memory, since this reader was made. */
  get tiles(): { read: number; reused: number } {
    return { read: this.#read, reused: this.#reused };
  }

  /** Lines sent to tesseract and lines answered from memory inside blocks that were read (a block answered whole from memory counts in neither). */
  get lines(): { read: number; reused: number } {
    return { read: this.#linesRead, reused: this.#linesReused };
  }

  async read(png: Uint8Array, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<OcrReading> {
    const started = performance.now();
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(timeoutMs);
    const stop = new AbortController();
    const signal = AbortSignal.any([deadline, stop.signal, ...(options.signal ? [options.signal] : [])]);
    const stopped = () => (options.signal?.aborted ? new OcrError('cancelled', 'Local OCR was stopped.') : new OcrError('timeout', `Local OCR took longer than ${Math.round(timeoutMs / 1000)} s and was stopped.`));
    if (signal.aborted) throw stopped();
    let grey: { data: Buffer; width: number; height: number };
    try {
      const { data, info } = await sharp(png).greyscale().extractChannel(0).raw().toBuffer({ resolveWithObject: true });
      grey = { data, width: info.width, height: info.height };
    } catch (error) {
      throw new OcrError('failed', `Local OCR failed: ${errorMessage(error)}`);
    }
    const blocks = findTextRegions(grey.data, grey.width, grey.height).flatMap((r) => bands(grey.data, grey.width, r));
    const results: { block: TextRegion; tile: Tile }[] = [];
    try {
      // The largest blocks go to the pool first, so no worker is left with a big one at the end.
      const largestFirst = [...blocks.keys()].sort((a, b) => blocks[b]!.width * blocks[b]!.height - blocks[a]!.width * blocks[a]!.height);
      await Promise.all(
        largestFirst.map(async (i) => {
          const block = blocks[i]!;
          const { key, pixels, scale } = cropBlock(grey, block, this.#textHeight);
          const known = this.#tiles.get(key);
          if (known) {
            this.#tiles.delete(key);
            this.#tiles.set(key, known);
            this.#reused++;
            results[i] = { block, tile: known };
            return;
          }
          const tile = await this.#readBlock(pixels, block, scale, signal);
          this.#remember(key, tile);
          results[i] = { block, tile };
        }),
      );
    } catch (error) {
      stop.abort();
      if (signal.aborted && (deadline.aborted || options.signal?.aborted)) throw stopped();
      if (error instanceof OcrError) throw error;
      throw new OcrError('failed', `Local OCR failed: ${errorMessage(error)}`);
    }
    const { lines, words } = placeReadings(results.map(({ block, tile }) => ({ reading: tile, x: block.x, y: block.y })));
    // Words of one line that fell into two blocks (big text's wide word gaps) are one phrase again.
    const rows = joinRows(lines, { wordGap: 1.5 });
    const confidence = words.length ? words.reduce((a, w) => a + w.confidence, 0) / words.length : 0;
    return { text: rows.map((r) => r.text).join('\n'), lines: rows, words, confidence, engine: this.engine, durationMs: Math.round(performance.now() - started) };
  }

  close(): Promise<void> {
    this.#tiles.clear();
    this.#lines.clear();
    this.#tileChars = 0;
    return this.#reader.close();
  }

  /**
   * A block not seen before, line by line: lines whose pixels were read before (in any block, at
   * any place) are answered from memory; when few are new only those are read, stacked into one
   * image; otherwise the whole block is read. Every line read is remembered.
   */
  async #readBlock(pixels: Buffer, block: TextRegion, scale: number, signal: AbortSignal): Promise<Tile> {
    const units = inkLines(pixels, block.width, block.height);
    if (!units.length) {
      const read = await this.#recognise(pixels, block.width, block.height, scale, signal);
      return { ...read, chars: countChars(read) };
    }
    const keys = units.map((u) => lineKey(pixels, block.width, u));
    const known = keys.map((k) => this.#lines.get(k));
    const missing = known.flatMap((k, i) => (k ? [] : [i]));
    let parts: LineReading[];
    if (!missing.length) parts = known as LineReading[];
    else if (units.length >= 2 && missing.length <= units.length * NEW_LINES_SHARE) {
      const stack = stackLines(pixels, block.width, units, missing, STACK_MARGIN);
      const read = await this.#recognise(stack.pixels, block.width, stack.height, scale, signal);
      const fresh = splitByLine(read, missing.map((i) => units[i]!), stack.top);
      parts = known.map((k, i) => k ?? fresh[missing.indexOf(i)]!);
    } else {
      const read = await this.#recognise(pixels, block.width, block.height, scale, signal);
      parts = splitByLine(read, units, units.map((u) => u.y0));
      missing.splice(0, missing.length, ...units.keys());
    }
    this.#linesRead += missing.length;
    this.#linesReused += units.length - missing.length;
    for (const i of missing) {
      if (this.#lines.has(keys[i]!)) continue;
      this.#lines.set(keys[i]!, parts[i]!);
      if (this.#lines.size > MAX_LINES) this.#lines.delete(this.#lines.keys().next().value!);
    }
    // Lines answered from memory are the newest again (the oldest are dropped first).
    known.forEach((line, i) => {
      if (!line) return;
      this.#lines.delete(keys[i]!);
      this.#lines.set(keys[i]!, line);
    });
    const tile = joinLines(parts, units);
    return { ...tile, chars: countChars(tile) };
  }

  /** One recognise call; lines and words come back in the unscaled pixels given. */
  async #recognise(pixels: Buffer, width: number, height: number, scale: number, signal: AbortSignal): Promise<LineReading> {
    const image = await encodeBlock(pixels, width, height, scale);
    signal.throwIfAborted();
    this.#read++;
    const reading = await this.#reader.read(image, { signal });
    const unscale = (box: OcrLine['box']) => (scale === 1 ? box : { x: Math.round(box.x / scale), y: Math.round(box.y / scale), width: Math.round(box.width / scale), height: Math.round(box.height / scale) });
    return { lines: reading.lines.map((l) => ({ ...l, box: unscale(l.box) })), words: (reading.words ?? []).map((w) => ({ ...w, box: unscale(w.box) })) };
  }

  #remember(key: string, tile: Tile): void {
    if (tile.chars > MAX_TILE_CHARS || this.#tiles.has(key)) return;
    this.#tiles.set(key, tile);
    this.#tileChars += tile.chars;
    for (const [oldest, t] of this.#tiles) {
      if (this.#tiles.size <= MAX_TILES && this.#tileChars <= MAX_TILE_CHARS) break;
      this.#tiles.delete(oldest);
      this.#tileChars -= t.chars;
    }
  }
}

/** The block's pixels, dark text on light (inverted if it is a dark block), the scale to read it at, and their hash. */
function cropBlock(grey: { data: Buffer; width: number }, block: TextRegion, textHeight: number): { key: string; pixels: Buffer; scale: number } {
  const pixels = Buffer.allocUnsafe(block.width * block.height);
  for (let y = 0; y < block.height; y++) {
    const from = (block.y + y) * grey.width + block.x;
    grey.data.copy(pixels, y * block.width, from, from + block.width);
  }
  if (block.dark) for (let i = 0; i < pixels.length; i++) pixels[i] = 255 - pixels[i]!;
  // A selected row or a button on a darker fill, its own way up; then a field's border or a table's
  // lines, which read as glyphs and make the field one line as tall as itself, painted out.
  flipBands(pixels, block.width, block.height);
  eraseRules(pixels, block.width, block.height);
  const scale = readingScale(pixels, block.width, block.height, textHeight);
  const key = createHash('sha256').update(`${block.width}x${block.height}@${scale}\n`).update(pixels).digest('hex');
  return { key, pixels, scale };
}

async function encodeBlock(pixels: Buffer, width: number, height: number, scale: number): Promise<Buffer> {
  let image = sharp(pixels, { raw: { width, height, channels: 1 } });
  if (scale !== 1) image = image.resize(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)), { fit: 'fill', kernel: 'lanczos3' });
  return image.png({ compressionLevel: 1 }).toBuffer();
}

const countChars = (r: LineReading) => r.lines.reduce((n, l) => n + l.text.length + 1, 0);

/** A block's lines, each in its own pixels, as one reading in the block's pixels (words numbered by line, top to bottom). */
function joinLines(parts: readonly LineReading[], units: readonly InkLine[]): LineReading {
  return placeReadings(parts.map((reading, k) => ({ reading, x: units[k]!.x0, y: units[k]!.y0 })));
}

/** Readings of parts, each in its own pixels, as one reading: boxes moved by each part's offset, words' lines numbered on. */
function placeReadings(parts: readonly { reading: LineReading; x: number; y: number }[]): LineReading {
  const lines: OcrLine[] = [];
  const words: OcrWord[] = [];
  let base = 0;
  for (const { reading, x, y } of parts) {
    const at = (box: OcrLine['box']) => ({ ...box, x: box.x + x, y: box.y + y });
    for (const line of reading.lines) lines.push({ ...line, box: at(line.box) });
    let top = -1;
    for (const word of reading.words) {
      words.push({ ...word, line: base + word.line, box: at(word.box) });
      top = Math.max(top, word.line);
    }
    base += top + 1;
  }
  return { lines, words };
}

/**
 * The scale the block's text needs, from its lines' height: the median height of the runs of rows
 * that hold ink (two or more pixels a clear step darker than the block's median, its paper) —
 * ascenders to descenders, a line's full height; where one line's descenders touch the next
 * line's ascenders two lines make one run, which the median outvotes. Text taller than
 * `textHeight` is read smaller, tiny text larger.
 */
export function readingScale(pixels: Uint8Array, width: number, height: number, textHeight = TEXT_HEIGHT): number {
  // A run of three rows or fewer is a rule (a field's top or bottom border, an underline), not text.
  const runs = inkRuns(pixels, width, height, paperOf(pixels)).map((r) => r.y1 - r.y0).filter((h) => h > 3);
  if (!runs.length) return 1;
  runs.sort((a, b) => a - b);
  const median = runs[runs.length >> 1]!;
  // One run as tall as the block is not a line of text (a picture, or lines the projection could not part).
  if (runs.length < 2 && median * 2 > height) return 1;
  if (median < SMALL_TEXT && runs.length > 2) return 2;
  // Read smaller only by a clear step (a few percent would cost a resample for nothing); never below a quarter.
  const scale = textHeight / median;
  return scale < 0.9 ? Math.max(0.25, Math.round(scale * 20) / 20) : 1;
}
