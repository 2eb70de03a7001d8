// Every head of a multi-head X server: Xvfb with two screens joined by Xinerama (one RandR output
// for both, which is all node-screenshots sees). Both heads are listed as XINERAMA reports them
// (xdpyinfo is the control) and each is captured with its own pixels: a window of known colour
// that only the second, larger head shows, and one both show.
// DISPLAY is set for this whole file (its own forked process): node-screenshots connects once.
// Debian packages: xvfb, x11-utils (xmessage, xdpyinfo).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import type { Capture, CaptureResult } from '../../main/capture/screenCapturer.ts';
import { startXvfb, type XServer } from '../fixtures/xvfb.ts';
import { rgbAt } from '../support/desktop.ts';

const run = promisify(execFile);
// Head 1 is larger: Xvfb puts both at the origin, so (700, 530) is on head 1 only.
const ONLY_SECOND = { x: 680, y: 510, width: 80, height: 60, color: '#00ff00', rgb: '0,255,0' };
const ON_BOTH = { x: 100, y: 100, width: 120, height: 80, color: '#ff0000', rgb: '255,0,0' };

let x: XServer;
const children: ChildProcess[] = [];
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

beforeAll(async () => {
  x = await startXvfb({ width: 640, height: 480, xineramaScreens: [{ width: 800, height: 600 }] });
  Object.assign(process.env, { DISPLAY: x.display, XDG_SESSION_TYPE: 'x11' });
  delete process.env.WAYLAND_DISPLAY;
  // No window manager: each window sits exactly where its geometry says.
  for (const w of [ONLY_SECOND, ON_BOTH]) {
    children.push(spawn('xmessage', ['-geometry', `${w.width}x${w.height}+${w.x}+${w.y}`, '-xrm', `*background: ${w.color}`, '-xrm', '*borderWidth: 0', ' '], { env: x.env, stdio: 'ignore' }));
  }
});

afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  await x?.stop();
});

function ok(result: CaptureResult): Capture {
  if (!result.ok) throw new Error(`capture failed: ${result.code}: ${result.message}`);
  return result.capture;
}

async function captureUntil(id: string, check: (c: Capture) => Promise<boolean>): Promise<Capture> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const c = ok(await capturer.capture({ display: id }));
    if ((await check(c)) || Date.now() > deadline) return c;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('Xinerama: two screens on one X server', () => {
  it('lists both heads as XINERAMA reports them (xdpyinfo the control), the first primary', async () => {
    const { stdout } = await run('xdpyinfo', ['-ext', 'XINERAMA'], { env: x.env });
    const heads = [...stdout.matchAll(/head #(\d+): (\d+)x(\d+) @ (-?\d+),(-?\d+)/g)].map((m) => ({ width: Number(m[2]), height: Number(m[3]), x: Number(m[4]), y: Number(m[5]) }));
    expect(heads).toHaveLength(2);
    const displays = await capturer.listDisplays();
    expect(displays.map(({ x, y, width, height }) => ({ x, y, width, height }))).toEqual(heads);
    expect(displays.map((d) => d.primary)).toEqual([true, false]);
  });

  it('captures the second head at its size, with what only it shows', async () => {
    const second = (await capturer.listDisplays())[1]!;
    const c = await captureUntil(second.id, async (c) => (await rgbAt(c.png, ONLY_SECOND.x + 20, ONLY_SECOND.y + 20)) === ONLY_SECOND.rgb);
    expect([c.width, c.height]).toEqual([800, 600]);
    expect(c.display.id).toBe(second.id);
    expect(await rgbAt(c.png, ONLY_SECOND.x + 20, ONLY_SECOND.y + 20)).toBe(ONLY_SECOND.rgb);
    expect(await rgbAt(c.png, ON_BOTH.x + 20, ON_BOTH.y + 20)).toBe(ON_BOTH.rgb);
    expect(await rgbAt(c.png, 790, 10)).not.toBe(ONLY_SECOND.rgb);
    // A region of it, in its pixels.
    const r = ok(await capturer.capture({ display: second.id }, { region: { x: ONLY_SECOND.x, y: ONLY_SECOND.y, width: 40, height: 30 } }));
    expect([r.width, r.height]).toEqual([40, 30]);
    expect(await rgbAt(r.png, 20, 15)).toBe(ONLY_SECOND.rgb);
  });

  it('captures the first head at its own size', async () => {
    const first = (await capturer.listDisplays())[0]!;
    const c = await captureUntil(first.id, async (c) => (await rgbAt(c.png, ON_BOTH.x + 20, ON_BOTH.y + 20)) === ON_BOTH.rgb);
    expect([c.width, c.height]).toEqual([640, 480]);
    expect(await rgbAt(c.png, ON_BOTH.x + 20, ON_BOTH.y + 20)).toBe(ON_BOTH.rgb);
  });
});
