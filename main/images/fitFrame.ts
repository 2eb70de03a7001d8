// A capture's raw pixels through the door's normalise (the hotkey's path): fitted and encoded for
// the model without a PNG made and decoded first, and the lossless original encoded on its own.
// Why: on a 4K editor screen the capture's PNG cost 33–42 ms and decoding it again for the fit
// 17 ms, ahead of the request; fitting the RGB pixels to 896² → JPEG costs 15 ms (2026-12-04,
// docs/benchmarks-perf.md). The copy is the same, byte for byte, as the one made from the PNG.
// The encoding is chosen as for a PNG (fusedEncode.ts): a frame fitted down is dense when a level-1
// PNG of a sample of its rows (encoderChoice's sample: 1/24, bands at shifting phases) is at
// least DENSE_BYTES_PER_PIXEL_FAST per pixel — the rule the capture's own level-1 PNG is judged
// by; everything else goes by the fitted pixels (encoderChoice.ts).
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { formatBytes, type ImageMime, type RawFrame } from '../../common/images.ts';
import type { Limits } from '../../common/limits.ts';
import { tooManyPixels } from './decodeInput.ts';
import { encodeForProfile, lossyFormat, onlyFormat, sampleRows, usable, type Encoded } from './encoderChoice.ts';
import { DENSE_BYTES_PER_PIXEL_FAST, encodeFused, type Plan } from './fusedEncode.ts';
import { fitForModel } from './imageRule.ts';
import type { NormaliseResult } from './normalise.ts';
import { pngFacts } from './pngChunks.ts';
import type { ImageProfile } from './types.ts';

/** The capture's own PNG settings: fast, lossless (the original is kept, not sent). */
const ORIGINAL_PNG = { compressionLevel: 1, adaptiveFiltering: false } as const;

/** The frame as the lossless PNG kept as its original. */
export async function framePng(frame: RawFrame): Promise<Uint8Array> {
  const png = await sharp(frame.data, { raw: rawOf(frame) }).png(ORIGINAL_PNG).toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/** The model's copy of a frame: fitted to its rule, encoded as normaliseImage would encode the frame's PNG. */
export async function normaliseFrame(frame: RawFrame, profile: ImageProfile, limits: Pick<Limits, 'maxInputPixels'>): Promise<NormaliseResult> {
  const { width, height } = frame;
  if (frame.data.byteLength !== width * height * 3) throw new Error(`a ${width}×${height} RGB frame is ${width * height * 3} bytes, not ${frame.data.byteLength}`);
  if (width * height > limits.maxInputPixels) return tooManyPixels(width, height, limits.maxInputPixels);
  const source = { mime: 'image/png', width, height, bytes: frame.data.byteLength };
  const fitted = fitForModel(width, height, profile);
  const native = fitted.width === width && fitted.height === height;
  const fit = () => {
    const pipeline = sharp(frame.data, { raw: rawOf(frame) });
    return native ? pipeline : pipeline.resize(fitted.width, fitted.height, { fit: 'fill', kernel: 'lanczos3' });
  };
  const accept = (encoded: Encoded, size: { width: number; height: number }): NormaliseResult => ({
    ok: true,
    image: { data: encoded.data, mime: encoded.mime, ...size, bytes: encoded.data.byteLength, sha256: createHash('sha256').update(encoded.data).digest('hex'), source },
  });
  const plan = await planForFrame(frame, native, profile.formats);
  let made: Encoded[] = [];
  if (plan) {
    const fused = await encodeFused(fit(), plan, fitted);
    if (fused.chosen.data.byteLength <= profile.maxBytes) return accept(fused.chosen, fitted);
    made = fused.made;
  }
  const raw = native
    ? { data: Buffer.from(frame.data.buffer, frame.data.byteOffset, frame.data.byteLength), width, height, channels: 3 as const }
    : await fit()
        .raw()
        .toBuffer({ resolveWithObject: true })
        .then((out) => ({ data: out.data, width: out.info.width, height: out.info.height, channels: 3 as const }));
  const encoded = await encodeForProfile(raw, profile, { made });
  if (encoded.ok) return accept(encoded.encoded, encoded);
  return {
    ok: false,
    code: 'too-large',
    message: `Even scaled down, this image does not fit in the ${formatBytes(profile.maxBytes)} the model accepts. Crop it to the part that matters and try again.`,
  };
}

/** fusedEncode's planBeforeDecode for a frame: one format, or a dense screen fitted down. */
async function planForFrame(frame: RawFrame, native: boolean, formats: readonly ImageMime[]): Promise<Plan | undefined> {
  const only = onlyFormat(formats);
  if (only) return { mime: only, reason: 'only-format' };
  if (native) return undefined; // at its own size only the pixels can tell (no source PNG to pass through)
  const lossy = lossyFormat(usable(formats));
  return lossy && (await denseFrame(frame)) ? { mime: lossy, reason: 'dense-source' } : undefined;
}

/** Whether a level-1 PNG of a sample of the frame's rows reaches the dense line (see the header). */
async function denseFrame(frame: RawFrame): Promise<boolean> {
  const sample = sampleRows({ data: Buffer.from(frame.data.buffer, frame.data.byteOffset, frame.data.byteLength), width: frame.width, height: frame.height, channels: 3 });
  // A 4K frame's sample is ~1 MB of RGB: about 2 ms of zlib.
  const png = await sharp(sample.data, { raw: { width: sample.width, height: sample.height, channels: 3 } }).png(ORIGINAL_PNG).toBuffer();
  const facts = pngFacts(png);
  return facts !== undefined && facts.idatBytes / (sample.width * sample.height) >= DENSE_BYTES_PER_PIXEL_FAST;
}

function rawOf(frame: RawFrame): { width: number; height: number; channels: 3 } {
  return { width: frame.width, height: frame.height, channels: 3 };
}
