// The encoding chosen before the pixels exist, and made in the decode's own pipeline
// (architecture §3). Decoding and fitting to raw pixels, then encoding them, is two libvips
// pipelines one after the other; one decode → fit → encode pipeline runs the encoder while the
// decoder is still reading, which on two cores is ~15–25% less wall time for the same CPU
// (bench:prepare). Where the format does not depend on the fitted pixels it is chosen first:
// - the profile takes one kind (lossless, or lossy);
// - the source is a JPEG: its block artefacts do not compress losslessly (PNG is 3–10× the bytes);
// - a PNG sent at its own size: the PNG itself, reduced to its pixels (pngForPassthrough), is
//   the lossless candidate at no cost, so only the lossy one is encoded; the smaller is sent;
// - a PNG fitted down whose own compressed size says it is not a flat screen: at least
//   DENSE_BYTES_PER_PIXEL of pixel data (zlib level ≥ 2), or DENSE_BYTES_PER_PIXEL_FAST at
//   level 1 (RGB; a fast writer such as Glance's own capture). A lanczos downscale turns every
//   edge into new in-between colours, and only flat screens stay PNG's after it. Measured on
//   Chromium screenshots (1080p, 2880×1800, 4K) re-encoded at zlib 1–9 with and without
//   filters: sparse settings screens, where PNG wins at every downscale (PNG/JPEG 0.38–0.87),
//   are at most 0.035 bytes per pixel at level ≥ 2 and 0.045 at level 1 (RGB; 0.076 with an
//   alpha channel, so not RGBA there); text, terminal, dashboard and photo screens, where JPEG
//   wins at every downscale (PNG/JPEG ≥ 1.85), at least 0.043 (level ≥ 2) and 0.073 (level 1),
//   the editor screens of bench:prepare 0.12–0.16. Each line is drawn well above the flat
//   screens; what falls between goes by the sample (below). A stored (uncompressed) PNG says
//   nothing. A writer that compresses flat content badly at level 1 (Huffman only) could send a
//   flat screen as JPEG here: more bytes than the PNG, never a refusal or lost text.
// Everything else (a flat or fast-written screen fitted down, where only the fitted pixels can
// tell) is predicted from a sample of them (encoderChoice.ts). So is anything over the byte cap.
import type { Sharp } from 'sharp';
import type { ImageMime } from '../../common/images.ts';
import { encode, lossyFormat, onlyFormat, QUALITY, usable, type Candidate, type Encoded } from './encoderChoice.ts';
import { pngFacts, pngForPassthrough } from './pngChunks.ts';
import type { SniffedKind } from './sniff.ts';

/** Compressed bytes per pixel (zlib level ≥ 2, 8-bit RGB/RGBA) from which a PNG fitted down is JPEG's (see the header). */
const DENSE_BYTES_PER_PIXEL = 0.06;
/** The same at zlib level 1 (a fast writer, Glance's own capture: flat screens reach 0.045 there), RGB only. */
export const DENSE_BYTES_PER_PIXEL_FAST = 0.12;

export type Plan = {
  /** The format encoded in the decode's pipeline. */
  mime: ImageMime;
  reason: 'only-format' | 'lossy-source' | 'native-png' | 'dense-source';
  /** native-png: the source PNG reduced to its pixels, the lossless candidate. */
  passthrough?: Uint8Array;
};

/** The encoding when it can be known from the source and the profile alone; undefined when only the fitted pixels can tell. */
export function planBeforeDecode(source: { kind: SniffedKind; data: Uint8Array; native: boolean }, formats: readonly ImageMime[]): Plan | undefined {
  const only = onlyFormat(formats);
  if (only) return { mime: only, reason: 'only-format' };
  const lossy = lossyFormat(usable(formats)) as ImageMime;
  if (source.kind === 'jpeg') return { mime: lossy, reason: 'lossy-source' };
  if (source.kind !== 'png') return undefined;
  if (!source.native) return denseScreen(source.data) ? { mime: lossy, reason: 'dense-source' } : undefined;
  const passthrough = pngForPassthrough(source.data);
  return passthrough ? { mime: lossy, reason: 'native-png', passthrough } : undefined;
}

function denseScreen(png: Uint8Array): boolean {
  const f = pngFacts(png);
  if (!f || f.stored || f.depth !== 8 || (f.colourType !== 2 && f.colourType !== 6)) return false;
  const perPixel = f.idatBytes / (f.width * f.height);
  if (f.zlibLevel >= 1) return perPixel >= DENSE_BYTES_PER_PIXEL;
  return f.colourType === 2 && perPixel >= DENSE_BYTES_PER_PIXEL_FAST;
}

/** The plan's encode in `pipeline` (decode → fit, not yet encoded); the passed-through PNG where it is smaller. */
export async function encodeFused(
  pipeline: Sharp,
  plan: Plan,
  size: { width: number; height: number },
  onCandidate?: (candidate: Candidate) => void,
): Promise<{ chosen: Encoded; made: Encoded[] }> {
  const encoded = await encode(pipeline, plan.mime, QUALITY);
  onCandidate?.({ mime: plan.mime, ...size, bytes: encoded.data.byteLength });
  if (!plan.passthrough) return { chosen: encoded, made: [encoded] };
  const own: Encoded = { mime: 'image/png', data: Buffer.from(plan.passthrough.buffer, plan.passthrough.byteOffset, plan.passthrough.byteLength) };
  onCandidate?.({ mime: 'image/png', ...size, bytes: own.data.byteLength, free: true });
  // A tie goes to PNG: the same bytes, and exact.
  return { chosen: own.data.byteLength <= encoded.data.byteLength ? own : encoded, made: [encoded, own] };
}
