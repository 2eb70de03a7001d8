// tesseract.js 7 with the LSTM English model from @tesseract.js-data/eng, fully offline: the wasm
// core from tesseract.js-core in node_modules, the language data from the package, no cache
// written. tesseract.js runs recognition in a worker_thread, so the main thread (the UI's IPC,
// the engine's streams) never waits on it. Picked over PaddleOCR (@gutenye/ocr-node) on the
// legibility page: within a point of its accuracy, faster here, 10 MB instead of 300 MB of
// onnxruntime (docs/ocr.md). One worker, one reading at a time; a reading that outlives its
// timeout terminates the worker and the next reading starts a fresh one.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { OcrError, type OcrLine, type OcrReading, type OcrWord, type TextReader } from './textReader.ts';
import { errorMessage } from '../errors.ts';

const require = createRequire(import.meta.url);

/** A 4K screen of text takes a few seconds; a busy 2-core machine, several times that. */
const DEFAULT_TIMEOUT_MS = 60_000;
/** An idle worker holds ~100 MB (the LSTM model): it is ended after this long without a reading. */
const IDLE_MS = 60_000;

type TesseractOptions = {
  timeoutMs?: number;
  /**
   * Page segmentation. Default 'single-block': tesseract's AUTO layout splits tables and
   * spaced-out text into columns and drops some (a 24-line invoice read 80% of its characters
   * with AUTO, 99% as one block; bench:zoom, docs/ocr.md).
   */
  pageSegmentation?: 'auto' | 'single-block';
};

export class TesseractReader implements TextReader {
  readonly engine = 'tesseract.js 7 (eng)';
  readonly #timeoutMs: number;
  readonly #psm: PSM;
  #worker: Promise<Worker> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #idle: ReturnType<typeof setTimeout> | undefined;
  #pending = 0;

  constructor(options: TesseractOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#psm = options.pageSegmentation === 'auto' ? PSM.AUTO : PSM.SINGLE_BLOCK;
  }

  read(png: Uint8Array, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<OcrReading> {
    if (this.#idle) clearTimeout(this.#idle);
    this.#pending++;
    const run = this.#queue.then(() => this.#read(png, options));
    this.#queue = run.catch(() => undefined);
    void this.#queue.then(() => {
      if (--this.#pending > 0) return;
      this.#idle = setTimeout(() => void this.close(), IDLE_MS);
      this.#idle.unref();
    });
    return run;
  }

  async close(): Promise<void> {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = undefined;
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await (await worker.catch(() => undefined))?.terminate();
  }

  async #read(png: Uint8Array, options: { signal?: AbortSignal; timeoutMs?: number }): Promise<OcrReading> {
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])];
    const signal = AbortSignal.any(signals);
    if (signal.aborted) throw stopped(options.signal, timeoutMs);
    const started = performance.now();
    const workerPromise = (this.#worker ??= this.#start());
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        // The only way to stop tesseract mid-page: end the worker thread (a new one starts next time).
        if (this.#worker === workerPromise) this.#worker = undefined;
        void workerPromise.then((w) => w.terminate()).catch(() => undefined);
        reject(stopped(options.signal, timeoutMs));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const worker = await Promise.race([workerPromise, aborted]);
      const { data } = await Promise.race([worker.recognize(Buffer.from(png), {}, { text: true, blocks: true }), aborted]);
      const lines: OcrLine[] = [];
      const words: OcrWord[] = [];
      const confidences: number[] = [];
      for (const block of data.blocks ?? []) {
        for (const paragraph of block.paragraphs) {
          for (const line of paragraph.lines) {
            const text = line.text.replace(/\s+$/, '');
            if (!text.trim()) continue;
            for (const w of line.words) {
              confidences.push(w.confidence);
              if (w.text.trim()) words.push({ text: w.text, confidence: w.confidence, line: lines.length, box: { x: w.bbox.x0, y: w.bbox.y0, width: w.bbox.x1 - w.bbox.x0, height: w.bbox.y1 - w.bbox.y0 } });
            }
            lines.push({ text, confidence: line.confidence, box: { x: line.bbox.x0, y: line.bbox.y0, width: line.bbox.x1 - line.bbox.x0, height: line.bbox.y1 - line.bbox.y0 } });
          }
        }
      }
      const confidence = confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : 0;
      const rows = joinRows(lines);
      return { text: rows.map((r) => r.text).join('\n'), lines: rows, words, confidence, engine: this.engine, durationMs: Math.round(performance.now() - started) };
    } catch (error) {
      if (error instanceof OcrError) throw error;
      if (this.#worker === workerPromise) this.#worker = undefined;
      void workerPromise.then((w) => w.terminate()).catch(() => undefined);
      throw new OcrError('failed', `Local OCR failed: ${errorMessage(error)}`);
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  async #start(): Promise<Worker> {
    const langPath = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
    const worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none' });
    // Screens are about 96 dpi (PNGs carry none, and tesseract would guess and warn).
    await worker.setParameters({ tessedit_pageseg_mode: this.#psm, preserve_interword_spaces: '1', user_defined_dpi: '96' });
    return worker;
  }
}

/**
 * tesseract's page layout reads a table (or any text with wide gaps) column by column: "Order",
 * "Order", …, then every number. People and models want rows: fragments whose vertical centres
 * line up and that sit within a few line heights of each other are joined left to right (two
 * spaces mark the gap), and rows go top to bottom. Text far to the side (another pane) stays apart.
 */
export function joinRows(lines: readonly OcrLine[], options: { /** Fragments closer than this many line heights are one phrase, joined by one space. */ wordGap?: number } = {}): OcrLine[] {
  const centre = (l: OcrLine) => l.box.y + l.box.height / 2;
  // Rows first (vertical centres within half a line of the row's first fragment), then each row
  // split where the horizontal gap is wider than 8 line heights.
  const bands: OcrLine[][] = [];
  for (const line of [...lines].sort((a, b) => centre(a) - centre(b))) {
    const band = bands.at(-1);
    const first = band?.[0];
    if (band && first && Math.abs(centre(first) - centre(line)) < Math.max(first.box.height, line.box.height) * 0.5) band.push(line);
    else bands.push([line]);
  }
  const rows: OcrLine[][] = [];
  for (const band of bands) {
    band.sort((a, b) => a.box.x - b.box.x);
    let row: OcrLine[] = [];
    for (const line of band) {
      const prev = row.at(-1);
      const h = Math.max(prev?.box.height ?? 0, line.box.height);
      if (prev && line.box.x - (prev.box.x + prev.box.width) > h * 8) {
        rows.push(row);
        row = [];
      }
      row.push(line);
    }
    if (row.length) rows.push(row);
  }
  return rows.map((row) => {
    const x = Math.min(...row.map((f) => f.box.x));
    const y = Math.min(...row.map((f) => f.box.y));
    const right = Math.max(...row.map((f) => f.box.x + f.box.width));
    const bottom = Math.max(...row.map((f) => f.box.y + f.box.height));
    const confidence = row.reduce((a, f) => a + f.confidence, 0) / row.length;
    const near = options.wordGap ?? 0;
    const text = row.map((f, i) => {
      const prev = row[i - 1];
      if (!prev) return f.text.trim();
      const gap = f.box.x - (prev.box.x + prev.box.width);
      return (gap < near * Math.max(prev.box.height, f.box.height) ? ' ' : '  ') + f.text.trim();
    });
    return { text: text.join(''), confidence, box: { x, y, width: right - x, height: bottom - y } };
  });
}

function stopped(signal: AbortSignal | undefined, timeoutMs: number): OcrError {
  return signal?.aborted ? new OcrError('cancelled', 'Local OCR was stopped.') : new OcrError('timeout', `Local OCR took longer than ${Math.round(timeoutMs / 1000)} s and was stopped.`);
}
