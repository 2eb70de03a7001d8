// node-screenshots' own Wayland route, run for real: headless sway with XWayland, no sway IPC in
// the environment (as on Hyprland, river or Wayfire, where Glance takes this route). Monitors come
// through XWayland; the pixels from the compositor — node-screenshots asks GNOME Shell, then the
// Screenshot portal, then wlroots screencopy, over the session D-Bus. grim is the control.
// Its own process: node-screenshots keeps its first X connection for the life of the process.
// Debian packages: sway, xwayland, grim, foot, x11-xserver-utils (xhost), dbus-daemon.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import type { Capture, CaptureResult } from '../../main/capture/screenCapturer.ts';
import { startSway, swayMissing, swayViews, type Sway } from '../fixtures/sway.ts';

const run = promisify(execFile);
const missing = swayMissing(['foot', 'Xwayland', 'xhost', 'dbus-daemon']);

let sway: Sway;
let bus: ChildProcess | undefined;
let busAddress = '';
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

beforeAll(async () => {
  if (missing.length) return;
  sway = await startSway(['output HEADLESS-1 resolution 800x600', 'default_border none']);
  // XWayland starts with its first client; sway's own `exec` runs as the session's user, who may
  // let root (this test) in, and says which display it is.
  const script = await sway.writeFile('display.sh', 'xhost +si:localuser:root >/dev/null\necho "$DISPLAY" > "$XDG_RUNTIME_DIR/display"\n');
  await sway.msg('exec', `sh ${script}`);
  const deadline = Date.now() + 20_000;
  let display = '';
  while (!display && Date.now() < deadline) {
    display = (await readFile(join(sway.runtimeDir, 'display'), 'utf8').catch(() => '')).trim();
    if (!display) await new Promise((r) => setTimeout(r, 100));
  }
  const config = await sway.writeFile('foot.ini', '[colors]\nbackground=ff0000\nforeground=ff0000\n[cursor]\ncolor=ff0000 ff0000\n');
  await sway.msg('exec', `env LANG=C.UTF-8 foot -c ${config} --title 'Red' sleep 600`);
  while ((await swayViews(sway)).length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address'], { stdio: ['ignore', 'pipe', 'ignore'] });
  busAddress = await new Promise<string>((resolve) => bus!.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  Object.assign(process.env, { ...sway.env, DISPLAY: display });
  delete process.env.SWAYSOCK; // not sway, as far as Glance can tell
  // node-screenshots keeps its first D-Bus connection (measured: a failed one too), so the bus is there from the start.
  process.env.DBUS_SESSION_BUS_ADDRESS = busAddress;
}, 60_000);

afterAll(async () => {
  bus?.kill('SIGTERM');
  await sway?.stop();
});

function ok(result: CaptureResult): Capture {
  if (!result.ok) throw new Error(`capture failed: ${result.code}: ${result.message}`);
  return result.capture;
}

describe.skipIf(missing.length > 0)(`Wayland through XWayland: node-screenshots' route (needs ${missing.join(', ') || 'nothing missing'})`, () => {
  it('lists the output through XWayland', async () => {
    expect((await capturer.listDisplays()).map((d) => [d.width, d.height])).toEqual([[800, 600]]);
  });

  it('captures the output by wlroots screencopy: the same pixels grim gives', async () => {
    let c = ok(await capturer.capture('primary'));
    const deadline = Date.now() + 15_000;
    const centre = async (png: Uint8Array) => [...(await sharp(png).extract({ left: 400, top: 300, width: 1, height: 1 }).removeAlpha().raw().toBuffer())].join();
    while ((await centre(c.png)) !== '255,0,0' && Date.now() < deadline) c = ok(await capturer.capture('primary'));
    expect([c.width, c.height]).toEqual([800, 600]);
    expect(await centre(c.png)).toBe('255,0,0');
    const { stdout } = await run('grim', ['-t', 'ppm', '-'], { env: { ...process.env }, encoding: 'buffer', maxBuffer: 1 << 26 });
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(stdout.subarray(0, 64).toString('latin1'))!;
    expect((await sharp(c.png).removeAlpha().raw().toBuffer()).equals(stdout.subarray(header[0].length))).toBe(true);
  });
});
