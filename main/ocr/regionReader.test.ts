// The screen reader's levers, each checked on real tesseract readings: only text blocks
// are read, a dark block reaches tesseract dark-on-light, words come back in the image's own pixels,
// a second capture with one block changed reads that block only and returns the same words for the
// rest as a fresh reading does, the pool spreads blocks over its workers, and big text is read smaller.
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { countedReader } from '../../test/fixtures/ocr.ts';
import { invoiceLines, textImage } from '../../test/fixtures/textImage.ts';
import { ReaderPool } from './readerPool.ts';
import { readingScale, RegionReader } from './regionReader.ts';
import { TesseractReader } from './tesseractReader.ts';
import type { OcrReading, TextReader } from './textReader.ts';

const tesseract = new TesseractReader();
afterAll(() => tesseract.close());

/** What tesseract was given, for the polarity check. */
function recording(reader: TextReader): TextReader & { images: Uint8Array[]; reads: number } {
  const counted = countedReader(reader);
  const read = counted.read;
  const images: Uint8Array[] = [];
  return Object.assign(counted, { images, read: (png: Uint8Array, o?: { signal?: AbortSignal; timeoutMs?: number }) => (images.push(png), read(png, o)) });
}

const lightLines = invoiceLines(2, 11);
const darkLines = invoiceLines(2, 12);

/** Grey wallpaper, a light block at (40, 40) and a dark block (light text) at (40, 300); `other` changes the dark block's text. */
async function screen(other = false) {
  const light = await textImage({ lines: lightLines, width: 640, height: 90, x: 12, y: 12, fontPx: 16 });
  const darkText = await textImage({ lines: other ? invoiceLines(2, 99) : darkLines, width: 640, height: 90, x: 12, y: 12, fontPx: 16 });
  const dark = await sharp(darkText.png).negate({ alpha: false }).png().toBuffer();
  const png = await sharp({ create: { width: 900, height: 480, channels: 3, background: '#708090' } })
    .composite([
      { input: light.png, left: 40, top: 40 },
      { input: dark, left: 40, top: 300 },
    ])
    .greyscale()
    .png()
    .toBuffer();
  return { png, light: { x: 40, y: 40, width: 640, height: 90 }, dark: { x: 40, y: 300, width: 640, height: 90 } };
}

const orderOf = (line: string) => /^Order (\d+)/.exec(line)![1]!;
const wordsIn = (reading: OcrReading, box: { x: number; y: number; width: number; height: number }) =>
  (reading.words ?? []).filter((w) => w.box.x >= box.x && w.box.y >= box.y && w.box.x + w.box.width <= box.x + box.width && w.box.y + w.box.height <= box.y + box.height);

describe('RegionReader', () => {
  it('reads each block the right way up, and gives words in the pixels of the image it was given', async () => {
    const s = await screen();
    const inner = recording(tesseract);
    const reading = await new RegionReader(inner).read(s.png);
    expect(inner.reads).toBe(2); // two blocks, not the whole screen
    for (const image of inner.images) {
      const { data } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
      const sorted = [...data].sort((a, b) => a - b);
      expect(sorted[sorted.length >> 1], 'tesseract gets dark text on a light background').toBeGreaterThan(128);
    }
    for (const [lines, box] of [[lightLines, s.light], [darkLines, s.dark]] as const) {
      const words = wordsIn(reading, box).map((w) => w.text);
      for (const line of lines) expect(words, `words of "${line}" inside its block`).toContain(orderOf(line));
    }
    expect(reading.text).toContain(orderOf(darkLines[1]!));
  }, 120_000);

  it('a second capture with one block changed reads only that block, and the rest are the same words a fresh reading gives', async () => {
    const first = await screen();
    const second = await screen(true);
    const inner = countedReader(tesseract);
    const reader = new RegionReader(inner);
    await reader.read(first.png);
    expect(inner.reads).toBe(2);
    const again = await reader.read(second.png);
    expect(inner.reads).toBe(3); // the changed block only
    expect(reader.tiles).toEqual({ read: 3, reused: 1 });
    const fresh = await new RegionReader(tesseract).read(second.png);
    const strip = (r: OcrReading) => (r.words ?? []).map(({ text, box, confidence }) => ({ text, box, confidence }));
    expect(strip(again)).toEqual(strip(fresh));
    expect(again.text).toBe(fresh.text);
    expect(again.text).toContain(orderOf(invoiceLines(2, 99)[0]!));
    expect(again.text).not.toContain(orderOf(darkLines[0]!));
  }, 120_000);

  it('a block where one line changed and one was added reads only those two lines, in one small image', async () => {
    const lines = invoiceLines(8, 21);
    const changed = [...lines.slice(0, 3), invoiceLines(1, 77)[0]!, ...lines.slice(4), invoiceLines(1, 78)[0]!];
    const page = async (text: string[]) => {
      const block = await textImage({ lines: text, width: 700, height: 260, x: 12, y: 12, fontPx: 15 });
      return sharp({ create: { width: 820, height: 340, channels: 3, background: '#708090' } }).composite([{ input: block.png, left: 40, top: 30 }]).greyscale().png().toBuffer();
    };
    const inner = recording(tesseract);
    const reader = new RegionReader(inner);
    const first = await reader.read(await page(lines));
    expect(inner.reads).toBe(1);
    expect(reader.lines).toEqual({ read: 8, reused: 0 });
    const again = await reader.read(await page(changed));
    expect(inner.reads, 'one recognise call for the new lines').toBe(2);
    expect(reader.lines).toEqual({ read: 10, reused: 7 });
    const [whole, stack] = await Promise.all(inner.images.map((png) => sharp(png).metadata()));
    expect(stack!.height, 'two lines, not the block').toBeLessThan(whole!.height! / 2.5);
    expect(again.text).toContain(orderOf(changed[3]!));
    expect(again.text).toContain(orderOf(changed[8]!));
    expect(again.text).not.toContain(orderOf(lines[3]!));
    // The unchanged lines come back as they were read the first time, in the same places.
    const row = (r: OcrReading, order: string) => {
      const y = (r.words ?? []).find((w) => w.text === order)!.box.y;
      return (r.words ?? []).filter((w) => Math.abs(w.box.y - y) < 4).map(({ text, box }) => ({ text, box }));
    };
    for (const i of [0, 1, 2, 4, 5, 6, 7]) expect(row(again, orderOf(lines[i]!))).toEqual(row(first, orderOf(lines[i]!)));
  }, 120_000);

  it('stops when its signal is aborted, with the reader’s own error', async () => {
    const s = await screen();
    const controller = new AbortController();
    controller.abort();
    await expect(new RegionReader(tesseract).read(s.png, { signal: controller.signal })).rejects.toMatchObject({ code: 'cancelled' });
  });
});

describe('ReaderPool', () => {
  it('spreads readings that run at once over its members', async () => {
    const members: (TextReader & { reads: number })[] = [];
    const pool = new ReaderPool(() => {
      const m = countedReader(new TesseractReader());
      members.push(m);
      return m;
    }, 2);
    try {
      const s = await screen();
      const reading = await new RegionReader(pool).read(s.png);
      expect(members.map((m) => m.reads)).toEqual([1, 1]);
      expect(reading.text).toContain(orderOf(lightLines[0]!));
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('gives the next reading to a free member, not to one still reading a large block', async () => {
    const members: (TextReader & { reads: number })[] = [];
    const pool = new ReaderPool(() => {
      const m = countedReader(new TesseractReader());
      members.push(m);
      return m;
    }, 2);
    try {
      const large = await textImage({ lines: invoiceLines(48, 5), width: 760, height: 48 * 24 + 40, x: 12, y: 12, fontPx: 15 });
      const small = await textImage({ lines: ['Order 123456'], width: 200, height: 40, x: 8, y: 8, fontPx: 15 });
      await Promise.all(members.map((m) => m.read(small.png))); // both workers started
      const before = members.map((m) => m.reads);
      const readings = await Promise.all([pool.read(large.png), pool.read(small.png), pool.read(small.png), pool.read(small.png)]);
      expect(members.map((m, i) => m.reads - before[i]!)).toEqual([1, 3]);
      expect(readings[3]!.text).toContain('123456');
    } finally {
      await pool.close();
    }
  }, 120_000);
});

describe('readingScale', () => {
  async function block(fontPx: number, count: number) {
    const page = await textImage({ lines: invoiceLines(count, 4), width: fontPx * 50, height: Math.round(count * fontPx * 1.6 + 40), x: 10, y: 10, fontPx });
    const { data, info } = await sharp(page.png).greyscale().raw().toBuffer({ resolveWithObject: true });
    return readingScale(data, info.width, info.height);
  }
  it('reads 14 px text as it is, 56 px text smaller, and a picture as it is', async () => {
    expect(await block(14, 6)).toBe(1);
    const big = await block(56, 4);
    expect(big).toBeLessThan(1);
    expect(big).toBeGreaterThanOrEqual(0.25);
    const noise = Buffer.from(Array.from({ length: 200 * 200 }, (_, i) => ((i * 2654435761) >>> 24) & 255));
    expect(readingScale(noise, 200, 200)).toBe(1);
  }, 60_000);
});
