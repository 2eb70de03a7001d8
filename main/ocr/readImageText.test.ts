// The bounds around OCR: what reaches the reader is never more than OCR_MAX_PIXELS, and a
// decompression bomb never reaches it at all. The reader here is a recording stand-in for the
// TextReader port (tesseract itself is exercised in test/chat/zoomReadText.test.ts).
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { decompressionBomb } from '../../test/fixtures/images.ts';
import { hasText, OCR_MAX_PIXELS, readImageText } from './readImageText.ts';
import type { OcrReading, TextReader } from './textReader.ts';

function recordingReader(): TextReader & { seen: { width: number; height: number }[] } {
  const seen: { width: number; height: number }[] = [];
  return {
    engine: 'recording',
    seen,
    async read(png) {
      const meta = await sharp(png).metadata();
      seen.push({ width: meta.width ?? 0, height: meta.height ?? 0 });
      return { text: '', lines: [], confidence: 0, engine: 'recording', durationMs: 0 };
    },
    async close() {},
  };
}

describe('readImageText bounds', () => {
  it('refuses a decompression bomb from its header; the reader never runs', async () => {
    const reader = recordingReader();
    const result = await readImageText(reader, await decompressionBomb(), 'image/png', { limits: DEFAULT_LIMITS });
    expect(result).toMatchObject({ ok: false, code: 'too-many-pixels' });
    expect(reader.seen).toEqual([]);
  });

  it('reads a 100 MP image at no more than 12 MP; a small crop is enlarged 2×', async () => {
    const reader = recordingReader();
    const big = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#ffffff' } }).greyscale().png({ compressionLevel: 1 }).toBuffer();
    const result = await readImageText(reader, big, 'image/png', { limits: DEFAULT_LIMITS });
    expect(result.ok).toBe(true);
    const [seen] = reader.seen;
    expect(seen!.width * seen!.height).toBeLessThanOrEqual(OCR_MAX_PIXELS * 1.001);
    expect(seen!.width).toBeGreaterThan(3000);
    const small = await readImageText(reader, big, 'image/png', { limits: DEFAULT_LIMITS, region: { x: 100, y: 100, width: 300, height: 60 } });
    expect(small.ok && small.source).toEqual({ x: 100, y: 100, width: 300, height: 60 });
    expect(reader.seen[1]).toEqual({ width: 600, height: 120 });
  }, 60_000);

  it('counts only confident letters and digits as text', () => {
    const reading = (lines: { text: string; confidence: number }[]): OcrReading => ({
      text: '',
      lines: lines.map((l) => ({ ...l, box: { x: 0, y: 0, width: 1, height: 1 } })),
      confidence: 0,
      engine: 'x',
      durationMs: 0,
    });
    expect(hasText(reading([{ text: 'Total 1,284.50', confidence: 91 }]))).toBe(true);
    expect(hasText(reading([{ text: 'Total 1,284.50', confidence: 40 }]))).toBe(false);
    expect(hasText(reading([{ text: '~ - . ,', confidence: 95 }]))).toBe(false);
  });
});
