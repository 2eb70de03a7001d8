import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { exifRotatedJpeg, gpsJpeg, photoRaw } from '../../test/fixtures/images.ts';
import { normaliseImage } from './normalise.ts';
import { DEFAULT_PROFILES } from './profiles.ts';
import { sniffImage } from './sniff.ts';
import { jpegForPassthrough, webpForPassthrough } from './sourcePassthrough.ts';
import type { ImageProfile } from './types.ts';

const OPENAI = DEFAULT_PROFILES.openai;
const OLLAMA = DEFAULT_PROFILES.ollama;

async function normalise(data: Uint8Array, profile: ImageProfile) {
  const sniffed = await sniffImage(data);
  if (!sniffed.ok) throw new Error(sniffed.message);
  const result = await normaliseImage(data, sniffed, profile, DEFAULT_LIMITS);
  if (!result.ok) throw new Error(result.message);
  return result.image;
}

/** A 48×48 app icon: a few flat shapes, as a toolbar or a chat avatar is (about 700 bytes as a lossy WebP). */
async function icon(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><rect width="48" height="48" fill="#2d7ff9"/><circle cx="24" cy="20" r="9" fill="#fff"/><rect x="10" y="32" width="28" height="8" rx="4" fill="#fff"/></svg>`;
  return sharp(Buffer.from(svg)).webp({ quality: 80 }).toBuffer();
}

async function rawOf(data: Uint8Array) {
  return sharp(data).removeAlpha().raw().toBuffer();
}

describe('a small image that fits as it came goes as it came, when that is smaller', () => {
  it('a WebP icon is sent as its own bytes, not as a larger JPEG', async () => {
    const webp = await icon();
    const image = await normalise(webp, OPENAI);
    expect(image.mime).toBe('image/webp');
    expect(Buffer.compare(Buffer.from(image.data), webp)).toBe(0);
    expect(image.bytes).toBe(webp.byteLength);
    // What the encoder alone made of it (the model takes no WebP): larger than the source.
    const encoded = await normalise(webp, OLLAMA);
    expect(encoded.mime).not.toBe('image/webp');
    expect(encoded.bytes).toBeGreaterThan(webp.byteLength);
  });

  it("a JPEG goes as its pixels alone: the EXIF (GPS) and comment dropped, the scan's bytes unchanged", async () => {
    const jpeg = await gpsJpeg();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const image = await normalise(jpeg, OPENAI);
    const meta = await sharp(image.data).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    if (image.mime === 'image/jpeg' && image.bytes < jpeg.byteLength) {
      // Passed through: the same decoded pixels, bit for bit.
      expect(Buffer.compare(await rawOf(image.data), await rawOf(jpeg))).toBe(0);
    }
    const stripped = jpegForPassthrough(jpeg)!;
    expect(stripped.byteLength).toBeLessThan(jpeg.byteLength);
    expect((await sharp(stripped).metadata()).exif).toBeUndefined();
    expect(Buffer.compare(await rawOf(stripped), await rawOf(jpeg))).toBe(0);
  });

  it('a small photo JPEG at its own size is sent as it came when a re-encode would be larger', async () => {
    const jpeg = await sharp(photoRaw(320, 240), { raw: { width: 320, height: 240, channels: 3 } }).jpeg({ quality: 60 }).toBuffer();
    const image = await normalise(jpeg, OPENAI);
    expect(image.mime).toBe('image/jpeg');
    expect(image.bytes).toBe(jpeg.byteLength);
    expect(Buffer.compare(Buffer.from(image.data), jpeg)).toBe(0);
  });

  it('what the decoder would change is never passed through: EXIF orientation, an ICC profile, a fit, an extended WebP', async () => {
    const rotated = await exifRotatedJpeg();
    const upright = await normalise(rotated.data, OPENAI);
    expect([upright.width, upright.height]).toEqual([rotated.upright.width, rotated.upright.height]);
    expect(Buffer.compare(Buffer.from(upright.data), rotated.data)).not.toBe(0);

    const tagged = await sharp(photoRaw(64, 48), { raw: { width: 64, height: 48, channels: 3 } }).jpeg({ quality: 50 }).withIccProfile('p3').toBuffer();
    expect(jpegForPassthrough(tagged)).toBeUndefined();
    expect((await sharp((await normalise(tagged, OPENAI)).data).metadata()).icc).toBeUndefined();

    // Too large for the rule: fitted, so made anew.
    const big = await sharp(photoRaw(2400, 1600), { raw: { width: 2400, height: 1600, channels: 3 } }).jpeg({ quality: 40 }).toBuffer();
    const fitted = await normalise(big, OPENAI);
    expect(fitted.width).toBeLessThan(2400);

    const withExif = await sharp(await icon()).webp({ quality: 80 }).withExif({ IFD0: { Make: 'GlanceTestCam' } }).toBuffer();
    expect(webpForPassthrough(withExif)).toBeUndefined();
    expect((await sharp((await normalise(withExif, OPENAI)).data).metadata()).exif).toBeUndefined();
  });
});
