// Every name X gives a window: node-screenshots reports a window's title from
// _NET_WM_NAME and its app from WM_CLASS, and a window that sets only the legacy WM_NAME (or no
// class) comes back "" — a password manager then is not known as one and is not filled. This reads
// the properties themselves over the tiny X11 client (x11Connection.ts) for the windows that came
// back without a title or an app, and fills in what the system does say.
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

/** `windows` with an empty title or app filled from the names X gives (node-screenshots left them ""). */
export async function withLegacyNames(windows: WindowInfo[], options: X11Options = {}): Promise<WindowInfo[]> {
  const missing = windows.filter((w) => (!w.title || !w.app) && /^\d+$/.test(w.id));
  if (process.platform !== 'linux' || !missing.length) return windows;
  try {
    const names = await x11WindowNames(missing.map((w) => Number(w.id)), { timeoutMs: 500, ...options });
    return windows.map((w) => {
      const n = names.get(Number(w.id));
      if (!n) return w;
      return { ...w, title: w.title || n.netWmName || n.wmName || '', app: w.app || n.wmClass?.at(-1) || n.wmClass?.[0] || '' };
    });
  } catch {
    return windows; // no X server to ask (Wayland without XWayland): the names stay as given
  }
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
