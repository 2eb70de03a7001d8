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
//   DENSE_BYTES_PER_PIXEL of pixel data at zlib level 6 or above. A lanczos downscale turns
//   every edge into new in-between colours, and only flat screens stay PNG's after it. Measured
//   on Chromium screenshots (1080p, 2880×1800, 4K) re-encoded at zlib 1–9 with and without
//   filters: sparse settings screens, where PNG wins at every downscale (PNG/JPEG 0.38–0.87),
//   are at most 0.035 bytes per pixel at level ≥ 2; text, terminal, dashboard and photo
//   screens, where JPEG wins at every downscale (PNG/JPEG ≥ 1.85), at least 0.043, the editor
//   screens of bench:prepare 0.13–0.16. The line is drawn well above the flat ones. Level 0–1
//   (fast writers, our own capture) says too little: a flat screen reaches 0.076 there.
// Everything else (a flat or fast-written screen fitted down, where only the fitted pixels can
// tell) is predicted from a sample of them (encoderChoice.ts). So is anything over the byte cap.
import type { Sharp } from 'sharp';
import type { ImageMime } from '../../common/images.ts';
import { encode, lossyFormat, QUALITY, usable, type Candidate, type Encoded } from './encoderChoice.ts';
import { pngFacts, pngForPassthrough } from './pngChunks.ts';
import type { SniffedKind } from './sniff.ts';

/** Compressed bytes per pixel (zlib level ≥ 6, 8-bit RGB/RGBA) from which a PNG fitted down is JPEG's (see the header). */
export const DENSE_BYTES_PER_PIXEL = 0.06;

export type Plan = {
  /** The format encoded in the decode's pipeline. */
  mime: ImageMime;
  reason: 'only-format' | 'lossy-source' | 'native-png' | 'dense-source';
  /** native-png: the source PNG reduced to its pixels, the lossless candidate. */
  passthrough?: Uint8Array;
};

/** The encoding when it can be known from the source and the profile alone; undefined when only the fitted pixels can tell. */
export function planBeforeDecode(source: { kind: SniffedKind; data: Uint8Array; native: boolean }, formats: readonly ImageMime[]): Plan | undefined {
  const candidates = usable(formats);
  const lossy = lossyFormat(candidates);
  const png = candidates.includes('image/png');
  if (!png || !lossy) return { mime: (png ? 'image/png' : lossy) ?? (candidates[0] as ImageMime), reason: 'only-format' };
  if (source.kind === 'jpeg') return { mime: lossy, reason: 'lossy-source' };
  if (source.kind !== 'png') return undefined;
  if (!source.native) return denseScreen(source.data) ? { mime: lossy, reason: 'dense-source' } : undefined;
  const passthrough = pngForPassthrough(source.data);
  return passthrough ? { mime: lossy, reason: 'native-png', passthrough } : undefined;
}

function denseScreen(png: Uint8Array): boolean {
  const f = pngFacts(png);
  if (!f || f.zlibLevel < 2 || f.depth !== 8 || (f.colourType !== 2 && f.colourType !== 6)) return false;
  return f.idatBytes / (f.width * f.height) >= DENSE_BYTES_PER_PIXEL;
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
