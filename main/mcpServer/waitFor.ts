// wait_for (architecture §14): an agent waits for the screen instead of polling it with full captures.
// Returns when the text appears (or is gone), or — with neither — when the captured area changes, with
// the capture that shows it; or when the timeout passes, with the last capture and words saying so.
// Change is told on small frames (images/smallFrame.ts); OCR reads the whole area once, then only
// the band of lines that changed (the line memory: lines outside a changed band are kept as read).
// The poll starts at POLL_MIN and slows to POLL_MAX while nothing changes; the timeout is capped.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Capture } from '../capture/screenCapturer.ts';
import { changedBox, smallFrame } from '../images/smallFrame.ts';
import { readImageText } from '../ocr/readImageText.ts';
import type { TextReader } from '../ocr/textReader.ts';
import { admitShot, capturedFacts, capturedWhere, captureScope, imageContent, originalLink, sent, toolError, type CaptureDeps, type Rect } from './captureTools.ts';
import { describeHidden } from './serverImages.ts';

export const POLL_MIN_MS = 200;
export const POLL_MAX_MS = 1000;
export const MAX_WAIT_S = 120;
export const DEFAULT_WAIT_S = 10;
/** Pixels above and below a changed box that are read again with it: a line cut in half reads as nonsense. */
const BAND_MARGIN = 24;

export type WaitArgs = { text?: string; gone?: string; display?: string; window?: string; region?: Rect; timeout?: number; model?: string; maxTokens?: number };

type Line = { text: string; y: number; height: number; x: number };

const normal = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

export async function waitFor(
  deps: CaptureDeps & { ocr: TextReader },
  args: WaitArgs,
  signal: AbortSignal,
  now: () => number = Date.now,
  progress?: (waitedMs: number, totalMs: number) => void,
): Promise<CallToolResult> {
  if (args.text !== undefined && args.gone !== undefined) return toolError('Give "text" or "gone", not both: wait for one thing at a time.');
  const needle = args.text ?? args.gone;
  if (needle !== undefined && !normal(needle)) return toolError('"text" and "gone" need some words to look for.');
  const timeoutS = Math.min(args.timeout ?? DEFAULT_WAIT_S, MAX_WAIT_S);
  const where = await captureScope(deps, args, signal);
  if ('content' in where) return where;
  const started = now();
  const deadline = started + timeoutS * 1000;

  const take = async () => {
    const taken = await deps.capturer.capture(where.scope, { ...(args.region ? { region: args.region } : {}), signal });
    if (!taken.ok) return toolError(`The screen could not be captured (${taken.code}): ${taken.message}`);
    return { capture: taken.capture, small: await smallFrame(taken.capture.png, taken.capture.width, taken.capture.height) };
  };
  /** OCR of a band of the capture: the lines in it, in the capture's pixels. */
  const readBand = async (capture: Capture, band: { y: number; height: number } | undefined): Promise<Line[] | CallToolResult> => {
    const region = band ? { x: 0, y: band.y, width: capture.width, height: band.height } : undefined;
    const read = await readImageText(deps.ocr, capture.png, 'image/png', { limits: deps.limits, signal, ...(region ? { region } : {}) });
    if (!read.ok) return toolError(`Could not read the text on screen (${read.code}): ${read.message}`);
    const ky = read.source.height / read.read.height;
    const kx = read.source.width / read.read.width;
    return read.reading.lines.map((l) => ({ text: l.text, y: read.source.y + l.box.y * ky, height: l.box.height * ky, x: read.source.x + l.box.x * kx }));
  };
  const present = (lines: Line[]) => {
    const all = normal([...lines].sort((a, b) => a.y - b.y || a.x - b.x).map((l) => l.text).join('\n'));
    return all.includes(normal(needle!));
  };

  const first = await take();
  if ('content' in first) return first;
  let lines: Line[] = [];
  let ocrReads = 0;
  let ocrPixels = 0;
  if (needle !== undefined) {
    const read = await readBand(first.capture, undefined);
    if (!Array.isArray(read)) return read;
    lines = read;
    ocrReads++;
    ocrPixels += first.capture.width * first.capture.height;
    if (present(lines) === (args.text !== undefined)) return answer(deps, args, first.capture, where.displays, { met: true, started, now: now(), changed: undefined, ocrReads, ocrPixels, already: true }, signal);
  }
  let last = first;
  let reference = first.small;
  let changed: Rect | undefined;
  let wait = POLL_MIN_MS;
  for (;;) {
    const left = deadline - now();
    if (left <= 0) break;
    await sleep(Math.min(wait, left), signal);
    progress?.(now() - started, timeoutS * 1000);
    const next = await take();
    if ('content' in next) return next;
    last = next;
    const box = changedBox(reference, next.small);
    if (!box) {
      wait = Math.min(POLL_MAX_MS, Math.round(wait * 1.5));
      continue;
    }
    wait = POLL_MIN_MS;
    changed = box;
    if (needle === undefined) return answer(deps, args, next.capture, where.displays, { met: true, started, now: now(), changed: box, ocrReads, ocrPixels }, signal);
    // The line memory: lines in the changed band are read again; the rest stay as read.
    const y = Math.max(0, box.y - BAND_MARGIN);
    const band = { y, height: Math.min(next.capture.height, box.y + box.height + BAND_MARGIN) - y };
    const read = await readBand(next.capture, band);
    if (!Array.isArray(read)) return read;
    ocrReads++;
    ocrPixels += next.capture.width * band.height;
    lines = [...lines.filter((l) => l.y + l.height < band.y || l.y > band.y + band.height), ...read];
    reference = next.small;
    if (present(lines) === (args.text !== undefined)) return answer(deps, args, next.capture, where.displays, { met: true, started, now: now(), changed: box, ocrReads, ocrPixels }, signal);
  }
  return answer(deps, args, last.capture, where.displays, { met: false, started, now: now(), changed, ocrReads, ocrPixels }, signal);
}

type Outcome = { met: boolean; started: number; now: number; changed: Rect | undefined; ocrReads: number; ocrPixels: number; already?: boolean };

async function answer(deps: CaptureDeps, args: WaitArgs, capture: Capture, displays: Parameters<typeof admitShot>[2], o: Outcome, signal: AbortSignal): Promise<CallToolResult> {
  const shot = await admitShot(deps, capture, displays, args, 'wait_for', signal);
  if ('content' in shot) return shot;
  const { served } = shot;
  const waitedMs = o.now - o.started;
  const what = args.text !== undefined ? `the text ${JSON.stringify(args.text)} to appear` : args.gone !== undefined ? `the text ${JSON.stringify(args.gone)} to go` : 'the screen to change';
  const seconds = (waitedMs / 1000).toFixed(1);
  const where = await capturedWhere(capture, deps.gate);
  const head = o.met
    ? o.already
      ? `No wait: ${args.text !== undefined ? `${JSON.stringify(args.text)} is already on screen` : `${JSON.stringify(args.gone)} is already not on screen`} (${where}).`
      : `Waited ${seconds} s for ${what}: it did${o.changed ? ` (the change: ${fmt(o.changed)})` : ''}. This capture shows it (${where}).`
    : `Timed out after ${seconds} s waiting for ${what}: ${args.text !== undefined || args.gone !== undefined ? 'it did not happen' : 'nothing changed'}. This is the screen as it is now (${where}).`;
  const text =
    `${head} ${capture.width}×${capture.height} pixels, ${sent(served, shot.model)}. ${describeHidden(deps.gate.policy, served.hidden)}` +
    `${shot.notes.length ? ` ${shot.notes.join(' ')}` : ''}${args.text !== undefined || args.gone !== undefined ? ` Local OCR read ${o.ocrReads} time${o.ocrReads === 1 ? '' : 's'} (only what changed after the first).` : ''}`;
  return {
    content: [imageContent(served), originalLink(served, capture.width, capture.height), { type: 'text', text }],
    structuredContent: {
      met: o.met,
      waitedMs,
      ...(o.changed ? { changed: o.changed } : {}),
      ocrReads: o.ocrReads,
      ocrPixels: o.ocrPixels,
      ...(await capturedFacts(served, capture, displays, deps.gate)),
    },
  };
}

function fmt(r: Rect): string {
  return `${Math.round(r.width)}×${Math.round(r.height)} at ${Math.round(r.x)},${Math.round(r.y)}`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}
