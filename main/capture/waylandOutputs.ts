// The outputs of a Wayland session, read with a few messages of the Wayland wire protocol over the
// compositor's socket (pure JS: listing needs no file descriptor, unlike a screencopy buffer):
// wl_output (name, scale, current mode) and xdg-output (the logical place and size on the desktop).
// For a wlroots compositor other than sway without XWayland, where node-screenshots lists nothing.
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';

export type WaylandOutput = { name: string; description: string; x: number; y: number; width: number; height: number; scale: number; pixelWidth: number; pixelHeight: number };

/** The socket path of WAYLAND_DISPLAY (a name under XDG_RUNTIME_DIR, or absolute); undefined when there is none. */
export function waylandSocket(env: NodeJS.ProcessEnv): string | undefined {
  const display = env.WAYLAND_DISPLAY;
  if (!display) return undefined;
  if (display.startsWith('/')) return display;
  return env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, display) : undefined;
}

type Message = { object: number; opcode: number; body: Buffer };

/** Lists the outputs: bounded by `timeoutMs` (default 2 s); rejects in words when the compositor does not answer. */
export async function waylandOutputs(socketPath: string, timeoutMs = 2_000): Promise<WaylandOutput[]> {
  const socket = await open(socketPath, timeoutMs);
  const conn = new Connection(socket, timeoutMs);
  try {
    const registry = conn.newId();
    conn.send(1, 1, u32(registry)); // wl_display.get_registry
    const globals: { name: number; iface: string; version: number }[] = [];
    await conn.roundTrip((m) => {
      if (m.object === registry && m.opcode === 0) {
        const [name, at] = [m.body.readUInt32LE(0), 4];
        const [iface, next] = readString(m.body, at);
        globals.push({ name, iface, version: m.body.readUInt32LE(next) });
      }
    });
    const bind = (g: { name: number; iface: string; version: number }, version: number) => {
      const id = conn.newId();
      conn.send(registry, 0, Buffer.concat([u32(g.name), string(g.iface), u32(Math.min(g.version, version)), u32(id)]));
      return id;
    };
    const manager = globals.find((g) => g.iface === 'zxdg_output_manager_v1');
    const managerId = manager ? bind(manager, 3) : 0;
    const outputs = new Map<number, WaylandOutput & { xdg: number }>();
    for (const g of globals.filter((g) => g.iface === 'wl_output')) {
      const id = bind(g, 4);
      const xdg = managerId ? conn.newId() : 0;
      if (xdg) conn.send(managerId, 1, Buffer.concat([u32(xdg), u32(id)])); // get_xdg_output
      outputs.set(id, { name: '', description: '', x: 0, y: 0, width: 0, height: 0, scale: 1, pixelWidth: 0, pixelHeight: 0, xdg });
    }
    const byXdg = new Map([...outputs.values()].map((o) => [o.xdg, o]));
    await conn.roundTrip((m) => {
      const o = outputs.get(m.object);
      if (o) {
        if (m.opcode === 0) [o.x, o.y] = [m.body.readInt32LE(0), m.body.readInt32LE(4)]; // geometry
        if (m.opcode === 1 && m.body.readUInt32LE(0) & 1) [o.pixelWidth, o.pixelHeight] = [m.body.readInt32LE(4), m.body.readInt32LE(8)]; // current mode
        if (m.opcode === 3) o.scale = m.body.readInt32LE(0);
        if (m.opcode === 4) o.name = readString(m.body, 0)[0];
        if (m.opcode === 5) o.description = readString(m.body, 0)[0];
      }
      const x = byXdg.get(m.object);
      if (x) {
        if (m.opcode === 0) [x.x, x.y] = [m.body.readInt32LE(0), m.body.readInt32LE(4)];
        if (m.opcode === 1) [x.width, x.height] = [m.body.readInt32LE(0), m.body.readInt32LE(4)];
        if (m.opcode === 3 && !x.name) x.name = readString(m.body, 0)[0];
      }
    });
    return [...outputs.values()].map(({ xdg: _xdg, ...o }) => ({
      ...o,
      // Without xdg-output the logical size is the mode divided by the scale.
      width: o.width || Math.round(o.pixelWidth / (o.scale || 1)),
      height: o.height || Math.round(o.pixelHeight / (o.scale || 1)),
    }));
  } finally {
    socket.destroy();
  }
}

function open(path: string, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ path });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the Wayland compositor at ${path} did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot reach the Wayland compositor at ${path} (${(error as NodeJS.ErrnoException).code ?? error.message})`));
    });
  });
}

/** Requests out; events in, handed to a listener until the callback of a wl_display.sync fires. */
class Connection {
  #nextId = 2;
  #buffer = Buffer.alloc(0);
  #listener: ((m: Message) => void) | undefined;
  #failure: Error | undefined;
  #wake: (() => void) | undefined;

  readonly #socket: Socket;
  readonly #timeoutMs: number;

  constructor(socket: Socket, timeoutMs: number) {
    this.#socket = socket;
    this.#timeoutMs = timeoutMs;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      while (this.#buffer.length >= 8) {
        const size = this.#buffer.readUInt32LE(4) >>> 16;
        if (size < 8 || this.#buffer.length < size) break;
        const m = { object: this.#buffer.readUInt32LE(0), opcode: this.#buffer.readUInt32LE(4) & 0xffff, body: this.#buffer.subarray(8, size) };
        this.#buffer = this.#buffer.subarray(size);
        if (m.object === 1 && m.opcode === 0) this.#fail(new Error(`the Wayland compositor refused a request: ${readString(m.body, 8)[0]}`));
        else this.#listener?.(m);
      }
    });
    socket.on('error', (error) => this.#fail(error));
    socket.on('close', () => this.#fail(new Error('the Wayland compositor closed the connection')));
  }

  #fail(error: Error) {
    this.#failure ??= error;
    this.#wake?.();
  }

  newId(): number {
    return this.#nextId++;
  }

  send(object: number, opcode: number, args: Buffer): void {
    const head = Buffer.alloc(8);
    head.writeUInt32LE(object, 0);
    head.writeUInt32LE(((8 + args.length) << 16) | opcode, 4);
    this.#socket.write(Buffer.concat([head, args]));
  }

  /** wl_display.sync: every event before its callback's `done` goes to `listener`. */
  async roundTrip(listener: (m: Message) => void): Promise<void> {
    const callback = this.newId();
    let done = false;
    this.#listener = (m) => {
      if (m.object === callback && m.opcode === 0) {
        done = true;
        this.#wake?.();
      } else listener(m);
    };
    this.send(1, 0, u32(callback));
    const timer = setTimeout(() => this.#fail(new Error(`the Wayland compositor did not answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
    try {
      while (!done) {
        if (this.#failure) throw this.#failure;
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      clearTimeout(timer);
      this.#listener = undefined;
    }
  }
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

function string(s: string): Buffer {
  const bytes = Buffer.from(`${s}\0`, 'utf8');
  return Buffer.concat([u32(bytes.length), bytes, Buffer.alloc((4 - (bytes.length % 4)) % 4)]);
}

/** A wire string at `at`: its text and the offset after it. */
function readString(body: Buffer, at: number): [string, number] {
  const length = body.readUInt32LE(at);
  const text = body.subarray(at + 4, at + 4 + Math.max(0, length - 1)).toString('utf8');
  return [text, at + 4 + length + ((4 - (length % 4)) % 4)];
}
