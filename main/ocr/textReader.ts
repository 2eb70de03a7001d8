// Local OCR (architecture §3, §5): the port the engine and the tools use, and what a reading returns.

/** One recognised line with where it sits (pixels of the image that was read). */
export type OcrLine = { text: string; confidence: number; box: { x: number; y: number; width: number; height: number } };

/** One recognised word; `line` numbers the line it was read on (words of one line share it, left to right). */
export type OcrWord = { text: string; confidence: number; line: number; box: { x: number; y: number; width: number; height: number } };

export type OcrReading = {
  text: string;
  lines: OcrLine[];
  /** Every word with its box, in reading order (redaction masks word runs, main/privacy). */
  words?: OcrWord[];
  /** Mean word confidence, 0–100. */
  confidence: number;
  /** "tesseract.js 7 (eng)": what the UI and the label name. */
  engine: string;
  durationMs: number;
};

/** Reads text from a greyscale PNG. Runs off the main thread; `signal` and the reader's own timeout stop it. */
export interface TextReader {
  readonly engine: string;
  read(png: Uint8Array, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<OcrReading>;
  close(): Promise<void>;
}

/** A reading too slow, stopped, or broken: a value for the caller to put in plain words. */
export class OcrError extends Error {
  readonly code: 'timeout' | 'cancelled' | 'failed';
  constructor(code: OcrError['code'], message: string) {
    super(message);
    this.code = code;
  }
}
