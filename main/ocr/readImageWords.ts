// The words of an image and where they sit, in the image's own (upright) pixels: what redaction
// needs to fill a secret's run (main/privacy). readImageText reads at the image's full detail up
// to OCR_MAX_PIXELS (12 MP; a 4K screen is read as it is), never less than what a model is sent,
// so a secret that a model could read is one OCR has read too.
import type { Limits } from '../../common/limits.ts';
import { readImageText } from './readImageText.ts';
import type { TextReader } from './textReader.ts';

export type ImageWord = { text: string; line: number; confidence: number; x: number; y: number; width: number; height: number };
type WordsResult =
  | { ok: true; words: ImageWord[]; /** The image's upright size. */ size: { width: number; height: number }; ms: number }
  | { ok: false; code: 'corrupt' | 'too-many-pixels' | 'timeout' | 'cancelled' | 'failed'; message: string };

export async function readImageWords(
  reader: TextReader,
  image: { data: Uint8Array; mime: string },
  options: { limits: Pick<Limits, 'maxInputPixels'>; signal?: AbortSignal; timeoutMs?: number },
): Promise<WordsResult> {
  const started = performance.now();
  const result = await readImageText(reader, image.data, image.mime, options);
  if (!result.ok) return result;
  const { reading, read, source } = result;
  if (!reading.words) return { ok: false, code: 'failed', message: `${reader.engine} gives no word positions, so secrets cannot be found in the image.` };
  const sx = source.width / read.width, sy = source.height / read.height;
  const words = reading.words.map((w) => ({
    text: w.text,
    line: w.line,
    confidence: w.confidence,
    x: source.x + w.box.x * sx,
    y: source.y + w.box.y * sy,
    width: w.box.width * sx,
    height: w.box.height * sy,
  }));
  return { ok: true, words, size: { width: source.x + source.width, height: source.y + source.height }, ms: Math.round(performance.now() - started) };
}
