// The SDK's stdio client transport with a read buffer fit for multi-megabyte results.
//
// SDK 1.32.2's ReadBuffer (shared/stdio.js) has two problems with a large image result:
// - it closes the connection when buffered data passes maxBufferSize (10 MB by default), and
//   a 7.5 MB image is 10 MB of base64 JSON;
// - it Buffer.concat()s the whole buffer on every 64 KB pipe chunk and rescans it for "\n",
//   which is quadratic: a 30 MB result took 8.7 s to read here, 0.84 s with the buffer below.
// So: a raised limit (the SDK's own option) and a chunk list that scans only new bytes.
import type { ChildProcess } from 'node:child_process';
import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Newline-delimited JSON-RPC, linear in the message size. Same contract as the SDK's ReadBuffer. */
export class LineReadBuffer {
  readonly maxBufferSize: number;
  #chunks: Buffer[] = [];
  #size = 0;
  /** Chunks before this index hold no newline (already scanned). */
  #scanned = 0;

  constructor(maxBufferSize: number) {
    this.maxBufferSize = maxBufferSize;
  }

  /** After an oversized message: drop bytes up to its end, so its tail is not read as a message. */
  #discarding = false;

  append(chunk: Buffer): void {
    if (this.#discarding) {
      const nl = chunk.indexOf(10);
      if (nl === -1) return;
      this.#discarding = false;
      chunk = chunk.subarray(nl + 1);
    }
    if (this.#size + chunk.length > this.maxBufferSize) {
      this.clear();
      this.#discarding = true;
      throw new Error(`a message from the server exceeded the ${this.maxBufferSize}-byte limit`);
    }
    this.#chunks.push(chunk);
    this.#size += chunk.length;
  }

  readMessage(): JSONRPCMessage | null {
    for (let i = this.#scanned; i < this.#chunks.length; i++) {
      const chunk = this.#chunks[i] as Buffer;
      const nl = chunk.indexOf(10);
      if (nl === -1) {
        this.#scanned = i + 1;
        continue;
      }
      const parts = this.#chunks.slice(0, i);
      parts.push(chunk.subarray(0, nl));
      const line = (parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts)).toString('utf8').replace(/\r$/, '');
      const rest = chunk.subarray(nl + 1);
      this.#chunks = rest.length > 0 ? [rest, ...this.#chunks.slice(i + 1)] : this.#chunks.slice(i + 1);
      this.#size -= parts.reduce((sum, part) => sum + part.length, 0) + 1;
      this.#scanned = 0;
      return deserializeMessage(line);
    }
    return null;
  }

  clear(): void {
    this.#chunks = [];
    this.#size = 0;
    this.#scanned = 0;
  }
}

/**
 * Servers started here and still running. The SDK's close() ends the server's stdin, then waits
 * 2 s before SIGTERM on a timer that does not keep the process alive: a CLI run that exits
 * meanwhile (or a test worker) left a server that ignores the end of its stdin running for good
 * (seen: a test's silent server still alive hours after CI). They are sent SIGTERM on exit.
 */
const running = new Set<ChildProcess>();
let exitHook = false;

function track(child: ChildProcess | undefined): void {
  if (!child || child.exitCode !== null) return;
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const c of running) c.kill('SIGTERM');
  });
}

/** StdioClientTransport whose read buffer is a LineReadBuffer of `maxBufferSize` bytes; its server does not outlive this process. */
export function createStdioTransport(params: StdioServerParameters & { maxBufferSize: number }): StdioClientTransport {
  const transport = new StdioClientTransport(params);
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    track((transport as unknown as { _process?: ChildProcess })._process);
  };
  const internals = transport as unknown as { _readBuffer?: { append?: unknown; readMessage?: unknown } };
  // The SDK's field is private; if a later SDK renames it, its own buffer (with the raised limit) stays.
  if (typeof internals._readBuffer?.append === 'function' && typeof internals._readBuffer.readMessage === 'function') {
    internals._readBuffer = new LineReadBuffer(params.maxBufferSize);
  }
  return transport;
}

/** Whether a transport reads with LineReadBuffer (tests pin the SDK internals this relies on). */
export function usesLineReadBuffer(transport: StdioClientTransport): boolean {
  return (transport as unknown as { _readBuffer?: unknown })._readBuffer instanceof LineReadBuffer;
}
