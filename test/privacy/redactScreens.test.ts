// Redaction against real tesseract on generated screens with random secrets from a fixed seed (the benchmark plants fresh ones each run):
// every planted secret is read by OCR before (so the test can fail), and no 8-character run of
// any of them is readable by OCR in the masked output. Code and prose screens lose no word.
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { readImageWords } from '../../main/ocr/readImageWords.ts';
import { TesseractReader } from '../../main/ocr/tesseractReader.ts';
import { redactImage } from '../../main/privacy/redactImage.ts';
import { readable, secretScreen, type SecretScreenKind } from '../fixtures/secretScreens.ts';

const reader = new TesseractReader({ timeoutMs: 180_000 });
afterAll(() => reader.close());
const limits = { maxInputPixels: 100_000_000 };
const readWords = (image: { data: Uint8Array; mime: string }, signal: AbortSignal | undefined) => readImageWords(reader, image, { limits, ...(signal ? { signal } : {}) });
const ocr = async (png: Uint8Array) => (await reader.read(await sharp(png).greyscale().png().toBuffer())).text;

describe('redaction on generated screens (real tesseract)', () => {
  for (const kind of ['terminal', 'env', 'checkout', 'devtools', 'pem'] satisfies SecretScreenKind[]) {
    it(`${kind}: OCR reads the planted secrets before, none of them after`, async () => {
      const screen = await secretScreen(kind, { width: 1280, height: 720, seed: 1 });
      const before = await ocr(screen.png);
      expect(screen.secrets.filter((s) => readable(s, before)).length, `OCR read too little of the ${kind} screen to prove anything:\n${before}`).toBeGreaterThan(0);
      const out = await redactImage({ data: screen.png, mime: 'image/png' }, { readWords, pixels: () => sharp(screen.png) });
      if (!out.ok) throw new Error(out.message);
      expect(out.regions.length).toBeGreaterThan(0);
      expect(out.png).toBeDefined();
      const after = await ocr(out.png!);
      expect(screen.secrets.filter((s) => readable(s, after)), after).toEqual([]);
      // The lines without a secret come through: of their words OCR read before, at most one in ten is lost.
      // Compared without spaces: OCR splits "NODE_ENV" as "NODE _ENV" on one reading and not the next.
      const flat = (t: string) => t.replace(/\s+/g, '');
      const readBefore = screen.ordinary.filter((w) => flat(before).includes(w));
      const lost = readBefore.filter((w) => !flat(after).includes(w));
      expect(lost.length / readBefore.length, lost.join(' ')).toBeLessThanOrEqual(0.1);
      const meta = await sharp(out.png!).metadata();
      expect([meta.width, meta.height]).toEqual([1280, 720]);
    }, 240_000);
  }

  it('leaves code and prose screens as they were', async () => {
    for (const kind of ['code', 'prose'] as const) {
      const screen = await secretScreen(kind, { width: 1280, height: 720, seed: 1 });
      const out = await redactImage({ data: screen.png, mime: 'image/png' }, { readWords, pixels: () => sharp(screen.png) });
      expect(out).toMatchObject({ ok: true, regions: [] });
      expect(out.ok && out.png).toBeUndefined();
    }
  }, 240_000);

  it('says so, and gives no pixels, when OCR fails', async () => {
    const screen = await secretScreen('env', { width: 640, height: 400, seed: 1 });
    const failing = async () => ({ ok: false as const, code: 'timeout', message: 'Local OCR took longer than 1 s and was stopped.' });
    const out = await redactImage({ data: screen.png, mime: 'image/png' }, { readWords: failing, pixels: () => sharp(screen.png) });
    expect(out).toMatchObject({ ok: false, code: 'ocr-failed', message: expect.stringMatching(/could not check this image for secrets.*took longer than 1 s.*not sent to a remote model/) });
  });
});
