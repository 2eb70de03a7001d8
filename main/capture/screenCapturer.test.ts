import { describe, expect, it } from 'vitest';
import { displayAt, fitRegion, type DisplayInfo } from './screenCapturer.ts';

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
