import { describe, expect, it } from 'vitest';
import { centredRegion, describeRegion, isArrowKey, pixelRegion, stepRegion } from './cropKeys.ts';

const size = { width: 1000, height: 500 };

describe('keyboard region selection', () => {
  it('starts in the middle half of the image', () => {
    expect(centredRegion(size)).toEqual({ x: 250, y: 125, width: 500, height: 250 });
  });

  it('moves by 2 % of the image per arrow press and stays inside it', () => {
    const start = centredRegion(size);
    expect(stepRegion(start, 'ArrowLeft', false, size)).toEqual({ x: 230, y: 125, width: 500, height: 250 });
    expect(stepRegion(start, 'ArrowDown', false, size)).toEqual({ x: 250, y: 135, width: 500, height: 250 });
    let r = start;
    for (let i = 0; i < 40; i++) r = stepRegion(r, 'ArrowRight', false, size);
    expect(r.x).toBe(500); // right edge on the image's edge
    for (let i = 0; i < 40; i++) r = stepRegion(r, 'ArrowUp', false, size);
    expect(r.y).toBe(0);
  });

  it('resizes from the right and bottom edges with Shift, never past the image nor below one step', () => {
    const start = centredRegion(size);
    expect(stepRegion(start, 'ArrowRight', true, size)).toEqual({ x: 250, y: 125, width: 520, height: 250 });
    expect(stepRegion(start, 'ArrowUp', true, size)).toEqual({ x: 250, y: 125, width: 500, height: 240 });
    let r = start;
    for (let i = 0; i < 60; i++) r = stepRegion(r, 'ArrowRight', true, size);
    expect(r.width).toBe(750);
    for (let i = 0; i < 60; i++) r = stepRegion(r, 'ArrowLeft', true, size);
    expect(r.width).toBe(20);
    for (let i = 0; i < 60; i++) r = stepRegion(r, 'ArrowUp', true, size);
    expect(r.height).toBe(10);
  });

  it('rounds to whole pixels inside the image', () => {
    expect(pixelRegion({ x: 10.4, y: 2.6, width: 99.5, height: 40.2 }, size)).toEqual({ x: 10, y: 3, width: 100, height: 40 });
    expect(pixelRegion({ x: 999.7, y: 499.9, width: 30, height: 30 }, size)).toEqual({ x: 999, y: 499, width: 1, height: 1 });
  });

  it('tells arrows from other keys and describes a region in shares of the capture', () => {
    expect(['ArrowLeft', 'ArrowDown', 'Enter', 'a'].map(isArrowKey)).toEqual([true, true, false, false]);
    expect(describeRegion(centredRegion(size), size)).toMatch(/^Selected 50% × 50% of the capture, 25% from the left, 25% from the top\./);
  });
});
