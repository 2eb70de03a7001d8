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

/** Critical chunks, and the ancillary ones that change the pixels (within their sizes). */
export function keptForPixels(chunk: PngChunk): boolean {
  const first = chunk.type.charCodeAt(0);
  if (first >= 0x41 && first <= 0x5a) return true; // upper case: critical (IHDR, PLTE, IDAT, IEND)
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
  const out = new Uint8Array(data.byteLength - dropped);
  out.set(data.subarray(0, SIGNATURE.length));
  let at = SIGNATURE.length;
  for (const c of chunks) {
    if (!keptForPixels(c)) continue;
    out.set(data.subarray(c.offset, c.offset + 12 + c.length), at);
    at += 12 + c.length;
  }
  return out;
}
