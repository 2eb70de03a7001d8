// A form field's border, drawn in code: the block is read with its rules painted out, and its line
// of text measured as a line, not as the field.
import { describe, expect, it } from 'vitest';
import { readingScale } from './regionReader.ts';
import { eraseRules, inkRuns } from './textLines.ts';

/** White, a 2 px border 760 × 68 (a field at 4K@2), and inside it a line of glyph-like strokes 24 px high. */
function field(): { pixels: Uint8Array; width: number; height: number } {
  const width = 800, height = 100;
  const pixels = new Uint8Array(width * height).fill(255);
  const dark = (x: number, y: number) => (pixels[y * width + x] = 40);
  for (let x = 20; x < 780; x++) for (const y of [16, 17, 82, 83]) dark(x, y);
  for (let y = 16; y < 84; y++) for (const x of [20, 21, 778, 779]) dark(x, y);
  // Glyphs: 3 px stems 14–24 px tall, 14 px apart, with a bar across each (a letter's two ways).
  for (let g = 0; g < 30; g++) {
    const x0 = 40 + g * 14, tall = g % 3 ? 16 : 24;
    for (let y = 62 - tall; y < 62; y++) for (let x = x0; x < x0 + 3; x++) dark(x, y);
    for (let x = x0; x < x0 + 9; x++) dark(x, 52);
  }
  return { pixels, width, height };
}

describe('eraseRules', () => {
  it("paints out a field's border and leaves its glyphs", () => {
    const { pixels, width, height } = field();
    // With the border every row from its top to its bottom holds ink: one run, the field's height.
    expect(inkRuns(pixels, width, height).map((r) => r.y1 - r.y0)).toEqual([68]);
    const painted = eraseRules(pixels, width, height);
    expect(painted).toBeGreaterThan(2 * 760 * 2);
    expect(inkRuns(pixels, width, height)).toEqual([{ y0: 38, y1: 62 }]);
    // The glyphs are all there: each stem's pixels.
    expect(pixels[(62 - 24) * width + 40]).toBe(40);
    expect(pixels[61 * width + 40 + 14]).toBe(40);
  });

  it('reads the field at its own size, not at a quarter of it', () => {
    const { pixels, width, height } = field();
    eraseRules(pixels, width, height);
    expect(readingScale(pixels, width, height, 24)).toBe(1);
  });

  it('leaves a big heading’s thick stems', () => {
    const width = 200, height = 80;
    const pixels = new Uint8Array(width * height).fill(255);
    for (let y = 10; y < 60; y++) for (let x = 20; x < 28; x++) pixels[y * width + x] = 0;
    expect(eraseRules(pixels, width, height)).toBe(0);
  });
});
