// OCR is the slowest thing Glance does locally (seconds for a 4K screen), and the same pixels are
// often read twice: a blind model's image is read when it is attached (does it hold text?) and
// again when the turn is sent, and a model may call read_text on a region it already read. The
// reading is a pure function of the greyscale PNG the reader gets, so it is remembered by that
// PNG's sha256 — a few recent readings, bounded by their text size.
import { createHash } from 'node:crypto';
import { abortable } from '../abortable.ts';
import { OcrError, type OcrReading, type TextReader } from './textReader.ts';

/** At most this many readings, and at most this many characters of text in all. */
const MAX_READINGS = 32;
const MAX_CHARS = 2_000_000;

export class RememberingReader implements TextReader {
  readonly #reader: TextReader;
  readonly #readings = new Map<string, OcrReading>();
  readonly #pending = new Map<string, Promise<OcrReading>>();
  #chars = 0;

  constructor(reader: TextReader) {
    this.#reader = reader;
  }

  get engine(): string {
    return this.#reader.engine;
  }

  async read(png: Uint8Array, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<OcrReading> {
    const key = createHash('sha256').update(png).digest('hex');
    const known = this.#readings.get(key);
    if (known) {
      // Most recently used last: Map keeps insertion order, so the first key is the oldest.
      this.#readings.delete(key);
      this.#readings.set(key, known);
      return known;
    }
    // Two reads of the same pixels at once share one: the second waits, but its own signal still stops it.
    const inFlight = this.#pending.get(key);
    if (inFlight) {
      try {
        return await abortable(inFlight, options?.signal);
      } catch (error) {
        // The first reader was stopped by its own signal, not ours: read for ourselves.
        if (options?.signal?.aborted || !(error instanceof OcrError) || error.code !== 'cancelled') throw error;
        return this.read(png, options);
      }
    }
    const reading = this.#reader.read(png, options);
    this.#pending.set(key, reading);
    try {
      const result = await reading;
      this.#remember(key, result);
      return result;
    } finally {
      this.#pending.delete(key);
    }
  }

  close(): Promise<void> {
    this.#readings.clear();
    return this.#reader.close();
  }

  #remember(key: string, reading: OcrReading): void {
    if (reading.text.length > MAX_CHARS) return;
    this.#readings.set(key, reading);
    this.#chars += reading.text.length;
    for (const [oldest, r] of this.#readings) {
      if (this.#readings.size <= MAX_READINGS && this.#chars <= MAX_CHARS) break;
      this.#readings.delete(oldest);
      this.#chars -= r.text.length;
    }
  }
}
