// npm run bench:window-text — a window's own words over accessibility (AT-SPI) against local OCR of
// the same window, written to docs/accessibility.md.
//   node bench/windowText.bench.ts [--runs 5] [--rows 1500] [--no-write]
// A real desktop (Xvfb + openbox + the accessibility bus and registry, test/fixtures/atspiSession.ts)
// with real applications of known text: zenity text views (one whose lines all show, one of 400
// lines of which most are scrolled off) and a VTE terminal (sakura), one at a time. Each window is read
//   • by accessibility: AtspiWindowText.read, as screenshot_desktop {window} does (a fresh bus
//     connection each read), and
//   • by OCR: the window captured (node-screenshots) and read by readImageText over a RegionReader on a
//     warm ReaderPool, as read_text and redaction do (a fresh RegionReader each run: nothing remembered),
// and scored with test/fixtures/ocr.ts's character measure against the window's known text: what is
// on screen, and the whole of it. Then the largest tree: Chromium (--force-renderer-accessibility)
// showing a table of --rows rows, read with the default node budget and with room for all of it.
import { loadavg, cpus } from 'node:os';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LIMITS } from '../common/limits.ts';
import { AtspiWindowText } from '../main/accessibility/atspiWindowText.ts';
import { READ_DEFAULTS, type WindowTextRead } from '../main/accessibility/windowText.ts';
import { NodeScreenshotsCapturer } from '../main/capture/nodeScreenshotsCapturer.ts';
import type { WindowInfo } from '../main/capture/screenCapturer.ts';
import { readImageText } from '../main/ocr/readImageText.ts';
import { ReaderPool } from '../main/ocr/readerPool.ts';
import { RegionReader } from '../main/ocr/regionReader.ts';
import { TesseractReader } from '../main/ocr/tesseractReader.ts';
import { openAccessibleDesktop } from '../test/fixtures/atspiSession.ts';
import { accuracy } from '../test/fixtures/ocr.ts';
import { textImage } from '../test/fixtures/textImage.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' }, rows: { type: 'string', default: '1500' }, 'no-write': { type: 'boolean', default: false } } });
const RUNS = Math.max(1, Number(args.runs) || 5);
const ROWS = Math.max(10, Number(args.rows) || 1500);
const CHROMIUM = process.env.GLANCE_CHROMIUM ?? '/usr/bin/chromium';
const loadStart = loadavg();
const startedAt = new Date();

const LEVELS = ['INFO', 'WARN', 'DEBUG', 'ERROR'];
const logLine = (i: number) => `2026-12-06 09:${String(10 + (i % 50)).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')} ${LEVELS[i % 4]} worker-${i % 7} batch ${4711 + i * 13} took ${(i * 37) % 900} ms (queue=${(i * 11) % 64})`;
const SHORT = { title: 'Short log — Glance bench', lines: Array.from({ length: 14 }, (_, i) => logLine(i)) };
const LONG = { title: 'Long log — Glance bench', lines: Array.from({ length: 400 }, (_, i) => logLine(i + 100)) };
const TERM = { title: 'Terminal — Glance bench', lines: Array.from({ length: 18 }, (_, i) => `build step ${i + 1}: compiled module_${(i * 31) % 97}.ts in ${(i * 13) % 400} ms`) };

const desktop = await openAccessibleDesktop({ width: 1920, height: 1200 });
const dir = await mkdtemp(join(tmpdir(), 'glance-bench-a11y-'));
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });
const reader = new AtspiWindowText();
const pool = new ReaderPool(() => new TesseractReader({ timeoutMs: 600_000 }));
try {
  await writeFile(join(dir, 'short.txt'), SHORT.lines.join('\n'));
  await writeFile(join(dir, 'long.txt'), LONG.lines.join('\n'));
  await writeFile(join(dir, 'term.sh'), `clear\n${TERM.lines.map((l) => `echo '${l}'`).join('\n')}\nexec sleep 100000\n`);
  const rows = Array.from({ length: ROWS }, (_, i) => `<tr><td>${i + 1}</td><td>${logLine(i).slice(0, 19)}</td><td>worker-${i % 7}</td><td>${(i * 37) % 900} ms</td></tr>`).join('');
  await writeFile(join(dir, 'table.html'), `<!doctype html><title>Big table — Glance bench</title><table>${rows}</table>`);
  const s = desktop.session;

  const windowOf = async (title: string, ready: (r: WindowTextRead) => boolean, options = {}): Promise<WindowInfo> => {
    const end = Date.now() + 60_000;
    for (;;) {
      const w = (await capturer.listWindows()).find((l) => l.title === title);
      const r = w && (await reader.read(w, { timeoutMs: 20_000, ...options }));
      if (w && r?.ok && ready(r)) return w;
      if (Date.now() > end) throw new Error(`${title}: ${JSON.stringify(r).slice(0, 300)}`);
      await new Promise((res) => setTimeout(res, 300));
    }
  };
  // The pool warm (workers started, the model loaded) before anything is timed.
  const warm = await textImage({ lines: ['warm up 123'], width: 300, height: 80 });
  await Promise.all(Array.from({ length: pool.size }, () => pool.read(warm.png)));

  const textOf = (r: WindowTextRead) => r.elements.map((e) => e.text).filter(Boolean).join('\n');
  const comparisons: string[][] = [];
  const cases = [
    { name: 'zenity text view, all lines on screen', ...SHORT, open: () => s.start('zenity', ['--text-info', '--filename', join(dir, 'short.txt'), '--title', SHORT.title, '--width', '760', '--height', '460']), ready: (r: WindowTextRead) => textOf(r).includes(SHORT.lines.at(-1)!), onScreen: SHORT.lines },
    { name: 'zenity text view, 400 lines (most scrolled off)', ...LONG, open: () => s.start('zenity', ['--text-info', '--filename', join(dir, 'long.txt'), '--title', LONG.title, '--width', '760', '--height', '460']), ready: (r: WindowTextRead) => textOf(r).includes(LONG.lines.at(-1)!), onScreen: undefined },
    { name: 'VTE terminal (sakura), 18 lines', ...TERM, open: () => s.start('sakura', ['-t', TERM.title, '-c', '90', '-r', '24', '-e', `sh ${join(dir, 'term.sh')}`], { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config') }), ready: (r: WindowTextRead) => textOf(r).includes(TERM.lines.at(-1)!), onScreen: TERM.lines },
  ];
  // One window at a time: a window capture is cut from the screen, so nothing may cover it.
  for (const c of cases) {
    const app = c.open();
    const w = await windowOf(c.title, c.ready);
    const a11yMs: number[] = [];
    const ocrMs: number[] = [];
    let a11yText = '';
    let ocrText = '';
    let nodes = 0;
    for (let run = 0; run < RUNS; run++) {
      const r = await reader.read(w);
      if (!r.ok) throw new Error(`${c.title}: ${r.message}`);
      a11yMs.push(r.ms);
      nodes = r.nodes;
      a11yText = r.elements.map((e) => e.text || e.name).filter(Boolean).join('\n');
      if (process.env.BENCH_DEBUG && run === 0) process.stderr.write(`--- ${c.title}\n${a11yText.slice(0, 400)}\n--- OCR\n`);
      const shot = await capturer.capture({ window: w.id });
      if (!shot.ok) throw new Error(`${c.title}: ${shot.message}`);
      const started = performance.now();
      const read = await readImageText(new RegionReader(pool), shot.capture.png, 'image/png', { limits: { maxInputPixels: DEFAULT_LIMITS.maxInputPixels }, timeoutMs: 600_000 });
      ocrMs.push(performance.now() - started);
      if (!read.ok) throw new Error(`${c.title}: ${read.message}`);
      ocrText = read.reading.text;
      if (process.env.BENCH_DEBUG && run === 0) process.stderr.write(`${ocrText.slice(0, 600)}\n`);
    }
    // Characters right: the known text's lines that each read holds (in its order), by the character measure.
    const known = (lines: readonly string[], got: string) => accuracy(got.split('\n').filter((l) => lines.some((k) => similar(k, l))).join('\n'), lines).characters;
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    comparisons.push([
      c.name,
      `${w.width}×${w.height}`,
      String(nodes),
      c.onScreen ? pct(known(c.onScreen, a11yText)) : '—',
      c.onScreen ? pct(known(c.onScreen, ocrText)) : '—',
      pct(known(c.lines, a11yText)),
      pct(known(c.lines, ocrText)),
      String(Math.round(median(a11yMs))),
      String(Math.round(median(ocrMs))),
    ]);
    process.stderr.write(`${c.name}: ${comparisons.at(-1)!.join(' | ')}\n`);
    const gone = new Promise((r) => app.once('exit', r));
    app.kill('SIGTERM');
    await gone;
  }

  // The largest tree: a Chromium page of ROWS table rows (opened now: it would cover the windows above).
  s.start(CHROMIUM, ['--no-sandbox', '--test-type', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--force-renderer-accessibility', `--user-data-dir=${join(dir, 'chromium')}`, '--window-size=1000,900', `--app=file://${join(dir, 'table.html')}`], { ACCESSIBILITY_ENABLED: '1' });
  const tableTitle = 'Big table — Glance bench';
  const bigWindow = await windowOf(tableTitle, (r) => r.truncated || r.elements.some((e) => e.text === `${(ROWS * 37 - 37) % 900} ms`), { maxNodes: READ_DEFAULTS.maxNodes });
  const trees: string[][] = [];
  for (const maxNodes of [READ_DEFAULTS.maxNodes, ROWS * 12]) {
    const ms: number[] = [];
    let last: WindowTextRead | undefined;
    for (let run = 0; run < RUNS; run++) {
      const r = await reader.read(bigWindow, { maxNodes, timeoutMs: 120_000 });
      if (!r.ok) throw new Error(`${tableTitle}: ${r.message}`);
      ms.push(r.ms);
      last = r;
    }
    const chars = last!.elements.reduce((n, e) => n + e.text.length, 0);
    trees.push([`Chromium, table of ${ROWS} rows`, String(maxNodes), String(last!.nodes), String(last!.elements.length), String(chars), last!.truncated ? 'yes' : 'no', String(Math.round(median(ms))), `${((median(ms) / last!.nodes) * 1000).toFixed(0)} µs`]);
    process.stderr.write(`tree: ${trees.at(-1)!.join(' | ')}\n`);
  }

  const section = `## A window's own words: accessibility against OCR (\`npm run bench:window-text\`)

${startedAt.toISOString().slice(0, 16)}Z, ${cpus().length} cores shared with other work (load ${loadStart.map((l) => l.toFixed(1)).join(' ')} at the start), Xvfb + openbox, medians of ${RUNS} runs.
Accessibility: \`AtspiWindowText.read\` (a fresh bus connection each read, the whole read timed). OCR: the window
captured, then \`readImageText\` over a \`RegionReader\` on a warm pool of ${pool.size} tesseract.js workers (a fresh one each run:
nothing remembered), as read_text and redaction read. Characters right: test/fixtures/ocr.ts's character measure
over the known lines each read holds — "on screen" against the lines the window shows, "whole text" against all of them.

${markdownTable(['window', 'size', 'nodes', 'on screen: accessibility', 'on screen: OCR', 'whole text: accessibility', 'whole text: OCR', 'accessibility ms', 'OCR ms'], comparisons)}

The largest tree read: Chromium (\`--force-renderer-accessibility\`, \`ACCESSIBILITY_ENABLED=1\`) showing one table, read
with the default node budget (${READ_DEFAULTS.maxNodes}) and with room for all of it.

${markdownTable(['page', 'node budget', 'nodes read', 'elements', 'characters', 'cut', 'ms', 'per node'], trees)}
`;
  if (!args['no-write']) await writeSection(join(import.meta.dirname, '..', 'docs', 'accessibility.md'), 'bench:window-text', section, "A window's own words");
  else process.stdout.write(section);
} finally {
  // The desktop first: its applications must not outlive a bench that failed.
  await desktop.close();
  await rm(dir, { recursive: true, force: true });
  await pool.close();
}

/** One line read as another: equal once spaces are collapsed, or within a few characters (OCR's misreads). */
function similar(known: string, got: string): boolean {
  const a = known.replace(/\s+/g, ' ').trim();
  const b = got.replace(/\s+/g, ' ').trim();
  if (!b) return false;
  if (a === b) return true;
  return Math.abs(a.length - b.length) <= 4 && accuracy(b, [a]).characters >= 0.8;
}
