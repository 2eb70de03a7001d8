// One window of a real desktop: Xvfb, openbox as the window manager, two Chromium windows of
// known colour and title, listed through node-screenshots and cut from the display capture.
// DISPLAY is set for this whole file (its own forked process): node-screenshots connects once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import type { Capture, CaptureResult, WindowInfo } from '../../main/capture/screenCapturer.ts';
import { warpPointer } from '../support/xPointer.ts';
import { openDesktop, type Desktop } from '../support/desktop.ts';

const RED = { title: 'Red report — Glance test', color: '#ff0000', x: 100, y: 80, width: 500, height: 400 };
// Overlaps the red window's lower right corner, and opens last: on top.
const BLUE = { title: 'Blue notes', color: '#0000ff', x: 450, y: 350, width: 420, height: 300 };

let desktop: Desktop;
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

beforeAll(async () => {
  desktop = await openDesktop({ width: 1280, height: 800 }, [RED, BLUE], { thisProcess: true });
});

afterAll(async () => {
  await desktop?.close();
});

function ok(result: CaptureResult): Capture {
  if (!result.ok) throw new Error(`capture failed: ${result.code}: ${result.message}`);
  return result.capture;
}

async function reader(c: Capture) {
  const { data, info } = await sharp(c.png).raw().toBuffer({ resolveWithObject: true });
  return (px: number, py: number) => {
    const at = (py * info.width + px) * info.channels;
    return [data[at]!, data[at + 1]!, data[at + 2]!].join();
  };
}

/** Windows are listed and painted a few frames after they map: wait until both are listed and on screen. */
async function listBoth(): Promise<WindowInfo[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const list = await capturer.listWindows();
    const listed = [RED, BLUE].every((k) => list.some((w) => w.title === k.title));
    const at = await reader(ok(await capturer.capture('primary')));
    const painted = at(RED.x + 10, RED.y + 10) === '255,0,0' && at(BLUE.x + 10, BLUE.y + 10) === '0,0,255';
    if ((listed && painted) || Date.now() > deadline) return list;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('window capture under a real window manager', () => {
  it('lists both windows topmost first, with app, title, geometry and which has the focus', async () => {
    const list = await listBoth();
    const red = list.find((w) => w.title === RED.title);
    const blue = list.find((w) => w.title === BLUE.title);
    expect(red).toMatchObject({ app: 'Chromium', x: RED.x, y: RED.y, width: RED.width, height: RED.height });
    expect(blue).toMatchObject({ app: 'Chromium', x: BLUE.x, y: BLUE.y, width: BLUE.width, height: BLUE.height, focused: true });
    expect(red!.focused).toBe(false);
    expect(list.indexOf(blue!)).toBeLessThan(list.indexOf(red!));
    expect(red!.id).toMatch(/^\d+$/);
  });

  it("cuts a window by its title from the display capture: that window's pixels at its size", async () => {
    await listBoth();
    const c = ok(await capturer.capture({ window: RED.title }));
    expect([c.width, c.height]).toEqual([RED.width, RED.height]);
    expect(c.window).toMatchObject({ title: RED.title, app: 'Chromium' });
    expect(c.region).toEqual({ x: RED.x, y: RED.y, width: RED.width, height: RED.height });
    const at = await reader(c);
    expect(at(10, 10)).toBe('255,0,0');
    expect(at(RED.width - 10, 10)).toBe('255,0,0');
    expect(at(10, RED.height - 10)).toBe('255,0,0');
    // What was on screen there: the blue window covers the red one's lower right corner.
    expect(at(RED.width - 10, RED.height - 10)).toBe('0,0,255');
  });

  it('finds a window by part of its title, and a region inside it in its own pixels', async () => {
    await listBoth();
    const c = ok(await capturer.capture({ window: 'blue' }, { region: { x: 20, y: 30, width: 100, height: 50 } }));
    expect(c.window?.title).toBe(BLUE.title);
    expect([c.width, c.height]).toEqual([100, 50]);
    expect(c.region).toEqual({ x: BLUE.x + 20, y: BLUE.y + 30, width: 100, height: 50 });
    expect((await reader(c))(50, 25)).toBe('0,0,255');
  });

  it('says which windows there are when none matches', async () => {
    await listBoth();
    const result = await capturer.capture({ window: 'Spreadsheet' });
    expect(result).toMatchObject({ ok: false, code: 'no-window' });
    expect(!result.ok && result.message).toContain(`"${BLUE.title}" (Chromium)`);
  });

  it('with windowUnderPointer, a display capture also says where the window under the pointer is', async () => {
    await listBoth();
    await warpPointer({ x: RED.x + 30, y: RED.y + 30 }, { env: desktop.x.env });
    const c = ok(await capturer.capture('under-cursor', { windowUnderPointer: true }));
    expect([c.width, c.height]).toEqual([1280, 800]);
    expect(c.underPointer).toEqual({ app: 'Chromium', title: RED.title, region: { x: RED.x, y: RED.y, width: RED.width, height: RED.height } });
    await warpPointer({ x: BLUE.x + BLUE.width - 5, y: BLUE.y + 5 }, { env: desktop.x.env });
    expect(ok(await capturer.capture('under-cursor', { windowUnderPointer: true })).underPointer?.title).toBe(BLUE.title);
    // The overlap belongs to the window on top.
    await warpPointer({ x: RED.x + RED.width - 10, y: RED.y + RED.height - 10 }, { env: desktop.x.env });
    expect(ok(await capturer.capture('under-cursor', { windowUnderPointer: true })).underPointer?.title).toBe(BLUE.title);
    await warpPointer({ x: 1200, y: 20 }, { env: desktop.x.env });
    expect(ok(await capturer.capture('under-cursor', { windowUnderPointer: true })).underPointer).toBeUndefined();
    expect(ok(await capturer.capture('under-cursor')).underPointer).toBeUndefined();
  });
});
