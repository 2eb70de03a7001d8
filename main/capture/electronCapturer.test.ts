// Electron's desktopCapturer and screen stand in as fakes (its binary cannot run here). The
// fake behaves as Chromium does: every screen source's thumbnail is the screen scaled to fit
// the requested thumbnailSize. Pixels are real PNGs made with sharp, one colour per display.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ElectronCapturer, FallbackCapturer } from './electronCapturer.ts';
import type { CaptureResult, ScreenCapturer } from './screenCapturer.ts';

type FakeDisplay = { id: number; label: string; bounds: { x: number; y: number; width: number; height: number }; scaleFactor: number; colour: [number, number, number] };

const LEFT: FakeDisplay = { id: 11, label: 'Left', bounds: { x: 0, y: 0, width: 1920, height: 1080 }, scaleFactor: 1, colour: [200, 30, 30] };
const RIGHT: FakeDisplay = { id: 22, label: 'Right', bounds: { x: 1920, y: 0, width: 1280, height: 800 }, scaleFactor: 2, colour: [30, 30, 200] };

function fakeElectron(displays: FakeDisplay[], cursor: { x: number; y: number }, options: { displayIds?: boolean; empty?: boolean } = {}) {
  const requests: { width: number; height: number }[] = [];
  const desktopCapturer = {
    async getSources(o: { thumbnailSize?: { width: number; height: number } }) {
      const box = o.thumbnailSize ?? { width: 150, height: 150 };
      requests.push(box);
      // Sources come back in the reverse of screen order, so a match by position would be wrong.
      return Promise.all(
        [...displays].reverse().map(async (d) => {
          const nw = d.bounds.width * d.scaleFactor;
          const nh = d.bounds.height * d.scaleFactor;
          const k = Math.min(box.width / nw, box.height / nh);
          const size = { width: Math.round(nw * k), height: Math.round(nh * k) };
          const png = await sharp({ create: { ...size, channels: 3, background: { r: d.colour[0], g: d.colour[1], b: d.colour[2] } } }).png().toBuffer();
          return {
            id: `screen:${d.id}:0`,
            name: d.label,
            display_id: options.displayIds === false ? '' : String(d.id),
            thumbnail: { isEmpty: () => options.empty === true, getSize: () => size, toPNG: () => png },
          };
        }),
      );
    },
  };
  const screen = {
    getAllDisplays: () => displays.map((d) => ({ id: d.id, label: d.label, bounds: d.bounds, scaleFactor: d.scaleFactor })),
    getPrimaryDisplay: () => ({ id: displays[0]!.id }),
    getCursorScreenPoint: () => cursor,
  };
  return { requests, desktopCapturer, screen };
}

function capturerFor(fake: ReturnType<typeof fakeElectron>, platform: NodeJS.Platform = 'linux', mediaStatus = 'granted') {
  return new ElectronCapturer({
    desktopCapturer: fake.desktopCapturer as never,
    screen: fake.screen as never,
    systemPreferences: { getMediaAccessStatus: () => mediaStatus as never },
    platform,
  });
}

async function pixel(png: Uint8Array, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

const captured = (r: CaptureResult) => {
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.capture;
};

describe('ElectronCapturer', () => {
  it('captures the display under the cursor at size × scale factor, matched by display_id', async () => {
    const fake = fakeElectron([LEFT, RIGHT], { x: 2500, y: 300 });
    const shot = captured(await capturerFor(fake).capture('under-cursor'));
    expect(fake.requests).toEqual([{ width: 2560, height: 1600 }]);
    expect([shot.width, shot.height]).toEqual([2560, 1600]);
    expect(shot.display).toMatchObject({ id: '22', name: 'Right', scaleFactor: 2, primary: false });
    expect(await pixel(shot.png, 100, 100)).toEqual(RIGHT.colour);
    const meta = await sharp(shot.png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 2560, 1600]);
  });

  it('lists displays primary first and captures one by id, with a region', async () => {
    const fake = fakeElectron([LEFT, RIGHT], { x: 10, y: 10 });
    const capturer = capturerFor(fake);
    expect((await capturer.listDisplays()).map((d) => [d.id, d.primary])).toEqual([['11', true], ['22', false]]);
    const shot = captured(await capturer.capture({ display: '11' }, { region: { x: 1900, y: 1000, width: 100, height: 100 } }));
    expect(shot.region).toEqual({ x: 1900, y: 1000, width: 20, height: 80 });
    expect([shot.width, shot.height]).toEqual([20, 80]);
    expect(await pixel(shot.png, 5, 5)).toEqual(LEFT.colour);
    expect(await capturer.capture({ display: '99' })).toMatchObject({ ok: false, code: 'no-display' });
  });

  it('puts every display on one canvas at the largest scale factor for "all"', async () => {
    const shot = captured(await capturerFor(fakeElectron([LEFT, RIGHT], { x: 0, y: 0 })).capture('all'));
    expect([shot.width, shot.height]).toEqual([(1920 + 1280) * 2, 1080 * 2]);
    expect(await pixel(shot.png, 100, 100)).toEqual(LEFT.colour);
    expect(await pixel(shot.png, 3840 + 100, 100)).toEqual(RIGHT.colour);
    expect(await pixel(shot.png, 3840 + 100, 1700)).toEqual([0, 0, 0]); // below the shorter display
  });

  it('takes the single source a Wayland portal gives without a display_id', async () => {
    const shot = captured(await capturerFor(fakeElectron([LEFT], { x: 5, y: 5 }, { displayIds: false })).capture('under-cursor'));
    expect(await pixel(shot.png, 1, 1)).toEqual(LEFT.colour);
  });

  it('says why when nothing comes back, and checks macOS permission first', async () => {
    const empty = await capturerFor(fakeElectron([LEFT], { x: 5, y: 5 }, { empty: true }), 'darwin').capture('under-cursor');
    expect(empty).toMatchObject({ ok: false, code: 'capture-unavailable' });
    expect(!empty.ok && empty.message).toContain('Screen Recording');
    const fake = fakeElectron([LEFT], { x: 5, y: 5 });
    expect(await capturerFor(fake, 'darwin', 'denied').capture('under-cursor')).toMatchObject({ ok: false, code: 'permission-denied' });
    expect(fake.requests).toEqual([]);
  });
});

describe('FallbackCapturer', () => {
  const failing = (code: 'capture-unavailable' | 'permission-denied'): ScreenCapturer => ({
    listDisplays: async () => [],
    listWindows: async () => [],
    capture: async () => ({ ok: false, code, message: `primary: ${code}` }),
  });

  it('falls back only when the first backend cannot capture at all', async () => {
    const electron = capturerFor(fakeElectron([LEFT], { x: 5, y: 5 }));
    const shot = captured(await new FallbackCapturer(failing('capture-unavailable'), electron).capture('under-cursor'));
    expect(shot.display.id).toBe('11');
    expect((await new FallbackCapturer(failing('capture-unavailable'), electron).listDisplays()).map((d) => d.id)).toEqual(['11']);
    expect(await new FallbackCapturer(failing('permission-denied'), electron).capture('under-cursor')).toEqual({ ok: false, code: 'permission-denied', message: 'primary: permission-denied' });
  });
});
