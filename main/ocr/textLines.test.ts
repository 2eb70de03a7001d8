// A form field's border, drawn in code: the block is read with its rules painted out, and its line
// of text measured as a line, not as the field.
import { describe, expect, it } from 'vitest';
import { readingScale } from './regionReader.ts';
import { eraseRules, flipBands, inkRuns } from './textLines.ts';

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

/** White paper, and a row 30 px tall filled blue-grey (90) holding light (250) glyph strokes: a selected row. */
function selectedRow(): { pixels: Uint8Array; width: number; height: number } {
  const width = 600, height = 120;
  const pixels = new Uint8Array(width * height).fill(255);
  for (let y = 40; y < 70; y++) for (let x = 0; x < 500; x++) pixels[y * width + x] = 90;
  for (let g = 0; g < 30; g++) for (let y = 48; y < 62; y++) for (let x = 20 + g * 14; x < 23 + g * 14; x++) pixels[y * width + x] = 250;
  // A rule (2 rows) and dark text on the paper, which stay as they are.
  for (let x = 0; x < 500; x++) pixels[100 * width + x] = pixels[101 * width + x] = 90;
  for (let g = 0; g < 10; g++) for (let y = 10; y < 24; y++) pixels[y * width + 20 + g * 14] = 30;
  return { pixels, width, height };
}

describe('flipBands', () => {
  it('turns a selected row dark text on white, and leaves the paper, its text and a rule alone', () => {
    const { pixels, width, height } = selectedRow();
    const before = Uint8Array.from(pixels);
    expect(flipBands(pixels, width, height)).toBe(1);
    // The fill became paper, the light strokes ink.
    expect(pixels[42 * width + 10]).toBe(255);
    expect(pixels[50 * width + 21]).toBeLessThan(10);
    // Beyond the band's columns, the paper, the dark text and the rule are unchanged.
    expect(pixels[50 * width + 550]).toBe(255);
    for (const i of [10 * width + 20, 100 * width + 10, 101 * width + 400]) expect(pixels[i]).toBe(before[i]);
    // Its line is now found as a line of ink, not the band's height.
    expect(inkRuns(pixels, width, height).map((r) => [r.y0, r.y1])).toContainEqual([48, 62]);
  });

  it('leaves a block with no dark band as it is', () => {
    const { pixels, width, height } = field();
    const before = Uint8Array.from(pixels);
    expect(flipBands(pixels, width, height)).toBe(0);
    expect(pixels).toEqual(before);
  });

  // Large type read at twice its size: the tops of "PORT" are solid bars 9 rows tall and wider than
  // three times that, as dark as a selected row's fill — but with no text inside. Turned, the T
  // lost its bar and was read as "PORI".
  it("leaves a glyph's solid bar in large type alone", () => {
    const width = 260, height = 90;
    const pixels = new Uint8Array(width * height).fill(255);
    for (const [x0, x1] of [[8, 48], [75, 116], [142, 183], [192, 252]] as const) {
      for (let y = 12; y < 21; y++) for (let x = x0; x < x1; x++) pixels[y * width + x] = 20;
      for (let y = 21; y < 80; y++) for (let x = x0; x < x0 + 9; x++) pixels[y * width + x] = 20;
    }
    const before = Uint8Array.from(pixels);
    expect(flipBands(pixels, width, height)).toBe(0);
    expect(pixels).toEqual(before);
  });
});
