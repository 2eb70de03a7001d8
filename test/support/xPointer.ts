// Moves the X pointer for the capture tests. The product only reads the pointer
// (main/capture/x11Pointer.ts); moving it is the tests' own request, sent over the same
// connection code (main/capture/x11Connection.ts).
import { withX11Connection } from '../../main/capture/x11Connection.ts';

/** Moves the pointer to an absolute root position of env.DISPLAY; resolves once the server has done it. Throws on failure. */
export async function warpPointer(point: { x: number; y: number }, options: { env: NodeJS.ProcessEnv }): Promise<void> {
  const name = options.env.DISPLAY;
  if (!name) throw new Error('DISPLAY is not set');
  await withX11Connection(name, options, async (conn) => {
    const warp = Buffer.alloc(24);
    warp.writeUInt8(41, 0); // WarpPointer
    warp.writeUInt16LE(6, 2);
    warp.writeUInt32LE(0, 4); // src-window: None
    warp.writeUInt32LE(conn.root, 8);
    warp.writeInt16LE(point.x, 20);
    warp.writeInt16LE(point.y, 22);
    conn.send(warp);
    // WarpPointer has no reply; a GetInputFocus round trip proves the server processed it.
    const sync = Buffer.alloc(4);
    sync.writeUInt8(43, 0);
    sync.writeUInt16LE(1, 2);
    await conn.request(sync);
  });
}

type Listed = { title: string; x: number; y: number; width: number; height: number };

/** Finds the listed window titled `title` and moves the pointer to its centre (what the hotkey's user does before "This window"). */
export async function pointAtWindow<W extends Listed>(
  windows: { listWindows(): Promise<W[]> },
  title: string,
  options: { env: NodeJS.ProcessEnv },
): Promise<W> {
  const w = (await windows.listWindows()).find((l) => l.title === title);
  if (!w) throw new Error(`${title} is not listed`);
  await warpPointer({ x: Math.round(w.x + w.width / 2), y: Math.round(w.y + w.height / 2) }, options);
  return w;
}
