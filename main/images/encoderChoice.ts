// The encoding decision (architecture §3): which format the fitted pixels are sent in, predicted from
// the content, then ONE full encode. Encoding every accepted format and keeping the smallest
// cost 2–5× a bare decode → resize → JPEG (bench:prepare, docs/benchmarks-perf.md); a prediction
// from a sample of rows costs a few percent of that and picks the same format where it matters.
//
// What was measured and decided (bench:prepare, 1080p to 4K editor screenshots, photos):
// - Lossless PNG wins only on flat content at (near) native size: UI screens where most pixels
//   repeat their neighbour. There a truecolor PNG is as small as the JPEG or far smaller, exact,
//   and cheap (zlib on repeated bytes). A downscaled screen or a photo is 3× smaller as JPEG.
// - JPEG, not WebP, is the lossy format whenever the target takes both: WebP q80 is 25–40%
//   smaller but its encode (effort 2) costs 6× a JPEG's, more than the whole floor; effort 0
//   still 4×. Tokens do not change (they count pixels, not bytes), and at these sizes a few
//   hundred kilobytes more on the wire is milliseconds. WebP is used when JPEG is not accepted.
// - JPEG q80 4:4:4, baseline, standard Huffman tables: 4:4:4 keeps thin coloured text (syntax
//   colours, links) that 4:2:0 smears; progressive and optimised Huffman coding give the SAME
//   pixels in 7% and 5% fewer bytes but cost 2× and 3× the encode, so they are off.
// - No palette PNG: libimagequant costs 5–20× the whole floor on a 1080p screen, to save tens of
//   kilobytes over the truecolor PNG of the same (flat) screen; both are exact.
import sharp, { type Sharp } from 'sharp';
import type { ImageMime } from '../../common/images.ts';
import type { ImageProfile } from './types.ts';

/** Decoded, fitted pixels: 8-bit, sRGB or grey, alpha when the source had it. */
export type Raw = { data: Buffer; width: number; height: number; channels: 1 | 2 | 3 | 4 };
export type Encoded = { data: Buffer; mime: ImageMime };
/** A full-size or shrunk candidate; `free`: the PNG itself passed through (fusedEncode.ts), no encode. */
export type Candidate = { mime: ImageMime; width: number; height: number; bytes: number; free?: true };

export type Prediction = {
  mime: ImageMime;
  /**
   * only-format: nothing to choose; photo-like: too few repeated pixels for PNG; sample: sample
   * encodes compared; lossy-source / native-png / dense-source: decided before decoding (fusedEncode.ts).
   */
  reason: 'only-format' | 'photo-like' | 'sample' | 'lossy-source' | 'native-png' | 'dense-source';
  /** Share of sampled pixels equal to their left neighbour (0–1). */
  flatness?: number;
  /** Bytes of the sample as PNG and as the lossy format (when compared). */
  pngSample?: number;
  lossySample?: number;
  /** The sample was the whole image: these are the full encodes, ready to use. */
  encoded?: Encoded[];
};

// Lossy quality of the first attempt: 85 → 80 is 15% fewer bytes for 1–3 points of OCR on 14 px
// text (docs/benchmarks.md); lower starts to cost legible characters.
export const QUALITY = 80;

/** Below this share of repeated pixels PNG cannot win (photos ≈ 0, a 4K screen fitted to 1568 px ≈ 0.5). */
const FLAT_MIN = 0.35;
// Sample: bands of SAMPLE_BAND rows (a multiple of 8: JPEG blocks stay whole) every SAMPLE_STRIDE rows.
const SAMPLE_BAND = 8;
const SAMPLE_STRIDE = 192;
/** Fewer rows than this: the image is its own sample. */
const SAMPLE_WHOLE_BELOW = 384;

/** The lossy format for a profile: JPEG where accepted (fast), else WebP; GIF only if it is all there is. */
export function lossyFormat(formats: readonly ImageMime[]): ImageMime | undefined {
  return formats.includes('image/jpeg') ? 'image/jpeg' : formats.includes('image/webp') ? 'image/webp' : undefined;
}

/** The formats worth considering: GIF (256 colours) never beats PNG, so only when it is all the profile takes. */
export function usable(formats: readonly ImageMime[]): ImageMime[] {
  const rest = formats.filter((m) => m !== 'image/gif');
  return rest.length > 0 ? rest : [...formats];
}

/** The one format worth encoding when the profile leaves no choice between PNG and a lossy one; undefined when it does. */
export function onlyFormat(formats: readonly ImageMime[]): ImageMime | undefined {
  const candidates = usable(formats);
  const lossy = lossyFormat(candidates);
  const png = candidates.includes('image/png');
  return png && lossy ? undefined : ((png ? 'image/png' : lossy) ?? (candidates[0] as ImageMime));
}

/** PNG or the lossy format for these pixels, from a sample of rows (see the header). */
export async function predictEncoding(raw: Raw, formats: readonly ImageMime[], opaque = isOpaque(raw)): Promise<Prediction> {
  const only = onlyFormat(formats);
  if (only) return { mime: only, reason: 'only-format' };
  const lossy = lossyFormat(usable(formats)) as ImageMime;
  const sample = sampleRows(raw);
  const flatness = repeatedShare(sample);
  if (flatness < FLAT_MIN) return { mime: lossy, reason: 'photo-like', flatness };
  const [p, l] = await Promise.all([encode(pixels(sample, opaque), 'image/png', QUALITY), encode(pixels(sample, opaque), lossy, QUALITY)]);
  const whole = sample.height === raw.height;
  // A tie goes to PNG: the same bytes, and exact.
  const mime = p.data.byteLength <= l.data.byteLength ? 'image/png' : lossy;
  return { mime, reason: 'sample', flatness, pngSample: p.data.byteLength, lossySample: l.data.byteLength, ...(whole ? { encoded: [p, l] } : {}) };
}

type EncodeResult = { ok: true; encoded: Encoded; width: number; height: number } | { ok: false };

/**
 * The predicted format in full; when it does not fit the byte cap, lossy quality first, then
 * size, until something fits (a PNG that does not fit gives way to the lossy format).
 * `made`: full-size encodes at the first quality already made (fusedEncode.ts, when they did
 * not fit the cap), used instead of encoding them again.
 */
export async function encodeForProfile(
  raw: Raw,
  profile: Pick<ImageProfile, 'formats' | 'maxBytes'>,
  options: { signal?: AbortSignal; onCandidate?: (candidate: Candidate) => void; onPrediction?: (prediction: Prediction) => void; made?: Encoded[] } = {},
): Promise<EncodeResult> {
  const opaque = isOpaque(raw);
  const lossy = lossyFormat(usable(profile.formats));
  const made = options.made ?? [];
  const prediction = await predictEncoding(raw, profile.formats, opaque);
  options.onPrediction?.(prediction);
  const madeAs = (mime: ImageMime) => prediction.encoded?.find((e) => e.mime === mime) ?? made.find((e) => e.mime === mime);
  const attempts: Array<{ scale: number; quality: number }> = [
    { scale: 1, quality: QUALITY },
    { scale: 1, quality: 65 },
    { scale: 0.75, quality: 65 },
    { scale: 0.5, quality: 60 },
    { scale: 0.35, quality: 55 },
    { scale: 0.25, quality: 50 },
  ];
  let mime = prediction.mime;
  let lastPngScale: number | undefined;
  for (const attempt of attempts) {
    options.signal?.throwIfAborted();
    if (mime === 'image/png' && lastPngScale === attempt.scale) continue; // lossless: quality changes nothing
    const w = Math.max(1, Math.round(raw.width * attempt.scale));
    const h = Math.max(1, Math.round(raw.height * attempt.scale));
    const first = attempt.scale === 1 && attempt.quality === QUALITY;
    const ready = first ? madeAs(mime) : undefined;
    const encoded = ready ?? (await encode(pixels(raw, opaque, w, h), mime, attempt.quality));
    if (!made.includes(encoded)) options.onCandidate?.({ mime, width: w, height: h, bytes: encoded.data.byteLength }); // made ones were reported when made
    if (encoded.data.byteLength <= profile.maxBytes) return { ok: true, encoded, width: w, height: h };
    if (mime === 'image/png') {
      lastPngScale = attempt.scale;
      if (lossy) {
        // The lossy format at full size and quality, before shrinking.
        mime = lossy;
        const atFull = madeAs(mime) ?? (await encode(pixels(raw, opaque, raw.width, raw.height), mime, QUALITY));
        if (!made.includes(atFull)) options.onCandidate?.({ mime, width: raw.width, height: raw.height, bytes: atFull.data.byteLength });
        if (atFull.data.byteLength <= profile.maxBytes) return { ok: true, encoded: atFull, width: raw.width, height: raw.height };
      }
    }
  }
  return { ok: false };
}

/** The pixels as a sharp input, resized to w × h when smaller; alpha dropped when unused. */
function pixels(raw: Raw, opaque: boolean, w = raw.width, h = raw.height): Sharp {
  const s = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });
  const sized = w === raw.width && h === raw.height ? s : s.resize(w, h, { fit: 'fill', kernel: 'lanczos3' });
  return opaque && (raw.channels === 2 || raw.channels === 4) ? sized.removeAlpha() : sized;
}

export async function encode(s: Sharp, mime: ImageMime, quality: number): Promise<Encoded> {
  switch (mime) {
    case 'image/png':
      return { mime, data: await s.png({ compressionLevel: 6 }).toBuffer() };
    case 'image/jpeg':
      // Transparency becomes white.
      return { mime, data: await s.flatten({ background: '#ffffff' }).jpeg({ quality, chromaSubsampling: '4:4:4', optimiseCoding: false }).toBuffer() };
    case 'image/webp':
      // effort 2: 4 is 2% smaller for twice the time; smartSubsample: 3× slower for +0.6 dB of colour.
      return { mime, data: await s.webp({ quality, effort: 2 }).toBuffer() };
    case 'image/gif':
      return { mime, data: await s.gif().toBuffer() };
  }
}

/**
 * Bands of rows spread top to bottom (1/24 of the image), or the whole image when it is small. 1/24 rather than 1/12: the PNG sample encode is most of the prediction
 * (zlib is slow on text); on 36 screen × size pairs it picked the smaller format in all but two
 * near-ties (PNG/JPEG 1.00 and 1.07), 0.2% more bytes in total than always picking right.
 * Each band starts at a different 8-row phase of its stride: evenly spaced bands would land on
 * the same phase of a periodic layout (text lines every 24 px) and see only its gaps.
 */
export function sampleRows(raw: Raw): Raw {
  if (sampledWhole(raw)) return raw;
  const rowBytes = raw.width * raw.channels;
  const bands: Buffer[] = [];
  const phases = SAMPLE_STRIDE / SAMPLE_BAND;
  for (let k = 0; ; k++) {
    const y = k * SAMPLE_STRIDE + ((k * 7) % phases) * SAMPLE_BAND;
    if (y + SAMPLE_BAND > raw.height) break;
    bands.push(raw.data.subarray(y * rowBytes, (y + SAMPLE_BAND) * rowBytes));
  }
  const data = Buffer.concat(bands);
  return { data, width: raw.width, height: data.length / rowBytes, channels: raw.channels };
}

/** Small images are their own sample (encoded whole, both formats: nothing to predict from less). */
function sampledWhole(raw: Raw): boolean {
  return raw.height < SAMPLE_WHOLE_BELOW;
}

/** Share of pixels equal to their left neighbour, every channel. */
export function repeatedShare(raw: Raw): number {
  const { data, width, height, channels: c } = raw;
  let same = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width * c;
    for (let i = row + c, end = row + width * c; i < end; i += c) {
      let k = 0;
      while (k < c && data[i + k] === data[i + k - c]) k++;
      if (k === c) same++;
    }
  }
  return height * (width - 1) > 0 ? same / (height * (width - 1)) : 1;
}

export function isOpaque(raw: Raw): boolean {
  if (raw.channels !== 2 && raw.channels !== 4) return true;
  const { data, channels } = raw;
  for (let i = channels - 1; i < data.length; i += channels) if (data[i] !== 255) return false;
  return true;
}
