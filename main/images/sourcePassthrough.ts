// A JPEG or WebP that already fits the model's rule as it came (its own size, a format the model
// takes, under the byte cap) can be sent as it is, reduced to its pixels: nothing the decoder
// would apply (orientation, a colour profile) and nothing that is not pixels (EXIF, GPS, XMP,
// comments) — the same guarantee as an encode. The door sends it when it is smaller than what
// it made: a 712-byte WebP icon was sent as a 4,366-byte JPEG. (A PNG's own passthrough is
// pngForPassthrough, made in the fused encode.)
import type { Encoded } from './encoderChoice.ts';

/**
 * The JPEG's pixels alone: SOI, then every segment but APP1–APP15 (EXIF, XMP, ICC, IPTC…) and
 * comments, then the entropy-coded data as it was. Undefined for what the decoder would change on
 * the way to sRGB: an ICC profile (APP2 "ICC_PROFILE"), an Adobe APP14 (CMYK / YCCK transforms),
 * four components, or arithmetic / lossless / hierarchical coding.
 */
export function jpegForPassthrough(b: Uint8Array): Uint8Array | undefined {
  if (b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  const parts: Uint8Array[] = [b.subarray(0, 2)];
  let i = 2;
  let framed = false;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    const length = (b[i + 2]! << 8) | b[i + 3]!;
    if (length < 2 || i + 2 + length > b.length) return undefined;
    const segment = b.subarray(i, i + 2 + length);
    if (marker === 0xda) {
      // Start of scan: the rest (scans, more tables, EOI) is the image's own data.
      if (!framed) return undefined;
      parts.push(b.subarray(i));
      return concat(parts);
    }
    if (marker === 0xee) return undefined; // Adobe APP14: a colour transform the decoder applies
    if (marker === 0xe2 && ascii(segment, 4, 16) === 'ICC_PROFILE\0') return undefined;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      // Baseline, extended or progressive Huffman frames only; one (grey) or three (YCbCr) components.
      if (marker !== 0xc0 && marker !== 0xc1 && marker !== 0xc2) return undefined;
      const components = segment[9];
      if (components !== 1 && components !== 3) return undefined;
      framed = true;
    }
    const metadata = (marker >= 0xe1 && marker <= 0xef) || marker === 0xfe;
    if (!metadata) parts.push(segment);
    i += 2 + length;
  }
  return undefined;
}

/**
 * A simple WebP (RIFF, then one VP8 or VP8L chunk and nothing else) holds only pixels; an
 * extended one (VP8X: animation, alpha, ICC, EXIF, XMP) is left to the encoder. Returned as it is.
 */
export function webpForPassthrough(b: Uint8Array): Uint8Array | undefined {
  if (b.length < 20 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 12) !== 'WEBP') return undefined;
  const riff = (b[4]! | (b[5]! << 8) | (b[6]! << 16) | (b[7]! << 24)) >>> 0;
  if (riff + 8 !== b.length) return undefined;
  const kind = ascii(b, 12, 16);
  if (kind !== 'VP8 ' && kind !== 'VP8L') return undefined;
  const size = (b[16]! | (b[17]! << 8) | (b[18]! << 16) | (b[19]! << 24)) >>> 0;
  // The one chunk fills the file (padded to an even length).
  return 20 + size + (size & 1) === b.length ? b : undefined;
}

/** The source as its own candidate when it can go as it came and is smaller than `made`; else `made`. */
export function smallerAsItCame(
  source: { kind: string; data: Uint8Array },
  facts: { native: boolean; orientation: number | undefined; hasProfile: boolean | undefined; pages: number | undefined },
  profile: { formats: readonly string[]; maxBytes: number },
  made: Encoded,
): Encoded {
  if (!facts.native || (facts.orientation ?? 1) !== 1 || facts.hasProfile || (facts.pages ?? 1) !== 1) return made;
  const own =
    source.kind === 'jpeg' && profile.formats.includes('image/jpeg')
      ? { mime: 'image/jpeg' as const, data: jpegForPassthrough(source.data) }
      : source.kind === 'webp' && profile.formats.includes('image/webp')
        ? { mime: 'image/webp' as const, data: webpForPassthrough(source.data) }
        : undefined;
  if (!own?.data || own.data.byteLength > profile.maxBytes || own.data.byteLength >= made.data.byteLength) return made;
  return { mime: own.mime, data: Buffer.from(own.data.buffer, own.data.byteOffset, own.data.byteLength) };
}

function ascii(b: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...b.subarray(from, to));
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
