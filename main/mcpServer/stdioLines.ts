// The stdio framing in front of the SDK's StdioServerTransport (architecture §14): the SDK buffers
// a line of up to 10 MB and, past that, closes the transport — the server then ends with exit 0 and
// no word. Here each line is passed on whole while it is under the cap; a longer one is dropped as
// it streams (never held), answered with a JSON-RPC error in words (with the request's id when it
// can be read from the line's first or last bytes), said on stderr, and the server goes on.
import { Transform, type TransformCallback } from 'node:stream';

/** Largest request line accepted on stdio: tool arguments are small; images only ever go out (as for --http). */
export const MAX_STDIO_REQUEST = 1024 * 1024;
/** How much of an oversized line's start and end is kept to find its id. */
const EDGE = 4096;

export type OversizedLine = { bytes: number; id: string | number | null };

export class StdioLines extends Transform {
  readonly #max: number;
  readonly #onOversized: (line: OversizedLine) => void;
  /** The line being gathered (under the cap). */
  #parts: Buffer[] = [];
  #size = 0;
  /** Set while an oversized line is being skipped: its size so far, its first and last bytes. */
  #skipping: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(options: { max?: number; onOversized: (line: OversizedLine) => void }) {
    super();
    this.#max = options.max ?? MAX_STDIO_REQUEST;
    this.#onOversized = options.onOversized;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let rest = chunk;
    while (rest.length) {
      const nl = rest.indexOf(0x0a);
      const piece = nl === -1 ? rest : rest.subarray(0, nl + 1);
      rest = nl === -1 ? Buffer.alloc(0) : rest.subarray(nl + 1);
      if (this.#skipping) this.#skip(piece);
      else if (this.#size + piece.length > this.#max + 1) {
        const held = Buffer.concat([...this.#parts, piece]);
        this.#parts = [];
        this.#size = 0;
        this.#skipping = { bytes: 0, head: held.subarray(0, EDGE), tail: Buffer.alloc(0) };
        this.#skip(held);
      } else {
        this.#parts.push(piece);
        this.#size += piece.length;
      }
      if (nl !== -1 && !this.#skipping && this.#size) {
        this.push(Buffer.concat(this.#parts));
        this.#parts = [];
        this.#size = 0;
      }
    }
    done();
  }

  #skip(piece: Buffer): void {
    const s = this.#skipping!;
    s.bytes += piece.length;
    s.tail = Buffer.concat([s.tail, piece.subarray(-EDGE)]).subarray(-EDGE);
    if (piece.at(-1) !== 0x0a) return;
    this.#skipping = undefined;
    this.#onOversized({ bytes: s.bytes - 1, id: requestId(s.head.toString('utf8'), s.tail.toString('utf8')) });
  }
}

/** The JSON-RPC id of a request seen only by its ends: the SDK writes it last, others first. */
function requestId(head: string, tail: string): string | number | null {
  const pattern = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*[,}]/g;
  const last = [...tail.matchAll(pattern)].at(-1) ?? [...head.matchAll(pattern)][0];
  if (!last) return null;
  try {
    return JSON.parse(last[1]!) as string | number;
  } catch {
    return null;
  }
}
