// npm run bench:redact-cost — what redaction costs beside the capture it guards (issue 41, item 8),
// written to docs/benchmarks-redact.md.
//   node bench/redactCost.bench.ts [--runs 2] [--no-write] [--label TEXT] [--cold]
// Warm, in one process, on one pool of tesseract workers (as composeServices builds it), each screen
// by turns first:
//   • capture: the warm first capture's OCR — readImageWords over a RegionReader with an empty
//     block memory (what a first capture reads before anything is known);
//   • detection: redactImage on another fresh RegionReader — the first read, the second look at ink
//     the first did not read (its reads timed apart), the rules, the fill.
// Screens: bench:ocr's 4K desktop (a code editor, a document, a terminal; bench/lib/ocrScreens.ts)
// and corpus screens at 4K@1 (test/fixtures/realScreens.ts: a .env editor, a trace log, light grey
// text, a UUID table), whose looks and look-alikes are what the second look is for.
// Then the second capture (bench:ocr's): the 4K desktop after its terminal printed five more lines,
// on a RegionReader that has read the first — the capture's OCR beside detection's (first read,
// second look and fill, on a reader that detected the first), so what memory saves each is seen.
// --cold: a cold process, `glance check-image <png> --redact --json`, beside one tesseract.js pass
// over the same 4K desktop in a process of its own (a worker made, the screen read whole, ended).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { readImageWords } from '../main/ocr/readImageWords.ts';
import { ReaderPool } from '../main/ocr/readerPool.ts';
import { RegionReader } from '../main/ocr/regionReader.ts';
import { TesseractReader } from '../main/ocr/tesseractReader.ts';
import { redactImage } from '../main/privacy/redactImage.ts';
import { corpusScreen, SIZES } from '../test/fixtures/realScreens.ts';
import { launchCorpusChromium, renderScreen } from '../test/fixtures/renderScreens.ts';
import { textImage } from '../test/fixtures/textImage.ts';
import { OCR_SCREENS, renderOcrScreen } from './lib/ocrScreens.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '2' }, 'no-write': { type: 'boolean', default: false }, label: { type: 'string', default: 'now' }, cold: { type: 'boolean', default: false } } });
const RUNS = Math.max(1, Number(args.runs) || 2);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const limits = { maxInputPixels: 100_000_000 };
const load = loadavg().map((l) => l.toFixed(1)).join(' / ');

const browser = await launchCorpusChromium();
const screens: Array<{ name: string; png: Buffer }> = [];
let changedDesktop: Buffer | undefined;
try {
  const desktop = OCR_SCREENS.find((s) => s.label === '4K');
  if (desktop) {
    screens.push({ name: '4K desktop (bench:ocr)', png: (await renderOcrScreen(browser, desktop)).png });
    changedDesktop = (await renderOcrScreen(browser, desktop, true)).png;
  }
  const k4 = SIZES.find((s) => s.name === '4K@1');
  for (const [name, seed] of [['editor .env', 101], ['trace log', 102], ['light grey text', 103], ['uuid table', 104]] as const) {
    screens.push({ name: `${name} (4K@1)`, png: (await renderScreen(browser, corpusScreen(name, { seed, ...(k4 ? { size: k4 } : {}), fontPx: 14 }))).png });
  }
} finally {
  await browser.close();
}

const pool = new ReaderPool(() => new TesseractReader({ timeoutMs: 600_000 }));
const warm = await textImage({ lines: ['warm up 123'], width: 300, height: 80 });
await Promise.all(Array.from({ length: pool.size }, () => pool.read(warm.png)));

type Row = { capture: number[]; detect: number[]; first: number[]; again: number[]; reads: number[] };
const rows = new Map<string, Row>(screens.map((s) => [s.name, { capture: [], detect: [], first: [], again: [], reads: [] }]));
const SECOND = '4K desktop, second capture (terminal changed; reader has read the first)';
const second: Row = { capture: [], detect: [], first: [], again: [], reads: [] };
if (changedDesktop) rows.set(SECOND, second);

async function capture(png: Buffer, ocr = new RegionReader(pool)): Promise<number> {
  const t = performance.now();
  const r = await readImageWords(ocr, { data: png, mime: 'image/png' }, { limits });
  if (!r.ok) throw new Error(r.message);
  return performance.now() - t;
}

async function detect(png: Buffer, ocr = new RegionReader(pool)): Promise<{ ms: number; first: number; again: number; reads: number }> {
  // The second look's reads run side by side: its time is from the first read's end to the last read's.
  let reads = 0, first = 0, firstEnd = 0, lastEnd = 0;
  const t = performance.now();
  const out = await redactImage(
    { data: png, mime: 'image/png' },
    {
      readWords: async (image, signal) => {
        const s = performance.now();
        const r = await readImageWords(ocr, image, { limits, ...(signal ? { signal } : {}) });
        if (reads++ === 0) {
          firstEnd = performance.now();
          first = firstEnd - s;
        } else lastEnd = Math.max(lastEnd, performance.now());
        return r;
      },
      pixels: () => sharp(png),
    },
    {},
  );
  if (!out.ok) throw new Error(out.message);
  return { ms: performance.now() - t, first, again: lastEnd ? lastEnd - firstEnd : 0, reads: reads - 1 };
}

try {
  for (let run = 0; run < RUNS; run++) {
    for (const s of screens) {
      const row = rows.get(s.name) as Row;
      const order = run % 2 ? ['detect', 'capture'] : ['capture', 'detect'];
      for (const step of order) {
        if (step === 'capture') row.capture.push(await capture(s.png));
        else {
          const d = await detect(s.png);
          row.detect.push(d.ms);
          row.first.push(d.first);
          row.again.push(d.again);
          row.reads.push(d.reads);
        }
      }
      console.log(`${s.name} run ${run + 1}: capture ${((row.capture.at(-1) ?? 0) / 1000).toFixed(2)} s, detection ${((row.detect.at(-1) ?? 0) / 1000).toFixed(2)} s (first read ${((row.first.at(-1) ?? 0) / 1000).toFixed(2)} s, second look ${((row.again.at(-1) ?? 0) / 1000).toFixed(2)} s in ${row.reads.at(-1)} reads)`);
    }
    if (changedDesktop && screens[0]) {
      // A reader that has seen the first capture (captured, or detected), then the second.
      const row = second;
      const order = run % 2 ? ['detect', 'capture'] : ['capture', 'detect'];
      for (const step of order) {
        if (step === 'capture') {
          const ocr = new RegionReader(pool);
          await capture(screens[0].png, ocr);
          row.capture.push(await capture(changedDesktop, ocr));
        } else {
          const ocr = new RegionReader(pool);
          await detect(screens[0].png, ocr);
          const d = await detect(changedDesktop, ocr);
          row.detect.push(d.ms);
          row.first.push(d.first);
          row.again.push(d.again);
          row.reads.push(d.reads);
        }
      }
      console.log(`${SECOND} run ${run + 1}: capture ${((row.capture.at(-1) ?? 0) / 1000).toFixed(2)} s, detection ${((row.detect.at(-1) ?? 0) / 1000).toFixed(2)} s (first read ${((row.first.at(-1) ?? 0) / 1000).toFixed(2)} s, second look ${((row.again.at(-1) ?? 0) / 1000).toFixed(2)} s in ${row.reads.at(-1)} reads)`);
    }
  }
} finally {
  await pool.close();
}

/** Wall time of a child process (node), and its exit code. */
function timed(argv: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, argv, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - t, code, out }));
  });
}

const cold: string[][] = [];
if (args.cold && screens[0]) {
  // bin/glance.js runs the build when there is one: a build older than the detector's source would
  // time another detector than the warm rows above.
  for (const folder of ['privacy', 'ocr']) {
    for (const name of (await readdir(join(root, 'main', folder))).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      const built = join(root, 'dist', 'main', folder, name.replace(/\.ts$/, '.js'));
      const [src, out] = await Promise.all([stat(join(root, 'main', folder, name)), stat(built).catch(() => undefined)]);
      if (existsSync(join(root, 'dist')) && (!out || out.mtimeMs < src.mtimeMs)) throw new Error(`${built} is older than its source: run npm run build:main before --cold`);
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'glance-redact-cost-'));
  try {
    const file = join(dir, 'screen.png');
    await writeFile(file, screens[0].png);
    // Each cold run on a data folder of its own: what a run found is kept beside the original
    // (main/images/redactStage.ts), and a second run on the same folder would fill from it, not read.
    const envOf = (run: number) => ({ ...process.env, GLANCE_DATA_DIR: join(dir, `data-${run}`) });
    // One tesseract.js pass: a worker made as TesseractReader makes it, the greyscale screen read whole.
    const onePass = `
      import { createRequire } from 'node:module'; import { dirname, join } from 'node:path'; import sharp from 'sharp';
      import { createWorker, OEM } from 'tesseract.js';
      const require = createRequire(${JSON.stringify(join(root, 'package.json'))});
      const langPath = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
      const w = await createWorker('eng', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none' });
      await w.setParameters({ user_defined_dpi: '96' });
      const r = await w.recognize(await sharp(${JSON.stringify(file)}).greyscale().png().toBuffer());
      console.log(r.data.text.length); await w.terminate();`;
    await writeFile(join(root, 'bench', '.one-pass.mjs'), onePass);
    try {
      for (let run = 0; run < RUNS; run++) {
        const order = run % 2 ? ['pass', 'cli'] : ['cli', 'pass'];
        const got: Record<string, number> = {};
        for (const step of order) {
          const r = step === 'cli' ? await timed(['bin/glance.js', 'check-image', file, '--redact', '--json'], envOf(run)) : await timed([join(root, 'bench', '.one-pass.mjs')], envOf(run));
          if (r.code !== 0) throw new Error(`${step} exited ${r.code}: ${r.out.slice(0, 400)}`);
          got[step] = r.ms;
        }
        console.log(`cold run ${run + 1}: check-image --redact ${((got.cli ?? 0) / 1000).toFixed(2)} s, one tesseract.js pass ${((got.pass ?? 0) / 1000).toFixed(2)} s`);
        cold.push([String(run + 1), `${((got.cli ?? 0) / 1000).toFixed(2)} s`, `${((got.pass ?? 0) / 1000).toFixed(2)} s`, `${((got.cli ?? 0) / (got.pass ?? 1)).toFixed(2)}×`]);
      }
    } finally {
      await rm(join(root, 'bench', '.one-pass.mjs'), { force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const s = (xs: number[]) => `${(median(xs) / 1000).toFixed(2)} s`;
const section = [
  `### Cost: ${args.label} (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${RUNS} run(s))`,
  '',
  `Machine: ${cpus().length} cores, load ${load} at the start (shared with other agents: times are upper bounds; each row's figures are side by side in one run). Pool of ${pool.size} tesseract worker(s), warm.`,
  '',
  markdownTable(
    ['screen', 'warm first capture (OCR), median', 'detection, median', 'detection / capture', 'of which first read', 'second look (its crops and reads)', 'second-look reads'],
    [...rows].map(([name, r]) => [name, s(r.capture), s(r.detect), `${(median(r.detect) / Math.max(1, median(r.capture))).toFixed(2)}×`, s(r.first), s(r.again), r.reads.join(', ')]),
  ),
  '',
  cold.length ? markdownTable(['cold run', '`glance check-image --redact` (4K desktop)', 'one tesseract.js pass (same screen)', 'ratio'], cold) : '',
].join('\n');
console.log(section);
if (!args['no-write']) await writeSection(join(root, 'docs/benchmarks-redact.md'), `redact-cost-${args.label}`, `${section}\n`);
