// npm run bench:intake — what the image chokepoint does to a 4K screenshot of 14 px text:
// time and memory per image, bytes on the wire, and how much of the text is still legible
// (OCR against the known text). Also the decompression bomb's rejection time.
//   node bench/intake.bench.ts [--runs N] [--no-write] [--no-study] [--dump-ocr DIR]   (DIR gets each OCR text, to look at)
// --no-study skips the encoder-settings study (a few minutes of OCR) and implies --no-write.
// Writes its figures into docs/benchmarks.md (between the bench:intake markers).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import sharp from 'sharp';
import { DEFAULT_PROFILES } from '../main/images/profiles.ts';
import type { ImageProfile } from '../main/images/types.ts';
import { decompressionBomb } from '../test/fixtures/images.ts';
import { accuracy, Ocr, type Accuracy, type Box } from '../test/fixtures/ocr.ts';
import type { TextRegion } from '../test/fixtures/screenPage.ts';
import type { WorkerReport } from './lib/prepareWorker.ts';
import { runEncoderStudy, type StudyRow, type StudyVariant } from './lib/encoderStudy.ts';
import { renderEditorScreenshot } from './lib/screenshot.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { base64Length, max, median } from './lib/stats.ts';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    'no-write': { type: 'boolean', default: false },
    'no-study': { type: 'boolean', default: false },
    'dump-ocr': { type: 'string' },
  },
});
const RUNS = Math.max(15, Number(args.runs) || 15);
const WIDTH = 3840;
const HEIGHT = 2160;
const ZOOM = { x: 348, y: 0, width: 1568, height: 882 }; // the editor area's top-left, as the model would ask for it

type Variant = { key: string; label: string; profile: ImageProfile; input: 'full' | 'zoom' };

const VARIANTS: Variant[] = [
  { key: 'ollama', label: 'Ollama default profile (1568 px, PNG/JPEG)', profile: DEFAULT_PROFILES.ollama, input: 'full' },
  { key: 'openai', label: 'OpenAI-compatible default profile (2048 px, PNG/JPEG/WebP)', profile: DEFAULT_PROFILES.openai, input: 'full' },
  {
    key: 'webp2560',
    label: 'Reference: WebP fitted to 2560 px',
    profile: { maxLongEdge: 2560, maxPixels: 2560 * 1440, formats: ['image/webp'], maxBytes: 20 * 1024 * 1024 },
    input: 'full',
  },
  { key: 'zoom', label: `Zoom: a ${ZOOM.width}×${ZOOM.height} region at native resolution, Ollama profile`, profile: DEFAULT_PROFILES.ollama, input: 'zoom' },
];

// Encoder settings measured against legibility. "before" rows are the settings this replaced.
const STUDY: StudyVariant[] = [
  { label: 'JPEG q85 4:4:4 (before)', width: 1568, jpeg: { quality: 85, chromaSubsampling: '4:4:4' } },
  { label: 'JPEG q80 4:4:4 baseline, standard tables', width: 1568, jpeg: { quality: 80, chromaSubsampling: '4:4:4', optimiseCoding: false } },
  { label: 'JPEG q80 4:4:4 progressive', width: 1568, jpeg: { quality: 80, chromaSubsampling: '4:4:4', progressive: true } },
  { label: 'JPEG q75 4:4:4 progressive', width: 1568, jpeg: { quality: 75, chromaSubsampling: '4:4:4', progressive: true } },
  { label: 'JPEG q70 4:4:4 progressive', width: 1568, jpeg: { quality: 70, chromaSubsampling: '4:4:4', progressive: true } },
  { label: 'JPEG q80 4:2:0 progressive', width: 1568, jpeg: { quality: 80, chromaSubsampling: '4:2:0', progressive: true } },
  { label: 'mozjpeg q80 4:4:4 (trellis)', width: 1568, jpeg: { quality: 80, chromaSubsampling: '4:4:4', mozjpeg: true } },
  { label: 'WebP q80 effort 2 (not sent to Ollama)', width: 1568, webp: { quality: 80, effort: 2 } },
  { label: 'JPEG q80 4:4:4 baseline, standard tables, 2048 px', width: 2048, jpeg: { quality: 80, chromaSubsampling: '4:4:4', optimiseCoding: false } },
  { label: 'WebP q85 effort 2 (before)', width: 2048, webp: { quality: 85, effort: 2 } },
  { label: 'WebP q80 effort 2', width: 2048, webp: { quality: 80, effort: 2 } },
  { label: 'WebP q80 effort 2 smartSubsample', width: 2048, webp: { quality: 80, effort: 2, smartSubsample: true } },
  { label: 'WebP q70 effort 2', width: 2048, webp: { quality: 70, effort: 2 } },
  { label: 'WebP q60 effort 2', width: 2048, webp: { quality: 60, effort: 2 } },
];

type Row = {
  label: string;
  output: string;
  bytes: number;
  ofNaive: number;
  medianMs: number;
  maxMs: number;
  /** Median CPU time of one prepare, every thread of the process. */
  cpuMs: number;
  rssPeakMb: number;
  /** OCR of the payload's pixels at the size they were sent. */
  ocrAsSent?: Accuracy;
  /** OCR of the payload's pixels resized back to the original size (what information survived). */
  ocr?: Accuracy;
  note?: string;
};

const work = await mkdtemp(join(tmpdir(), 'glance-bench-intake-'));
try {
  const started = new Date();
  const load = loadavg().map((l) => l.toFixed(2)).join(' / ');
  log(`rendering a ${WIDTH}×${HEIGHT} editor screenshot (14 px text) in headless Chromium…`);
  const shot = await renderEditorScreenshot({ width: WIDTH, height: HEIGHT, fontPx: 14 });
  const fullPath = join(work, 'full.png');
  await writeFile(fullPath, shot.png);
  const zoomPng = await sharp(shot.png).extract({ left: ZOOM.x, top: ZOOM.y, width: ZOOM.width, height: ZOOM.height }).png().toBuffer();
  const zoomPath = join(work, 'zoom.png');
  await writeFile(zoomPath, zoomPng);
  const naive = base64Length(shot.png.byteLength);
  const knownLines = shot.panes.reduce((n, p) => n + p.lines.length, 0);
  log(`screenshot: ${shot.png.byteLength} bytes PNG (naive base64 ${naive} bytes), ${shot.panes.length} panes, ${knownLines} code lines`);

  const reports = new Map<string, WorkerReport>();
  for (const v of VARIANTS) {
    log(`prepare × ${RUNS}: ${v.label}`);
    reports.set(v.key, await measure(v.input === 'zoom' ? zoomPath : fullPath, v.profile, join(work, `${v.key}.out`)));
  }
  const bombPath = join(work, 'bomb.png');
  const bomb = await decompressionBomb();
  await writeFile(bombPath, bomb);
  log(`prepare × ${RUNS}: decompression bomb (${bomb.byteLength} bytes, 40000×40000)`);
  const bombReport = await measure(bombPath, DEFAULT_PROFILES.ollama);

  log('OCR (tesseract.js, offline): the original, each payload, the zoomed region…');
  const ocr = new Ocr();
  const rows: Row[] = [];
  let study: StudyRow[] = [];
  try {
    // The ceiling: the original 4K pixels, both panes.
    rows.push({
      label: 'Original 4K PNG, as captured (ceiling)',
      output: `image/png ${WIDTH}×${HEIGHT}`,
      bytes: shot.png.byteLength,
      ofNaive: 1,
      medianMs: Number.NaN,
      maxMs: Number.NaN,
      cpuMs: Number.NaN,
      rssPeakMb: Number.NaN,
      ocr: await readPanes(ocr, shot.png, 1, 1, shot.panes, true),
    });
    rows[0]!.ocrAsSent = rows[0]!.ocr;
    for (const v of VARIANTS) {
      const r = reports.get(v.key) as WorkerReport;
      if (!r.result.ok) throw new Error(`${v.label}: refused: ${r.result.code}: ${r.result.message}`);
      const payload = await readFile(join(work, `${v.key}.out`));
      let ocrResult: Accuracy;
      let ocrAsSent: Accuracy;
      if (v.input === 'zoom') {
        const pane = shot.panes[0]!;
        const rowsInside = Math.floor((ZOOM.y + ZOOM.height - (pane.box.y + 4) - 4) / shot.lineHeightPx);
        const box: Box = { x: pane.box.x - ZOOM.x, y: pane.box.y - ZOOM.y, width: pane.box.width, height: rowsInside * shot.lineHeightPx + 8 };
        const sent = scaleBox(box, r.result.width / ZOOM.width, r.result.height / ZOOM.height);
        const known = pane.lines.slice(0, rowsInside);
        const zoomText = await ocr.read(payload, sent, { width: box.width, height: box.height });
        await dump('zoom', zoomText);
        ocrResult = accuracy(zoomText, known);
        ocrAsSent = sent.width === box.width && sent.height === box.height ? ocrResult : accuracy(await ocr.read(payload, sent), known);
      } else {
        const sx = r.result.width / WIDTH;
        const sy = r.result.height / HEIGHT;
        ocrResult = await readPanes(ocr, payload, sx, sy, shot.panes, true);
        ocrAsSent = await readPanes(ocr, payload, sx, sy, shot.panes, false);
      }
      rows.push({
        label: v.label,
        output: `${r.result.mime} ${r.result.width}×${r.result.height}`,
        bytes: r.result.bytes,
        ofNaive: base64Length(r.result.bytes) / naive,
        medianMs: median(r.runsMs),
        maxMs: max(r.runsMs),
        cpuMs: median(r.runsCpuMs),
        rssPeakMb: r.rssPeakMb,
        ocr: ocrResult,
        ocrAsSent,
        ...(v.input === 'zoom' ? { note: `${ocrResult.knownLines} lines inside the region` } : {}),
      });
    }
    if (!args['no-study']) {
      log(`encoder settings study: ${STUDY.length} variants, each OCR'd as sent and resized back…`);
      study = await runEncoderStudy(shot.png, STUDY, (image, { sx, sy }, restore) => readPanes(ocr, image, sx, sy, shot.panes, restore), {
        onRow: (r) => log(`  ${r.label} at ${r.width} px: ${r.bytes} bytes, OCR ${(r.ocrAsSent.characters * 100).toFixed(1)}% / ${(r.ocrResized.characters * 100).toFixed(1)}%`),
      });
    }
  } finally {
    await ocr.close();
  }
  rows.push({
    label: 'Decompression bomb (40000×40000 1-bit PNG) → refused',
    output: bombReport.result.ok ? 'ACCEPTED (defect)' : bombReport.result.code,
    bytes: bomb.byteLength,
    ofNaive: Number.NaN,
    medianMs: median(bombReport.runsMs),
    maxMs: max(bombReport.runsMs),
    cpuMs: median(bombReport.runsCpuMs),
    rssPeakMb: bombReport.rssPeakMb,
  });

  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GB RAM, Node ${process.versions.node}, sharp ${sharp.versions.sharp} / libvips ${sharp.versions.vips}`;
  const table = renderTable(rows);
  process.stdout.write(`\n${table}\n`);
  const baselineMb = Math.min(...[...reports.values(), bombReport].map((r) => r.rssBeforeMb));
  const studyTable = renderStudy(study, rows, naive);
  process.stdout.write(`\n${studyTable}\n`);
  const loadEnd = loadavg().map((l) => l.toFixed(2)).join(' / ');
  const section = renderSection({ started, machine, load, loadEnd, table, studyTable, study, rows, shotBytes: shot.png.byteLength, naive, knownLines, baselineMb });
  if (!args['no-write'] && !args['no-study']) {
    await writeSection(join(root, 'docs', 'benchmarks.md'), 'bench:intake', section, 'Benchmarks');
  }
  const headline = rows.filter((r) => r.label.startsWith('Ollama') || r.label.startsWith('OpenAI'));
  const missed = headline.filter((r) => r.medianMs > 100 || r.ofNaive > 0.15);
  if (missed.length) log(`targets (≤ 100 ms median, ≤ 15% of naive) missed by: ${missed.map((r) => r.label).join('; ')}`);
} finally {
  await rm(work, { recursive: true, force: true });
}

async function measure(input: string, profile: ImageProfile, out?: string): Promise<WorkerReport> {
  const { stdout } = await run(
    process.execPath,
    [join(here, 'lib', 'prepareWorker.ts'), input, JSON.stringify(profile), String(RUNS), ...(out ? [out] : [])],
    { cwd: root, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as WorkerReport;
}

/** OCR both panes of an image that is the screenshot scaled by (sx, sy); `restore` reads each at its original size. */
async function readPanes(ocr: Ocr, image: Uint8Array, sx: number, sy: number, panes: readonly TextRegion[], restore: boolean): Promise<Accuracy> {
  let text = '';
  for (const pane of panes) {
    const box = scaleBox(pane.box, sx, sy);
    text += `${await ocr.read(image, box, restore ? { width: pane.box.width, height: pane.box.height } : undefined)}\n`;
  }
  await dump(`${sx.toFixed(3)}-${restore ? 'resized' : 'as-sent'}`, text);
  return accuracy(text, panes.flatMap((p) => p.lines));
}

async function dump(name: string, text: string): Promise<void> {
  if (args['dump-ocr']) await writeFile(join(args['dump-ocr'], `${name}.txt`), text);
}

function scaleBox(b: Box, sx: number, sy: number): Box {
  const x = Math.floor(b.x * sx);
  const y = Math.floor(b.y * sy);
  return { x, y, width: Math.max(1, Math.ceil((b.x + b.width) * sx) - x), height: Math.max(1, Math.ceil((b.y + b.height) * sy) - y) };
}

function renderTable(rows: Row[]): string {
  const header = ['what', 'output', 'bytes', 'of naive base64', 'median ms', 'max ms', 'CPU ms', 'peak RSS MB', 'OCR chars, as sent', 'OCR chars, resized back', 'OCR lines exact, resized back'];
  const lines = rows.map((r) => [
    r.label,
    r.output,
    String(r.bytes),
    pct(r.ofNaive),
    ms(r.medianMs),
    ms(r.maxMs),
    ms(r.cpuMs),
    Number.isNaN(r.rssPeakMb) ? '—' : r.rssPeakMb.toFixed(0),
    pct(r.ocrAsSent?.characters),
    pct(r.ocr?.characters),
    r.ocr ? `${pct(r.ocr.lines)}${r.note ? ` (${r.note})` : ''}` : '—',
  ]);
  return markdownTable(header, lines);
}

function renderStudy(study: readonly StudyRow[], rows: readonly Row[], naive: number): string {
  if (study.length === 0) return '(encoder study skipped)';
  const sent = rows.filter((r) => r.label.startsWith('Ollama') || r.label.startsWith('OpenAI'));
  const header = ['setting', 'size', 'bytes', 'of naive base64', 'encode ms (1 thread)', 'PSNR luma / chroma dB', 'OCR chars, as sent', 'OCR chars, resized back', 'OCR lines exact, resized back'];
  const lines = study.map((r) => {
    // A study row is what Glance sends when prepare() produced exactly its bytes at its size.
    const chosen = sent.some((s) => s.bytes === r.bytes && s.output === `${r.mime} ${r.width}×${r.height}`);
    return [
      chosen ? `**${r.label} — what Glance sends**` : r.label,
      `${r.width}×${r.height}`,
      String(r.bytes),
      pct(base64Length(r.bytes) / naive),
      ms(r.encodeMs),
      `${r.psnrY.toFixed(1)} / ${r.psnrC.toFixed(1)}`,
      pct(r.ocrAsSent.characters),
      pct(r.ocrResized.characters),
      pct(r.ocrResized.lines),
    ];
  });
  return markdownTable(header, lines);
}

function pct(x: number | undefined): string {
  return x === undefined || Number.isNaN(x) ? '—' : `${(x * 100).toFixed(1)}%`;
}

function ms(x: number): string {
  return Number.isNaN(x) ? '—' : x < 10 ? x.toFixed(2) : x.toFixed(0);
}

function renderSection(d: {
  started: Date;
  machine: string;
  load: string;
  loadEnd: string;
  table: string;
  studyTable: string;
  study: readonly StudyRow[];
  rows: Row[];
  shotBytes: number;
  naive: number;
  knownLines: number;
  baselineMb: number;
}): string {
  const ollama = d.rows.find((r) => r.label.startsWith('Ollama'));
  const openai = d.rows.find((r) => r.label.startsWith('OpenAI'));
  const zoom = d.rows.find((r) => r.label.startsWith('Zoom'));
  const ceiling = d.rows[0];
  const round = (x: number | undefined) => (x === undefined ? '?' : `${Math.round(x * 100)}%`);
  const row = (label: string) => d.study.find((r) => r.label.startsWith(label));
  const ofNaive = (r: StudyRow | undefined) => (r ? pct(base64Length(r.bytes) / d.naive) : '?');
  const back = (r: StudyRow | undefined) => (r ? pct(r.ocrResized.characters) : '?');
  const asSent = (r: StudyRow | undefined) => (r ? pct(r.ocrAsSent.characters) : '?');
  /** "20% fewer" / "5% more": b's bytes against a's. */
  const change = (a: StudyRow | undefined, b: StudyRow | undefined) => {
    if (!a || !b) return '?';
    const d = Math.round(((b.bytes - a.bytes) / a.bytes) * 100);
    return d <= 0 ? `${-d}% fewer` : `${d}% more`;
  };
  const j85 = row('JPEG q85 4:4:4');
  const j80 = row('JPEG q80 4:4:4 progressive');
  const sent = row('JPEG q80 4:4:4 baseline');
  const sent2048 = row('JPEG q80 4:4:4 baseline, standard tables, 2048');
  const j70 = row('JPEG q70 4:4:4');
  const j420 = row('JPEG q80 4:2:0');
  const moz = row('mozjpeg');
  const w1568 = row('WebP q80 effort 2 (not');
  const w85 = row('WebP q85');
  const w80 = d.study.find((r) => r.label === 'WebP q80 effort 2');
  const smart = row('WebP q80 effort 2 smart');
  const w60 = row('WebP q60');
  return `## Image intake (\`npm run bench:intake\`)

Measured ${d.started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${d.machine}; load average at start ${d.load}, at the end ${d.loadEnd}
(the machine is shared: other test runs compete for the same 2 cores, so wall times are upper bounds; CPU time is the steadier figure).

**Input**: a ${WIDTH}×${HEIGHT} screenshot of an IDE-like page (file tree, tabs, two editor panes, status bar)
rendered by Chromium at deviceScaleFactor 1, code in 14 px DejaVu Sans Mono with syntax colours:
${d.shotBytes} bytes of PNG; its naive base64 is ${d.naive} bytes. The text is generated, so it is the known answer
(${d.knownLines} code lines).

${d.table}

What the columns mean:
- **output / bytes**: what \`ImageIntake.admit(input, { profile }, 'check')\` returned — the model-ready payload.
- **of naive base64**: base64 of the payload over base64 of the original PNG (what sending the capture as-is costs).
- **median / max ms**: wall time of one \`prepare\` call (sniff, decode guard, one decode and fit, then the encoding:
  PNG or JPEG predicted from a sample of rows and encoded once, see \`main/images/encoderChoice.ts\` and
  docs/benchmarks-perf.md), over ${RUNS} runs after 2 untimed warm-up runs, each profile in its own process.
- **CPU ms**: median user + system CPU time of the whole process (event loop and libuv threads) per \`prepare\`.
- **peak RSS MB**: that process's own maximum resident set, VmHWM (Node itself is about ${Math.round(d.baselineMb)} MB before any image; per-input bounds in docs/benchmarks-perf.md).
- **OCR chars**: tesseract.js (LSTM, \`@tesseract.js-data/eng\` best_int, offline, one text block per pane) over
  the code region of each pane, cropped from the payload; score = 1 − Levenshtein(OCR text, known text) / length
  of the known text, after trimming lines and collapsing runs of spaces (${d.knownLines} lines, both panes).
  *As sent*: the payload's pixels at the size the model gets them. *Resized back*: the same crop enlarged
  (Lanczos) to the original pixel size first, so it measures what information survived rather than the
  text size tesseract likes; a model does not do that enlargement, so *as sent* is the one to believe.
  **OCR lines exact**: known lines found verbatim among the OCR'd lines (even the original scores well below
  100% here: a single misread quote or bracket spoils a line).
- **Zoom** row: a ${ZOOM.width}×${ZOOM.height} region of the same screenshot at native resolution (what
  \`screenshot_desktop\` with a region sends), through the Ollama profile; compared against the lines inside the region.
- **Decompression bomb**: time until \`prepare\` refuses a 40000×40000 PNG (about 6 GB of pixels when decoded);
  its peak RSS shows nothing of that size was allocated.

**What a plain downscale does to 14 px text.** Fitting the whole 4K screen into the Ollama profile scales it by
${(1568 / WIDTH).toFixed(3)}: 14 px text becomes about ${((14 * 1568) / WIDTH).toFixed(1)} px tall. Read as sent, OCR recovers ${round(ollama?.ocrAsSent?.characters)} of the
characters (the original: ${round(ceiling?.ocr?.characters)}); even enlarged back to full size only ${round(ollama?.ocr?.characters)}, with ${round(ollama?.ocr?.lines)} of lines exact —
digits and identifiers are where it goes wrong, which is what a user asks about. Sending fewer, sharper pixels
— the zoomed region at native resolution — reads ${round(zoom?.ocrAsSent?.characters)} of the characters in it, in ${zoom ? zoom.bytes : '?'} bytes. The
full-screen image is for layout ("what is on the screen"); reading text takes a zoom.

### Encoder settings against legibility

The same screenshot fitted once per profile size (Lanczos, as \`normalise\` does), then encoded with each
setting; encode time is one encode on one thread (median of 5). PSNR is against the fitted pixels: luma is
what OCR reads (it works on grey), chroma is colour detail — what 4:2:0 subsampling halves, which smears thin
coloured text (syntax colours, links) without OCR noticing. OCR as in the table above.

${d.studyTable}

What decided the settings (\`main/images/encoderChoice.ts\`; why JPEG and not WebP, and the encode costs, in docs/benchmarks-perf.md):
- **JPEG q80 4:4:4, baseline with standard Huffman tables** (was q85): ${change(j85, sent)} bytes for ${back(j85)} → ${back(sent)} of the characters resized back.
  Progressive coding is the same pixels in ${change(sent, j80)} bytes, but costs ${sent && j80 ? (j80.encodeMs / sent.encodeMs).toFixed(1) : '?'}× the encode here (optimised tables cost about 3×, docs/benchmarks-perf.md),
  more than the bytes are worth on a loopback or LAN link: off since the encoder change. 4:2:0 would give ${change(j80, j420)} bytes with the same luma (so the same OCR)
  but ${j80 && j420 ? (j80.psnrC - j420.psnrC).toFixed(1) : '?'} dB less chroma: kept at 4:4:4. mozjpeg (trellis quantisation) gives ${change(j80, moz)} bytes but
  rounds away the strokes text is made of (${back(moz)} resized back) and is ${j80 && moz ? (moz.encodeMs / j80.encodeMs).toFixed(0) : '?'}× slower: not used.
- **WebP q80 effort 2** (was q85), only where a target takes WebP but not JPEG: ${change(w85, w80)} bytes; as sent ${asSent(w85)} → ${asSent(w80)}, resized back ${back(w85)} → ${back(w80)}.
  At 2048 px the JPEG Glance sends is ${change(w80, sent2048)} bytes than this WebP, as sent ${asSent(sent2048)} against ${asSent(w80)}, for ${sent2048 && w80 ? (w80.encodeMs / sent2048.encodeMs).toFixed(1) : '?'}× less encode time.
  \`smartSubsample\` buys ${smart && w80 ? (smart.psnrC - w80.psnrC).toFixed(1) : '?'} dB of chroma for ${smart && w80 ? (smart.encodeMs / w80.encodeMs).toFixed(1) : '?'}× the encode time: off.

**The 15% target${[ollama, openai].every((r) => r && r.ofNaive <= 0.15) ? ' is met.' : ' is not met, and meeting it would cost legible text.'}** Ollama (1568 px, PNG/JPEG): ${ollama ? pct(ollama.ofNaive) : '?'}
with the chosen JPEG; JPEG gets near 15% only at about q70 (${ofNaive(j70)}, ${back(j70)} resized back), and mozjpeg is
no way round it (q80: ${ofNaive(moz)}, ${back(moz)}). WebP would be ${ofNaive(w1568)} at the same size (${back(w1568)}), but Ollama gets no WebP: older
llama.cpp-based runners drop it silently (see \`main/images/profiles.ts\`). OpenAI-compatible (2048 px, JPEG since the encoder change):
${openai ? pct(openai.ofNaive) : '?'}; WebP q80 would be ${ofNaive(w80)}, and even WebP q60 is ${ofNaive(w60)}, with as-sent OCR down to ${asSent(w60)} (from ${asSent(w80)}). A 2048 px image has 1.7× the
pixels of a 1568 px one, and at that size the text is partly legible, so its bytes buy something. Where text
must be read, the zoom sends fewer, sharper pixels: ${zoom ? pct(zoom.ofNaive) : '?'} of naive, ${round(zoom?.ocrAsSent?.characters)} of characters read.

Targets on this machine: ≤ 100 ms median per 4K image; payload ≤ 15% of the naive base64. This run:
${d.rows
  .filter((r) => r.label.startsWith('Ollama') || r.label.startsWith('OpenAI'))
  .map(
    (r) =>
      `- ${r.label}: ${r.medianMs.toFixed(0)} ms median ${r.medianMs <= 100 ? '(met)' : '(missed)'}, ${r.cpuMs.toFixed(0)} ms CPU; ${(r.ofNaive * 100).toFixed(1)}% of naive ${r.ofNaive <= 0.15 ? '(met)' : '(missed)'}.`,
  )
  .join('\n')}
`;
}

function log(message: string): void {
  process.stderr.write(`[bench:intake] ${message}\n`);
}
