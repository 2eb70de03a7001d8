// OCR of kept bytes, bounded before any pixel is decoded (architecture §3 decode guard): the header
// decides first (an image over the pixel cap, a decompression bomb, is refused in microseconds),
// then only the region is decoded, scaled so a reading never gets more than OCR_MAX_PIXELS — a
// 100 MP photo is read at 12 MP, never whole — and small crops are enlarged so tesseract sees
// text at the size it reads best.
import type { Limits } from '../../common/limits.ts';
import type { Region } from '../images/cropImage.ts';
import { decodedInput } from '../images/decodeInput.ts';
import type { ImageTextReader } from '../images/types.ts';
import { OcrError, type OcrReading, type TextReader } from './textReader.ts';
import { errorMessage } from '../errors.ts';

/** A 4K screen (8.3 MP) is read as it is; anything larger is scaled down to this first. */
export const OCR_MAX_PIXELS = 12_000_000;
/** A crop shorter than this is enlarged (Lanczos) up to 2×: 14 px screen text reads better at 28. */
const SMALL_SIDE = 400;

type TextResult =
  | { ok: true; reading: OcrReading; /** Pixels the reader got. */ read: { width: number; height: number }; /** The region read, in the image's pixels. */ source: Region }
  | { ok: false; code: 'corrupt' | 'too-many-pixels' | 'timeout' | 'cancelled' | 'failed'; message: string };

export async function readImageText(
  reader: TextReader,
  bytes: Uint8Array,
  mime: string,
  options: { region?: Region; limits: Pick<Limits, 'maxInputPixels'>; signal?: AbortSignal; timeoutMs?: number },
): Promise<TextResult> {
  const input = await decodedInput(bytes, mime, options.limits, { signal: options.signal });
  if (!input.ok) return input;
  const { width: iw, height: ih } = input.size;
  const r = options.region ?? { x: 0, y: 0, width: iw, height: ih };
  const source = { x: Math.max(0, Math.floor(r.x)), y: Math.max(0, Math.floor(r.y)), width: 0, height: 0 };
  source.width = Math.max(1, Math.min(iw, Math.ceil(r.x + r.width)) - source.x);
  source.height = Math.max(1, Math.min(ih, Math.ceil(r.y + r.height)) - source.y);
  const pixels = source.width * source.height;
  let scale = Math.min(1, Math.sqrt(OCR_MAX_PIXELS / pixels));
  if (scale === 1 && Math.min(source.width, source.height) < SMALL_SIDE) scale = Math.min(2, Math.sqrt(OCR_MAX_PIXELS / pixels));
  const read = { width: Math.max(1, Math.round(source.width * scale)), height: Math.max(1, Math.round(source.height * scale)) };
  let png: Buffer;
  try {
    let pipeline = input.image();
    if (source.x !== 0 || source.y !== 0 || source.width !== iw || source.height !== ih) {
      pipeline = pipeline.extract({ left: source.x, top: source.y, width: source.width, height: source.height });
    }
    if (scale !== 1) pipeline = pipeline.resize(read.width, read.height, { fit: 'fill', kernel: 'lanczos3' });
    // Transparency over white (dark text on a transparent PNG would vanish), then luma only.
    png = await pipeline.flatten({ background: '#ffffff' }).greyscale().png({ compressionLevel: 1 }).toBuffer();
  } catch (error) {
    return { ok: false, code: 'corrupt', message: `The image cannot be read (${errorMessage(error).split('\n')[0]}).` };
  }
  options.signal?.throwIfAborted();
  try {
    const reading = await reader.read(png, { ...(options.signal ? { signal: options.signal } : {}), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
    return { ok: true, reading, read, source };
  } catch (error) {
    if (error instanceof OcrError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

/**
 * Whether a reading found text rather than noise: a photo makes tesseract invent a few
 * low-confidence "words". At least 8 letters or digits in words read with confidence ≥ 60.
 */
export function hasText(reading: OcrReading): boolean {
  let chars = 0;
  for (const line of reading.lines) {
    if (line.confidence < 60) continue;
    chars += (line.text.match(/[\p{L}\p{N}]/gu) ?? []).length;
  }
  return chars >= 8;
}

/** Local OCR as the image door takes it (ImageTextReader): the door decides when, this reads. */
export function imageTextReader(reader: TextReader, limits: Pick<Limits, 'maxInputPixels'>): ImageTextReader {
  return async (image, signal) => {
    const read = await readImageText(reader, image.data, image.mime, { limits, signal });
    if (!read.ok) return { ok: false, message: read.message };
    return { ok: true, text: read.reading.text, engine: read.reading.engine, hasText: hasText(read.reading) };
  };
}
