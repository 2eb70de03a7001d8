// npm run bench:hotkey — the hotkey's cost on a 4K display under Xvfb: capture alone
// (node-screenshots grab + the lossless PNG a capture carries) against hotkey → request on
// the wire as the app's capture:screenshot does it (the grab left raw with the window under the
// pointer, the door's fit of those pixels, the payload stored, then an Ollama chat request until
// its last byte has reached a loopback server speaking Ollama's wire format). The original's PNG
// is encoded and stored after the request has left; the bench waits for it between runs (untimed)
// and checks it is the grab's pixels. Interleaved, in turn first, in one process; the ratio is the
// median of per-run ratios. No pixel stage: gemma3 on a loopback Ollama is not redacted under the
// default policy ("remote"); a redacted send waits for OCR (seconds) and the PNG is part of that wait.
//   node bench/hotkey.bench.ts [--runs N] [--no-write]
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import type { RawFrame } from '../common/images.ts';
import { DEFAULT_LIMITS } from '../common/limits.ts';
import { NodeScreenshotsCapturer } from '../main/capture/nodeScreenshotsCapturer.ts';
import { doorWindows } from '../main/capture/screenCapturer.ts';
import { FileAttachmentStore } from '../main/images/attachmentStore.ts';
import { ImageIntake } from '../main/images/imageIntake.ts';
import { targetFor } from '../main/images/profiles.ts';
import { OllamaProvider } from '../main/models/ollamaProvider.ts';
import { editorHtml, showPage } from '../test/fixtures/screenPage.ts';
import { startXvfb } from '../test/fixtures/xvfb.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '15' }, 'no-write': { type: 'boolean', default: false } } });
const RUNS = Math.max(5, Number(args.runs) || 15);
const W = 3840;
const H = 2160;

const x = await startXvfb({ width: W, height: H });
Object.assign(process.env, { DISPLAY: x.display, XDG_SESSION_TYPE: 'x11' });
delete process.env.WAYLAND_DISPLAY;
const screen = await showPage(x.env, editorHtml({ width: W, height: H, fontPx: 14 }).html, { monitor: x.monitors[0]! });
const dataDir = await mkdtemp(join(tmpdir(), 'glance-bench-hotkey-'));
// A loopback Ollama: it notes when a chat request's body has fully arrived, then answers.
let arrived: (() => void) | undefined;
const wire = createServer((req: IncomingMessage, res: ServerResponse) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    arrived?.();
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.end(`${JSON.stringify({ model: 'gemma3', created_at: new Date().toISOString(), message: { role: 'assistant', content: 'ok' }, done: true, done_reason: 'stop' })}\n`);
  });
});
await new Promise<void>((r) => wire.listen(0, '127.0.0.1', r));
const port = (wire.address() as { port: number }).port;

try {
  const started = new Date();
  const load = loadavg().map((l) => l.toFixed(2)).join(' / ');
  const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });
  const store = new FileAttachmentStore(dataDir);
  const intake = new ImageIntake({ config: { limits: { ...DEFAULT_LIMITS }, allowedRoots: [] }, store });
  const provider = new OllamaProvider({ host: `http://127.0.0.1:${port}` });
  const target = targetFor('ollama', 'gemma3', { vision: 'yes', visionSource: 'ollama-capabilities' });
  await waitForPage(capturer);

  const captureAlone = async () => {
    const shot = await capturer.capture('under-cursor');
    if (!shot.ok) throw new Error(shot.message);
  };
  let sentBytes = 0;
  let kept: Promise<unknown> = Promise.resolve();
  let lastFrame: { frame: RawFrame; id: string } | undefined;
  const hotkeyToWire = async () => {
    const shot = await capturer.captureFrame('under-cursor', { windowUnderPointer: true });
    if (!shot.ok) throw new Error(shot.message);
    if (!('frame' in shot.capture)) throw new Error('node-screenshots answered with a PNG');
    const { frame, display } = shot.capture;
    const attached = await intake.admit({ frame, name: 'screenshot.png', origin: 'screenshot', requestedBy: 'user', pixelRatio: display.scaleFactor, ...doorWindows(shot.capture) }, target, 'user');
    if (!attached.ok) throw new Error(attached.message);
    kept = attached.originalKept ?? Promise.resolve();
    lastFrame = { frame, id: attached.attachment.id };
    const payload = await store.get(attached.attachment.id);
    if (!payload) throw new Error('stored payload missing');
    sentBytes = payload.data.byteLength;
    const onWire = new Promise<void>((r) => (arrived = r));
    const stream = provider.stream({ model: 'gemma3', messages: [{ role: 'user', content: 'What is on my screen?', images: [{ data: payload.data, mime: payload.info.mime }] }] });
    const drain = (async () => {
      for await (const _ of stream) void _;
    })();
    await onWire; // the request is on the wire: the rest is the model's time
    await drain;
  };
  /** Untimed: the original of the last hotkey is on disk before the next run starts. */
  const settle = async () => {
    const result = (await kept) as { ok: boolean; message?: string } | undefined;
    if (result && !result.ok) throw new Error(result.message);
  };
  for (let i = 0; i < 2; i++) {
    await captureAlone();
    await hotkeyToWire();
    await settle();
  }
  const alone: number[] = [];
  const full: number[] = [];
  const ratios: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const order = run % 2 ? [hotkeyToWire, captureAlone] : [captureAlone, hotkeyToWire];
    const times = new Map<unknown, number>();
    for (const fn of order) {
      const t0 = performance.now();
      await fn();
      times.set(fn, performance.now() - t0);
      await settle();
    }
    alone.push(times.get(captureAlone)!);
    full.push(times.get(hotkeyToWire)!);
    ratios.push(times.get(hotkeyToWire)! / times.get(captureAlone)!);
  }
  const ratio = median(ratios);
  const stored = await storedOriginal(store, lastFrame);
  const table = markdownTable(
    ['', 'median ms', 'min ms'],
    [
      ['capture alone (grab + lossless PNG)', median(alone).toFixed(0), Math.min(...alone).toFixed(0)],
      ['hotkey → request on the wire (raw grab + window under the pointer + fit + store + send)', median(full).toFixed(0), Math.min(...full).toFixed(0)],
    ],
  );
  process.stdout.write(`\n${table}\n\nratio ${ratio.toFixed(2)}× (target ≤ 1.25×); sent ${sentBytes} bytes; ${stored}\n`);
  const section = [
    '## Hotkey → request on the wire (`npm run bench:hotkey`)',
    '',
    `Measured ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores, Node ${process.versions.node}, sharp ${sharp.versions.sharp}; load average ${load} at the start. Xvfb ${W}×${H}, an editor page (14 px code) in Chromium; gemma3's rule (Ollama). ${RUNS} runs, interleaved, each in turn first.`,
    '',
    table,
    '',
    `Median of per-run ratios: **${ratio.toFixed(2)}×** (target ≤ 1.25×). The payload sent: ${Math.round(sentBytes / 1024)} KB. ${stored}`,
    '',
  ].join('\n');
  if (!args['no-write']) await writeSection(join(import.meta.dirname, '..', 'docs', 'benchmarks-perf.md'), 'bench:hotkey', section);
} finally {
  wire.close();
  await screen.close();
  await x.stop();
  await rm(dataDir, { recursive: true, force: true });
}

/** Wait until the editor is on screen: its background is #1e1e1e. */
async function waitForPage(capturer: NodeScreenshotsCapturer): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const shot = await capturer.capture('primary');
    if (shot.ok) {
      const { data } = await sharp(shot.capture.png).extract({ left: 0, top: 0, width: 8, height: 8 }).raw().toBuffer({ resolveWithObject: true });
      if (data[0]! < 90) return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the editor page never showed on the X display');
}

/** Whether the last hotkey's original was stored, and holds the grab's pixels exactly. */
async function storedOriginal(store: FileAttachmentStore, last: { frame: RawFrame; id: string } | undefined): Promise<string> {
  const info = last && (await store.info(last.id));
  const original = info && (await store.original(info));
  if (!last || !info?.original || !original) return 'The last capture has NO stored original.';
  const { data } = await sharp(original.data).raw().toBuffer({ resolveWithObject: true });
  const same = Buffer.compare(data, Buffer.from(last.frame.data.buffer, last.frame.data.byteOffset, last.frame.data.byteLength)) === 0;
  return `The last capture's original was stored after the send (${original.mime}, ${Math.round(original.data.byteLength / 1024)} KB): ${same ? 'its pixels are the grab\'s, exactly' : 'its pixels DIFFER from the grab\'s'}.`;
}
