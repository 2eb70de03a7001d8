import { describe, expect, it } from 'vitest';
import { displayAt, doorWindows, findWindow, fitRegion, regionInWindow, windowAt, windowRegion, windowsInCapture, type DisplayInfo } from './screenCapturer.ts';

const left: DisplayInfo = { id: '1', name: 'L', x: 0, y: 0, width: 1920, height: 1080, scaleFactor: 1, primary: true };
const right: DisplayInfo = { id: '2', name: 'R', x: 1920, y: -200, width: 1280, height: 1024, scaleFactor: 1, primary: false };

describe('displayAt', () => {
  it('picks the display containing the point, edges included on the left/top', () => {
    expect(displayAt([left, right], { x: 10, y: 10 })?.id).toBe('1');
    expect(displayAt([left, right], { x: 1919, y: 1079 })?.id).toBe('1');
    expect(displayAt([left, right], { x: 1920, y: 0 })?.id).toBe('2');
    expect(displayAt([left, right], { x: 2000, y: -150 })?.id).toBe('2');
  });
  it('falls back to the nearest display for a point in a gap or off every screen', () => {
    expect(displayAt([left, right], { x: 100, y: 1500 })?.id).toBe('1');
    expect(displayAt([left, right], { x: 5000, y: 0 })?.id).toBe('2');
    expect(displayAt([left, right], { x: 1800, y: -100 })?.id).toBe('1'); // 100 px above L, 120 px left of R
  });
  it('returns undefined when there are no displays', () => {
    expect(displayAt([], { x: 0, y: 0 })).toBeUndefined();
  });
});

describe('fitRegion', () => {
  it('keeps a region inside the image as it is', () => {
    expect(fitRegion({ x: 10, y: 20, width: 30, height: 40 }, 100, 100)).toEqual({ ok: true, region: { x: 10, y: 20, width: 30, height: 40 } });
  });
  it('clamps a region hanging over the edges and rounds outwards to whole pixels', () => {
    expect(fitRegion({ x: -5, y: 90.5, width: 20, height: 20 }, 100, 100)).toEqual({ ok: true, region: { x: 0, y: 90, width: 15, height: 10 } });
  });
  it('refuses empty, negative, non-finite and wholly outside regions as bad-region with the bounds', () => {
    for (const r of [
      { x: 0, y: 0, width: 0, height: 10 },
      { x: 0, y: 0, width: 10, height: -1 },
      { x: Number.NaN, y: 0, width: 10, height: 10 },
    ]) {
      const result = fitRegion(r, 100, 100);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.code).toBe('bad-region');
    }
    const outside = fitRegion({ x: 200, y: 0, width: 10, height: 10 }, 100, 50);
    expect(outside).toMatchObject({ ok: false, code: 'bad-region' });
    if (!outside.ok) expect(outside.message).toContain('100×50');
  });
});

describe('windows', () => {
  const win = (id: string, app: string, title: string, x: number, y: number, width = 100, height = 100) => ({ id, app, title, focused: false, x, y, width, height });
  const top = win('7', 'Firefox', 'Inbox — Mail', 50, 50);
  const under = win('3', 'Code', 'report.ts — glance', 0, 0, 400, 300);

  it('findWindow takes an id, then an exact title, then an app, then part of a title; the topmost wins', () => {
    expect(findWindow([top, under], '3')).toBe(under);
    expect(findWindow([top, under], 'inbox — mail')).toBe(top);
    expect(findWindow([top, under], 'code')).toBe(under);
    expect(findWindow([top, under], 'report')).toBe(under);
    expect(findWindow([top, under], 'o')).toBe(top);
    expect(findWindow([top, under], 'Spreadsheet')).toBeUndefined();
    expect(findWindow([top, under], '  ')).toBeUndefined();
  });

  it('windowAt picks the topmost window containing the point', () => {
    expect(windowAt([top, under], { x: 60, y: 60 })).toBe(top);
    expect(windowAt([top, under], { x: 10, y: 10 })).toBe(under);
    expect(windowAt([top, under], { x: 500, y: 10 })).toBeUndefined();
  });

  it("windowRegion puts a window in its display capture's pixels, scaled and clipped", () => {
    expect(windowRegion(win('1', 'a', 'b', 2000, 100, 300, 200), right)).toEqual({ x: 80, y: 300, width: 300, height: 200 });
    const retina = { ...left, scaleFactor: 2 };
    expect(windowRegion(win('1', 'a', 'b', -50, 1000, 300, 200), retina)).toEqual({ x: 0, y: 2000, width: 500, height: 160 });
    expect(windowRegion(win('1', 'a', 'b', 2000, 100), left)).toBeUndefined();
  });

  it('regionInWindow moves a region given in window pixels into the display capture, clipped to the window', () => {
    expect(regionInWindow({ x: 10, y: 20, width: 30, height: 40 }, { x: 100, y: 200, width: 50, height: 50 })).toEqual({ ok: true, region: { x: 110, y: 220, width: 30, height: 30 } });
    const outside = regionInWindow({ x: 60, y: 0, width: 10, height: 10 }, { x: 100, y: 200, width: 50, height: 50 });
    expect(outside).toMatchObject({ ok: false, code: 'bad-region' });
    expect(!outside.ok && outside.message).toContain('outside the window');
  });
});

describe('windowsInCapture (what the door fills for excluded apps)', () => {
  const display: DisplayInfo = { id: 'd', name: 'HDMI-1', x: 1000, y: 0, width: 1000, height: 800, scaleFactor: 2, primary: false };
  const vault = { id: '1', app: 'KeePassXC', title: 'Passwords.kdbx', focused: true, x: 1100, y: 50, width: 300, height: 200 };
  const elsewhere = { ...vault, id: '2', x: 0, y: 0 };
  it("puts each window in the capture's pixels (scale applied), drops those off it, and cuts to a region", () => {
    expect(windowsInCapture([vault, elsewhere], display)).toEqual([{ app: 'KeePassXC', title: 'Passwords.kdbx', region: { x: 200, y: 100, width: 600, height: 400 } }]);
    expect(windowsInCapture([vault], display, { x: 500, y: 0, width: 1000, height: 1000 })).toEqual([{ app: 'KeePassXC', title: 'Passwords.kdbx', region: { x: 0, y: 100, width: 300, height: 400 } }]);
    expect(windowsInCapture([vault], display, { x: 900, y: 0, width: 100, height: 100 })).toEqual([]);
    expect(doorWindows({ windows: windowsInCapture([vault], display) })).toEqual({ windows: [{ app: 'KeePassXC', title: 'Passwords.kdbx', x: 200, y: 100, width: 600, height: 400 }] });
    expect(doorWindows({})).toEqual({});
  });
});
