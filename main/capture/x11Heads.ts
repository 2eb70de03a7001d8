// Every head of a multi-head X server. node-screenshots finds monitors through RandR outputs, and
// an X server that joins its screens with Xinerama (Xvfb +xinerama, Xorg with several Screen
// sections) has one RandR output for them all: measured under Xvfb +xinerama with two screens,
// node-screenshots listed one 640×480 monitor and the second head could not be captured. This
// asks the XINERAMA extension for the heads, and takes a head's pixels with a core GetImage of its
// rectangle of the root window — over the tiny X11 client (x11Connection.ts), no native code.
import { withX11Connection, type X11Options } from './x11Connection.ts';
import type { ImageLike, MonitorLike } from './wlroots.ts';

type Rect = { x: number; y: number; width: number; height: number };

/** The heads XINERAMA reports, in its order (the first is the primary); empty when it is absent or off. */
export async function xineramaHeads(options: X11Options = {}): Promise<Rect[]> {
  const name = (options.env ?? process.env).DISPLAY;
  if (!name) return [];
  return withX11Connection(name, options, async (conn) => {
    const opcode = await extensionOpcode(conn.request, 'XINERAMA');
    if (!opcode) return [];
    const active = await conn.request(Buffer.from([opcode, 4, 1, 0])); // XineramaIsActive
    if (!active.readUInt32LE(8)) return [];
    const reply = await conn.request(Buffer.from([opcode, 5, 1, 0])); // XineramaQueryScreens
    const count = reply.readUInt32LE(8);
    const heads: Rect[] = [];
    for (let i = 0; i < count; i++) {
      const at = 32 + 8 * i;
      heads.push({ x: reply.readInt16LE(at), y: reply.readInt16LE(at + 2), width: reply.readUInt16LE(at + 4), height: reply.readUInt16LE(at + 6) });
    }
    return heads;
  });
}

/** The heads as monitors the capturer can list and grab (ids "xinerama-N"). */
export function headMonitors(heads: readonly Rect[], options: X11Options = {}): MonitorLike[] {
  return heads.map((head, i) => ({
    id: () => `xinerama-${i}`,
    name: () => `Xinerama head ${i}`,
    x: () => head.x,
    y: () => head.y,
    width: () => head.width,
    height: () => head.height,
    scaleFactor: () => 1,
    isPrimary: () => i === 0,
    captureImage: () => rootImage(head, options),
  }));
}

/** The root window's pixels in `rect` (GetImage, ZPixmap), as RGBA. 24- and 32-bit depths only. */
export async function rootImage(rect: Rect, options: X11Options = {}): Promise<ImageLike> {
  const name = (options.env ?? process.env).DISPLAY;
  if (!name) throw new Error('DISPLAY is not set');
  const reply = await withX11Connection(name, { timeoutMs: 10_000, ...options }, async (conn) => {
    const req = Buffer.alloc(20);
    req.writeUInt8(73, 0); // GetImage
    req.writeUInt8(2, 1); // ZPixmap
    req.writeUInt16LE(5, 2);
    req.writeUInt32LE(conn.root, 4);
    req.writeInt16LE(rect.x, 8);
    req.writeInt16LE(rect.y, 10);
    req.writeUInt16LE(rect.width, 12);
    req.writeUInt16LE(rect.height, 14);
    req.writeUInt32LE(0xffffffff, 16); // all planes
    return conn.request(req);
  });
  const depth = reply.readUInt8(1);
  const pixels = rect.width * rect.height;
  if ((depth !== 24 && depth !== 32) || reply.length < 32 + pixels * 4) throw new Error(`the X server gave a ${depth}-bit image; only 24- and 32-bit screens are read`);
  // 32 bits per pixel, little-endian B, G, R, X (the server answers in the byte order we asked).
  const rgba = Buffer.allocUnsafe(pixels * 4);
  for (let i = 0, at = 32; i < pixels * 4; i += 4, at += 4) {
    rgba[i] = reply[at + 2]!;
    rgba[i + 1] = reply[at + 1]!;
    rgba[i + 2] = reply[at]!;
    rgba[i + 3] = 255;
  }
  return rgbaImage(rgba, rect.width, rect.height);
}

function rgbaImage(rgba: Buffer, width: number, height: number): ImageLike {
  return {
    width,
    height,
    crop: async (x, y, w, h) => {
      const out = Buffer.allocUnsafe(w * h * 4);
      for (let row = 0; row < h; row++) rgba.copy(out, row * w * 4, ((y + row) * width + x) * 4, ((y + row) * width + x + w) * 4);
      return rgbaImage(out, w, h);
    },
    toRaw: async () => rgba,
  };
}

/** The major opcode of an extension, or 0 when the server does not have it (QueryExtension). */
async function extensionOpcode(request: (req: Buffer) => Promise<Buffer>, name: string): Promise<number> {
  const n = Buffer.from(name, 'latin1');
  const req = Buffer.alloc(8 + n.length + ((4 - (n.length % 4)) % 4));
  req.writeUInt8(98, 0); // QueryExtension
  req.writeUInt16LE(req.length / 4, 2);
  req.writeUInt16LE(n.length, 4);
  n.copy(req, 8);
  const reply = await request(req);
  return reply.readUInt8(8) ? reply.readUInt8(9) : 0;
}
