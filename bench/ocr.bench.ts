// npm run bench:ocr — local OCR of a whole screen (issue 28), written to docs/benchmarks-perf.md.
//   node bench/ocr.bench.ts [--runs 3] [--screens '1080p,1440p,4K,4K @2'] [--no-write]
// Three desktops of known text (1080p, 1440p, 4K; bench/lib/ocrScreens.ts, rendered by Chromium),
// each read through readImageText — what the engine, read_text and redaction run — by
//   • before: one TesseractReader over the whole greyscale screen (Glance until issue 28), and
//   • now: RegionReader over a ReaderPool (text blocks only, the right way up, at the size their
//     text needs, on one worker per core, largest blocks first), with an empty block and line memory,
// alternating in one process, each in turn first. Then, on the same RegionReader, a second capture
// of the screen with one window (the terminal) changed: only that window's new lines are read.
// Accuracy: per window, the words whose centre lies in it, in rows top to bottom, against the known
// lines (test/fixtures/ocr.ts's character measure), weighted by the window's characters.
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LIMITS } from '../common/limits.ts';
import { readImageText } from '../main/ocr/readImageText.ts';
import { poolSize, ReaderPool } from '../main/ocr/readerPool.ts';
import { RegionReader } from '../main/ocr/regionReader.ts';
import { TesseractReader } from '../main/ocr/tesseractReader.ts';
import type { OcrWord, TextReader } from '../main/ocr/textReader.ts';
import { accuracy } from '../test/fixtures/ocr.ts';
import { textImage } from '../test/fixtures/textImage.ts';
import { launchBenchChromium, OCR_SCREENS, renderOcrScreen, type KnownWindow, type OcrScreen } from './lib/ocrScreens.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, screens: { type: 'string', default: '1080p,1440p,4K,4K @2' }, 'no-write': { type: 'boolean', default: false } } });
const RUNS = Math.max(1, Number(args.runs) || 3);
const limits = { maxInputPixels: DEFAULT_LIMITS.maxInputPixels };
const TIMEOUT = 600_000;
const loadStart = loadavg();
const startedAt = new Date();

/** Words in `box`, grouped into rows by their vertical centre, each row left to right. */
function windowText(words: readonly OcrWord[], box: KnownWindow['box']): string {
  const inside = words
    .map((w) => ({ w, cx: w.box.x + w.box.width / 2, cy: w.box.y + w.box.height / 2 }))
    .filter(({ cx, cy }) => cx >= box.x && cx < box.x + box.width && cy >= box.y && cy < box.y + box.height)
    .sort((a, b) => a.cy - b.cy);
  const rows: (typeof inside)[] = [];
  for (const item of inside) {
    const row = rows.at(-1);
    if (row && Math.abs(row[0]!.cy - item.cy) < Math.max(row[0]!.w.box.height, item.w.box.height) * 0.5) row.push(item);
    else rows.push([item]);
  }
  return rows.map((row) => row.sort((a, b) => a.cx - b.cx).map(({ w }) => w.text).join(' ')).join('\n');
}

function score(words: readonly OcrWord[], screen: OcrScreen): { characters: number; perWindow: string[] } {
  let got = 0;
  let total = 0;
  const perWindow: string[] = [];
  for (const win of screen.windows) {
    const a = accuracy(windowText(words, win.box), win.lines);
    got += a.characters * a.knownCharacters;
    total += a.knownCharacters;
    perWindow.push(`${win.name} ${(a.characters * 100).toFixed(1)}%`);
  }
  return { characters: got / total, perWindow };
}

/** Wall time, and CPU time of the whole process (every thread: tesseract's workers, libvips), which this busy machine varies far less. */
async function timedRead(reader: TextReader, png: Buffer) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await readImageText(reader, png, 'image/png', { limits, timeoutMs: TIMEOUT });
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - started;
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return { ms, cpu: (used.user + used.system) / 1000, words: result.reading.words ?? [] };
}

const browser = await launchBenchChromium();
const screens: { first: OcrScreen; second: OcrScreen }[] = [];
try {
  for (const s of OCR_SCREENS.filter((x) => args.screens.split(',').includes(x.label))) screens.push({ first: await renderOcrScreen(browser, s), second: await renderOcrScreen(browser, s, true) });
} finally {
  await browser.close();
}

const before = new TesseractReader({ timeoutMs: TIMEOUT });
const pool = new ReaderPool(() => new TesseractReader({ timeoutMs: TIMEOUT }));
// Both warm (worker threads started, the model loaded) before anything is timed.
const warm = await textImage({ lines: ['warm up 123'], width: 300, height: 80 });
await Promise.all([before.read(warm.png), ...Array.from({ length: pool.size }, () => pool.read(warm.png))]);

type Sample = { before: number; now: number; second: number; cpuBefore: number; cpuNow: number; cpuSecond: number; accBefore: number; accNow: number; accSecond: number; reread: number; reused: number; linesRead: number; linesReused: number; windowsBefore: string[]; windowsNow: string[] };
const samples = new Map<string, Sample[]>();
for (let run = 0; run < RUNS; run++) {
  for (const { first, second } of screens) {
    const fresh = new RegionReader(pool);
    const order = (run + screens.findIndex((s) => s.first === first)) % 2 === 0 ? ['before', 'now'] : ['now', 'before'];
    const got: Partial<Record<'before' | 'now', Awaited<ReturnType<typeof timedRead>>>> = {};
    for (const which of order) got[which as 'before' | 'now'] = await timedRead(which === 'before' ? before : fresh, first.png);
    const firstTiles = fresh.tiles;
    const firstLines = fresh.lines;
    const again = await timedRead(fresh, second.png);
    const b = score(got.before!.words, first);
    const n = score(got.now!.words, first);
    const s2 = score(again.words, second);
    const sample = { before: got.before!.ms, now: got.now!.ms, second: again.ms, cpuBefore: got.before!.cpu, cpuNow: got.now!.cpu, cpuSecond: again.cpu, accBefore: b.characters, accNow: n.characters, accSecond: s2.characters, reread: fresh.tiles.read - firstTiles.read, reused: fresh.tiles.reused - firstTiles.reused, linesRead: fresh.lines.read - firstLines.read, linesReused: fresh.lines.reused - firstLines.reused, windowsBefore: b.perWindow, windowsNow: n.perWindow };
    (samples.get(first.label) ?? samples.set(first.label, []).get(first.label)!).push(sample);
    console.log(`run ${run + 1} ${first.label}: before ${Math.round(sample.before)} ms (${(b.characters * 100).toFixed(1)}%), now ${Math.round(sample.now)} ms (${(n.characters * 100).toFixed(1)}%), second capture ${Math.round(sample.second)} ms (${sample.reread} reads: ${sample.linesRead} new lines, ${sample.linesReused} lines and ${sample.reused} blocks from memory); load ${loadavg()[0]!.toFixed(2)}`);
  }
}
await Promise.all([before.close(), pool.close()]);

const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
const rows = [...samples].map(([label, list]) => {
  const m = (f: (s: Sample) => number) => median(list.map(f));
  return [
    label,
    `${Math.round(m((s) => s.before))}`,
    `${Math.round(m((s) => s.now))}`,
    `**${m((s) => s.before / s.now).toFixed(1)}×**`,
    `${(m((s) => s.cpuBefore) / 1000).toFixed(1)} / ${(m((s) => s.cpuNow) / 1000).toFixed(1)} s (${m((s) => s.cpuBefore / s.cpuNow).toFixed(1)}×)`,
    pct(m((s) => s.accBefore)),
    pct(m((s) => s.accNow)),
    `${((m((s) => s.accNow) - m((s) => s.accBefore)) * 100).toFixed(2)}`,
    `${Math.round(m((s) => s.second))}`,
    `**${m((s) => s.now / s.second).toFixed(1)}×** (CPU ${m((s) => s.cpuNow / s.cpuSecond).toFixed(1)}×)`,
    `${m((s) => s.reread)} / ${m((s) => s.reread + s.reused)}`,
    `${m((s) => s.linesRead)} / ${m((s) => s.linesRead + s.linesReused)}`,
    pct(m((s) => s.accSecond)),
  ];
});
const loadEnd = loadavg();
const section = `## Local OCR of a whole screen (\`npm run bench:ocr\`)

Measured ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.versions.node}, tesseract.js 7 (eng, LSTM best_int); load average ${loadStart.map((l) => l.toFixed(2)).join(' / ')} at the start, ${loadEnd.map((l) => l.toFixed(2)).join(' / ')} at the end (a machine shared with other builds: times are upper bounds, the ratios are per-run, side by side). ${RUNS} runs; each screen's two readers alternate, each in turn first; medians of the runs.

Screens (bench/lib/ocrScreens.ts): a desktop with a dark code editor, a light document, a terminal and a top bar, all 14–15 px text (28–30 px on 4K @2, a 4K display at 200%). **before**: one tesseract.js worker over the whole greyscale screen (Glance until issue 28). **now**: \`RegionReader\` over a \`ReaderPool\` of ${pool.size} worker(s) (${poolSize()} for this machine's cores): text blocks only, inverted where dark, at the size the text needs, largest blocks first to whichever worker is free, empty block and line memory. **second capture**: the same screen after the terminal printed five more lines (nothing scrolled; that window's text only changed), on the same \`RegionReader\` (blocks whose pixels were read before are not read again; in a changed block, lines whose pixels were read before are not read again, the new ones are read stacked in one image). Both through \`readImageText\` (decode, greyscale, read). Accuracy: characters right per window (words by their boxes, rows top to bottom), weighted by the windows' text.

${markdownTable(['screen', 'before ms', 'now ms', 'before / now', 'CPU before / now', 'characters, before', 'characters, now', 'points', 'second capture ms', 'first / second', 'recognise calls / blocks, second', 'lines read / in changed blocks, second', 'characters, second'], rows)}

Per window (the last run): ${[...samples].map(([label, list]) => `${label} before ${list.at(-1)!.windowsBefore.join(', ')}; now ${list.at(-1)!.windowsNow.join(', ')}`).join('. ')}.
`;
console.log(section);
if (!args['no-write']) await writeSection(join(import.meta.dirname, '..', 'docs', 'benchmarks-perf.md'), 'bench:ocr', section);
