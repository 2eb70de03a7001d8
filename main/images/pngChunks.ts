// PNG chunks the decoder is better off without. A PNG is a signature and a list of chunks
// (length, type, data, CRC); chunks whose type starts with a lower-case letter are ancillary:
// text (tEXt/zTXt/iTXt), times, histograms, APNG frames after the first. The decoder reads every
// one of them into memory — libvips copies text chunks into its metadata, twice (header, then
// decode) — so a 49 MB PNG whose bulk is one tEXt chunk peaked at 463 MB RSS (bench:memory).
// Dropping them before sharp sees the bytes costs one pass over the chunk headers.
// Kept: the critical chunks and the few ancillary ones that change the pixels (transparency,
// colour space, EXIF orientation), within a size that no honest file exceeds.

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Ancillary chunks that change what the pixels look like, each with the largest size kept. */
const KEEP: Record<string, number> = {
  tRNS: 256 * 2, // transparency: a palette's alphas or one colour key
  gAMA: 4,
  cHRM: 32,
  sRGB: 1,
  iCCP: 4 * 1024 * 1024, // an ICC profile (Display P3 screenshots): a few KB, rarely a few MB
  cICP: 4,
  sBIT: 4,
  eXIf: 256 * 1024, // EXIF: the orientation
};

/** Below this many bytes dropped, copying the rest costs more than it saves. */
const WORTH_COPYING = 256 * 1024;

export type PngChunk = { type: string; offset: number; length: number };

/** The chunks of a PNG in order; undefined when the bytes are not a well-formed chunk list (the decoder then says why). */
export function pngChunks(data: Uint8Array): PngChunk[] | undefined {
  if (data.byteLength < SIGNATURE.length || SIGNATURE.some((b, i) => data[i] !== b)) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const chunks: PngChunk[] = [];
  let offset = SIGNATURE.length;
  while (offset + 12 <= data.byteLength) {
    const length = view.getUint32(offset);
    if (length > 0x7fffffff || offset + 12 + length > data.byteLength) return undefined;
    const type = String.fromCharCode(data[offset + 4]!, data[offset + 5]!, data[offset + 6]!, data[offset + 7]!);
    chunks.push({ type, offset, length });
    offset += 12 + length;
    if (type === 'IEND') return chunks;
  }
  return undefined; // no IEND: cut short
}

/** Upper case first letter: a critical chunk (IHDR, PLTE, IDAT, IEND). */
function isCritical(chunk: PngChunk): boolean {
  const first = chunk.type.charCodeAt(0);
  return first >= 0x41 && first <= 0x5a;
}

/** Critical chunks, and the ancillary ones that change the pixels (within their sizes). */
export function keptForPixels(chunk: PngChunk): boolean {
  if (isCritical(chunk)) return true;
  const limit = KEEP[chunk.type];
  return limit !== undefined && chunk.length <= limit;
}

/**
 * The PNG without the ancillary chunks that do not change its pixels. Returns `data` itself
 * when there is little to drop or the chunk list is malformed (the decoder reports that).
 */
export function withoutAncillaryChunks(data: Uint8Array): Uint8Array {
  const chunks = pngChunks(data);
  if (!chunks) return data;
  let dropped = 0;
  for (const c of chunks) if (!keptForPixels(c)) dropped += 12 + c.length;
  if (dropped < WORTH_COPYING) return data;
  return withOnly(data, chunks.filter(keptForPixels));
}

/** The signature and `kept` (chunks of `data`, in order), copied into one new buffer. */
function withOnly(data: Uint8Array, kept: readonly PngChunk[]): Uint8Array {
  const out = new Uint8Array(SIGNATURE.length + kept.reduce((n, c) => n + 12 + c.length, 0));
  out.set(data.subarray(0, SIGNATURE.length));
  let at = SIGNATURE.length;
  for (const c of kept) {
    out.set(data.subarray(c.offset, c.offset + 12 + c.length), at);
    at += 12 + c.length;
  }
  return out;
}

type PngHeader = {
  width: number;
  height: number;
  /** Bits per sample (per palette index for colour type 3). */
  depth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  colourType: number;
  /** Adam7 (interlace method 1, the only one defined). */
  interlaced: boolean;
};

/** The IHDR chunk's fields; undefined when `ihdr` is not a well-formed IHDR. */
export function pngHeader(data: Uint8Array, ihdr: PngChunk | undefined): PngHeader | undefined {
  if (ihdr?.type !== 'IHDR' || ihdr.length !== 13) return undefined;
  const view = new DataView(data.buffer, data.byteOffset + ihdr.offset + 8, 13);
  return { width: view.getUint32(0), height: view.getUint32(4), depth: view.getUint8(8), colourType: view.getUint8(9), interlaced: view.getUint8(12) === 1 };
}

/** Ancillary chunks a passed-through PNG may keep: they change no colour (transparency, "this is sRGB"). */
const PASSTHROUGH_KEEP = new Set(['tRNS', 'sRGB']);

type PngFacts = PngHeader & {
  /** The zlib header's FLEVEL: 0 levels 0–1 (fast, or stored), 1 levels 2–5, 2 level 6, 3 levels 7–9. */
  zlibLevel: number;
  /** The first deflate block is stored (not compressed): the size then says nothing of the content. */
  stored: boolean;
  /** Compressed pixel data, all IDAT chunks together. */
  idatBytes: number;
};

/** What the header and the compressed stream say about a PNG, without inflating anything. */
export function pngFacts(data: Uint8Array, chunks = pngChunks(data)): PngFacts | undefined {
  const header = pngHeader(data, chunks?.[0]);
  const idat = chunks?.find((c) => c.type === 'IDAT');
  if (!chunks || !header || !idat || idat.length < 3) return undefined;
  return {
    ...header,
    zlibLevel: data[idat.offset + 8 + 1]! >> 6,
    stored: ((data[idat.offset + 8 + 2]! >> 1) & 3) === 0, // BTYPE, after BFINAL, least significant bits first
    idatBytes: chunks.reduce((n, c) => (c.type === 'IDAT' ? n + c.length : n), 0),
  };
}

/**
 * The PNG itself, reduced to its pixels (critical chunks, transparency, the sRGB mark), when it
 * can be sent as it is: 8 bits per sample or fewer, not interlaced, no colour space or
 * orientation to apply, compressed at zlib level 2 or above (a level-1 PNG, as a fast capture
 * writes, is bigger than a re-encode would be). Undefined otherwise. The pixels are exactly
 * those the decoder reads, so this is the lossless candidate at native size with no encode.
 */
export function pngForPassthrough(data: Uint8Array): Uint8Array | undefined {
  const chunks = pngChunks(data);
  const facts = chunks && pngFacts(data, chunks);
  if (!chunks || !facts || facts.depth > 8 || facts.interlaced || facts.zlibLevel === 0) return undefined;
  const kept: PngChunk[] = [];
  for (const c of chunks) {
    if (isCritical(c) || (PASSTHROUGH_KEEP.has(c.type) && keptForPixels(c))) kept.push(c);
    else if (KEEP[c.type] !== undefined) return undefined; // gAMA, cHRM, iCCP, cICP, sBIT, eXIf: the decoder applies them
  }
  return withOnly(data, kept);
}
