// Where the X pointer is, over a tiny X11 client (x11Connection.ts). Plain Node, no xdotool, no
// native addon: the CLI finds the display under the cursor the same way the Electron shell does
// with screen.getCursorScreenPoint().
import { errorMessage } from '../errors.ts';
import { withX11Connection, type X11Options } from './x11Connection.ts';

type Point = { x: number; y: number };

/**
 * Connects to DISPLAY and asks for the pointer: proves the X server is reachable (and says why
 * not, in words) without touching native capture code, whose X connection failures stick for
 * the life of the process. Rejects only when `signal` aborts.
 */
export async function probeX11Display(options: X11Options = {}): Promise<{ ok: true; pointer: Point } | { ok: false; reason: string }> {
  const env = options.env ?? process.env;
  const name = env.DISPLAY;
  if (!name) return { ok: false, reason: 'DISPLAY is not set' };
  try {
    const pointer = await withX11Connection(name, options, async (conn) => {
      const reply = await conn.request(queryPointerRequest(conn.root));
      // root-x, root-y are INT16 at offsets 16 and 18 of the 32-byte reply.
      return { x: reply.readInt16LE(16), y: reply.readInt16LE(18) };
    });
    return { ok: true, pointer };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const reason = errorMessage(error);
    return { ok: false, reason: reason.includes('aborted due to timeout') || (error as { name?: string }).name === 'TimeoutError' ? 'the X server did not answer in time' : reason };
  }
}

function queryPointerRequest(root: number): Buffer {
  const req = Buffer.alloc(8);
  req.writeUInt8(38, 0); // QueryPointer
  req.writeUInt16LE(2, 2);
  req.writeUInt32LE(root, 4);
  return req;
}

