import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import {
  BLUE,
  GREEN,
  RED,
  WHITE,
  animatedGif,
  decompressionBomb,
  exifHasGps,
  exifRotatedJpeg,
  flatUiRaw,
  gpsJpeg,
  near,
  photoRaw,
  pixelAt,
  quadrantImage,
  solidPng,
  truncatedJpeg,
  truncatedPng,
  type FixtureFormat,
} from '../../test/fixtures/images.ts';
import { fitInside, normaliseImage } from './normalise.ts';
import { DEFAULT_PROFILES, profileFor } from './profiles.ts';
import { sniffImage } from './sniff.ts';
import type { ImageProfile } from './types.ts';

const OLLAMA = DEFAULT_PROFILES.ollama;
const OPENAI = DEFAULT_PROFILES.openai;

async function normalise(data: Uint8Array, profile: ImageProfile = OLLAMA, limits = DEFAULT_LIMITS) {
  const sniffed = await sniffImage(data);
  if (!sniffed.ok) throw new Error(`fixture did not sniff as an image: ${sniffed.message}`);
  return normaliseImage(data, sniffed, profile, limits);
}

async function accepted(data: Uint8Array, profile: ImageProfile = OLLAMA) {
  const result = await normalise(data, profile);
  if (!result.ok) throw new Error(`refused: ${result.code}: ${result.message}`);
  return result.image;
}

describe('fitInside', () => {
  it('never enlarges', () => {
    expect(fitInside(100, 50, OLLAMA)).toEqual({ width: 100, height: 50 });
  });
  it('caps the long edge', () => {
    expect(fitInside(3840, 2160, OLLAMA)).toEqual({ width: 1568, height: 882 });
  });
  it('caps total pixels for near-square images', () => {
    const { width, height } = fitInside(4000, 4000, OLLAMA);
    expect(width * height).toBeLessThanOrEqual(OLLAMA.maxPixels);
    expect(width).toBe(height);
  });
  it('keeps at least one pixel on the short edge', () => {
    expect(fitInside(20000, 20, OLLAMA)).toEqual({ width: 1568, height: 1 });
  });
});

describe('normaliseImage', () => {
  it.each<FixtureFormat>(['png', 'jpeg', 'webp', 'gif', 'tiff', 'avif'])('decodes %s and keeps its pixels', async (format) => {
    const image = await accepted(await quadrantImage(format), OPENAI);
    expect(OPENAI.formats).toContain(image.mime);
    expect([image.width, image.height]).toEqual([64, 48]);
    expect(image.source).toMatchObject({ width: 64, height: 48 });
    // Quadrants survive: top-left red, top-right green, bottom-left blue, bottom-right white.
    expect(near((await pixelAt(image.data, 8, 8)).rgb, RED)).toBe(true);
    expect(near((await pixelAt(image.data, 56, 8)).rgb, GREEN)).toBe(true);
    expect(near((await pixelAt(image.data, 8, 40)).rgb, BLUE)).toBe(true);
    expect(near((await pixelAt(image.data, 56, 40)).rgb, WHITE)).toBe(true);
  });

  it('records mime, size and sha256 of exactly what it returns', async () => {
    const image = await accepted(await quadrantImage('tiff'));
    const meta = await sharp(image.data).metadata();
    expect(image.mime).toBe(`image/${meta.format === 'jpeg' ? 'jpeg' : meta.format}`);
    expect([image.width, image.height]).toEqual([meta.width, meta.height]);
    expect(image.bytes).toBe(image.data.byteLength);
    expect(image.sha256).toBe(createHash('sha256').update(image.data).digest('hex'));
    expect(image.source.mime).toBe('image/tiff');
  });

  it('applies EXIF orientation 6: the output is upright', async () => {
    const { data, upright } = await exifRotatedJpeg();
    // The fixture really is stored sideways: as stored, top-left is blue and it is landscape.
    const stored = await sharp(data).raw().toBuffer({ resolveWithObject: true });
    expect([stored.info.width, stored.info.height]).toEqual([upright.height, upright.width]);
    expect(near([stored.data[0] ?? 0, stored.data[1] ?? 0, stored.data[2] ?? 0], BLUE)).toBe(true);

    const image = await accepted(data);
    expect([image.width, image.height]).toEqual([upright.width, upright.height]);
    expect(near((await pixelAt(image.data, 5, 5)).rgb, RED)).toBe(true);
    expect(near((await pixelAt(image.data, upright.width - 5, 5)).rgb, BLUE)).toBe(true);
    expect(near((await pixelAt(image.data, 5, upright.height - 5)).rgb, BLUE)).toBe(true);
    expect((await sharp(image.data).metadata()).orientation ?? 1).toBe(1);
  });

  it('strips GPS and all other metadata', async () => {
    const input = await gpsJpeg();
    const inMeta = await sharp(input).metadata();
    expect(inMeta.exif && exifHasGps(inMeta.exif)).toBe(true);
    for (const profile of [OLLAMA, OPENAI]) {
      const image = await accepted(input, profile);
      const meta = await sharp(image.data).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(Buffer.from(image.data).includes('GlanceTestCam')).toBe(false);
    }
  });

  it('refuses a decompression bomb from its header, without allocating its pixels', async () => {
    const bomb = await decompressionBomb();
    expect(bomb.byteLength).toBeLessThan(400 * 1024);
    const before = process.memoryUsage().rss;
    const result = await normalise(bomb);
    const grown = process.memoryUsage().rss - before;
    expect(result).toMatchObject({ ok: false, code: 'too-many-pixels' });
    if (!result.ok) expect(result.message).toMatch(/40000×40000/);
    // Decoding would need gigabytes; refusing from the header costs next to nothing.
    expect(grown).toBeLessThan(100 * 1024 * 1024);
  });

  it('refuses over the configured pixel limit even when small', async () => {
    const result = await normalise(await solidPng(200, 200), OLLAMA, { ...DEFAULT_LIMITS, maxInputPixels: 10_000 });
    expect(result).toMatchObject({ ok: false, code: 'too-many-pixels' });
  });

  it.each([
    ['a truncated PNG', truncatedPng],
    ['a truncated JPEG', truncatedJpeg],
  ])('refuses %s as corrupt', async (_what, make) => {
    const result = await normalise(await make());
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
    if (!result.ok) expect(result.message).toMatch(/damaged or cut short/);
  });

  it('fits an extreme aspect ratio (20000×20) without losing the short edge', async () => {
    const image = await accepted(await solidPng(20_000, 20, GREEN));
    expect(image.width).toBe(1568);
    expect(image.height).toBe(1);
    expect(image.source).toMatchObject({ width: 20_000, height: 20 });
    expect(near((await pixelAt(image.data, 700, 0)).rgb, GREEN)).toBe(true);
  });

  it('keeps a 1×1 image at 1×1', async () => {
    const image = await accepted(await solidPng(1, 1, BLUE));
    expect([image.width, image.height]).toEqual([1, 1]);
    expect(near((await pixelAt(image.data, 0, 0)).rgb, BLUE)).toBe(true);
  });

  it('takes the first frame of an animated GIF', async () => {
    const gif = await animatedGif();
    expect((await sharp(gif).metadata()).pages).toBe(2);
    const image = await accepted(gif, OPENAI);
    expect([image.width, image.height]).toEqual([20, 10]);
    expect(near((await pixelAt(image.data, 10, 5)).rgb, RED)).toBe(true);
    expect((await sharp(image.data).metadata()).pages ?? 1).toBe(1);
  });

  it('fits a 4K image to the profile', async () => {
    const image = await accepted(await solidPng(3840, 2160));
    expect([image.width, image.height]).toEqual([1568, 882]);
    const openai = await accepted(await solidPng(3840, 2160), OPENAI);
    expect([openai.width, openai.height]).toEqual([2048, 1152]);
  });

  it('sends a few-colour screenshot as an exact PNG, far smaller than the JPEG', async () => {
    const ui = flatUiRaw();
    const png = await sharp(ui.data, { raw: { width: ui.width, height: ui.height, channels: 3 } }).png().toBuffer();
    const image = await accepted(png);
    expect(image.mime).toBe('image/png');
    const back = await sharp(image.data).removeAlpha().raw().toBuffer();
    expect(back.equals(ui.data)).toBe(true);
    const jpeg = await accepted(png, profileFor('ollama', { formats: ['image/jpeg'] }));
    expect(image.bytes * 4).toBeLessThan(jpeg.bytes);
  });

  it('sends a photo as JPEG 4:4:4 baseline, also where WebP is accepted; WebP only where JPEG is not', async () => {
    const png = await sharp(photoRaw(), { raw: { width: 1200, height: 900, channels: 3 } }).png().toBuffer();
    const forOllama = await accepted(png, OLLAMA);
    expect(forOllama.mime).toBe('image/jpeg');
    expect(forOllama.bytes).toBeLessThan(png.byteLength);
    // 4:4:4 chroma keeps coloured text edges; progressive would be the same pixels for twice the encode.
    const jpegMeta = await sharp(forOllama.data).metadata();
    expect(jpegMeta.chromaSubsampling).toBe('4:4:4');
    expect(jpegMeta.isProgressive).toBe(false);
    // WebP is smaller, but its encode costs more than the whole floor (encoderChoice.ts).
    expect((await accepted(png, OPENAI)).mime).toBe('image/jpeg');
    const noJpeg = await accepted(png, profileFor('openai', { formats: ['image/png', 'image/webp'] }));
    expect(noJpeg.mime).toBe('image/webp');
    expect(noJpeg.bytes).toBeLessThan(forOllama.bytes);
    const pngOnly = await accepted(png, profileFor('openai', { formats: ['image/png'] }));
    expect(pngOnly.mime).toBe('image/png');
  });

  it('lowers quality, then size, to fit the byte cap; refuses when nothing fits', async () => {
    const png = await sharp(photoRaw(), { raw: { width: 1200, height: 900, channels: 3 } }).png().toBuffer();
    const unconstrained = await accepted(png, OLLAMA);
    const tight = profileFor('ollama', { maxBytes: Math.floor(unconstrained.bytes / 3) });
    const squeezed = await accepted(png, tight);
    expect(squeezed.bytes).toBeLessThanOrEqual(tight.maxBytes);
    const impossible = await normalise(png, profileFor('ollama', { maxBytes: 100 }));
    expect(impossible).toMatchObject({ ok: false, code: 'too-large' });
  });

  it('keeps transparency in PNG and puts it on white in JPEG', async () => {
    const halfClear = await sharp({ create: { width: 40, height: 40, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: { create: { width: 20, height: 40, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 1 } } }, left: 0, top: 0 }])
      .png()
      .toBuffer();
    const png = await accepted(halfClear, profileFor('ollama', { formats: ['image/png'] }));
    expect((await sharp(png.data).metadata()).hasAlpha).toBe(true);
    const jpeg = await accepted(halfClear, profileFor('ollama', { formats: ['image/jpeg'] }));
    expect(near((await pixelAt(jpeg.data, 30, 20)).rgb, WHITE)).toBe(true);
    expect(near((await pixelAt(jpeg.data, 10, 20)).rgb, BLUE)).toBe(true);
  });

  it('converts 16-bit and greyscale input to 8-bit output', async () => {
    const sixteen = await sharp(await quadrantImage('png')).toColourspace('rgb16').png().toBuffer();
    expect((await sharp(sixteen).metadata()).depth).toBe('ushort');
    const image = await accepted(sixteen);
    expect((await sharp(image.data).metadata()).depth).toBe('uchar');
    expect(near((await pixelAt(image.data, 8, 8)).rgb, RED)).toBe(true);
    const grey = await sharp(await quadrantImage('png')).greyscale().png().toBuffer();
    const greyOut = await accepted(grey);
    expect((await sharp(greyOut.data).metadata()).depth).toBe('uchar');
    // 16-bit grey is made 8-bit at the decoder: the same shades as the 8-bit grey.
    const grey16 = await sharp(await quadrantImage('png')).greyscale().toColourspace('grey16').png().toBuffer();
    expect((await sharp(grey16).metadata()).space).toBe('grey16');
    const grey16Out = await accepted(grey16);
    expect((await sharp(grey16Out.data).metadata()).depth).toBe('uchar');
    expect(Math.abs((await pixelAt(grey16Out.data, 8, 8)).rgb[0]! - (await pixelAt(greyOut.data, 8, 8)).rgb[0]!)).toBeLessThanOrEqual(2);
  });

  it('does not encode in full a candidate that cannot win, and still does the PNG where it wins', async () => {
    // A photo: the PNG is hopeless for both profiles, and WebP would cost more than it saves: one JPEG encode.
    // (At its own size the PNG itself is a candidate too, passed through: no encode.)
    const photo = await sharp(photoRaw(), { raw: { width: 1200, height: 900, channels: 3 } }).png().toBuffer();
    const encodes = async (profile: ImageProfile) => (await candidates(photo, profile)).filter((c) => !c.free).map((c) => c.mime);
    expect(await encodes(OLLAMA)).toEqual(['image/jpeg']);
    expect(await encodes(OPENAI)).toEqual(['image/jpeg']);
    // Fitted down, the PNG is not passed through and not encoded either.
    expect((await candidates(photo, profileFor('ollama', { maxLongEdge: 800 }))).map((c) => c.mime)).toEqual(['image/jpeg']);

    // A native-size screen with flat areas and more than 256 colours: the PNG is tried, wins, and is exact.
    const ui = manyColourUiRaw();
    expect(distinctColours(ui.data)).toBeGreaterThan(256);
    const png = await sharp(ui.data, { raw: { width: ui.width, height: ui.height, channels: 3 } }).png().toBuffer();
    const uiTried = await candidates(png, OLLAMA);
    expect(uiTried.map((c) => c.mime)).toContain('image/png');
    const image = await accepted(png);
    expect(image.mime).toBe('image/png');
    expect((await sharp(image.data).metadata()).isPalette).toBeFalsy();
    expect((await sharp(image.data).removeAlpha().raw().toBuffer()).equals(ui.data)).toBe(true);
  });

  it('skipping the PNG never makes it worse: the result is at most the smallest of PNG alone and lossy alone', async () => {
    const ui = manyColourUiRaw();
    const flat = flatUiRaw();
    const inputs = [
      await sharp(photoRaw(), { raw: { width: 1200, height: 900, channels: 3 } }).png().toBuffer(),
      await sharp(ui.data, { raw: { width: ui.width, height: ui.height, channels: 3 } }).png().toBuffer(),
      // Downscaled to 1568 px: edges become many in-between colours, the flat areas stay.
      await sharp(flat.data, { raw: { width: flat.width, height: flat.height, channels: 3 } }).resize(3200, 2400, { kernel: 'nearest' }).png().toBuffer(),
    ];
    for (const input of inputs) {
      const all = await accepted(input, OPENAI);
      const pngAlone = await accepted(input, profileFor('openai', { formats: ['image/png'] }));
      const lossyAlone = await accepted(input, profileFor('openai', { formats: ['image/jpeg', 'image/webp'] }));
      // At its own size the PNG itself may be sent, which can be smaller than a re-encode.
      expect(all.bytes).toBeLessThanOrEqual(Math.min(pngAlone.bytes, lossyAlone.bytes));
      if (all.mime !== 'image/png') expect(all.bytes).toBe(lossyAlone.bytes);
    }
  });

  it('decides before decoding where the source can tell, and encodes in the decode pipeline; a flat screen fitted down still goes by the sample', async () => {
    const plan = async (data: Uint8Array, profile: ImageProfile) => {
      const sniffed = await sniffImage(data);
      if (!sniffed.ok) throw new Error(sniffed.message);
      const reasons: string[] = [];
      const tried: string[] = [];
      const result = await normaliseImage(data, sniffed, profile, DEFAULT_LIMITS, { onPrediction: (p) => reasons.push(p.reason), onCandidate: (c) => tried.push(c.mime) });
      if (!result.ok) throw new Error(result.message);
      return { reasons, tried, mime: result.image.mime, width: result.image.width };
    };
    const photoPng = await sharp(photoRaw(2400, 1800), { raw: { width: 2400, height: 1800, channels: 3 } }).png().toBuffer();
    // Dense pixel data (bytes per pixel far above any flat screen's), fitted down: JPEG, one encode, no sample.
    const dense = await plan(photoPng, OLLAMA);
    expect(dense).toMatchObject({ reasons: ['dense-source'], tried: ['image/jpeg'], mime: 'image/jpeg' });
    expect(dense.width).toBeLessThan(2400);
    // A JPEG source never becomes PNG.
    const photoJpeg = await sharp(photoRaw(2400, 1800), { raw: { width: 2400, height: 1800, channels: 3 } }).jpeg().toBuffer();
    expect((await plan(photoJpeg, OPENAI)).reasons).toEqual(['lossy-source']);
    // One accepted kind: nothing to decide.
    expect(await plan(photoPng, profileFor('ollama', { formats: ['image/png'] }))).toMatchObject({ reasons: ['only-format'], tried: ['image/png'] });
    // A flat screen, fitted down: its few bytes per pixel say nothing certain, so the fitted pixels decide (PNG).
    const flat = flatUiRaw();
    const bigFlat = await sharp(flat.data, { raw: { width: flat.width, height: flat.height, channels: 3 } }).resize(3200, 2400, { kernel: 'nearest' }).png().toBuffer();
    expect(await plan(bigFlat, OLLAMA)).toMatchObject({ reasons: ['sample'], mime: 'image/png' });
    // Written fast (zlib level 1, as Glance's capture does), the line is higher, and a flat screen still goes by the sample.
    expect((await plan(await sharp(photoPng).png({ compressionLevel: 1 }).toBuffer(), OLLAMA)).reasons).toEqual(['dense-source']);
    expect(await plan(await sharp(bigFlat).png({ compressionLevel: 1 }).toBuffer(), OLLAMA)).toMatchObject({ reasons: ['sample'], mime: 'image/png' });
    // Stored, not compressed (level 0): its size says nothing, so the fitted pixels decide.
    expect((await plan(await sharp(photoPng).png({ compressionLevel: 0 }).toBuffer(), OLLAMA)).reasons).toEqual(['photo-like']);
  });

  it('encodes the PNG once when only a lower lossy quality at the same size is tried next', async () => {
    const ui = manyColourUiRaw();
    const png = await sharp(ui.data, { raw: { width: ui.width, height: ui.height, channels: 3 } }).png().toBuffer();
    const tried = await candidates(png, profileFor('ollama', { maxBytes: 100 }));
    // Attempts: full size at two qualities, then smaller sizes; one PNG per size.
    const sizes = tried.filter((c) => c.mime === 'image/png').map((c) => `${c.width}×${c.height}`);
    expect(new Set(sizes).size).toBe(sizes.length);
    expect(tried.filter((c) => c.mime === 'image/jpeg' && c.width === ui.width)).toHaveLength(2);
  });
});

async function candidates(data: Uint8Array, profile: ImageProfile) {
  const sniffed = await sniffImage(data);
  if (!sniffed.ok) throw new Error(sniffed.message);
  const tried: Array<{ mime: string; width: number; height: number; bytes: number; free?: true }> = [];
  await normaliseImage(data, sniffed, profile, DEFAULT_LIMITS, { onCandidate: (c) => tried.push(c) });
  return tried;
}

/** A 1024×768 screen: flat panels, hard-edged "text", and a toolbar of 400 one-pixel colour stripes (> 256 colours). */
function manyColourUiRaw(): { data: Buffer; width: number; height: number } {
  const width = 1024;
  const height = 768;
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let c: readonly [number, number, number] = [245, 245, 245];
      if (y < 64 && x >= 100 && x < 500) c = [(x * 7) % 256, (x * 13) % 256, x % 256];
      else if (x < 200) c = [230, 230, 230];
      else if (y % 24 < 12 && x % 9 < 6 && x < 900) c = [30, 30, 30];
      data.set(c, (y * width + x) * 3);
    }
  }
  return { data, width, height };
}

function distinctColours(rgb: Buffer): number {
  const seen = new Set<number>();
  for (let i = 0; i < rgb.length; i += 3) seen.add(((rgb[i] ?? 0) << 16) | ((rgb[i + 1] ?? 0) << 8) | (rgb[i + 2] ?? 0));
  return seen.size;
}
