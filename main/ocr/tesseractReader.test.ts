// The real tesseract.js reader: a reading that outlives its time is stopped (the worker thread
// is ended) and the next reading starts a fresh worker; a stopped signal stops it too.
import { afterAll, describe, expect, it } from 'vitest';
import { invoiceLines, textImage } from '../../test/fixtures/textImage.ts';
import { joinRows, TesseractReader } from './tesseractReader.ts';
import { OcrError } from './textReader.ts';

const reader = new TesseractReader();
afterAll(() => reader.close());

describe('TesseractReader', () => {
  it('stops a reading past its timeout, then reads again with a fresh worker', async () => {
    const page = await textImage({ lines: invoiceLines(3), width: 700, height: 160, fontPx: 18 });
    const late = await reader.read(page.png, { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(OcrError);
    expect((late as OcrError).code).toBe('timeout');
    expect((late as OcrError).message).toMatch(/took longer than 0 s and was stopped/);
    const read = await reader.read(page.png);
    const order = /^Order (\d+)/.exec(invoiceLines(3)[0]!)![1]!;
    expect(read.text).toContain(order);
    const controller = new AbortController();
    controller.abort();
    await expect(reader.read(page.png, { signal: controller.signal })).rejects.toMatchObject({ code: 'cancelled' });
  }, 60_000);

  it('joins column fragments into rows, and keeps text far to the side apart', () => {
    const line = (text: string, x: number, y: number, width: number) => ({ text, confidence: 90, box: { x, y, width, height: 14 } });
    const rows = joinRows([line('total 1.50', 120, 41, 80), line('Order 1', 40, 40, 60), line('Order 2', 40, 63, 60), line('far pane', 2000, 40, 60)]);
    expect(rows.map((r) => r.text)).toEqual(['Order 1  total 1.50', 'far pane', 'Order 2']);
  });

  it('joins fragments closer than wordGap line heights with one space (one phrase split across two blocks)', () => {
    const word = (text: string, x: number, width: number) => ({ text, confidence: 90, box: { x, y: 40, width, height: 40 } });
    const split = [word('INVOICE 4821', 60, 330), word('PORT 8080', 420, 250), word('total', 900, 120)];
    expect(joinRows(split).map((r) => r.text)).toEqual(['INVOICE 4821  PORT 8080  total']);
    expect(joinRows(split, { wordGap: 1.5 }).map((r) => r.text)).toEqual(['INVOICE 4821 PORT 8080  total']);
  });
});
