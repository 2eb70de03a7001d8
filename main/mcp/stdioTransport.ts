// The SDK's stdio client transport with a read buffer fit for multi-megabyte results.
//
// SDK 1.32.2's ReadBuffer (shared/stdio.js) has two problems with a large image result:
// - it closes the connection when buffered data passes maxBufferSize (10 MB by default), and
//   a 7.5 MB image is 10 MB of base64 JSON;
// - it Buffer.concat()s the whole buffer on every 64 KB pipe chunk and rescans it for "\n",
//   which is quadratic: a 30 MB result took 8.7 s to read here, 0.84 s with the buffer below.
// So: a raised limit (the SDK's own option) and a chunk list that scans only new bytes.
import { spawn, type ChildProcess } from 'node:child_process';
import { getDefaultEnvironment, StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The limit said in a person's terms: one MCP message carries a tool result with its
 * images as base64, a third larger than the image, so the limit follows Settings → Limits →
 * Largest file (messageLimitFor).
 */
function messageTooLarge(limit: number): string {
  const mb = (n: number) => (n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MB` : `${Math.round(n)} bytes`);
  return (
    `the server sent one message over ${mb(limit)}, the most Glance reads of one MCP message (room for an image of about ${mb((limit * 3) / 4)} as base64; ` +
    `it grows with Settings → Limits → Largest file); the result was dropped. Ask the tool for less (a lower resolution, fewer images, a page at a time)`
  );
}

const MESSAGE_SLACK = 30 * 1024 * 1024;
const MIN_MESSAGE_BYTES = 10 * 1024 * 1024;

/** One MCP message must hold the largest image Glance takes (`ingestBytes`) as base64, plus the JSON around it. */
export function messageLimitFor(ingestBytes: number): number {
  return Math.max(MIN_MESSAGE_BYTES, Math.ceil((ingestBytes * 4) / 3) + MESSAGE_SLACK);
}

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
      throw new Error(messageTooLarge(this.maxBufferSize));
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
    for (const c of running) killTree(c, 'SIGTERM');
  });
}

/**
 * A stdio server runs in its own process group (POSIX), so its whole tree can be ended: `npx -y
 * pkg` (the most common config users paste) is npm, which runs the server as its child; ending
 * npm left the server holding our pipes, and a CLI run that was done never exited.
 */
const OWN_GROUP = process.platform !== 'win32';

function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (OWN_GROUP && child.pid) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // already gone
  }
}

/** Whether any process of the group is still there. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** StdioClientTransport whose read buffer is a LineReadBuffer of `maxBufferSize` bytes; its server does not outlive this process. */
export function createStdioTransport(params: StdioServerParameters & { maxBufferSize: number }): StdioClientTransport {
  const transport = new StdioClientTransport(params);
  const start = transport.start.bind(transport);
  const inner = transport as unknown as { _process?: ChildProcess };
  let pid: number | undefined;
  transport.start = async () => {
    if (OWN_GROUP) await startDetached(transport, params);
    else await start();
    pid = inner._process?.pid;
    track(inner._process);
  };
  const close = transport.close.bind(transport);
  transport.close = async () => {
    await close(); // stdin end, SIGTERM, SIGKILL to the leader: the SDK's sequence
    if (!OWN_GROUP || pid === undefined) return;
    const group = pid;
    if (!groupAlive(group)) return;
    process.kill(-group, 'SIGTERM');
    for (let i = 0; i < 10 && groupAlive(group); i++) await new Promise((r) => setTimeout(r, 50));
    if (groupAlive(group)) killTree({ pid: group } as ChildProcess, 'SIGKILL');
  };
  const internals = transport as unknown as { _readBuffer?: { append?: unknown; readMessage?: unknown } };
  // The SDK's field is private; if a later SDK renames it, its own buffer (with the raised limit) stays.
  if (typeof internals._readBuffer?.append === 'function' && typeof internals._readBuffer.readMessage === 'function') {
    internals._readBuffer = new LineReadBuffer(params.maxBufferSize);
  }
  return transport;
}

type SdkInternals = {
  _process?: ChildProcess;
  _readBuffer: { append(chunk: Buffer): void };
  _stderrStream?: NodeJS.WritableStream;
  processReadBuffer(): void;
};

/**
 * SDK 1.32.2's StdioClientTransport.start() (client/stdio.js) with one change, `detached`: the
 * server leads a process group of its own (see killTree). cross-spawn's extras are Windows-only,
 * where the SDK's own start() is used.
 */
function startDetached(transport: StdioClientTransport, params: StdioServerParameters): Promise<void> {
  const t = transport as unknown as SdkInternals;
  if (t._process) throw new Error('StdioClientTransport already started!');
  return new Promise((resolve, reject) => {
    const child = spawn(params.command, params.args ?? [], {
      env: { ...getDefaultEnvironment(), ...params.env },
      stdio: ['pipe', 'pipe', params.stderr ?? 'inherit'],
      shell: false,
      detached: true,
      ...(params.cwd ? { cwd: params.cwd } : {}),
    });
    t._process = child;
    child.on('error', (error) => {
      reject(error);
      transport.onerror?.(error);
    });
    child.on('spawn', () => resolve());
    child.on('close', () => {
      t._process = undefined;
      transport.onclose?.();
    });
    child.stdin?.on('error', (error) => transport.onerror?.(error));
    child.stdout?.on('data', (chunk: Buffer) => {
      try {
        t._readBuffer.append(chunk);
        t.processReadBuffer();
      } catch (error) {
        transport.onerror?.(error as Error);
        transport.close().catch(() => undefined);
      }
    });
    child.stdout?.on('error', (error) => transport.onerror?.(error));
    if (t._stderrStream && child.stderr) child.stderr.pipe(t._stderrStream);
  });
}
