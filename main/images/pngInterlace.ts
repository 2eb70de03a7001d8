// An Adam7-interlaced PNG rewritten as a non-interlaced one, holding a few rows, never the image.
// libpng (and so libvips) decodes an interlaced PNG whole: a 3840×2160 screen is a 24.9 MB buffer
// before the resize starts, 18 MB above the same screen non-interlaced (bench:memory). A
// non-interlaced PNG is decoded in strips. The seven passes follow one another in one zlib
// stream, and every output row needs a row from several of them (row 0: passes 1, 2, 4 and 6;
// pass 6 starts a quarter of the way in, pass 7 half way), so a single reader would have to keep
// passes 1–6 (half the pixels) until pass 7 arrives. Instead each pass has its own inflater over
// the same compressed bytes (already in memory), skipping to where its pass begins: seven
// scanlines and seven zlib windows are held, and inflating costs about twice the stream once
// (pass 7 skips half, pass 6 a quarter, …). The rows are written out filtered (Up) and deflated
// at level 1, exactly the same pixels; the copy is what the decoder then reads.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createDeflate, crc32 } from 'node:zlib';
import { inflate, inflateEnd, inflateInit2 } from 'pako/lib/zlib/inflate.js';
import ZStream from 'pako/lib/zlib/zstream.js';
import { keptForPixels, pngChunks, pngHeader, type PngChunk } from './pngChunks.ts';

// [x0, y0, dx, dy] of each pass (PNG specification, section 8.2).
const PASSES: ReadonlyArray<readonly [number, number, number, number]> = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
/** Inflater output pieces and the batch of rows handed to the deflater at a time. */
const CHUNK = 64 * 1024;

type Header = { width: number; height: number; depth: number; channels: number };

/** An Adam7 PNG's header with its channel count; undefined for anything else. */
function header(data: Uint8Array, ihdr: PngChunk | undefined): Header | undefined {
  const h = pngHeader(data, ihdr);
  const channels = h && CHANNELS[h.colourType];
  if (!h?.interlaced || !channels || ![1, 2, 4, 8, 16].includes(h.depth)) return undefined;
  return { width: h.width, height: h.height, depth: h.depth, channels };
}

/**
 * Reads one pass's filtered scanlines from its own inflater over the whole IDAT stream, straight
 * into the caller's buffers: no allocation per chunk (a stream's garbage output buffers, 50 MB
 * of them for a 4K screen, stayed resident until the next GC and cost more than they saved).
 */
class PassReader {
  readonly #strm = new ZStream();
  readonly #parts: readonly Uint8Array[];
  #part = 0;
  #ended = false;

  /**
   * `checked`: read the zlib header and verify the Adler-32 at the end (the reader that reads to
   * the end does; the others inflate the raw deflate data after the 2-byte header, unchecked:
   * the checksum was a third of the CPU, and one check of the stream is enough).
   */
  constructor(parts: readonly Uint8Array[], checked: boolean) {
    const first = parts[0];
    this.#parts = checked || !first ? parts : [first.subarray(2), ...parts.slice(1)];
    inflateInit2(this.#strm, checked ? 15 : -15);
    this.#feed();
  }

  #feed(): boolean {
    const next = this.#parts[this.#part++];
    if (!next) return false;
    this.#strm.input = next;
    this.#strm.next_in = 0;
    this.#strm.avail_in = next.length;
    return true;
  }

  /** Inflates exactly `into.length` bytes into `into`. */
  read(into: Uint8Array): void {
    const strm = this.#strm;
    strm.output = into;
    strm.next_out = 0;
    strm.avail_out = into.length;
    while (strm.avail_out > 0) {
      if (strm.avail_in === 0 && !this.#feed()) throw new Error('the image data ends early');
      const status = inflate(strm, 0);
      if (status === 1) this.#ended = true;
      if (status === 1 && strm.avail_out > 0) throw new Error('the image data ends early');
      check(status, strm);
    }
  }

  /** Inflates and drops `length` bytes, letting the event loop run every few megabytes. */
  async skip(length: number, scratch: Uint8Array): Promise<void> {
    for (let left = length, k = 1; left > 0; left -= scratch.length, k++) {
      this.read(left >= scratch.length ? scratch : scratch.subarray(0, left));
      if (k % 32 === 0) await nextTurn();
    }
  }

  /** Inflates to the end of the stream (the checksum is verified there); bytes past the pixels are ignored. */
  finish(scratch: Uint8Array): void {
    const strm = this.#strm;
    while (!this.#ended) {
      strm.output = scratch;
      strm.next_out = 0;
      strm.avail_out = scratch.length;
      if (strm.avail_in === 0 && !this.#feed()) throw new Error('the image data ends early');
      const status = inflate(strm, 0);
      if (status === 1) this.#ended = true;
      else check(status, strm);
    }
  }

  close(): void {
    inflateEnd(this.#strm);
  }
}

/** Z_OK and Z_STREAM_END go on, as does Z_BUF_ERROR when the input ran out; anything else is damage (Z_NEED_DICT: PNG has no dictionaries). */
function check(status: number, strm: ZStream): void {
  if (status === 0 || status === 1 || (status === -5 && strm.avail_in === 0)) return;
  throw new Error(`the image data is corrupt (${strm.msg || `zlib status ${status}`})`);
}

/** Undoes a scanline's filter in place (`line[0]` is the filter type; `prior` the pass's previous row, unfiltered). */
function unfilter(line: Uint8Array, prior: Uint8Array, bpp: number): void {
  const type = line[0];
  const n = line.length;
  switch (type) {
    case 0:
      return;
    case 1:
      for (let i = 1 + bpp; i < n; i++) line[i] = (line[i]! + line[i - bpp]!) & 0xff;
      return;
    case 2:
      for (let i = 1; i < n; i++) line[i] = (line[i]! + prior[i]!) & 0xff;
      return;
    case 3:
      for (let i = 1; i < n; i++) line[i] = (line[i]! + (((i > bpp ? line[i - bpp]! : 0) + prior[i]!) >> 1)) & 0xff;
      return;
    case 4:
      for (let i = 1; i < n; i++) {
        const a = i > bpp ? line[i - bpp]! : 0;
        const b = prior[i]!;
        const c = i > bpp ? prior[i - bpp]! : 0;
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - 2 * c);
        line[i] = (line[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
      }
      return;
    default:
      throw new Error(`unknown filter type ${type}`);
  }
}

/**
 * `data` without interlacing: the same pixels, decodable in strips. Returns `data` itself when it
 * is not an interlaced PNG, or when it is malformed (the decoder then says why, in plain words).
 */
export async function deinterlacedPng(data: Uint8Array, signal?: AbortSignal): Promise<Uint8Array> {
  const chunks = pngChunks(data);
  const head = header(data, chunks?.[0]);
  if (!chunks || !head) return data;
  const idat = chunks.filter((c) => c.type === 'IDAT').map((c) => data.subarray(c.offset + 8, c.offset + 8 + c.length));
  const { width, height, depth, channels } = head;
  const bits = depth * channels;
  const bpp = Math.max(1, bits >> 3);
  const passes = PASSES.map(([x0, y0, dx, dy]) => {
    const w = width > x0 ? Math.ceil((width - x0) / dx) : 0;
    const h = height > y0 ? Math.ceil((height - y0) / dy) : 0;
    const lineBytes = w > 0 ? 1 + Math.ceil((w * bits) / 8) : 0;
    return { x0, y0, dx, dy, w, h, lineBytes, line: new Uint8Array(lineBytes), prior: new Uint8Array(lineBytes) };
  });
  const readers: PassReader[] = [];
  const deflate = createDeflate({ level: 1, chunkSize: CHUNK });
  const compressed: Buffer[] = [];
  deflate.on('data', (piece: Buffer) => compressed.push(piece));
  const ended = new Promise<void>((resolve, reject) => {
    deflate.once('end', resolve);
    deflate.once('error', reject);
  });
  try {
    // Each pass's reader starts at the beginning and skips the passes before it.
    let skip = 0;
    const scratch = new Uint8Array(CHUNK);
    const last = passes.findLastIndex((pass) => pass.w > 0 && pass.h > 0);
    for (const [p, pass] of passes.entries()) {
      const reader = new PassReader(idat, p === last);
      readers.push(reader);
      if (pass.h > 0 && pass.w > 0) await reader.skip(skip, scratch); // inflating is on this thread
      skip += pass.h * pass.lineBytes;
    }
    const rowBytes = 1 + Math.ceil((width * bits) / 8);
    const rowsPerBatch = Math.max(1, Math.floor(CHUNK / rowBytes));
    let row = new Uint8Array(rowBytes);
    let previous = new Uint8Array(rowBytes);
    const batch = new Uint8Array(rowsPerBatch * rowBytes);
    let inBatch = 0;
    for (let y = 0; y < height; y++) {
      if ((y & 63) === 0) {
        await nextTurn();
        signal?.throwIfAborted();
      }
      row.fill(0);
      for (let p = 0; p < passes.length; p++) {
        const pass = passes[p]!;
        if (pass.w === 0 || y < pass.y0 || (y - pass.y0) % pass.dy !== 0) continue;
        [pass.prior, pass.line] = [pass.line, pass.prior];
        readers[p]!.read(pass.line);
        unfilter(pass.line, pass.prior, bpp);
        scatter(pass.line, pass.w, pass.x0, pass.dx, bits, row);
      }
      // Filter Up: rows of a screen repeat their neighbour, so zlib finds runs of zeros.
      const at = inBatch * rowBytes;
      batch[at] = 2;
      for (let i = 1; i < rowBytes; i++) batch[at + i] = (row[i]! - previous[i]!) & 0xff;
      [row, previous] = [previous, row];
      if (++inBatch === rowsPerBatch || y === height - 1) {
        const full = batch.subarray(0, inBatch * rowBytes);
        await new Promise<void>((resolve, reject) => deflate.write(full, (error) => (error ? reject(error) : resolve())));
        inBatch = 0;
      }
    }
    readers[last]!.finish(scratch);
    deflate.end();
    await ended;
  } catch (error) {
    deflate.destroy();
    if (signal?.aborted) throw signal.reason;
    return data; // malformed: the decoder reads the original and reports it
  } finally {
    for (const reader of readers) reader.close();
  }
  return assemble(data, chunks, compressed);
}

/** Places a pass's pixels at x0, x0 + dx, … of an output row (after its filter byte). */
function scatter(line: Uint8Array, w: number, x0: number, dx: number, bits: number, row: Uint8Array): void {
  if (dx === 1) {
    row.set(line.subarray(1), 1); // pass 7: whole rows
    return;
  }
  if (bits >= 8) {
    const size = bits >> 3;
    const step = dx * size;
    let to = 1 + x0 * size;
    if (size === 3) {
      for (let from = 1, end = 1 + w * 3; from < end; from += 3, to += step) {
        row[to] = line[from]!;
        row[to + 1] = line[from + 1]!;
        row[to + 2] = line[from + 2]!;
      }
      return;
    }
    if (size === 4) {
      for (let from = 1, end = 1 + w * 4; from < end; from += 4, to += step) {
        row[to] = line[from]!;
        row[to + 1] = line[from + 1]!;
        row[to + 2] = line[from + 2]!;
        row[to + 3] = line[from + 3]!;
      }
      return;
    }
    for (let from = 1, end = 1 + w * size; from < end; from += size, to += step) for (let k = 0; k < size; k++) row[to + k] = line[from + k]!;
    return;
  }
  const mask = (1 << bits) - 1;
  for (let i = 0; i < w; i++) {
    const from = i * bits;
    const value = (line[1 + (from >> 3)]! >> (8 - bits - (from & 7))) & mask;
    const to = (x0 + i * dx) * bits;
    const at = 1 + (to >> 3);
    row[at] = row[at]! | (value << (8 - bits - (to & 7)));
  }
}

/** The PNG again: IHDR marked non-interlaced, the chunks that change the pixels, one new IDAT. */
function assemble(data: Uint8Array, chunks: readonly PngChunk[], compressed: readonly Uint8Array[]): Uint8Array {
  const ihdr = new Uint8Array(data.subarray(chunks[0]!.offset + 8, chunks[0]!.offset + 8 + 13)); // a copy: Buffer#slice would be a view
  ihdr[12] = 0;
  const kept = chunks.slice(1, chunks.findIndex((c) => c.type === 'IDAT')).filter(keptForPixels);
  const idatLength = compressed.reduce((n, piece) => n + piece.length, 0);
  const total = SIGNATURE.length + 12 + 13 + kept.reduce((n, c) => n + 12 + c.length, 0) + 12 + idatLength + 12;
  // One buffer written in place: the compressed rows are copied once, not concatenated first.
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(SIGNATURE);
  let at = SIGNATURE.length;
  const chunk = (type: string, pieces: readonly Uint8Array[]) => {
    const length = pieces.reduce((n, piece) => n + piece.length, 0);
    view.setUint32(at, length);
    for (let i = 0; i < 4; i++) out[at + 4 + i] = type.charCodeAt(i);
    let crc = crc32(out.subarray(at + 4, at + 8));
    let to = at + 8;
    for (const piece of pieces) {
      out.set(piece, to);
      crc = crc32(piece, crc);
      to += piece.length;
    }
    view.setUint32(to, crc);
    at = to + 4;
  };
  chunk('IHDR', [ihdr]);
  for (const c of kept) {
    out.set(data.subarray(c.offset, c.offset + 12 + c.length), at);
    at += 12 + c.length;
  }
  chunk('IDAT', compressed);
  chunk('IEND', []);
  return out;
}
