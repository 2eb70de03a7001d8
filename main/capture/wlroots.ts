// The wlroots route on Wayland, for sway: sway's IPC (SWAYSOCK, plain JSON over a Unix socket)
// says where the outputs and windows are — every window, native Wayland ones included, which an
// X-based list never sees — and grim grabs an output's pixels through wlroots screencopy
// (zwlr_screencopy_manager_v1). nodeScreenshotsCapturer.ts takes this route in a sway session, and
// on another Wayland desktop without XWayland where grim is installed (outputsModule: the outputs
// the compositor lists over its socket, waylandOutputs.ts).
//
// Why grim and not our own Wayland client: screencopy copies into a buffer the client hands the
// compositor, and both kinds of buffer (wl_shm pools, linux-dmabuf) are passed as a file
// descriptor over the Wayland socket (SCM_RIGHTS). Node's net module cannot send a descriptor,
// so a pure-JS client can list outputs but cannot receive a frame; grim (Debian: grim) can.
// Measured on headless sway 1.7 (no XWayland, no D-Bus): node-screenshots cannot even list the
// outputs ("error during parsing display string"), grim captures in ~40 ms at 800×600.
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import sharp from 'sharp';
import { waylandOutputs, waylandSocket } from './waylandOutputs.ts';

/** The parts of node-screenshots' Image the capturer uses; `channels` of toRaw's pixels: 4 (RGBA, node-screenshots) unless said. */
export type ImageLike = {
  width: number;
  height: number;
  channels?: 3 | 4;
  crop(x: number, y: number, width: number, height: number): Promise<ImageLike>;
  toRaw(copyOutputData?: boolean): Promise<Buffer>;
};
/** The parts of node-screenshots' Monitor the capturer uses. */
export type MonitorLike = {
  id(): number | string;
  name(): string;
  x(): number;
  y(): number;
  width(): number;
  height(): number;
  scaleFactor(): number;
  isPrimary(): boolean;
  captureImage(): Promise<ImageLike>;
};
/** The parts of node-screenshots' Window the capturer uses; `frame` where the compositor draws one. */
export type WindowLike = {
  id(): number;
  pid(): number;
  appName(): string;
  title(): string;
  x(): number;
  y(): number;
  width(): number;
  height(): number;
  isMinimized(): boolean;
  isFocused(): boolean;
  frame?(): { x: number; y: number; width: number; height: number };
};

/**
 * A source of monitors and windows: node-screenshots itself, or this route. `x11`: window ids are the
 * X server's. `focus`: where the person is, where the compositor says (sway: the focused window,
 * focus following the pointer) — what 'under-cursor' means where no pointer can be read.
 */
export type CaptureModule = {
  Monitor: { all(): MonitorLike[] | Promise<MonitorLike[]> };
  Window: { all(): WindowLike[] | Promise<WindowLike[]> };
  x11: boolean;
  focus?(): Promise<{ x: number; y: number } | undefined>;
};

type Rect = { x: number; y: number; width: number; height: number };
type SwayOutput = { name: string; make?: string; model?: string; active: boolean; focused?: boolean; scale?: number; rect: Rect };
type SwayNode = {
  id: number;
  name?: string | null;
  type: string;
  focused: boolean;
  visible?: boolean;
  pid?: number;
  app_id?: string | null;
  window_properties?: { class?: string; instance?: string };
  rect: Rect;
  window_rect: Rect;
  deco_rect?: Rect;
  nodes?: SwayNode[];
  floating_nodes?: SwayNode[];
};

const GET_OUTPUTS = 3;
const GET_TREE = 4;

/** The sway IPC socket of this session, when there is one. */
export function swaySocket(env: NodeJS.ProcessEnv): string | undefined {
  return env.SWAYSOCK || undefined;
}

/** One request over sway's IPC ("i3-ipc", length, type, JSON payload), bounded in time. */
export function swayRequest(socketPath: string, type: number, timeoutMs = 2_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = connect({ path: socketPath });
    let buffer = Buffer.alloc(0);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`sway's IPC socket ${socketPath} did not answer within ${timeoutMs} ms`)), timeoutMs);
    socket.once('error', (error) => {
      clearTimeout(timer);
      fail(new Error(`cannot reach sway's IPC socket ${socketPath} (${(error as NodeJS.ErrnoException).code ?? error.message})`));
    });
    socket.once('connect', () => {
      const head = Buffer.alloc(14);
      head.write('i3-ipc', 0, 'latin1');
      head.writeUInt32LE(0, 6);
      head.writeUInt32LE(type, 10);
      socket.write(head);
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length < 14) return;
      const length = buffer.readUInt32LE(6);
      if (buffer.length < 14 + length) return;
      clearTimeout(timer);
      socket.destroy();
      try {
        resolve(JSON.parse(buffer.subarray(14, 14 + length).toString('utf8')));
      } catch (error) {
        reject(new Error(`sway's IPC answered with something that is not JSON (${(error as Error).message})`));
      }
    });
  });
}

/** Monitors from sway's outputs, windows from its tree, pixels from grim. */
export function wlrootsModule(env: NodeJS.ProcessEnv, socketPath: string): CaptureModule {
  return {
    x11: false,
    Monitor: {
      all: async () => {
        const outputs = ((await swayRequest(socketPath, GET_OUTPUTS)) as SwayOutput[]).filter((o) => o.active);
        return outputs.map((o) => outputMonitor(o, env));
      },
    },
    Window: { all: async () => windowsOf((await swayRequest(socketPath, GET_TREE)) as SwayNode) },
    // The focused window's centre (else the focused workspace's): on its output, and topmost there.
    focus: async () => {
      const focused = focusedNode((await swayRequest(socketPath, GET_TREE)) as SwayNode);
      return focused && { x: focused.rect.x + focused.rect.width / 2, y: focused.rect.y + focused.rect.height / 2 };
    },
  };
}

/**
 * Any other wlroots compositor without XWayland: the outputs it lists over the Wayland socket
 * (waylandOutputs.ts), pixels from grim; no windows (Wayland has no common way to list them with
 * their geometry).
 */
export function outputsModule(env: NodeJS.ProcessEnv): CaptureModule {
  return {
    x11: false,
    Monitor: {
      all: async () => {
        const socket = waylandSocket(env);
        if (!socket) throw new Error('WAYLAND_DISPLAY names no socket (XDG_RUNTIME_DIR is not set)');
        const outputs = await waylandOutputs(socket);
        const origin = outputs.find((o) => o.x === 0 && o.y === 0) ?? outputs[0];
        return outputs.map((o) => outputMonitor({ name: o.name, model: o.description, active: true, scale: o.scale, rect: o, primary: o === origin }, env));
      },
    },
    Window: { all: () => [] },
  };
}

/** Whether `binary` is a file in one of PATH's folders. */
export function onPath(binary: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      return dir !== '' && statSync(join(dir, binary)).isFile();
    } catch {
      return false;
    }
  });
}

function outputMonitor(o: SwayOutput & { primary?: boolean }, env: NodeJS.ProcessEnv): MonitorLike {
  return {
    id: () => o.name,
    name: () => [o.make, o.model].filter((s) => s && s !== 'Unknown').join(' ') || o.name,
    x: () => o.rect.x,
    y: () => o.rect.y,
    width: () => o.rect.width,
    height: () => o.rect.height,
    scaleFactor: () => o.scale ?? 1,
    // Wayland has no primary output: the one at the desktop's origin is what people call primary.
    isPrimary: () => o.primary ?? (o.rect.x === 0 && o.rect.y === 0),
    captureImage: async () => ppmImage(await grim(['-o', o.name], env)),
  };
}

/** Runs grim writing a binary PPM to stdout (no PNG to decode): the output's pixels at its scale. */
function grim(args: string[], env: NodeJS.ProcessEnv): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile('grim', ['-t', 'ppm', ...args, '-'], { env, encoding: 'buffer', maxBuffer: 1 << 30, timeout: 15_000 }, (error, stdout, stderr) => {
      if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') {
        reject(new Error('grim is not installed — on sway, Glance takes screenshots with it (wlroots screencopy): install the grim package'));
      } else if (error) reject(new Error(`grim failed: ${stderr.toString().trim() || error.message}`));
      else resolve(stdout);
    });
  });
}

/** A P6 PPM (maxval 255) as an ImageLike over its RGB pixels. */
export function ppmImage(ppm: Buffer): ImageLike {
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('grim did not give a PPM image');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const rgb = ppm.subarray(header[0].length, header[0].length + width * height * 3);
  if (rgb.length !== width * height * 3) throw new Error(`grim's image is cut short (${rgb.length} of ${width * height * 3} bytes)`);
  return rgbImage(rgb, width, height);
}

function rgbImage(rgb: Buffer, width: number, height: number): ImageLike {
  const pipeline = () => sharp(rgb, { raw: { width, height, channels: 3 } });
  return {
    width,
    height,
    channels: 3, // grim's RGB as it came: no alpha added here to be dropped again
    crop: async (x, y, w, h) => rgbImage(await pipeline().extract({ left: x, top: y, width: w, height: h }).raw().toBuffer(), w, h),
    toRaw: async () => rgb,
  };
}

function focusedNode(node: SwayNode): SwayNode | undefined {
  if (node.focused) return node;
  for (const child of [...(node.nodes ?? []), ...(node.floating_nodes ?? [])]) {
    const found = focusedNode(child);
    if (found) return found;
  }
  return undefined;
}

/**
 * Every window in sway's tree that is shown (views on a visible workspace), focused first, then
 * floating ones (drawn above the tiled), as node-screenshots would list them. Geometry: the
 * content (window_rect inside the container's rect); the frame is the container with its borders
 * and the title bar sway draws above it (deco_rect; measured on sway 1.7: rect starts below it).
 */
function windowsOf(tree: SwayNode): WindowLike[] {
  const found: { node: SwayNode; floating: boolean }[] = [];
  const walk = (node: SwayNode, floating: boolean) => {
    if (node.pid !== undefined && (node.app_id !== undefined || node.window_properties)) found.push({ node, floating });
    for (const child of node.nodes ?? []) walk(child, floating);
    for (const child of node.floating_nodes ?? []) walk(child, true);
  };
  walk(tree, false);
  found.sort((a, b) => Number(b.node.focused) - Number(a.node.focused) || Number(b.floating) - Number(a.floating));
  return found.map(({ node: n }) => ({
    id: () => n.id,
    pid: () => n.pid as number,
    appName: () => n.app_id || n.window_properties?.class || n.window_properties?.instance || '',
    title: () => n.name ?? '',
    x: () => n.rect.x + n.window_rect.x,
    y: () => n.rect.y + n.window_rect.y,
    width: () => n.window_rect.width,
    height: () => n.window_rect.height,
    isMinimized: () => n.visible === false,
    isFocused: () => n.focused,
    frame: () => {
      const title = n.deco_rect?.height ?? 0;
      return { x: n.rect.x, y: n.rect.y - title, width: n.rect.width, height: n.rect.height + title };
    },
  }));
}
