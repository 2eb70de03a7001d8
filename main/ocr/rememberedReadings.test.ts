// The remembered readings, over the real tesseract.js reader: the same pixels are read once,
// other pixels are read afresh, and a reading stopped by one caller's signal does not stop another.
import { afterAll, describe, expect, it } from 'vitest';
import { countedReader } from '../../test/fixtures/ocr.ts';
import { invoiceLines, textImage } from '../../test/fixtures/textImage.ts';
import { RememberingReader } from './rememberedReadings.ts';
import { TesseractReader } from './tesseractReader.ts';

const real = countedReader(new TesseractReader());
const reader = new RememberingReader(real);
afterAll(() => reader.close());

describe('RememberingReader', () => {
  it('reads the same pixels once, other pixels afresh, and gives the same reading', async () => {
    const a = await textImage({ lines: invoiceLines(2), width: 600, height: 120, fontPx: 18 });
    const b = await textImage({ lines: invoiceLines(3), width: 600, height: 140, fontPx: 18 });
    const first = await reader.read(a.png);
    const again = await reader.read(new Uint8Array(a.png));
    expect(again).toBe(first);
    expect(real.reads).toBe(1);
    const other = await reader.read(b.png);
    expect(real.reads).toBe(2);
    expect(other.text).not.toBe(first.text);
    expect(first.text).toContain(/^Order (\d+)/.exec(invoiceLines(2)[0]!)![1]!);
  }, 60_000);

  it('two reads of the same pixels at once share one; a caller stopped by its own signal leaves the other its reading', async () => {
    const page = await textImage({ lines: invoiceLines(4), width: 640, height: 180, fontPx: 18 });
    const before = real.reads;
    const stop = new AbortController();
    const stopped = reader.read(page.png, { signal: stop.signal });
    const waiting = reader.read(page.png);
    stop.abort();
    await expect(stopped).rejects.toMatchObject({ code: 'cancelled' });
    const read = await waiting;
    expect(read.text).toContain(/^Order (\d+)/.exec(invoiceLines(4)[0]!)![1]!);
    // One reading was stopped, the waiting caller read for itself: two in all, none after.
    expect(real.reads - before).toBe(2);
    await reader.read(page.png);
    expect(real.reads - before).toBe(2);
  }, 60_000);
});
