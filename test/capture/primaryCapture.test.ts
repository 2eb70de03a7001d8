// Real capture of a real X screen: Xvfb, Chromium in kiosk mode showing known colours,
// node-screenshots through the ScreenCapturer port, pixels read back with sharp.
// DISPLAY is set for this whole file (its own forked process): node-screenshots connects once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import type { Capture, CaptureResult } from '../../main/capture/screenCapturer.ts';
import { startXvfb, type XServer } from '../fixtures/xvfb.ts';
import { blocksHtml, chartHtml, showPage, type ScreenPage } from '../fixtures/screenPage.ts';
import { KNOWN_CHART, describeBars, readBars } from '../fixtures/chart.ts';

const W = 1600;
const H = 900;
const BLOCKS = [
  { x: 0, y: 0, width: 200, height: 100, color: '#ff0000' },
  { x: 1400, y: 0, width: 200, height: 100, color: '#00ff00' },
  { x: 0, y: 800, width: 200, height: 100, color: '#0000ff' },
  { x: 1400, y: 800, width: 200, height: 100, color: '#ffff00' },
  { x: 700, y: 400, width: 200, height: 100, color: '#ff00ff' },
];
const RGB: Record<string, [number, number, number]> = {
  '#ff0000': [255, 0, 0],
  '#00ff00': [0, 255, 0],
  '#0000ff': [0, 0, 255],
  '#ffff00': [255, 255, 0],
  '#ff00ff': [255, 0, 255],
  '#ffffff': [255, 255, 255],
};

let x: XServer;
let screen: ScreenPage;
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

beforeAll(async () => {
  x = await startXvfb({ width: W, height: H });
  Object.assign(process.env, { DISPLAY: x.display, XDG_SESSION_TYPE: 'x11' });
  delete process.env.WAYLAND_DISPLAY;
  screen = await showPage(x.env, blocksHtml('#ffffff', BLOCKS), { monitor: x.monitors[0]! });
});

afterAll(async () => {
  await screen?.close();
  await x?.stop();
});

async function pixels(c: Capture) {
  const { data, info } = await sharp(c.png).raw().toBuffer({ resolveWithObject: true });
  return (px: number, py: number): [number, number, number] => {
    const at = (py * info.width + px) * info.channels;
    return [data[at]!, data[at + 1]!, data[at + 2]!];
  };
}

function ok(result: CaptureResult): Capture {
  if (!result.ok) throw new Error(`capture failed: ${result.code}: ${result.message}`);
  return result.capture;
}

/** The compositor presents a frame or two after the page paints: capture until `check` passes. */
async function captureUntil(check: (c: Capture) => Promise<boolean>, take: () => Promise<CaptureResult>): Promise<Capture> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const c = ok(await take());
    if (await check(c)) return c;
    if (Date.now() > deadline) return c; // the assertions that follow say what is wrong
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('NodeScreenshotsCapturer under Xvfb', () => {
  it('lists the one display with its size, marked primary', async () => {
    const displays = await capturer.listDisplays();
    expect(displays).toHaveLength(1);
    expect(displays[0]).toMatchObject({ x: 0, y: 0, width: W, height: H, scaleFactor: 1, primary: true });
    expect(displays[0]!.id).toMatch(/^\d+$/);
  });

  it('captures the primary display: a PNG of the real pixels, each block where the page put it', async () => {
    const c = await captureUntil(
      async (c) => (await pixels(c))(800, 450).join() === RGB['#ff00ff']!.join(),
      () => capturer.capture('primary'),
    );
    expect([c.width, c.height]).toEqual([W, H]);
    const meta = await sharp(c.png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', W, H]);
    const at = await pixels(c);
    for (const b of BLOCKS) {
      expect(at(b.x + 5, b.y + 5), `${b.color} near its top-left`).toEqual(RGB[b.color]);
      expect(at(b.x + b.width - 5, b.y + b.height - 5), `${b.color} near its bottom-right`).toEqual(RGB[b.color]);
    }
    expect(at(400, 300)).toEqual(RGB['#ffffff']);
    expect(c.region).toBeUndefined();
    expect(c.display.primary).toBe(true);
    expect(Date.parse(c.capturedAt)).not.toBeNaN();
  });

  it('copying the native pixels into V8 memory (what Electron needs) gives the same capture, whole and as a region', async () => {
    const copying = new NodeScreenshotsCapturer({ timeoutMs: 20_000, copyOutputData: true });
    for (const region of [undefined, { x: 650, y: 370, width: 100, height: 60 }]) {
      const [copied, handed] = [ok(await copying.capture('primary', region ? { region } : {})), ok(await capturer.capture('primary', region ? { region } : {}))];
      const raw = async (c: Capture) => (await sharp(c.png).raw().toBuffer()).toString('base64');
      expect([copied.width, copied.height]).toEqual([handed.width, handed.height]);
      expect(await raw(copied)).toBe(await raw(handed)); // the page is still: the same pixels
    }
  });

  it('captures a region: exactly that sub-rectangle, at native resolution', async () => {
    // 100×60 straddling the magenta block's top-left corner at (700, 400).
    const c = ok(await capturer.capture('primary', { region: { x: 650, y: 370, width: 100, height: 60 } }));
    expect([c.width, c.height]).toEqual([100, 60]);
    expect(c.region).toEqual({ x: 650, y: 370, width: 100, height: 60 });
    const at = await pixels(c);
    expect(at(10, 10)).toEqual(RGB['#ffffff']); // (660, 380): outside the block
    expect(at(60, 40)).toEqual(RGB['#ff00ff']); // (710, 410): inside
    expect(at(49, 40)).toEqual(RGB['#ffffff']); // (699, 410): one pixel left of its edge
    expect(at(50, 29)).toEqual(RGB['#ffffff']); // (700, 399): one pixel above its edge
    expect(at(50, 30)).toEqual(RGB['#ff00ff']); // (700, 400): its corner
  });

  it('clamps a region hanging off the bottom-right corner and refuses one outside the display', async () => {
    const c = ok(await capturer.capture('primary', { region: { x: W - 50, y: H - 40, width: 200, height: 200 } }));
    expect(c.region).toEqual({ x: W - 50, y: H - 40, width: 50, height: 40 });
    expect([c.width, c.height]).toEqual([50, 40]);
    expect((await pixels(c))(25, 20)).toEqual(RGB['#ffff00']);

    const outside = await capturer.capture('primary', { region: { x: W + 10, y: 0, width: 10, height: 10 } });
    expect(outside).toMatchObject({ ok: false, code: 'bad-region' });
    if (!outside.ok) expect(outside.message).toContain(`${W}×${H}`);
    expect(await capturer.capture('primary', { region: { x: 0, y: 0, width: 0, height: 10 } })).toMatchObject({ ok: false, code: 'bad-region' });
  });

  it('captures by display id, under the cursor and "all" the same single display; an unknown id is no-display', async () => {
    const [display] = await capturer.listDisplays();
    const byId = ok(await capturer.capture({ display: display!.id }));
    expect(byId.display).toEqual(display);
    const byName = ok(await capturer.capture({ display: display!.name }));
    expect(byName.display.id).toBe(display!.id);
    const under = ok(await capturer.capture('under-cursor'));
    expect(under.display.id).toBe(display!.id);
    const all = ok(await capturer.capture('all', { region: { x: 1400, y: 0, width: 200, height: 100 } }));
    expect(all.display).toEqual(display); // one monitor: "all" is that display, not a synthetic one
    expect((await pixels(all))(100, 50)).toEqual(RGB['#00ff00']);

    const missing = await capturer.capture({ display: 'HDMI-9' });
    expect(missing).toMatchObject({ ok: false, code: 'no-display' });
    if (!missing.ok) expect(missing.message).toContain(display!.id);
  });

  it('rejects with the abort reason when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user cancelled'));
    await expect(capturer.capture('primary', { signal: controller.signal })).rejects.toThrow('user cancelled');
  });

  it('captures a known-answer chart a seeing model could read: red, green, blue; green tallest', async () => {
    await screen.page.setContent(await chartHtml(4));
    const c = await captureUntil(
      async (c) => (await readBars(Buffer.from(c.png))).bars.length === 3,
      () => capturer.capture('primary', { region: { x: 0, y: 0, width: 1100, height: 600 } }),
    );
    const read = await readBars(Buffer.from(c.png));
    expect(describeBars(read.bars)).toBe(KNOWN_CHART.description);
    // 60 : 95 : 40 survives capture exactly (the chart is drawn 4× with hard edges).
    expect(read.bars.map((b) => b.relativeHeight)).toEqual([0.63, 1, 0.42]);
  });
});
