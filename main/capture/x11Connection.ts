// The X11 connection the pointer probe speaks over (x11Pointer.ts): find the display's socket,
// authorise with MIT-MAGIC-COOKIE-1 as libXau would, read the setup, then send requests and read
// their fixed-size replies. Plain Node, no libX11.
import { connect, type Socket } from 'node:net';
import { readFile } from 'node:fs/promises';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';

export type X11Options = { signal?: AbortSignal; timeoutMs?: number; env?: NodeJS.ProcessEnv };

type ParsedDisplay = { host: string; display: number; screen: number };

/** ":1", ":1.0", "unix:1", "localhost:10.0" → parts; anything else (launchd paths, garbage) → undefined. */
export function parseDisplayName(name: string): ParsedDisplay | undefined {
  const m = /^([A-Za-z0-9.\-_]*|\[[0-9a-fA-F:]+\]):(\d+)(?:\.(\d+))?$/.exec(name.trim());
  if (!m) return undefined;
  return { host: m[1] ?? '', display: Number(m[2]), screen: Number(m[3] ?? 0) };
}

/** One open connection: the screen's root window; `send` a request with no reply, `request` one with. */
type X11Connection = { root: number; /** The first id this client may give a resource it creates. */ idBase: number; send(req: Buffer): void; request(req: Buffer): Promise<Buffer> };

/** Opens DISPLAY, hands the connection to `use`, and closes it after; bounded by a timeout (2 s) and `signal`. */
export async function withX11Connection<T>(displayName: string, options: X11Options, use: (c: X11Connection) => Promise<T>): Promise<T> {
  const parsed = parseDisplayName(displayName);
  if (!parsed) throw new Error(`cannot parse DISPLAY "${displayName}"`);
  const timeoutMs = options.timeoutMs ?? 2_000;
  const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])];
  const signal = AbortSignal.any(signals);
  const cookie = await findCookie(parsed, options.env ?? process.env);
  const socket = await openSocket(parsed, signal);
  try {
    const reader = new Reader(socket, signal);
    socket.write(setupRequest(cookie));
    const setup = await reader.readSetup();
    const root = parseSetup(setup, parsed.screen);
    const conn: X11Connection = {
      root,
      idBase: setup.readUInt32LE(12),
      send: (req) => void socket.write(req),
      request: async (req) => {
        socket.write(req);
        return reader.readReply();
      },
    };
    return await use(conn);
  } finally {
    socket.destroy();
  }
}

function openSocket(d: ParsedDisplay, signal: AbortSignal): Promise<Socket> {
  const local = d.host === '' || d.host === 'unix';
  const attempts: Array<() => Socket> = local
    ? [
        () => connect({ path: `/tmp/.X11-unix/X${d.display}` }),
        // Linux servers also listen on the abstract namespace (useful inside sandboxes).
        () => connect({ path: `\0/tmp/.X11-unix/X${d.display}` }),
      ]
    : [() => connect({ host: d.host.replace(/^\[|\]$/g, ''), port: 6000 + d.display })];
  const tryAt = (i: number): Promise<Socket> =>
    new Promise<Socket>((resolve, reject) => {
      const attempt = attempts[i];
      if (!attempt) return reject(new Error(`nothing is listening on X display :${d.display}`));
      if (signal.aborted) return reject(signal.reason);
      const socket = attempt();
      const onAbort = () => {
        socket.destroy();
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      socket.once('connect', () => {
        signal.removeEventListener('abort', onAbort);
        socket.removeAllListeners('error');
        resolve(socket);
      });
      socket.once('error', (error) => {
        signal.removeEventListener('abort', onAbort);
        socket.destroy();
        if (local) tryAt(i + 1).then(resolve, reject);
        else reject(new Error(`cannot connect to X display ${d.host}:${d.display} (${(error as NodeJS.ErrnoException).code ?? error.message})`));
      });
    });
  return tryAt(0);
}

const pad4 = (n: number) => (4 - (n % 4)) % 4;

function setupRequest(cookie: { name: Buffer; data: Buffer } | undefined): Buffer {
  const name = cookie?.name ?? Buffer.alloc(0);
  const data = cookie?.data ?? Buffer.alloc(0);
  const head = Buffer.alloc(12);
  head.write('l', 0, 'latin1'); // little-endian
  head.writeUInt16LE(11, 2);
  head.writeUInt16LE(0, 4);
  head.writeUInt16LE(name.length, 6);
  head.writeUInt16LE(data.length, 8);
  return Buffer.concat([head, name, Buffer.alloc(pad4(name.length)), data, Buffer.alloc(pad4(data.length))]);
}

/** The root window of the requested screen, from the connection setup reply. */
function parseSetup(setup: Buffer, screen: number): number {
  const status = setup.readUInt8(0);
  if (status !== 1) {
    const reasonLength = setup.readUInt8(1);
    const reason = setup.subarray(8, 8 + reasonLength).toString('latin1');
    throw new Error(status === 2 ? 'X server asks for further authentication' : `X server refused the connection: ${reason}`);
  }
  const vendorLength = setup.readUInt16LE(24);
  const screens = setup.readUInt8(28);
  const formats = setup.readUInt8(29);
  if (screen >= screens) throw new Error(`X display has no screen ${screen}`);
  let offset = 40 + vendorLength + pad4(vendorLength) + 8 * formats;
  for (let s = 0; s < screen; s++) {
    const depths = setup.readUInt8(offset + 39);
    offset += 40;
    for (let d = 0; d < depths; d++) offset += 8 + 24 * setup.readUInt16LE(offset + 2);
  }
  return setup.readUInt32LE(offset);
}

/** Reads the setup block, then 32-byte replies (ours are all fixed-size); errors reject. */
class Reader {
  // Chunks as they came, joined only when a read needs them: a screen image's reply is megabytes
  // in 64 KiB pieces, and joining on every piece made that quadratic.
  #chunks: Buffer[] = [];
  #length = 0;
  #wake: (() => void) | undefined;
  #failure: unknown;

  constructor(socket: Socket, signal: AbortSignal) {
    socket.on('data', (chunk: Buffer) => {
      this.#chunks.push(chunk);
      this.#length += chunk.length;
      this.#wake?.();
    });
    const fail = (error: unknown) => {
      this.#failure ??= error;
      this.#wake?.();
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('X server closed the connection')));
    signal.addEventListener('abort', () => fail(signal.reason), { once: true });
  }

  async #take(n: number): Promise<Buffer> {
    while (this.#length < n) {
      if (this.#failure !== undefined) throw this.#failure;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = undefined;
    }
    const all = this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks, this.#length);
    this.#chunks = all.length > n ? [all.subarray(n)] : [];
    this.#length -= n;
    return all.subarray(0, n);
  }

  async readSetup(): Promise<Buffer> {
    const head = await this.#take(8);
    const rest = await this.#take(head.readUInt16LE(6) * 4);
    return Buffer.concat([head, rest]);
  }

  async readReply(): Promise<Buffer> {
    for (;;) {
      const packet = await this.#take(32);
      const kind = packet.readUInt8(0);
      if (kind === 0) throw new Error(`X error ${packet.readUInt8(1)} for request opcode ${packet.readUInt8(10)}`);
      if (kind === 1) {
        const extra = packet.readUInt32LE(4) * 4;
        return extra ? Buffer.concat([packet, await this.#take(extra)]) : packet;
      }
      // Anything else is an event; we selected none, but skip it if one arrives.
    }
  }
}

/** MIT-MAGIC-COOKIE-1 for this display from XAUTHORITY / ~/.Xauthority, as libXau picks it. */
async function findCookie(d: ParsedDisplay, env: NodeJS.ProcessEnv): Promise<{ name: Buffer; data: Buffer } | undefined> {
  const file = env.XAUTHORITY || join(env.HOME || homedir(), '.Xauthority');
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return undefined; // no authority file: the server may not need one (Xvfb, xhost +local:)
  }
  const local = d.host === '' || d.host === 'unix' || d.host === 'localhost';
  const wantHost = local ? hostname() : d.host;
  let offset = 0;
  const field = () => {
    const length = bytes.readUInt16BE(offset);
    const value = bytes.subarray(offset + 2, offset + 2 + length);
    offset += 2 + length;
    return value;
  };
  try {
    while (offset + 2 <= bytes.length) {
      const family = bytes.readUInt16BE(offset);
      offset += 2;
      const address = field().toString('latin1');
      const number = field().toString('latin1');
      const name = field();
      const data = field();
      const familyMatches = family === 0xffff || ((family === 256 || family === 252) && address === wantHost);
      const numberMatches = number === '' || number === String(d.display);
      if (familyMatches && numberMatches && name.toString('latin1') === 'MIT-MAGIC-COOKIE-1') return { name, data };
    }
  } catch {
    return undefined; // a truncated authority file: try without a cookie
  }
  return undefined;
}
