// Finding text blocks before reading: every planted line of text lies inside a region,
// dark blocks are marked dark, flat areas and window edges make no region, regions never overlap,
// and a tall block is cut into bands only at blank rows.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { invoiceLines, textImage } from '../../test/fixtures/textImage.ts';
import { background, BAND_HEIGHT, bands, findTextRegions, type TextRegion } from './textRegions.ts';

type Box = { x: number; y: number; width: number; height: number };
const inside = (box: Box, r: Box) => box.x >= r.x && box.y >= r.y && box.x + box.width <= r.x + r.width && box.y + box.height <= r.y + r.height;

/** A 1600×1000 "desktop": grey wallpaper, a white window with dark text, a dark window with light text, an empty window with only edges. */
async function desktop() {
  const light = await textImage({ lines: invoiceLines(6, 3), width: 700, height: 200, x: 10, y: 10, fontPx: 14 });
  const darkText = await textImage({ lines: invoiceLines(4, 9), width: 640, height: 150, x: 10, y: 10, fontPx: 14 });
  const dark = await sharp(darkText.png).negate({ alpha: false }).png().toBuffer();
  const empty = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#f0f0f0' } }).png().toBuffer();
  const png = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#5a6a7a' } })
    .composite([
      { input: light.png, left: 60, top: 80 },
      { input: dark, left: 820, top: 500 },
      { input: empty, left: 1100, top: 60 },
    ])
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const planted = {
    light: { ...light.box, x: light.box.x + 60, y: light.box.y + 80 },
    dark: { ...darkText.box, x: darkText.box.x + 820, y: darkText.box.y + 500 },
  };
  return { grey: png.data, width: png.info.width, height: png.info.height, planted, empty: { x: 1100, y: 60, width: 400, height: 300 } };
}

describe('findTextRegions', () => {
  it('finds every planted block, marks the dark one dark, and nothing on flat areas or window edges', async () => {
    const d = await desktop();
    const regions = findTextRegions(d.grey, d.width, d.height);
    const light = regions.find((r) => inside(d.planted.light, r));
    const dark = regions.find((r) => inside(d.planted.dark, r));
    expect(light, 'the light window text is inside one region').toBeDefined();
    expect(dark, 'the dark window text is inside one region').toBeDefined();
    expect(light!.dark).toBe(false);
    expect(dark!.dark).toBe(true);
    // The empty window (edges only) and the wallpaper hold no text.
    for (const r of regions) {
      const overlapsEmpty = r.x < d.empty.x + d.empty.width && d.empty.x < r.x + r.width && r.y < d.empty.y + d.empty.height && d.empty.y < r.y + r.height;
      expect(overlapsEmpty, `region ${JSON.stringify(r)} over the empty window`).toBe(false);
    }
    // Text covers a small part of this desktop, and so do the regions.
    const area = regions.reduce((a, r) => a + r.width * r.height, 0);
    expect(area).toBeLessThan(0.25 * d.width * d.height);
    // No two regions overlap (no pixel is read twice).
    for (const a of regions) for (const b of regions) if (a !== b) expect(a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height).toBe(false);
  });

  it('finds nothing on a blank or smoothly shaded image', async () => {
    const { data, info } = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#ffffff' } })
      .composite([{ input: Buffer.from('<svg width="800" height="600" xmlns="http://www.w3.org/2000/svg"><defs><linearGradient id="g"><stop offset="0" stop-color="#3a6186"/><stop offset="1" stop-color="#89253e"/></linearGradient></defs><rect width="800" height="600" fill="url(#g)"/></svg>') }])
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(findTextRegions(data, info.width, info.height)).toEqual([]);
  });
});

describe('bands', () => {
  it('cuts a tall block only at blank rows, into bands that together are the block', async () => {
    const page = await textImage({ lines: invoiceLines(40, 5), width: 760, height: 1000, x: 20, y: 20, fontPx: 14 });
    const { data, info } = await sharp(page.png).greyscale().raw().toBuffer({ resolveWithObject: true });
    const [region] = findTextRegions(data, info.width, info.height);
    expect(region).toBeDefined();
    expect(region!.height).toBeGreaterThan(BAND_HEIGHT);
    const cut: TextRegion[] = bands(data, info.width, region!);
    expect(cut.length).toBeGreaterThan(1);
    expect(cut[0]!.y).toBe(region!.y);
    expect(cut.reduce((a, b) => a + b.height, 0)).toBe(region!.height);
    const bg = background(data, info.width, region!);
    for (let i = 1; i < cut.length; i++) {
      expect(cut[i]!.y).toBe(cut[i - 1]!.y + cut[i - 1]!.height);
      // The first row of each later band is blank: the cut went between lines, not through one.
      const row = cut[i]!.y * info.width;
      for (let x = region!.x; x < region!.x + region!.width; x++) expect(Math.abs(data[row + x]! - bg)).toBeLessThan(28);
      expect(cut[i - 1]!.height).toBeLessThanOrEqual(BAND_HEIGHT);
    }
  });
});
