// Several tesseract workers, one per core: a screen's text blocks are read side by side.
// Each member is a whole TesseractReader (its own worker thread, queue, timeout and idle end), and
// a member takes the next reading when it has finished its last (one queue for all: a member
// given a few large blocks does not hold up the readings a free member could do). Each idle worker holds ~100 MB and
// is ended after a minute without work, as a lone reader's is.
import { availableParallelism } from 'node:os';
import type { OcrReading, TextReader } from './textReader.ts';

/** More workers than this would hold memory (~100 MB each) for little gain on a desktop. */
const MAX_WORKERS = 4;

export function poolSize(): number {
  return Math.max(1, Math.min(MAX_WORKERS, availableParallelism()));
}

export class ReaderPool implements TextReader {
  readonly engine: string;
  readonly #members: { reader: TextReader; pending: number }[];
  readonly #waiting: (() => void)[] = [];

  constructor(makeReader: () => TextReader, size = poolSize()) {
    this.#members = Array.from({ length: Math.max(1, size) }, () => ({ reader: makeReader(), pending: 0 }));
    this.engine = this.#members[0]!.reader.engine;
  }

  get size(): number {
    return this.#members.length;
  }

  async read(png: Uint8Array, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<OcrReading> {
    let member: { reader: TextReader; pending: number } | undefined;
    while (!(member = this.#members.find((m) => m.pending === 0))) {
      await this.#turn(options?.signal);
      options?.signal?.throwIfAborted();
    }
    member.pending++;
    try {
      return await member.reader.read(png, options);
    } finally {
      member.pending--;
      this.#waiting.shift()?.();
    }
  }

  /** Until a member is free, or the signal stops the wait. */
  #turn(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        signal?.removeEventListener('abort', stop);
        resolve();
      };
      const stop = () => {
        this.#waiting.splice(this.#waiting.indexOf(done), 1);
        resolve();
      };
      signal?.addEventListener('abort', stop, { once: true });
      this.#waiting.push(done);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.#members.map((m) => m.reader.close()));
  }
}
