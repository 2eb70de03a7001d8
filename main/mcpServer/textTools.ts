// read_text and describe (architecture §14): the screen as words, for callers whose client drops
// images from tool results (LM Studio, OpenAI-compatible backends, Claude Desktop a turn late).
// read_text is local OCR of the kept original; describe asks the configured vision model (local
// by default) and returns only its text. Without "image" both capture the screen anew.
import { hiddenPhrase } from '../../common/privacy.ts';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AttachmentInfo } from '../../common/images.ts';
import { clampRegion } from '../images/cropImage.ts';
import { readImageText } from '../ocr/readImageText.ts';
import type { TextReader } from '../ocr/textReader.ts';
import { captureUri } from './captureShelf.ts';
import { inShown, shoot, toolError, type CaptureDeps, type Rect } from './captureTools.ts';

type Word = { text: string; x: number; y: number; width: number; height: number };

/** The image a text tool works on: the one named, else a fresh capture. */
async function subject(deps: CaptureDeps, image: string | undefined, signal: AbortSignal): Promise<{ info: AttachmentInfo; space: 'shown' | 'original'; size: { width: number; height: number }; fresh: boolean } | CallToolResult> {
  if (image === undefined) {
    const shot = await shoot(deps, {}, signal);
    if ('content' in shot) return shot;
    const info = shot.served.info;
    // A fresh capture is read in screen pixels: its original's.
    return { info, space: 'original', size: { width: info.source.width, height: info.source.height }, fresh: true };
  }
  const named = await deps.shelf.resolve(image);
  if ('ok' in named) return toolError(named.message);
  return { ...named, fresh: false };
}

export async function readText(deps: CaptureDeps & { ocr: TextReader }, args: { image?: string; region?: Rect }, signal: AbortSignal): Promise<CallToolResult> {
  const what = await subject(deps, args.image, signal);
  if ('content' in what) return what;
  const { info, space, size } = what;
  // The caller's coordinates per original pixel (1 for a URI or a fresh capture).
  const sx = size.width / info.source.width;
  const sy = size.height / info.source.height;
  if (args.region) {
    const clamped = clampRegion(args.region, size.width, size.height);
    if ('ok' in clamped) return toolError(`${clamped.message} Nothing was read.`);
  }
  const pixels = await deps.gate.read(info, args.region ? inShown(what, args.region) : undefined, signal);
  if (!pixels.ok) return toolError(`${pixels.message} Nothing was read.`);
  const read = await readImageText(deps.ocr, pixels.pixels.data, pixels.pixels.mime, { limits: deps.limits, signal });
  if (!read.ok) return toolError(`Could not read the text (${read.code}): ${read.message}`);
  const { reading, source } = read;
  // Boxes come in the pixels the reader got (scaled, of the crop); back to the caller's coordinates.
  const offset = pixels.crop?.source ?? { x: 0, y: 0 };
  const kx = source.width / read.read.width;
  const ky = source.height / read.read.height;
  const round = (v: number) => Math.round(v * 10) / 10;
  // A reader that gives no words (another engine) still gives its lines' boxes.
  const found = reading.words ?? reading.lines.map((line) => ({ text: line.text, box: line.box }));
  const words: Word[] = found.map((w) => ({
    text: w.text.trim(),
    x: round((offset.x + source.x + w.box.x * kx) * sx),
    y: round((offset.y + source.y + w.box.y * ky) * sy),
    width: round(w.box.width * kx * sx),
    height: round(w.box.height * ky * sy),
  }));
  // The text leaves Glance as the image would: secrets replaced, and a word that is (part of) one
  // is not given back in the clear either.
  const shown = await deps.gate.text(reading.text);
  const kept = shown.hidden ? await Promise.all(words.map(async (w) => ((await deps.gate.text(w.text)).hidden || !shown.text.includes(w.text) ? { ...w, text: '[hidden]' } : w))) : words;
  const from = what.fresh ? `a fresh capture (${captureUri(info)}, screen pixels)` : space === 'original' ? `the original ${captureUri(info)}` : `image ${info.id} (in its ${size.width}×${size.height} pixels)`;
  const header = `Text read by local OCR (${reading.engine}) from ${from}${args.region ? `, rectangle ${round(args.region.width)}×${round(args.region.height)} at ${round(args.region.x)},${round(args.region.y)}` : ''}, mean confidence ${Math.round(reading.confidence)}%, ${words.length} words${shown.hidden ? `, ${shown.hidden} secret${shown.hidden === 1 ? '' : 's'} hidden on this device` : ''}${pixels.hidden?.length ? `; filled before reading: ${hiddenPhrase(pixels.hidden)}` : ''}:`;
  const text = reading.text.trim() ? `${header}\n${shown.text}` : `Local OCR (${reading.engine}) found no text in ${from}.`;
  return { content: [{ type: 'text', text }], structuredContent: { text: shown.text, words: kept, image: captureUri(info), confidence: Math.round(reading.confidence) } };
}

/** A side call to a vision model: the image and the question in, its text out. */
export type Describer = (info: AttachmentInfo, question: string, signal: AbortSignal) => Promise<{ ok: true; text: string; model: string } | { ok: false; message: string }>;

export async function describe(deps: CaptureDeps & { describe: Describer }, args: { image?: string; question: string }, signal: AbortSignal): Promise<CallToolResult> {
  const what = await subject(deps, args.image, signal);
  if ('content' in what) return what;
  const answer = await deps.describe(what.info, args.question, signal);
  if (!answer.ok) return toolError(answer.message);
  // The vision model may be local and have seen the screen as it is; its words leave under the server's policy.
  const said = (await deps.gate.text(answer.text)).text;
  return {
    content: [{ type: 'text', text: said }],
    structuredContent: { text: said, model: answer.model, image: captureUri(what.info) },
  };
}
