// Two monitors side by side (Xorg + dummy driver: each monitor its own RandR output, as on a
// real desk — see test/fixtures/xvfb.ts for why not Xvfb), a different page on each, the pointer
// moved with a real X request, and 'under-cursor' must capture the monitor the pointer is on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import type { Capture, CaptureResult, DisplayInfo } from '../../main/capture/screenCapturer.ts';
import { probeX11Display } from '../../main/capture/x11Pointer.ts';
import { warpPointer } from '../support/xPointer.ts';
import { startMultiMonitorX, type XServer } from '../fixtures/xvfb.ts';
import { blocksHtml, showPage, type ScreenPage } from '../fixtures/screenPage.ts';
import { startWindowManager } from '../fixtures/desktopWindows.ts';

const LEFT = { width: 1024, height: 600 };
const RIGHT = { width: 800, height: 640 };
const RED: [number, number, number] = [255, 0, 0];
const BLUE: [number, number, number] = [0, 0, 255];
const BLACK: [number, number, number] = [0, 0, 0];

let x: XServer;
const pages: ScreenPage[] = [];
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

beforeAll(async () => {
  x = await startMultiMonitorX({ monitors: [LEFT, RIGHT] });
  Object.assign(process.env, { DISPLAY: x.display, XDG_SESSION_TYPE: 'x11' });
  delete process.env.WAYLAND_DISPLAY;
  const [left, right] = x.monitors;
  // A red page on the left monitor, a blue one on the right, each with a white marker block.
  pages.push(await showPage(x.env, blocksHtml('#ff0000', [{ x: 10, y: 10, width: 50, height: 50, color: '#ffffff' }]), { monitor: left! }));
  pages.push(await showPage(x.env, blocksHtml('#0000ff', [{ x: 10, y: 10, width: 50, height: 50, color: '#ffffff' }]), { monitor: right! }));
});

afterAll(async () => {
  for (const p of pages) await p.close();
  await x?.stop();
});

function ok(result: CaptureResult): Capture {
  if (!result.ok) throw new Error(`capture failed: ${result.code}: ${result.message}`);
  return result.capture;
}

async function pixel(c: Capture, px: number, py: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(c.png).raw().toBuffer({ resolveWithObject: true });
  const at = (py * info.width + px) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

async function captureUntil(expected: [number, number, number], take: () => Promise<CaptureResult>): Promise<Capture> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const c = ok(await take());
    if ((await pixel(c, c.width - 20, c.height - 20)).join() === expected.join() || Date.now() > deadline) return c;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('two monitors', () => {
  let displays: DisplayInfo[];

  it('lists both monitors with their layout, the primary first', async () => {
    displays = await capturer.listDisplays();
    expect(displays.map((d) => [d.name, d.x, d.y, d.width, d.height, d.primary])).toEqual([
      ['DUMMY0', 0, 0, LEFT.width, LEFT.height, true],
      ['DUMMY1', LEFT.width, 0, RIGHT.width, RIGHT.height, false],
    ]);
  });

  it('captures the monitor under the pointer: right, then left, then right again', async () => {
    const cases: Array<{ at: { x: number; y: number }; name: string; size: typeof LEFT; colour: [number, number, number] }> = [
      { at: { x: LEFT.width + 400, y: 300 }, name: 'DUMMY1', size: RIGHT, colour: BLUE },
      { at: { x: 5, y: LEFT.height - 1 }, name: 'DUMMY0', size: LEFT, colour: RED },
      { at: { x: LEFT.width, y: 0 }, name: 'DUMMY1', size: RIGHT, colour: BLUE }, // the right monitor's first column
    ];
    for (const { at, name, size, colour } of cases) {
      await warpPointer(at, { env: x.env });
      expect(await probeX11Display({ env: x.env })).toEqual({ ok: true, pointer: at });
      const c = await captureUntil(colour, () => capturer.capture('under-cursor'));
      expect(c.display.name, `pointer at ${at.x},${at.y}`).toBe(name);
      expect([c.width, c.height]).toEqual([size.width, size.height]);
      expect(await pixel(c, c.width - 20, c.height - 20)).toEqual(colour);
      expect(await pixel(c, 30, 30)).toEqual([255, 255, 255]); // that page's marker, at the monitor's own origin
    }
  });

  it('uses an injected cursor locator (the Electron shell passes its own); a point on no monitor picks the nearest', async () => {
    // (100, 620) is below the 600-px-tall left monitor, in a dead area X itself never lets the pointer reach.
    const located = new NodeScreenshotsCapturer({ cursor: async () => ({ x: 100, y: 620 }) });
    expect(ok(await located.capture('under-cursor')).display.name).toBe('DUMMY0');
    const right = new NodeScreenshotsCapturer({ cursor: async () => ({ x: LEFT.width + 1, y: 1 }) });
    expect(ok(await right.capture('under-cursor')).display.name).toBe('DUMMY1');
    // No position at all (a locator that knows nothing): the primary display.
    const unknown = new NodeScreenshotsCapturer({ cursor: async () => undefined });
    expect(ok(await unknown.capture('under-cursor')).display.name).toBe('DUMMY0');
  });

  it('captures a display by id, and a region of it in its own pixel coordinates', async () => {
    const right = displays.find((d) => d.name === 'DUMMY1')!;
    const c = ok(await capturer.capture({ display: right.id }, { region: { x: 0, y: 0, width: 100, height: 100 } }));
    expect(c.display).toEqual(right);
    expect([c.width, c.height]).toEqual([100, 100]);
    expect(await pixel(c, 30, 30)).toEqual([255, 255, 255]);
    expect(await pixel(c, 80, 80)).toEqual(BLUE);
  });

  it('captures "all" as one image laid out like the desktop', async () => {
    const c = ok(await capturer.capture('all'));
    expect(c.display).toMatchObject({ id: 'all', x: 0, y: 0, width: LEFT.width + RIGHT.width, height: RIGHT.height });
    expect([c.width, c.height]).toEqual([LEFT.width + RIGHT.width, RIGHT.height]);
    expect(await pixel(c, LEFT.width - 10, 300)).toEqual(RED);
    expect(await pixel(c, LEFT.width + 10 + 30, 30)).toEqual([255, 255, 255]); // right page's marker
    expect(await pixel(c, LEFT.width + 100, 300)).toEqual(BLUE);
    expect(await pixel(c, 100, LEFT.height + 20)).toEqual(BLACK); // below the left monitor: no screen there
  });

  it('"all" carries the window list in its own pixels, as one display does (the door fills excluded apps from it)', async () => {
    // Windows are listed through the window manager (_NET_CLIENT_LIST): openbox, started last so the
    // tests above see the bare desktop. It finds the pages already there and focuses none of them,
    // which once emptied the list (a window's "focused" could not be read).
    const wm = await startWindowManager(x.env);
    try {
      let listed = await capturer.listWindows();
      for (const deadline = Date.now() + 15_000; listed.length < 2 && Date.now() < deadline; listed = await capturer.listWindows()) await new Promise((r) => setTimeout(r, 200));
      expect(listed.length).toBeGreaterThanOrEqual(2);
      const c = ok(await capturer.capture('all'));
      // Scale 1 and the desktop's origin at 0,0: a window's place on the canvas is its place on the desktop, clipped to it.
      const onCanvas = (w: { x: number; y: number; width: number; height: number }) => {
        const x0 = Math.max(0, w.x), y0 = Math.max(0, w.y);
        return [x0, y0, Math.min(c.width, w.x + w.width) - x0, Math.min(c.height, w.y + w.height) - y0].join();
      };
      const regions = (c.windows ?? []).map((w) => [w.region.x, w.region.y, w.region.width, w.region.height].join());
      expect(regions.sort()).toEqual(listed.map(onCanvas).sort());
      // The right monitor's page is among them, beyond the left monitor's width.
      expect((c.windows ?? []).some((w) => w.region.x >= LEFT.width)).toBe(true);
    } finally {
      await wm.stop();
    }
  });
});
