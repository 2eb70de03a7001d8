import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ReadWord } from './locate.ts';
import { redactImage, type ReadWords } from './redactImage.ts';

// A fault after the words were read is said as what it was: the image was read, finding or hiding
// its secrets failed, and it is not sent as it is. (It used to reject, and `glance ask` said
// "Stopped before the image was read".)
describe('redactImage when detection fails', () => {
  const image = { data: new Uint8Array([1, 2, 3]), mime: 'image/png' };
  const words: ReadWord[] = [{ text: 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', line: 1, x: 10, y: 10, width: 600, height: 20 }];
  const read = (w: ReadWord[]): ReadWords => async () => ({ ok: true, words: w, size: { width: 800, height: 600 } });

  it('a fault in its pixels is a value that says so', async () => {
    const out = await redactImage(image, { readWords: read(words), pixels: () => sharp(Buffer.from('not an image')) });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.code).toBe('detect-failed');
    expect(out.message).toMatch(/read this image but failed while looking again at what it could not read/);
    expect(out.message).toMatch(/not sent to a remote model/);
  });

  it('a fault while finding is a value that says so', async () => {
    // An engine that gave a word without text: the rules cannot run over it.
    const broken = [{ ...words[0]!, text: undefined as unknown as string }];
    const out = await redactImage(image, { readWords: read(broken), pixels: () => sharp({ create: { width: 800, height: 600, channels: 3, background: '#fff' } }) });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.code).toBe('detect-failed');
    expect(out.message).toMatch(/failed while finding the secrets in the text it read/);
  });
});
