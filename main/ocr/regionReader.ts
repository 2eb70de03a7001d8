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
import { bands, findTextRegions, type TextRegion } from './textRegions.ts';
import { OcrError, type OcrLine, type OcrReading, type OcrWord, type TextReader } from './textReader.ts';

/** Remembered blocks: at most this many, and this many characters of text in all. */
const MAX_TILES = 4096;
const MAX_TILE_CHARS = 2_000_000;
const DEFAULT_TIMEOUT_MS = 60_000;
/**
 * Lines of text taller than this (ink rows, ascenders to descenders) are read smaller, down to
 * about this height: tesseract's work grows with a line's pixels, so 2× HiDPI text (28 px lines)
 * costs half as much read at 16. Not lower: 14 px screen text (14 px lines) read at 12 px cost a
 * quarter less CPU but lost 0.7 points of characters, at 10 px 4.3 points (docs/ocr.md).
 */
export const TEXT_HEIGHT = 16;
/** Text shorter than this is read at twice its size. */
const SMALL_TEXT = 9;

type Tile = { lines: OcrLine[]; words: OcrWord[]; chars: number };

export class RegionReader implements TextReader {
  readonly #reader: TextReader;
  readonly #tiles = new Map<string, Tile>();
  #tileChars = 0;
  #read = 0;
  #reused = 0;

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
    let results: { block: TextRegion; scale: number; tile: Tile }[];
    try {
      results = await Promise.all(
        blocks.map(async (block) => {
          const { key, pixels, scale } = cropBlock(grey, block, this.#textHeight);
          const known = this.#tiles.get(key);
          if (known) {
            this.#tiles.delete(key);
            this.#tiles.set(key, known);
            this.#reused++;
            return { block, scale, tile: known };
          }
          const image = await encodeBlock(pixels, block, scale);
          signal.throwIfAborted();
          this.#read++;
          const reading = await this.#reader.read(image, { signal });
          const tile = { lines: reading.lines, words: reading.words ?? [], chars: reading.text.length };
          this.#remember(key, tile);
          return { block, scale, tile };
        }),
      );
    } catch (error) {
      stop.abort();
      if (signal.aborted && (deadline.aborted || options.signal?.aborted)) throw stopped();
      if (error instanceof OcrError) throw error;
      throw new OcrError('failed', `Local OCR failed: ${errorMessage(error)}`);
    }
    const lines: OcrLine[] = [];
    const words: OcrWord[] = [];
    let lineBase = 0;
    for (const { block, scale, tile } of results) {
      const place = (box: OcrLine['box']) => ({ x: block.x + Math.round(box.x / scale), y: block.y + Math.round(box.y / scale), width: Math.round(box.width / scale), height: Math.round(box.height / scale) });
      for (const line of tile.lines) lines.push({ ...line, box: place(line.box) });
      let top = -1;
      for (const word of tile.words) {
        words.push({ ...word, line: lineBase + word.line, box: place(word.box) });
        top = Math.max(top, word.line);
      }
      lineBase += top + 1;
    }
    // Words of one line that fell into two blocks (big text's wide word gaps) are one phrase again.
    const rows = joinRows(lines, { wordGap: 1.5 });
    const confidence = words.length ? words.reduce((a, w) => a + w.confidence, 0) / words.length : 0;
    return { text: rows.map((r) => r.text).join('\n'), lines: rows, words, confidence, engine: this.engine, durationMs: Math.round(performance.now() - started) };
  }

  close(): Promise<void> {
    this.#tiles.clear();
    this.#tileChars = 0;
    return this.#reader.close();
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
  const scale = readingScale(pixels, block.width, block.height, textHeight);
  const key = createHash('sha256').update(`${block.width}x${block.height}@${scale}\n`).update(pixels).digest('hex');
  return { key, pixels, scale };
}

async function encodeBlock(pixels: Buffer, block: TextRegion, scale: number): Promise<Buffer> {
  let image = sharp(pixels, { raw: { width: block.width, height: block.height, channels: 1 } });
  if (scale !== 1) image = image.resize(Math.max(1, Math.round(block.width * scale)), Math.max(1, Math.round(block.height * scale)), { fit: 'fill', kernel: 'lanczos3' });
  return image.png({ compressionLevel: 1 }).toBuffer();
}

/**
 * The scale the block's text needs, from its lines' height: the median height of the runs of rows
 * that hold ink (two or more pixels a clear step darker than the block's median, its paper) —
 * ascenders to descenders, a line's full height; where one line's descenders touch the next
 * line's ascenders two lines make one run, which the median outvotes. Text taller than
 * `textHeight` is read smaller, tiny text larger.
 */
export function readingScale(pixels: Uint8Array, width: number, height: number, textHeight = TEXT_HEIGHT): number {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < pixels.length; i += 3) histogram[pixels[i]!]!++;
  let seen = 0;
  let paper = 255;
  const half = Math.ceil(pixels.length / 3) / 2;
  for (let v = 0; v < 256; v++) {
    if ((seen += histogram[v]!) >= half) {
      paper = v;
      break;
    }
  }
  const runs: number[] = [];
  let run = 0;
  for (let y = 0; y <= height; y++) {
    let n = 0;
    if (y < height) {
      const row = y * width;
      for (let x = 0; x < width && n < 2; x++) if (paper - pixels[row + x]! >= 60) n++;
    }
    if (n >= 2) run++;
    else if (run) {
      runs.push(run);
      run = 0;
    }
  }
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
