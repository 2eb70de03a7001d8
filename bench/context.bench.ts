// npm run bench:context — what retraction saves, what the engine costs, and what zoom buys.
//   node bench/context.bench.ts [--turns 10] [--runs 15] [--no-write]
// 1. A 10-turn session against the seeing fixture model server; in every turn the model calls
//    screenshot_desktop on a real X display (Xvfb, 3840×2160, an editor page in Chromium).
//    Request bytes per turn with retraction vs a naive client that re-sends every earlier
//    screenshot (computed from the images actually sent: their base64 added to each request).
// 2. The engine's own time per turn: wall time minus time inside the model provider's stream
//    and inside tools.
// 3. Capture + prepare time for the 4K display (node-screenshots → chokepoint, Ollama profile).
// 4. Legibility of 14 px text: full-screen capture as the model sees it vs a zoomed region,
//    by OCR against the known text.
// Writes its figures into docs/benchmarks.md between the bench:context markers.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NodeScreenshotsCapturer } from '../main/capture/nodeScreenshotsCapturer.ts';
import type { ModelChoice } from '../main/chat/chatEngine.ts';
import { testServices } from '../test/support/testServices.ts';
import { resolveModel } from '../main/core/modelResolver.ts';
import { fitInside } from '../main/images/normalise.ts';
import { DEFAULT_PROFILES } from '../main/images/profiles.ts';
import { createModelServer } from '../test/fixtures/modelServer.ts';
import { editorHtml, showPage } from '../test/fixtures/screenPage.ts';
import { startXvfb } from '../test/fixtures/xvfb.ts';
import { accuracy, Ocr } from '../test/fixtures/ocr.ts';
import { base64Length, max, median } from './lib/stats.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { timedProvider } from './lib/timedProvider.ts';

const { values: args } = parseArgs({ options: { turns: { type: 'string', default: '10' }, runs: { type: 'string', default: '15' }, 'no-write': { type: 'boolean', default: false } } });
const TURNS = Math.max(2, Number(args.turns) || 10);
const RUNS = Math.max(5, Number(args.runs) || 15);
const W = 3840;
const H = 2160;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const x = await startXvfb({ width: W, height: H });
Object.assign(process.env, { DISPLAY: x.display, XDG_SESSION_TYPE: 'x11' });
delete process.env.WAYLAND_DISPLAY;
const page = editorHtml({ width: W, height: H, fontPx: 14 });
const screen = await showPage(x.env, page.html, { monitor: x.monitors[0]! });
const server = await createModelServer();
const dataDir = await mkdtemp(join(tmpdir(), 'glance-bench-context-'));
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });
const core = testServices({ dataDir, capturer });
const ocr = new Ocr();

try {
  // Wait until the editor is on screen: its text is light grey on #1e1e1e.
  for (let i = 0; i < 100; i++) {
    const shot = await capturer.capture('primary');
    if (shot.ok) {
      const sharp = (await import('sharp')).default;
      const { data } = await sharp(shot.capture.png).extract({ left: 0, top: 0, width: 8, height: 8 }).raw().toBuffer({ resolveWithObject: true });
      if (data[0]! < 90) break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  // ---- 1 + 2: the session
  const base = await resolveModel({ kind: 'ollama', model: 'llava-seer', baseUrl: server.url });
  const timed = timedProvider(base.provider);
  const chat: ModelChoice = { ...base, provider: timed.provider };
  const perTurn: { bytes: number; imageBase64: number; overheadMs: number }[] = [];
  let conversationId: string | undefined;
  for (let turn = 1; turn <= TURNS; turn++) {
    server.reset();
    server.script({ toolCalls: [{ name: 'screenshot_desktop', arguments: {} }] });
    timed.reset();
    let toolMs = 0;
    const t0 = performance.now();
    const outcome = await core.engine.runTurn({ conversationId, text: `Turn ${turn}: what is on my screen now?`, chat }, (e) => {
      if (e.type === 'tool_result') toolMs += e.durationMs ?? 0;
    });
    const wall = performance.now() - t0;
    if (outcome.status !== 'done') throw new Error(`turn ${turn}: ${outcome.status} ${outcome.error?.message ?? ''}`);
    conversationId = outcome.conversationId;
    const withImage = server.requests.at(-1)!;
    perTurn.push({ bytes: Math.max(...server.requests.map((r) => r.bodyBytes)), imageBase64: base64Length(withImage.images[0]?.bytes ?? 0), overheadMs: wall - timed.ms() - toolMs });
  }
  const naive = perTurn.map((t, i) => t.bytes + perTurn.slice(0, i).reduce((sum, p) => sum + p.imageBase64, 0));

  // ---- 3: capture + prepare for a 4K display
  const prepMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const shot = await capturer.capture('primary');
    if (!shot.ok) throw new Error(shot.message);
    const prepared = await core.intake.admit({ source: shot.capture.png, origin: 'bench', requestedBy: 'user' }, { profile: DEFAULT_PROFILES.ollama }, 'check');
    if (!prepared.ok) throw new Error(prepared.message);
    prepMs.push(performance.now() - t0);
  }

  // ---- 4: legibility, full view vs zoom, through the screenshot tool itself
  const pane = page.panes[0]!;
  const rows = 24;
  const zoomBox = { x: pane.box.x, y: pane.box.y, width: pane.box.width, height: rows * page.lineHeightPx + 8 };
  const known = pane.lines.slice(0, rows);
  const view = fitInside(W, H, DEFAULT_PROFILES.ollama);
  const s = view.width / W;
  const tool = (await core.tools.forTurn(true)).get('screenshot_desktop')!;
  const context = { signal: new AbortController().signal, onProgress: () => undefined, imageTarget: chat.target };
  const full = await tool.run({}, context);
  const zoom = await tool.run({ region: { x: zoomBox.x * s, y: zoomBox.y * s, width: zoomBox.width * s, height: zoomBox.height * s } }, context);
  const fullImage = (await core.attachments.get(full.images![0]!.id))!;
  const zoomImage = (await core.attachments.get(zoom.images![0]!.id))!;
  const fullBox = { x: Math.floor(zoomBox.x * s), y: Math.floor(zoomBox.y * s), width: Math.ceil(zoomBox.width * s), height: Math.ceil(zoomBox.height * s) };
  // As sent (the pixels the model gets), and enlarged back to native text size (what information
  // survived at all). The zoom is native already.
  const fullAsSent = accuracy(await ocr.read(fullImage.data, fullBox), known);
  const fullText = await ocr.read(fullImage.data, fullBox, { width: zoomBox.width, height: zoomBox.height });
  const zoomText = await ocr.read(zoomImage.data, { x: 0, y: 0, width: zoomImage.info.width, height: zoomImage.info.height }, { width: zoomBox.width, height: zoomBox.height });
  const fullAcc = accuracy(fullText, known);
  const zoomAcc = accuracy(zoomText, known);

  const pct = (v: number) => `${(v * 100).toFixed(0)}%`;
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  const lines = [
    `<!-- bench:context:start -->`,
    `### bench:context — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (${cpus()[0]?.model ?? 'cpu'})`,
    '',
    `A ${TURNS}-turn session; in every turn the model calls \`screenshot_desktop\` on a ${W}×${H} Xvfb display (an editor page, 14 px text) and answers.`,
    `Bytes are the largest request body of each turn (the one that carries that turn's screenshot).`,
    '',
    '| turn | request bytes, with retraction | naive: every earlier screenshot re-sent | engine overhead |',
    '| --- | --- | --- | --- |',
    ...perTurn.map((t, i) => `| ${i + 1} | ${kb(t.bytes)} | ${kb(naive[i]!)} | ${t.overheadMs.toFixed(1)} ms |`),
    '',
    `- Turn ${TURNS} vs turn 1: **${(perTurn.at(-1)!.bytes / perTurn[0]!.bytes).toFixed(2)}×** with retraction (target ≤ 1.2×), ${(naive.at(-1)! / perTurn[0]!.bytes).toFixed(2)}× naive.`,
    `- Engine overhead per turn (wall time minus model stream and tool time): median **${median(perTurn.map((t) => t.overheadMs)).toFixed(1)} ms**, max ${max(perTurn.map((t) => t.overheadMs)).toFixed(1)} ms.`,
    `- Capture + prepare of the ${W}×${H} display for the Ollama profile, ${RUNS} runs: median **${median(prepMs).toFixed(0)} ms**, max ${max(prepMs).toFixed(0)} ms (target ≤ 150 ms).`,
    `- Legibility of the first ${rows} code lines (14 px), OCR character accuracy: full view (${fullImage.info.width}×${fullImage.info.height}) **${pct(fullAsSent.characters)}** as sent, ${pct(fullAcc.characters)} when enlarged back to native size (${pct(fullAcc.lines)} of lines exact); zoomed region (${zoomImage.info.width}×${zoomImage.info.height}, native pixels) **${pct(zoomAcc.characters)}** (${pct(zoomAcc.lines)} of lines exact).`,
    `<!-- bench:context:end -->`,
  ];
  const report = lines.join('\n');
  console.log(report);
  if (!args['no-write']) {
    const file = join(root, 'docs', 'benchmarks.md');
    const current = await readFile(file, 'utf8').catch(() => '# Benchmarks\n');
    const next = current.includes('<!-- bench:context:start -->')
      ? current.replace(/<!-- bench:context:start -->[\s\S]*<!-- bench:context:end -->/, report)
      : `${current.trimEnd()}\n\n${report}\n`;
    await writeFile(file, next);
  }
} finally {
  await ocr.close();
  await server.close();
  await screen.close();
  await x.stop();
  await rm(dataDir, { recursive: true, force: true });
}
