// Every name X gives a window: node-screenshots reports a window's title from
// _NET_WM_NAME and its app from WM_CLASS, and a window that sets only the legacy WM_NAME (or no
// class) comes back "" — a password manager then is not known as one and is not filled. This reads
// the properties themselves over the tiny X11 client (x11Connection.ts) for the windows that came
// back without a title or an app, and fills in what the system does say. The same pass reads each
// window's frame: the window manager's parent window (title bar and borders) as the X server has it.
import { withX11Connection, type X11Options } from './x11Connection.ts';
import type { WindowInfo } from './screenCapturer.ts';

const WM_NAME = 39;
const WM_CLASS = 67;

export type X11Names = { netWmName?: string; wmName?: string; wmClass?: string[] };

/** _NET_WM_NAME, WM_NAME and WM_CLASS (instance, class) of each window id that has them. */
export async function x11WindowNames(ids: readonly number[], options: X11Options = {}): Promise<Map<number, X11Names>> {
  const name = (options.env ?? process.env).DISPLAY;
  const out = new Map<number, X11Names>();
  if (!name || !ids.length) return out;
  await withX11Connection(name, options, async (conn) => {
    const netWmName = (await conn.request(internAtom('_NET_WM_NAME'))).readUInt32LE(8);
    for (const id of ids) {
      const names: X11Names = {};
      const read = async (atom: number) => {
        try {
          return textOf(await conn.request(getProperty(id, atom)));
        } catch {
          return undefined; // the window closed while it was listed (BadWindow)
        }
      };
      const net = netWmName ? await read(netWmName) : undefined;
      const legacy = await read(WM_NAME);
      const cls = await read(WM_CLASS);
      if (net) names.netWmName = net;
      if (legacy) names.wmName = legacy;
      if (cls) names.wmClass = cls.split('\0').filter(Boolean);
      out.set(id, names);
    }
  });
  return out;
}

/**
 * `windows` with an empty title or app filled from the names X gives (node-screenshots left them
 * ""), and each one's frame where a window manager put it in one.
 */
export async function withX11Facts(windows: WindowInfo[], options: X11Options = {}): Promise<WindowInfo[]> {
  const listed = windows.filter((w) => /^\d+$/.test(w.id));
  if (process.platform !== 'linux' || !listed.length) return windows;
  const missing = listed.filter((w) => !w.title || !w.app);
  try {
    const timed = { timeoutMs: 500, ...options };
    const [names, frames] = await Promise.all([missing.length ? x11WindowNames(missing.map((w) => Number(w.id)), timed) : new Map<number, X11Names>(), x11WindowFrames(listed.map((w) => Number(w.id)), timed)]);
    return windows.map((w) => {
      const n = names.get(Number(w.id));
      const frame = frames.get(Number(w.id));
      const named = n ? { title: w.title || n.netWmName || n.wmName || '', app: w.app || n.wmClass?.at(-1) || n.wmClass?.[0] || '' } : {};
      return { ...w, ...named, ...(frame ? { frame } : {}) };
    });
  } catch {
    return windows; // no X server to ask (Wayland without XWayland): the facts stay as given
  }
}

type Box = { x: number; y: number; width: number; height: number };

/**
 * The frame of each window: its top-level ancestor (the child of the root a window manager
 * reparents it into), where that differs from the window itself — its place on the root and its
 * size, as `xwininfo -id <frame>` gives them. Windows no manager framed are left out.
 */
export async function x11WindowFrames(ids: readonly number[], options: X11Options = {}): Promise<Map<number, Box>> {
  const name = (options.env ?? process.env).DISPLAY;
  const out = new Map<number, Box>();
  if (!name || !ids.length) return out;
  await withX11Connection(name, options, async (conn) => {
    for (const id of ids) {
      try {
        let top = id;
        for (let depth = 0; depth < 8; depth++) {
          const tree = await conn.request(xidRequest(15, top)); // QueryTree: root at 8, parent at 12
          const parent = tree.readUInt32LE(12);
          if (parent === tree.readUInt32LE(8) || parent === 0) break;
          top = parent;
        }
        if (top === id) continue;
        const geometry = await conn.request(xidRequest(14, top)); // GetGeometry: width 16, height 18
        const at = await conn.request(translate(top, conn.root)); // TranslateCoordinates: dst x 12, y 14
        out.set(id, { x: at.readInt16LE(12), y: at.readInt16LE(14), width: geometry.readUInt16LE(16), height: geometry.readUInt16LE(18) });
      } catch {
        // the window closed while it was listed (BadWindow)
      }
    }
  });
  return out;
}

function xidRequest(opcode: number, id: number): Buffer {
  const req = Buffer.alloc(8);
  req.writeUInt8(opcode, 0);
  req.writeUInt16LE(2, 2);
  req.writeUInt32LE(id, 4);
  return req;
}

function translate(window: number, root: number): Buffer {
  const req = Buffer.alloc(16);
  req.writeUInt8(40, 0); // TranslateCoordinates of (0, 0)
  req.writeUInt16LE(4, 2);
  req.writeUInt32LE(window, 4);
  req.writeUInt32LE(root, 8);
  return req;
}

function internAtom(name: string): Buffer {
  const n = Buffer.from(name, 'latin1');
  const pad = (4 - (n.length % 4)) % 4;
  const req = Buffer.alloc(8 + n.length + pad);
  req.writeUInt8(16, 0); // InternAtom
  req.writeUInt8(1, 1); // only if exists
  req.writeUInt16LE(req.length / 4, 2);
  req.writeUInt16LE(n.length, 4);
  n.copy(req, 8);
  return req;
}

function getProperty(window: number, property: number): Buffer {
  const req = Buffer.alloc(24);
  req.writeUInt8(20, 0); // GetProperty
  req.writeUInt16LE(6, 2);
  req.writeUInt32LE(window, 4);
  req.writeUInt32LE(property, 8);
  req.writeUInt32LE(0, 12); // AnyPropertyType
  req.writeUInt32LE(0, 16);
  req.writeUInt32LE(256, 20); // up to 1 KiB
  return req;
}

/** The text of a GetProperty reply of 8-bit format (STRING is Latin-1, UTF8_STRING and others read as UTF-8). */
function textOf(reply: Buffer): string | undefined {
  const format = reply.readUInt8(1);
  const count = reply.readUInt32LE(16);
  if (format !== 8 || !count) return undefined;
  const data = reply.subarray(32, 32 + count);
  const utf8 = data.toString('utf8');
  return (utf8.includes('\uFFFD') ? data.toString('latin1') : utf8).replace(/\0+$/, '');
}
