// Decode guard + normalise (DESIGN §3): header first (pixel limit before any decode), then one
// decode with sharp (libuv pool, off the event loop) that applies EXIF orientation and fits the
// target profile, then encodes every format the profile accepts and keeps the smallest that fits.
// Output carries no metadata at all: EXIF, GPS, XMP, IPTC and ICC are dropped (pixels are sRGB).
import { createHash } from 'node:crypto';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { formatBytes, type ImageMime, type ImageRefusal } from '../../common/images.ts';
import type { Limits } from '../../common/limits.ts';
import type { SniffedKind } from './sniff.ts';
import type { ImageProfile, PreparedImage } from './types.ts';

export type NormalisedImage = Omit<PreparedImage, 'name'>;
export type NormaliseResult = { ok: true; image: NormalisedImage } | ImageRefusal;

// 'error' rejects truncated and corrupt pixel data but tolerates harmless warnings
// (e.g. stray bytes between JPEG markers) that 'warning' would refuse.
const FAIL_ON = 'error';

const QUALITY = 85;

/** Fit width × height inside the profile: long edge and total pixels; never enlarge; at least 1 px. */
export function fitInside(width: number, height: number, profile: Pick<ImageProfile, 'maxLongEdge' | 'maxPixels'>): { width: number; height: number } {
  const scale = Math.min(1, profile.maxLongEdge / Math.max(width, height), Math.sqrt(profile.maxPixels / (width * height)));
  if (scale >= 1) return { width, height };
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

function corrupt(detail: string): ImageRefusal {
  const first = detail.split('\n')[0]?.replace(/^Input (buffer|file) has corrupt header: /, '').slice(0, 160) ?? '';
  return {
    ok: false,
    code: 'corrupt',
    message: `This image is damaged or cut short, so Glance cannot read it (${first || 'decoder error'}). Save or download it again.`,
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
  options: { signal?: AbortSignal } = {},
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

  const oriented = meta.autoOrient ?? ((meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height });
  const source = { mime: sniffed.mime, width: oriented.width, height: oriented.height, bytes: data.byteLength };
  const fitted = fitInside(oriented.width, oriented.height, profile);
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
  const formats = profile.formats.some((m) => m !== 'image/gif') ? profile.formats.filter((m) => m !== 'image/gif') : profile.formats;
  for (const attempt of attempts) {
    signal?.throwIfAborted();
    const w = Math.max(1, Math.round(raw.width * attempt.scale));
    const h = Math.max(1, Math.round(raw.height * attempt.scale));
    const input = () => {
      const s = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });
      const sized = w === raw.width && h === raw.height ? s : s.resize(w, h, { fit: 'fill', kernel: 'lanczos3' });
      return opaque && (raw.channels === 2 || raw.channels === 4) ? sized.removeAlpha() : sized;
    };
    const candidates = await Promise.all(
      formats.map((mime) => encode(input(), mime, attempt.quality, fewColours && attempt.scale === 1)),
    );
    const fits = candidates.filter((c) => c.data.byteLength <= profile.maxBytes);
    // Smallest wins; on a tie the lossless PNG (listed first) stays.
    const best = fits.reduce<Encoded | undefined>((a, c) => (a === undefined || c.data.byteLength < a.data.byteLength ? c : a), undefined);
    if (best) {
      return {
        ok: true,
        image: {
          data: best.data,
          mime: best.mime,
          width: w,
          height: h,
          bytes: best.data.byteLength,
          sha256: createHash('sha256').update(best.data).digest('hex'),
          source,
        },
      };
    }
  }
  return {
    ok: false,
    code: 'too-large',
    message: `Even scaled down, this image does not fit in the ${formatBytes(profile.maxBytes)} the model accepts. Crop it to the part that matters and try again.`,
  };
}

type Encoded = { data: Buffer; mime: ImageMime };

async function encode(s: Sharp, mime: ImageMime, quality: number, palette: boolean): Promise<Encoded> {
  switch (mime) {
    case 'image/png':
      // A palette is exact for ≤ 256 colours (typical UI screenshots): far smaller, nothing lost.
      return { mime, data: await s.png(palette ? { palette: true, quality: 100, dither: 0, effort: 7 } : { compressionLevel: 6 }).toBuffer() };
    case 'image/jpeg':
      // 4:4:4: chroma subsampling smears coloured text. Transparency becomes white.
      return { mime, data: await s.flatten({ background: '#ffffff' }).jpeg({ quality, chromaSubsampling: '4:4:4' }).toBuffer() };
    case 'image/webp':
      return { mime, data: await s.webp({ quality, effort: 2 }).toBuffer() };
    case 'image/gif':
      return { mime, data: await s.gif().toBuffer() };
  }
}

function isOpaque(raw: Raw): boolean {
  if (raw.channels !== 2 && raw.channels !== 4) return true;
  const { data, channels } = raw;
  for (let i = channels - 1; i < data.length; i += channels) if (data[i] !== 255) return false;
  return true;
}

/** Distinct colours, counting stops once past `limit` (a photo answers after a few hundred pixels). */
function countColoursUpTo(raw: Raw, limit: number): number {
  const { data, channels } = raw;
  const seen = new Set<number>();
  for (let i = 0; i < data.length; i += channels) {
    let v = 0;
    for (let c = 0; c < channels; c++) v = v * 256 + (data[i + c] ?? 0);
    seen.add(v);
    if (seen.size > limit) return seen.size;
  }
  return seen.size;
}
