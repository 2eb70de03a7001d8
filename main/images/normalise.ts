// Decode guard + normalise (DESIGN §3): header first (pixel limit before any decode), then one
// decode with sharp (libuv pool, off the event loop) that applies EXIF orientation and fits the
// target profile into one raw buffer; every encoding is made from that buffer (never a second
// decode), only for formats that can win (a sample decides), and the smallest that fits is kept.
// Output carries no metadata at all: EXIF, GPS, XMP, IPTC and ICC are dropped (pixels are sRGB).
import { createHash } from 'node:crypto';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { formatBytes, type ImageMime, type ImageRefusal } from '../../common/images.ts';
import type { Limits } from '../../common/limits.ts';
import { fitForModel } from './imageRule.ts';
import { jpegTooSmall } from './jpegPlausible.ts';
import type { SniffedKind } from './sniff.ts';
import type { ImageProfile, PreparedImage } from './types.ts';

export type NormalisedImage = Omit<PreparedImage, 'name' | 'modelInput' | 'tokens' | 'legibility'>;
export type NormaliseResult = { ok: true; image: NormalisedImage } | ImageRefusal;

// 'error' rejects truncated and corrupt pixel data but tolerates harmless warnings
// (e.g. stray bytes between JPEG markers) that 'warning' would refuse.
const FAIL_ON = 'error';

// Lossy quality of the first attempt: 85 → 80 is 15% fewer bytes for 1–3 points of OCR on 14 px
// text (see jpegOptions); lower starts to cost legible characters.
const QUALITY = 80;

// The size decision is the model's image rule's (imageRule.ts); fitInside stays importable here.
export { fitInside } from './imageRule.ts';

/** Plain words only: the decoder's own text ("VipsJpeg: bad seek to …") means nothing to a person. */
function corrupt(_decoderText: string): ImageRefusal {
  return {
    ok: false,
    code: 'corrupt',
    message: 'This image is damaged or cut short, so Glance cannot read it. Save or download it again.',
  };
}

function tooManyPixels(width: number, height: number, limit: number): ImageRefusal {
  const mp = (n: number) => (n >= 10_000_000 ? Math.round(n / 1_000_000) : Math.round(n / 100_000) / 10);
  return {
    ok: false,
    code: 'too-many-pixels',
    message: `This image is ${width}×${height} pixels (${mp(width * height)} megapixels); Glance opens images up to ${mp(limit)} megapixels. Crop it or scale it down and try again.`,
  };
}

type Raw = { data: Buffer; width: number; height: number; channels: 1 | 2 | 3 | 4 };

export async function normaliseImage(
  data: Uint8Array,
  sniffed: { kind: SniffedKind; mime: string },
  profile: ImageProfile,
  limits: Pick<Limits, 'maxInputPixels'>,
  options: {
    signal?: AbortSignal;
    /** Called for every candidate encoded (tests and benches: what was tried, what it cost). */
    onCandidate?: (candidate: { mime: ImageMime; width: number; height: number; bytes: number }) => void;
  } = {},
): Promise<NormaliseResult> {
  const { signal } = options;
  // Header only: reading it allocates no pixels, so a bomb is refused here in microseconds.
  let meta: Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: false, failOn: FAIL_ON, pages: 1 }).metadata();
  } catch (error) {
    return corrupt(error instanceof Error ? error.message : String(error));
  }
  signal?.throwIfAborted();
  if (meta.format === 'heif' && meta.compression !== 'av1') {
    return {
      ok: false,
      code: 'unsupported-format',
      message: 'This is a HEIC/HEIF photo (HEVC-compressed), which Glance cannot decode. Export it as JPEG and attach that.',
    };
  }
  const { width, height } = meta;
  if (!width || !height) return corrupt('the image has no width or height');
  if (width * height > limits.maxInputPixels) return tooManyPixels(width, height, limits.maxInputPixels);
  if (sniffed.mime === 'image/jpeg' && jpegTooSmall(data, width, height)) {
    return {
      ok: false,
      code: 'corrupt',
      message: `This JPEG claims to be ${width}×${height} pixels but holds only ${formatBytes(data.byteLength)} of data, far too little for that size: it is damaged or cut short. Save or download it again.`,
    };
  }

  const oriented = meta.autoOrient ?? ((meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height });
  const source = { mime: sniffed.mime, width: oriented.width, height: oriented.height, bytes: data.byteLength };
  const fitted = fitForModel(oriented.width, oriented.height, profile);
  const grey = meta.channels <= 2 && (meta.space === 'b-w' || meta.space === 'grey16');

  let raw: Raw;
  try {
    let pipeline = sharp(data, { limitInputPixels: limits.maxInputPixels, failOn: FAIL_ON, pages: 1, autoOrient: true });
    if (fitted.width !== oriented.width || fitted.height !== oriented.height) {
      pipeline = pipeline.resize(fitted.width, fitted.height, { fit: 'fill', kernel: 'lanczos3' });
    }
    // 8-bit sRGB (or grey) pixels: CMYK, 16-bit and ICC-tagged input all end up the same way.
    const out = await pipeline.toColourspace(grey ? 'b-w' : 'srgb').raw().toBuffer({ resolveWithObject: true });
    raw = { data: out.data, width: out.info.width, height: out.info.height, channels: out.info.channels };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) return tooManyPixels(width, height, limits.maxInputPixels);
    return corrupt(message);
  }
  signal?.throwIfAborted();

  const opaque = isOpaque(raw);
  const fewColours = countColoursUpTo(raw, 256) <= 256;
  // Lossy quality first, then size, until something fits the provider's byte cap.
  const attempts: Array<{ scale: number; quality: number }> = [
    { scale: 1, quality: QUALITY },
    { scale: 1, quality: 65 },
    { scale: 0.75, quality: 65 },
    { scale: 0.5, quality: 60 },
    { scale: 0.35, quality: 55 },
    { scale: 0.25, quality: 50 },
  ];
  // GIF (256 colours) never beats a palette PNG; it is used only when it is all the profile takes.
  const accepted = profile.formats.some((m) => m !== 'image/gif') ? profile.formats.filter((m) => m !== 'image/gif') : [...profile.formats];
  // The formats still able to win. Lowering quality and size only helps the lossy ones, so a
  // PNG that lost once is not encoded again.
  let inPlay: ImageMime[] = accepted;
  let png: { width: number; height: number; encoded: Encoded } | undefined;
  for (const [index, attempt] of attempts.entries()) {
    signal?.throwIfAborted();
    const w = Math.max(1, Math.round(raw.width * attempt.scale));
    const h = Math.max(1, Math.round(raw.height * attempt.scale));
    const palette = fewColours && attempt.scale === 1;
    const full = async (mime: ImageMime): Promise<Encoded> => {
      if (mime === 'image/png' && png?.width === w && png.height === h) return png.encoded; // lossless: quality changes nothing
      const encoded = await encode(pixels(raw, w, h, opaque), mime, attempt.quality, palette);
      if (mime === 'image/png') png = { width: w, height: h, encoded };
      options.onCandidate?.({ mime, width: w, height: h, bytes: encoded.data.byteLength });
      return encoded;
    };
    // Every candidate is encoded from the one decoded, fitted buffer, concurrently on libuv threads.
    const jobs =
      index === 0 && inPlay.length > 1 && sampleable(raw)
        ? encodeLikelyWinners(inPlay, raw, opaque, attempt.quality, palette, full)
        : inPlay.map((mime) => full(mime));
    // PNG first, so that on a tie the lossless one stays.
    const candidates = (await Promise.all(jobs))
      .filter((c): c is Encoded => c !== undefined)
      .sort((x, y) => Number(y.mime === 'image/png') - Number(x.mime === 'image/png'));
    const smallest = candidates.reduce<Encoded | undefined>((a, c) => (a === undefined || c.data.byteLength < a.data.byteLength ? c : a), undefined);
    if (smallest && smallest.data.byteLength <= profile.maxBytes) {
      return {
        ok: true,
        image: {
          data: smallest.data,
          mime: smallest.mime,
          width: w,
          height: h,
          bytes: smallest.data.byteLength,
          sha256: createHash('sha256').update(smallest.data).digest('hex'),
          source,
        },
      };
    }
    inPlay = candidates.map((c) => c.mime).filter((m) => m !== 'image/png' || smallest?.mime === 'image/png');
  }
  return {
    ok: false,
    code: 'too-large',
    message: `Even scaled down, this image does not fit in the ${formatBytes(profile.maxBytes)} the model accepts. Crop it to the part that matters and try again.`,
  };
}

/** The fitted pixels as a sharp input, resized to w × h when smaller; alpha dropped when unused. */
function pixels(raw: Raw, w: number, h: number, opaque: boolean): Sharp {
  const s = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });
  const sized = w === raw.width && h === raw.height ? s : s.resize(w, h, { fit: 'fill', kernel: 'lanczos3' });
  return opaque && (raw.channels === 2 || raw.channels === 4) ? sized.removeAlpha() : sized;
}

type Encoded = { data: Buffer; mime: ImageMime };

async function encode(s: Sharp, mime: ImageMime, quality: number, palette: boolean): Promise<Encoded> {
  switch (mime) {
    case 'image/png':
      // A palette is exact for ≤ 256 colours (typical UI screenshots): far smaller, nothing lost.
      return { mime, data: await s.png(palette ? { palette: true, quality: 100, dither: 0, effort: 7 } : PNG_TRUECOLOR).toBuffer() };
    case 'image/jpeg':
      // Transparency becomes white.
      return { mime, data: await s.flatten({ background: '#ffffff' }).jpeg(jpegOptions(quality)).toBuffer() };
    case 'image/webp':
      return { mime, data: await s.webp(webpOptions(quality)).toBuffer() };
    case 'image/gif':
      return { mime, data: await s.gif().toBuffer() };
  }
}

const PNG_TRUECOLOR = { compressionLevel: 6 } as const;

/**
 * Settings measured against OCR of 14 px code (bench:intake, docs/benchmarks.md):
 * - 4:4:4: 4:2:0 is 12% smaller but halves colour resolution (chroma PSNR −2 to −3 dB), which
 *   smears thin coloured text (syntax colours, links); OCR reads luma only and cannot see it.
 * - progressive: the same pixels in about 7% fewer bytes, for ~10 ms. Every decoder Glance
 *   sends to reads it (browsers, Go's image/jpeg in Ollama, stb_image in llama.cpp runners).
 * - no mozjpeg/trellis: another 10% smaller but 6–10× slower, and its trellis quantisation
 *   rounds away exactly the fine strokes text is made of (OCR of 14 px code at q80: 81% → 72%).
 */
function jpegOptions(quality: number) {
  return { quality, chromaSubsampling: '4:4:4', progressive: true } as const;
}

/**
 * effort 2: effort 4 is 2% smaller for twice the time, 0–1 are 10% larger. smartSubsample off:
 * 3× slower for +0.6 dB of colour, where 4:4:4 JPEG is the colour-exact choice anyway.
 */
function webpOptions(quality: number) {
  return { quality, effort: 2 } as const;
}

// Sampling: a band of rows every SAMPLE_STRIDE rows, about an eighth of the image, top to bottom.
const SAMPLE_BAND = 16;
const SAMPLE_STRIDE = 128;
/** Below this, encoding every candidate in full costs less than deciding which to skip. */
const SAMPLE_MIN_PIXELS = 512 * 512;
/**
 * A candidate whose sample is more than this times the favourite's sample is not encoded in
 * full. Measured on screenshots (downscaled and native) and photos: a sample's size ratio between
 * two formats is within 10% of the full image's (a flat synthetic UI: 25% low, which only costs a
 * needless encode), while losers lose by 1.4× or more (JPEG vs WebP; PNG vs either, except on
 * native-size screens, where PNG and JPEG come within 15% of each other and both are encoded).
 */
const SAMPLE_MARGIN = 1.25;

function sampleable(raw: Raw): boolean {
  return raw.width * raw.height >= SAMPLE_MIN_PIXELS && raw.height >= 2 * SAMPLE_STRIDE;
}

/**
 * Encoding every format in full wastes most of the work: on a 4K screenshot fitted to 2048 px
 * the WebP wins, and the JPEG and truecolor PNG beside it cost as much CPU again. So the
 * favourite (the format that usually wins: an exact palette PNG when there are ≤ 256 colours,
 * else WebP, else JPEG) is encoded in full straight away, while every format is tried on a
 * sample; the others are encoded in full only if their sample comes close to the favourite's.
 */
function encodeLikelyWinners(
  formats: readonly ImageMime[],
  raw: Raw,
  opaque: boolean,
  quality: number,
  palette: boolean,
  full: (mime: ImageMime) => Promise<Encoded>,
): Array<Promise<Encoded | undefined>> {
  const preference: readonly ImageMime[] = palette ? ['image/png', 'image/webp', 'image/jpeg'] : ['image/webp', 'image/jpeg', 'image/png'];
  const favourite = preference.find((m) => formats.includes(m)) ?? (formats[0] as ImageMime);
  const rowBytes = raw.width * raw.channels;
  const bands: Buffer[] = [];
  for (let y = (SAMPLE_STRIDE - SAMPLE_BAND) >> 1; y < raw.height; y += SAMPLE_STRIDE) {
    bands.push(raw.data.subarray(y * rowBytes, Math.min(raw.height, y + SAMPLE_BAND) * rowBytes));
  }
  const data = Buffer.concat(bands);
  const sample: Raw = { data, width: raw.width, height: data.length / rowBytes, channels: raw.channels };
  // The samples are encoded one after another (one libuv thread), so that on two cores the
  // favourite's full encode keeps a core to itself; the favourite's sample comes first.
  const sampleBytes = new Map<ImageMime, Promise<number>>();
  let previous: Promise<unknown> = Promise.resolve();
  for (const mime of [favourite, ...formats.filter((m) => m !== favourite)]) {
    const bytes = previous.then(() => encode(pixels(sample, sample.width, sample.height, opaque), mime, quality, palette)).then((e) => e.data.byteLength);
    sampleBytes.set(mime, bytes);
    previous = bytes.catch(() => undefined); // a failed sample fails its own candidate, not the next sample
  }
  return formats.map(async (mime) => {
    if (mime === favourite) return full(mime);
    const [mine, theirs] = await Promise.all([sampleBytes.get(mime), sampleBytes.get(favourite)]);
    return (mine ?? 0) <= SAMPLE_MARGIN * (theirs ?? 0) ? full(mime) : undefined;
  });
}

function isOpaque(raw: Raw): boolean {
  if (raw.channels !== 2 && raw.channels !== 4) return true;
  const { data, channels } = raw;
  for (let i = channels - 1; i < data.length; i += channels) if (data[i] !== 255) return false;
  return true;
}

/**
 * Distinct colours, counting stops once past `limit` (a photo answers after a few hundred pixels).
 * A pixel equal to the one before is not looked up again: flat UI areas cost a compare each.
 */
function countColoursUpTo(raw: Raw, limit: number): number {
  const { data, channels } = raw;
  const seen = new Set<number>();
  let previous = -1;
  for (let i = 0; i < data.length; i += channels) {
    let v = 0;
    for (let c = 0; c < channels; c++) v = v * 256 + (data[i + c] ?? 0);
    if (v === previous) continue;
    previous = v;
    seen.add(v);
    if (seen.size > limit) return seen.size;
  }
  return seen.size;
}
