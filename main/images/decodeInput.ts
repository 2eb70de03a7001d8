// Opens kept bytes for pixel work (crops, OCR) with the same guard as the intake: the header is
// read first and an image over the pixel cap is refused before anything is decoded. A PNG's
// text and other ancillary chunks are dropped first, as the intake does (pngChunks.ts). An
// interlaced original is still decoded whole here: rewriting it (pngInterlace.ts) costs more
// time than a crop or a reading may wait, for memory that is given back when the crop is done.
import sharp, { type Metadata, type Sharp } from 'sharp';
import type { Limits } from '../../common/limits.ts';
import { decodeHeic, isHeic } from './heic.ts';
import { jpegClaimedSize } from './jpegPlausible.ts';
import { withoutAncillaryChunks } from './pngChunks.ts';

type DecodedInput = {
  ok: true;
  /** Upright size (EXIF orientation applied), as the shown copy was made. */
  size: { width: number; height: number };
  /** A fresh pipeline over the upright pixels, the pixel cap in force. */
  image(): Sharp;
};

export type DecodeRefusal = { ok: false; code: 'corrupt' | 'too-many-pixels'; message: string };

export async function decodedInput(
  bytes: Uint8Array,
  mime: string,
  limits: Pick<Limits, 'maxInputPixels'>,
  options: { signal?: AbortSignal } = {},
): Promise<DecodedInput | DecodeRefusal> {
  if (isHeic(mime)) {
    const decoded = await decodeHeic(bytes, limits, options);
    if (!decoded.ok) return decoded;
    const raw = { width: decoded.width, height: decoded.height, channels: decoded.channels };
    return { ok: true, size: { width: decoded.width, height: decoded.height }, image: () => sharp(decoded.data, { raw }) };
  }
  const input = withoutAncillaryChunks(bytes); // the bytes themselves unless a PNG with much to drop
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false, pages: 1 }).metadata();
  } catch {
    const claimed = mime === 'image/jpeg' ? jpegClaimedSize(bytes) : undefined;
    if (claimed && claimed.width * claimed.height > limits.maxInputPixels) return tooManyPixels(claimed.width, claimed.height, limits.maxInputPixels);
    // Plain words: the decoder's own text is not for people.
    return { ok: false, code: 'corrupt', message: 'The image is damaged or cut short, so Glance cannot read it.' };
  }
  options.signal?.throwIfAborted();
  const { width, height } = meta;
  if (!width || !height) return { ok: false, code: 'corrupt', message: 'The image has no width or height.' };
  if (width * height > limits.maxInputPixels) return tooManyPixels(width, height, limits.maxInputPixels);
  const size = meta.autoOrient ?? ((meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height });
  return {
    ok: true,
    size: { width: size.width, height: size.height },
    image: () => sharp(input, { limitInputPixels: limits.maxInputPixels, failOn: 'error', pages: 1, autoOrient: true }),
  };
}

export function tooManyPixels(width: number, height: number, limit: number): DecodeRefusal {
  const mp = (n: number) => Math.round(n / 100_000) / 10;
  return {
    ok: false,
    code: 'too-many-pixels',
    message: `The image is ${width}×${height} pixels (${mp(width * height)} megapixels), over the ${mp(limit)} megapixels Glance decodes.`,
  };
}
