// npm run bench:wayland-capture — capture time under a headless Wayland compositor, per output
// size, written to docs/benchmarks-perf.md. For each size, headless sway (test/fixtures/sway.ts:
// pixman rendering, no GPU) shows a foot window; then, alternating, --runs times each:
// grim alone writing a PPM to a pipe (the screencopy floor: the route's external step), grim
// writing its default PNG (what a person runs), Glance's capture('primary') (sway's IPC, grim, the
// lossless PNG) and captureFrame('primary') (the same without the PNG: what the hotkey hands the
// door). For context, node-screenshots on an Xvfb screen of the same size.
//   node bench/waylandCapture.bench.ts [--runs 9] [--no-write]
import { execFile } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { NodeScreenshotsCapturer } from '../main/capture/nodeScreenshotsCapturer.ts';
import { startSway, swayMissing, swayViews } from '../test/fixtures/sway.ts';
import { startXvfb } from '../test/fixtures/xvfb.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { max, median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '9' }, 'no-write': { type: 'boolean', default: false } } });
const RUNS = Math.max(3, Number(args.runs) || 9);
const SIZES = [
  [1280, 720],
  [1920, 1080],
  [3840, 2160],
] as const;
const run = promisify(execFile);
const missing = swayMissing(['foot']);
if (missing.length) throw new Error(`bench:wayland-capture needs ${missing.join(', ')}`);

type Row = { size: string; ways: Map<string, number[]> };
const rows: Row[] = [];
const loadStart = loadavg()[0]!;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

for (const [w, h] of SIZES) {
  const sway = await startSway([`output HEADLESS-1 resolution ${w}x${h}`, 'xwayland disable']);
  try {
    delete process.env.DISPLAY;
    Object.assign(process.env, sway.env);
    const config = await sway.writeFile('foot.ini', '[colors]\nbackground=202020\nforeground=e0e0e0\n');
    await sway.msg('exec', `env LANG=C.UTF-8 foot -c ${config} --title 'bench' sh -c 'seq 1 400; sleep 600'`);
    const deadline = Date.now() + 15_000;
    while (!(await swayViews(sway)).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    const capturer = new NodeScreenshotsCapturer({ timeoutMs: 30_000 });
    const env = { ...process.env };
    const ways: [string, () => Promise<unknown>][] = [
      ['grim → PPM (pipe)', () => run('grim', ['-t', 'ppm', '-o', 'HEADLESS-1', '-'], { env, encoding: 'buffer', maxBuffer: 1 << 30 })],
      ['grim → PNG (pipe)', () => run('grim', ['-o', 'HEADLESS-1', '-'], { env, encoding: 'buffer', maxBuffer: 1 << 30 })],
      ['Glance capture (PNG)', async () => (await capturer.capture('primary')).ok || Promise.reject(new Error('capture failed'))],
      ['Glance captureFrame (raw)', async () => (await capturer.captureFrame('primary')).ok || Promise.reject(new Error('capture failed'))],
    ];
    const times = new Map<string, number[]>(ways.map(([name]) => [name, []]));
    for (const [, fn] of ways) await fn(); // warm
    for (let r = 0; r < RUNS; r++) for (const [name, fn] of r % 2 ? [...ways].reverse() : ways) times.get(name)!.push(await timed(fn));
    rows.push({ size: `${w}×${h}`, ways: times });
    console.log(`${w}x${h}`, Object.fromEntries([...times].map(([k, v]) => [k, Math.round(median(v))])));
  } finally {
    await sway.stop();
  }
}

// Context: node-screenshots on an X server of the same sizes (its own process keeps its first X connection, so one Xvfb per size in a child).
const xTimes = new Map<string, number[]>();
for (const [w, h] of SIZES) {
  const x = await startXvfb({ width: w, height: h });
  try {
    const script = `import { NodeScreenshotsCapturer } from ${JSON.stringify(join(import.meta.dirname, '..', 'main', 'capture', 'nodeScreenshotsCapturer.ts'))};
const c = new NodeScreenshotsCapturer(); await c.capture('primary'); const out = [];
for (let i = 0; i < ${RUNS}; i++) { const t = performance.now(); const r = await c.capture('primary'); if (!r.ok) throw new Error(r.message); out.push(performance.now() - t); }
console.log(JSON.stringify(out));`;
    const env: NodeJS.ProcessEnv = { ...process.env, ...x.env };
    for (const k of ['WAYLAND_DISPLAY', 'SWAYSOCK']) delete env[k];
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { env, cwd: join(import.meta.dirname, '..') });
    xTimes.set(`${w}×${h}`, JSON.parse(stdout.trim().split('\n').at(-1)!) as number[]);
  } finally {
    await x.stop();
  }
}

const ms = (v: number[]) => `${Math.round(median(v))} (${Math.round(max(v))})`;
const names = [...rows[0]!.ways.keys()];
const table = markdownTable(
  ['output', ...names, 'X11 for context: node-screenshots on Xvfb (PNG)'],
  rows.map((r) => [r.size, ...names.map((n) => ms(r.ways.get(n)!)), ms(xTimes.get(r.size) ?? [])]),
);
const section = [
  '## Capture under a headless Wayland compositor (`npm run bench:wayland-capture`)',
  '',
  `${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (shared), load ${loadStart.toFixed(1)} at the start; ${RUNS} runs each, alternating; milliseconds, median (max).`,
  'sway 1.7 headless, pixman rendering (no GPU), one output showing a foot terminal; Glance takes the sway route',
  "(sway's IPC for the output, grim through wlroots screencopy: main/capture/wlroots.ts). grim → PPM is the route's",
  'external step alone; the rest of Glance\'s time is reading the PPM and encoding (the PNG, or nothing for captureFrame).',
  "Most of the time is grim's screencopy (the compositor copying the output in software, pixman), not Glance's part.",
  'On a loaded machine two runs differ by up to 2×: compare the columns within a row, not rows between runs.',
  '',
  table,
  '',
].join('\n');
console.log(section);
if (!args['no-write']) await writeSection(join(import.meta.dirname, '..', 'docs', 'benchmarks-perf.md'), 'wayland-capture', section);
