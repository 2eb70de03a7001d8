// npm run bench:prepare — ImageIntake.prepare against its cost floor, per display kind and
// profile: the floor is a bare sharp decode → resize → JPEG q80 of the same screenshot to the
// same size (what no chokepoint can beat by much). Every run measures the floor, prepare and
// (with --baseline) an older checkout's prepare back to back, in a rotating order, in this one
// process, so a ratio compares work done under the same load.
//   node bench/prepare.bench.ts [--runs N] [--baseline DIR] [--ocr] [--no-write] [--only KEY,…]
// --baseline DIR: a checkout of an earlier commit (e.g. `git worktree add DIR <commit>`, with
//   node_modules linked), whose ImageIntake runs beside this one.
// --ocr: OCR of what each prepare sent (as sent, both panes), to see legibility kept.
// Writes its figures into docs/benchmarks-perf.md (between the bench:prepare markers).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { DEFAULT_LIMITS } from '../common/limits.ts';
import { FileAttachmentStore } from '../main/images/attachmentStore.ts';
import { ImageIntake } from '../main/images/imageIntake.ts';
import { DEFAULT_PROFILES, targetFor } from '../main/images/profiles.ts';
import type { ImageProfile, PrepareResult } from '../main/images/types.ts';
import { accuracy, Ocr } from '../test/fixtures/ocr.ts';
import { renderEditorScreenshot, type Screenshot } from './lib/screenshot.ts';
import { median } from './lib/stats.ts';
import { markdownTable, writeSection } from './lib/report.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '9' },
    baseline: { type: 'string' },
    ocr: { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const RUNS = Math.max(3, Number(args.runs) || 9);

/** Display kinds: CSS size × device scale factor = the screenshot's pixels. */
const DISPLAYS = [
  { key: '1080p', label: '1080p', width: 1920, height: 1080, scale: 1 },
  { key: '1440p', label: '1440p', width: 2560, height: 1440, scale: 1 },
  { key: '4k', label: '4K', width: 3840, height: 2160, scale: 1 },
  { key: '4k@1.5', label: '4K @1.5', width: 2560, height: 1440, scale: 1.5 },
  { key: 'retina', label: '2880×1800 Retina', width: 1440, height: 900, scale: 2 },
] as const;

/** The provider defaults, and the model rules of architecture §4a (main/images/modelRules.ts) as targetFor gives them. */
const rule = (provider: 'ollama' | 'openai', model: string): ImageProfile => targetFor(provider, model, { vision: 'yes', visionSource: 'flag' }).profile;
const PROFILES: Array<{ key: string; label: string; profile: ImageProfile }> = [
  { key: 'ollama', label: 'Ollama default (1568 px, PNG/JPEG)', profile: DEFAULT_PROFILES.ollama },
  { key: 'openai', label: 'OpenAI-compatible default (2048 px, PNG/JPEG/WebP/GIF)', profile: DEFAULT_PROFILES.openai },
  { key: 'gemma3', label: 'gemma3 (Ollama): squashed to 896²', profile: rule('ollama', 'gemma3:4b') },
  { key: 'qwen2.5vl', label: 'qwen2.5-vl (Ollama): 28 px tokens, ≤ 4096', profile: rule('ollama', 'qwen2.5vl:7b') },
  { key: 'claude', label: 'Claude (OpenAI-compatible): ≤ 1568 px, ⌈w/28⌉·⌈h/28⌉ ≤ 1568', profile: rule('openai', 'anthropic/claude-sonnet-4.5') },
  { key: 'gpt-4o', label: 'gpt-4o: 2048², short side ≤ 768', profile: rule('openai', 'gpt-4o') },
];

type Prepare = (png: Uint8Array, profile: ImageProfile) => Promise<PrepareResult>;
type Sample = { floorMs: number; floorCpu: number; newMs: number; newCpu: number; baseMs?: number; baseCpu?: number };

const only = args.only ? new Set(args.only.split(',')) : undefined;
const work = await mkdtemp(join(tmpdir(), 'glance-bench-prepare-'));
try {
  const started = new Date();
  const load = loadavg().map((l) => l.toFixed(2)).join(' / ');
  const current = intakeFrom(ImageIntake, FileAttachmentStore, join(work, 'new'));
  const baseline = args.baseline ? await loadBaseline(resolve(args.baseline), join(work, 'base')) : undefined;

  const shots = new Map<string, Screenshot>();
  for (const d of DISPLAYS) {
    if (only && !only.has(d.key)) continue;
    log(`rendering ${d.label}: ${d.width}×${d.height} CSS px at ${d.scale}× in headless Chromium…`);
    shots.set(d.key, await renderEditorScreenshot({ width: d.width, height: d.height, fontPx: 14, deviceScaleFactor: d.scale }));
  }

  type Pair = { display: (typeof DISPLAYS)[number]; shot: Screenshot; p: (typeof PROFILES)[number]; size?: { width: number; height: number } };
  const pairs: Pair[] = [];
  for (const d of DISPLAYS) for (const p of PROFILES) if (shots.has(d.key)) pairs.push({ display: d, shot: shots.get(d.key)!, p });

  const floor = (png: Uint8Array, size: { width: number; height: number }) => sharp(png).resize(size.width, size.height, { fit: 'fill' }).jpeg({ quality: 80 }).toBuffer();
  const results = new Map<Pair, { now: PrepareResult; base?: PrepareResult; samples: Sample[] }>();
  // Warm-up: first-use costs (libvips start-up, thread pool) are not per-image costs; also learns each output size.
  for (const pair of pairs) {
    const now = await current(pair.shot.png, pair.p.profile);
    if (!now.ok) throw new Error(`${pair.display.label} / ${pair.p.key}: refused: ${now.message}`);
    pair.size = { width: now.image.width, height: now.image.height };
    await floor(pair.shot.png, pair.size);
    const base = baseline ? await baseline(pair.shot.png, pair.p.profile) : undefined;
    results.set(pair, { now, ...(base ? { base } : {}), samples: [] });
  }
  log(`${pairs.length} display × profile pairs, ${RUNS} interleaved runs each…`);
  for (let run = 0; run < RUNS; run++) {
    for (const [index, pair] of pairs.entries()) {
      const size = pair.size!;
      const sample: Partial<Sample> = {};
      const jobs: Array<() => Promise<void>> = [
        async () => void Object.assign(sample, rename(await timed(() => floor(pair.shot.png, size)), 'floor')),
        async () => void Object.assign(sample, rename(await timed(() => current(pair.shot.png, pair.p.profile)), 'new')),
        ...(baseline ? [async () => void Object.assign(sample, rename(await timed(() => baseline(pair.shot.png, pair.p.profile)), 'base'))] : []),
      ];
      const shift = (run + index) % jobs.length; // each contender goes first, second, third in turn
      for (const job of [...jobs.slice(shift), ...jobs.slice(0, shift)]) await job();
      results.get(pair)!.samples.push(sample as Sample);
    }
    log(`  run ${run + 1}/${RUNS} done`);
  }

  const ocrRows = new Map<Pair, { now?: number; base?: number; samePixels?: boolean }>();
  if (args.ocr) {
    log('OCR of what was sent (tesseract.js, offline)…');
    const ocr = new Ocr();
    try {
      for (const pair of pairs) {
        const r = results.get(pair)!;
        if (!r.now.ok) continue;
        // Pixels equal to the baseline's read the same: only where they differ is OCR needed.
        const same = r.base?.ok ? r.base.image.width === r.now.image.width && (await samePixels(r.base.image.data, r.now.image.data)) : false;
        const row: { now?: number; base?: number; samePixels?: boolean } = same ? { samePixels: true } : { now: await readSent(ocr, pair.shot, r.now.image.data, r.now.image.width) };
        if (r.base?.ok && !same) {
          row.samePixels = false;
          row.base = await readSent(ocr, pair.shot, r.base.image.data, r.base.image.width);
        }
        ocrRows.set(pair, row);
        log(`  ${pair.display.label} / ${pair.p.key}: ${row.samePixels ? 'same pixels as the baseline' : `${pct(row.now)} (baseline ${pct(row.base)})`}`);
      }
    } finally {
      await ocr.close();
    }
  }

  const header = ['display', 'profile', 'sent', 'floor ms (CPU)', 'prepare ms (CPU)', 'prepare / floor, wall', 'prepare / floor, CPU'];
  if (baseline) header.push('baseline sent', 'baseline / floor, wall', 'baseline / floor, CPU');
  if (args.ocr) header.push('OCR chars as sent', ...(baseline ? ['baseline OCR'] : []));
  const lines: string[][] = [];
  const cpuRatios: number[] = [];
  const wallRatios: number[] = [];
  const baseCpuRatios: number[] = [];
  for (const pair of pairs) {
    const r = results.get(pair)!;
    const s = r.samples;
    const ratio = (a: (x: Sample) => number | undefined, b: (x: Sample) => number) => median(s.map((x) => (a(x) ?? Number.NaN) / b(x)));
    const wall = ratio((x) => x.newMs, (x) => x.floorMs);
    const cpu = ratio((x) => x.newCpu, (x) => x.floorCpu);
    cpuRatios.push(cpu);
    wallRatios.push(wall);
    if (baseline) baseCpuRatios.push(ratio((x) => x.baseCpu, (x) => x.floorCpu));
    const line = [
      `${pair.display.label} (${pair.shot.width * pair.shot.deviceScaleFactor}×${pair.shot.height * pair.shot.deviceScaleFactor})`,
      pair.p.key,
      describe(r.now),
      `${ms(median(s.map((x) => x.floorMs)))} (${ms(median(s.map((x) => x.floorCpu)))})`,
      `${ms(median(s.map((x) => x.newMs)))} (${ms(median(s.map((x) => x.newCpu)))})`,
      `**${wall.toFixed(2)}×**`,
      `**${cpu.toFixed(2)}×**`,
    ];
    if (baseline) line.push(r.base ? describe(r.base) : '—', `${ratio((x) => x.baseMs, (x) => x.floorMs).toFixed(2)}×`, `${ratio((x) => x.baseCpu, (x) => x.floorCpu).toFixed(2)}×`);
    if (args.ocr) {
      const o = ocrRows.get(pair);
      line.push(o?.samePixels ? 'same pixels as baseline' : pct(o?.now), ...(baseline ? [o?.samePixels ? '—' : pct(o?.base)] : []));
    }
    lines.push(line);
  }
  const table = markdownTable(header, lines);
  const within = (list: number[]) => `median ${median(list).toFixed(2)}×, ${list.filter((r) => r <= 1.3).length} of ${list.length} pairs ≤ 1.3×, worst ${Math.max(...list).toFixed(2)}×`;
  const summary = `prepare / floor — CPU: ${within(cpuRatios)}; wall: ${within(wallRatios)}${baseline ? `; baseline CPU: ${within(baseCpuRatios)}` : ''} (target ≤ 1.3×).`;
  process.stdout.write(`\n${table}\n\n${summary}\n`);
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.versions.node}, sharp ${sharp.versions.sharp} / libvips ${sharp.versions.vips}`;
  const section = [
    `## Image preparation against the cost floor (\`npm run bench:prepare\`)`,
    '',
    `Measured ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}; load average ${load} at the start, ${loadavg().map((l) => l.toFixed(2)).join(' / ')} at the end (a shared machine: the ratios, measured back to back under the same load, are the figures to trust).`,
    '',
    `Input: the editor page (14 px code, syntax colours) rendered by Chromium per display kind. **Floor**: \`sharp(png).resize(w, h).jpeg({ quality: 80 })\` to the size prepare chose. **prepare**: \`ImageIntake.admit(bytes, { profile }, 'check')\` — sniff, decode guard, one decode and fit, the encoding chosen from the source or predicted from the fitted pixels, one encode, sha256. ${baseline ? `**Baseline**: the same call in a checkout of ${baselineCommit(args.baseline ?? '')} (before this work). ` : ''}Medians of ${RUNS} runs after a warm-up; each ratio is the median of per-run ratios (the contenders run back to back, in turn first).`,
    '',
    table,
    '',
    summary,
    '',
  ].join('\n');
  if (!args['no-write'] && !only) await writeSection(join(import.meta.dirname, '..', 'docs', 'benchmarks-perf.md'), 'bench:prepare', section);
} finally {
  await rm(work, { recursive: true, force: true });
}

/** The baseline checkout's commit (the directory's name says nothing to a reader of the docs). */
function baselineCommit(dir: string): string {
  try {
    return `commit ${execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}`;
  } catch {
    return dir;
  }
}

function intakeFrom(Intake: typeof ImageIntake, Store: typeof FileAttachmentStore, dir: string): Prepare {
  const intake = new Intake({ config: { limits: { ...DEFAULT_LIMITS }, allowedRoots: [] }, store: new Store(dir) });
  return (png, profile) => intake.admit({ source: png, origin: 'bench', requestedBy: 'user' }, { profile }, 'check');
}

async function loadBaseline(root: string, dir: string): Promise<Prepare> {
  const { ImageIntake: Intake } = (await import(join(root, 'main/images/imageIntake.ts'))) as { ImageIntake: typeof ImageIntake };
  const { FileAttachmentStore: Store } = (await import(join(root, 'main/images/attachmentStore.ts'))) as { FileAttachmentStore: typeof FileAttachmentStore };
  return intakeFrom(Intake, Store, dir);
}

async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ms, cpu: (used.user + used.system) / 1000 };
}

function rename(t: { ms: number; cpu: number }, who: 'floor' | 'new' | 'base'): Partial<Sample> {
  return { [`${who}Ms`]: t.ms, [`${who}Cpu`]: t.cpu };
}

/** OCR of both panes as sent: the payload's pixels at the size the model gets them. */
async function readSent(ocr: Ocr, shot: Screenshot, payload: Uint8Array, sentWidth: number): Promise<number> {
  const s = sentWidth / shot.width; // CSS px → sent px
  let text = '';
  for (const pane of shot.panes) {
    const b = pane.box;
    const x = Math.floor(b.x * s);
    const y = Math.floor(b.y * s);
    text += `${await ocr.read(payload, { x, y, width: Math.ceil((b.x + b.width) * s) - x, height: Math.ceil((b.y + b.height) * s) - y })}\n`;
  }
  return accuracy(text, shot.panes.flatMap((p) => p.lines)).characters;
}

async function samePixels(a: Uint8Array, b: Uint8Array): Promise<boolean> {
  const [x, y] = await Promise.all([sharp(a).removeAlpha().raw().toBuffer(), sharp(b).removeAlpha().raw().toBuffer()]);
  return x.equals(y);
}

function describe(r: PrepareResult): string {
  return r.ok ? `${r.image.mime.replace('image/', '')} ${r.image.width}×${r.image.height}, ${Math.round(r.image.bytes / 1024)} KB` : r.code;
}

function ms(x: number): string {
  return x < 10 ? x.toFixed(1) : x.toFixed(0);
}

function pct(x: number | undefined): string {
  return x === undefined ? '—' : `${(x * 100).toFixed(1)}%`;
}

function log(message: string): void {
  process.stderr.write(`[bench:prepare] ${message}\n`);
}
