// Decode guard + normalise (architecture §3): header first (pixel limit before any decode), then one
// decode with sharp (libuv pool, off the event loop) that applies EXIF orientation and fits the
// target profile. Where the format is known before the pixels (fusedEncode.ts) that decode is
// encoded in the same pipeline; otherwise it fills one raw buffer, the encoding is predicted
// from those pixels and made from that buffer (encoderChoice.ts). A second decode happens only
// for an image that does not fit the byte cap at its first encode.
// Output carries no metadata at all: EXIF, GPS, XMP, IPTC and ICC are dropped (pixels are sRGB).
import { createHash } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import { formatBytes, type ImageRefusal } from '../../common/images.ts';
import { encodeForProfile, type Candidate, type Encoded, type Prediction, type Raw } from './encoderChoice.ts';
import { encodeFused, planBeforeDecode } from './fusedEncode.ts';
import { withoutAncillaryChunks } from './pngChunks.ts';
import { smallerAsItCame } from './sourcePassthrough.ts';
import { deinterlacedPng } from './pngInterlace.ts';
import type { Limits } from '../../common/limits.ts';
import { fitForModel } from './imageRule.ts';
import { jpegClaimedSize, jpegTooSmall } from './jpegPlausible.ts';
import type { SniffedKind } from './sniff.ts';
import type { ImageProfile, PreparedImage } from './types.ts';
import { errorMessage } from '../errors.ts';

export type NormalisedImage = Omit<PreparedImage, 'name' | 'modelInput' | 'tokens' | 'legibility'>;
export type NormaliseResult = { ok: true; image: NormalisedImage } | ImageRefusal;

// 'error' rejects truncated and corrupt pixel data but tolerates harmless warnings
// (e.g. stray bytes between JPEG markers) that 'warning' would refuse.
const FAIL_ON = 'error';

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

export async function normaliseImage(
  data: Uint8Array,
  sniffed: { kind: SniffedKind; mime: string },
  profile: ImageProfile,
  limits: Pick<Limits, 'maxInputPixels'>,
  options: {
    signal?: AbortSignal;
    /** Called for every candidate encoded in full (tests and benches: what was tried, what it cost). */
    onCandidate?: (candidate: Candidate) => void;
    /** Called with the format predicted from the content (tests and benches). */
    onPrediction?: (prediction: Prediction) => void;
  } = {},
): Promise<NormaliseResult> {
  const { signal } = options;
  // Text and other ancillary PNG chunks are dropped before the decoder copies them (pngChunks.ts).
  const input = sniffed.kind === 'png' ? withoutAncillaryChunks(data) : data;
  // Header only: reading it allocates no pixels, so a bomb is refused here in microseconds.
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false, failOn: FAIL_ON, pages: 1 }).metadata();
  } catch (error) {
    // libjpeg stops at sides over 65500 before saying the size: that file is too big, not damaged.
    const claimed = sniffed.mime === 'image/jpeg' ? jpegClaimedSize(data) : undefined;
    if (claimed && claimed.width * claimed.height > limits.maxInputPixels) return tooManyPixels(claimed.width, claimed.height, limits.maxInputPixels);
    return corrupt(errorMessage(error));
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
  // libpng decodes an interlaced PNG whole; when that bitmap outweighs the fitted pixels (a
  // downscale), a non-interlaced copy made row by row is decoded in strips instead (pngInterlace.ts).
  const bitmap = width * height * meta.channels * (meta.depth === 'ushort' ? 2 : 1);
  const decodable =
    sniffed.kind === 'png' && meta.isProgressive && bitmap > 2 * fitted.width * fitted.height * meta.channels ? await deinterlacedPng(input, signal) : input;
  signal?.throwIfAborted();

  const native = fitted.width === oriented.width && fitted.height === oriented.height;
  /** Decode → 8-bit sRGB (or grey) → fit, ready for an encode or raw output. */
  const decodeAndFit = () => {
    let pipeline = sharp(decodable, { limitInputPixels: limits.maxInputPixels, failOn: FAIL_ON, pages: 1, autoOrient: true });
    // 16 bits per sample (without an ICC profile to apply first) become 8 at the decoder, not after
    // the resize: libvips' strips are half the size (a 4K RGBA16 PNG: 11 MB less at peak). The
    // output is 8-bit either way; resampling the rounded values moves a few levels at most.
    if ((meta.space === 'rgb16' || meta.space === 'grey16') && !meta.hasProfile) pipeline = pipeline.pipelineColourspace(grey ? 'b-w' : 'srgb');
    if (!native) pipeline = pipeline.resize(fitted.width, fitted.height, { fit: 'fill', kernel: 'lanczos3' });
    // CMYK, 16-bit and ICC-tagged input all end up the same way.
    return pipeline.toColourspace(grey ? 'b-w' : 'srgb');
  };
  const decodeRefusal = (error: unknown): ImageRefusal => {
    const message = errorMessage(error);
    return /pixel limit/i.test(message) ? tooManyPixels(width, height, limits.maxInputPixels) : corrupt(message);
  };
  const facts = { native, orientation: meta.orientation, hasProfile: meta.hasProfile, pages: meta.pages };
  const accept = (made: Encoded, size: { width: number; height: number }): NormaliseResult => {
    // A JPEG or simple WebP that fits as it came goes as it came (its pixels only) when that is smaller.
    const encoded = smallerAsItCame({ kind: sniffed.kind, data: input }, facts, profile, made);
    return {
      ok: true,
      image: { data: encoded.data, mime: encoded.mime, ...size, bytes: encoded.data.byteLength, sha256: createHash('sha256').update(encoded.data).digest('hex'), source },
    };
  };

  // One pipeline, decode to encode, where the format is known before the pixels (fusedEncode.ts).
  const plan = planBeforeDecode({ kind: sniffed.kind, data: input, native }, profile.formats);
  let made: Encoded[] = [];
  if (plan) {
    options.onPrediction?.({ mime: plan.mime, reason: plan.reason });
    try {
      const fused = await encodeFused(decodeAndFit(), plan, fitted, options.onCandidate);
      if (fused.chosen.data.byteLength <= profile.maxBytes) return accept(fused.chosen, fitted);
      made = fused.made; // over the byte cap: the raw pixels are needed to shrink (below)
    } catch (error) {
      return decodeRefusal(error);
    }
    signal?.throwIfAborted();
  }

  let raw: Raw;
  try {
    const out = await decodeAndFit().raw().toBuffer({ resolveWithObject: true });
    raw = { data: out.data, width: out.info.width, height: out.info.height, channels: out.info.channels };
  } catch (error) {
    return decodeRefusal(error);
  }
  signal?.throwIfAborted();

  const encoded = await encodeForProfile(raw, profile, { ...options, made });
  if (encoded.ok) return accept(encoded.encoded, encoded);
  return {
    ok: false,
    code: 'too-large',
    message: `Even scaled down, this image does not fit in the ${formatBytes(profile.maxBytes)} the model accepts. Crop it to the part that matters and try again.`,
  };
}
