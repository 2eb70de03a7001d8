// The original at full resolution for the image viewer: the kept bytes themselves when a browser
// can show them, else (HEIC, TIFF, AVIF) converted once to lossless PNG, the pixel cap in force.
import type { AttachmentInfo, ImageMime } from '../../common/images.ts';
import type { Limits } from '../../common/limits.ts';
import { decodedInput, type DecodeRefusal } from './decodeInput.ts';
import type { AttachmentStore } from './types.ts';

const SHOWABLE = new Set<string>(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

type ViewerImage = {
  ok: true;
  data: Uint8Array;
  mime: ImageMime;
  width: number;
  height: number;
  bytes: number;
  name: string;
  original: { mime: string; bytes: number };
  fromOriginal: boolean;
};

export async function originalForViewer(
  store: AttachmentStore,
  info: AttachmentInfo,
  limits: Pick<Limits, 'maxInputPixels'>,
): Promise<ViewerImage | DecodeRefusal | { ok: false; code: 'not-found'; message: string }> {
  const source = await store.source(info);
  if (!source) return { ok: false, code: 'not-found', message: `The image ${info.id} is no longer stored (it may have expired under the retention setting).` };
  const { data, mime } = source;
  const input = await decodedInput(data, mime, limits);
  if (!input.ok) return input;
  const base = { name: info.name, original: { mime, bytes: data.byteLength }, fromOriginal: source.fromOriginal, ...input.size };
  // Orientation: a browser applies EXIF orientation to <img> itself, so showable bytes go as they are.
  if (SHOWABLE.has(mime)) return { ok: true, data, mime: mime as ImageMime, bytes: data.byteLength, ...base };
  const png = await input.image().png().toBuffer();
  return { ok: true, data: png, mime: 'image/png', bytes: png.byteLength, ...base };
}
