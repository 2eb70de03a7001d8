import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { flatUiRaw, photoRaw } from '../../test/fixtures/images.ts';
import { encode, encodeForProfile, isOpaque, predictEncoding, repeatedShare, type Candidate, type Encoded, type Raw } from './encoderChoice.ts';
import type { ImageMime } from '../../common/images.ts';

const BOTH: ImageMime[] = ['image/png', 'image/jpeg', 'image/webp'];

/** A 1920×1080 flat UI (big enough to be sampled, not encoded whole): the 800×600 fixture tiled. */
function flatScreen(): Raw {
  const ui = flatUiRaw();
  const width = 1920;
  const height = 1080;
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x += ui.width) {
      const n = Math.min(ui.width, width - x);
      ui.data.copy(data, (y * width + x) * 3, (y % ui.height) * ui.width * 3, ((y % ui.height) * ui.width + n) * 3);
    }
  }
  return { data, width, height, channels: 3 };
}

function photo(): Raw {
  return { data: photoRaw(1600, 1200), width: 1600, height: 1200, channels: 3 };
}

/** A flat UI enlarged 2× then fitted down to 1568 px as normalise does: flat areas stay, edges become ramps. */
async function downscaledScreen(): Promise<Raw> {
  const screen = flatScreen();
  const big = await sharp(screen.data, { raw: { width: screen.width, height: screen.height, channels: 3 } }).resize(3840, 2160, { kernel: 'nearest' }).png().toBuffer();
  return fitted(big, 1568, 882);
}

/** A 4K screen of 14 px-like "text" (1 px strokes in glyph cells, 20 px lines) fitted to 1568 px: the strokes turn into greys. */
async function downscaledText(): Promise<Raw> {
  const width = 3840;
  const height = 2160;
  const data = Buffer.alloc(width * height * 3, 30);
  let seed = 7;
  for (let y = 40; y < height - 20; y++) {
    const inLine = y % 20 >= 4 && y % 20 < 16;
    for (let x = 300; x < width - 40 && inLine; x++) {
      const cell = Math.floor(x / 8);
      seed = (seed * 1103515245 + ((cell * 31 + Math.floor(y / 20)) & 0xff)) & 0x7fffffff;
      if ((x + y) % 3 === 0 && seed % 5 !== 0) data.fill(212, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
  }
  const png = await sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer();
  return fitted(png, 1568, 882);
}

async function fitted(png: Buffer, width: number, height: number): Promise<Raw> {
  const out = await sharp(png).resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer({ resolveWithObject: true });
  return { data: out.data, width: out.info.width, height: out.info.height, channels: out.info.channels as 3 };
}

async function fullBytes(raw: Raw, mime: ImageMime): Promise<number> {
  const encoded = await encode(sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } }), mime, 80);
  return encoded.data.byteLength;
}

describe('predictEncoding', () => {
  it('picks lossless PNG for a flat UI screen, from a sample, and PNG is in fact far smaller', async () => {
    const screen = flatScreen();
    const prediction = await predictEncoding(screen, BOTH);
    expect(prediction).toMatchObject({ mime: 'image/png', reason: 'sample' });
    expect(prediction.flatness).toBeGreaterThan(0.9);
    expect(prediction.encoded).toBeUndefined(); // a sample, not the whole image
    expect((await fullBytes(screen, 'image/png')) * 4).toBeLessThan(await fullBytes(screen, 'image/jpeg'));
  });

  it('picks JPEG for a photo without encoding any sample: too few repeated pixels for PNG', async () => {
    const prediction = await predictEncoding(photo(), BOTH);
    expect(prediction).toMatchObject({ mime: 'image/jpeg', reason: 'photo-like' });
    expect(prediction.flatness).toBeLessThan(0.35);
    expect(prediction.pngSample).toBeUndefined();
  });

  it('picks what encoding both in full would pick: flat, downscaled and text screens, photos', async () => {
    const winners: string[] = [];
    for (const raw of [flatScreen(), await downscaledScreen(), await downscaledText(), photo()]) {
      const prediction = await predictEncoding(raw, ['image/png', 'image/jpeg']);
      const [png, jpeg] = [await fullBytes(raw, 'image/png'), await fullBytes(raw, 'image/jpeg')];
      expect(prediction.mime).toBe(png <= jpeg ? 'image/png' : 'image/jpeg');
      winners.push(prediction.mime);
    }
    // Both outcomes occur: small 1 px strokes fitted down are JPEG's; big flat shapes stay PNG's.
    expect(winners).toEqual(['image/png', 'image/png', 'image/jpeg', 'image/jpeg']);
  });

  it('the sample predicts the full-size ratio of PNG to JPEG bytes within 25%', async () => {
    let compared = 0;
    for (const raw of [flatScreen(), await downscaledScreen(), await downscaledText()]) {
      const p = await predictEncoding(raw, BOTH);
      if (p.reason !== 'sample') continue; // decided by flatness alone
      compared++;
      const sampleRatio = (p.pngSample ?? 0) / (p.lossySample ?? 1);
      const fullRatio = (await fullBytes(raw, 'image/png')) / (await fullBytes(raw, 'image/jpeg'));
      expect(sampleRatio / fullRatio).toBeGreaterThan(0.75);
      expect(sampleRatio / fullRatio).toBeLessThan(1.25);
    }
    expect(compared).toBeGreaterThanOrEqual(2);
  });

  it('has nothing to predict when the profile takes one kind', async () => {
    const screen = flatScreen();
    expect(await predictEncoding(screen, ['image/png'])).toMatchObject({ mime: 'image/png', reason: 'only-format' });
    expect(await predictEncoding(screen, ['image/webp', 'image/gif'])).toMatchObject({ mime: 'image/webp', reason: 'only-format' });
    expect(await predictEncoding(screen, ['image/gif'])).toMatchObject({ mime: 'image/gif', reason: 'only-format' });
    // JPEG over WebP: about as legible, a sixth of the encode time.
    expect((await predictEncoding(photo(), ['image/webp', 'image/jpeg'])).mime).toBe('image/jpeg');
  });

  it('encodes a small image whole as its sample and reuses that encode', async () => {
    const ui = flatUiRaw();
    // 800×300: fewer rows than four sample strides, so the sample is the image itself.
    const raw: Raw = { data: ui.data.subarray(0, 800 * 300 * 3), width: 800, height: 300, channels: 3 };
    const tried: Candidate[] = [];
    const result = await encodeForProfile(raw, { formats: BOTH, maxBytes: 10 * 1024 * 1024 }, { onCandidate: (c) => tried.push(c) });
    expect(result.ok && result.encoded.mime).toBe('image/png');
    expect(tried).toHaveLength(1);
  });
});

describe('encodeForProfile', () => {
  it('encodes once in full: the predicted format', async () => {
    for (const raw of [flatScreen(), photo()]) {
      const tried: Candidate[] = [];
      const result = await encodeForProfile(raw, { formats: BOTH, maxBytes: 20 * 1024 * 1024 }, { onCandidate: (c) => tried.push(c) });
      expect(result.ok).toBe(true);
      expect(tried).toHaveLength(1);
    }
  });

  it('gives way from a PNG over the byte cap to the lossy format at full size first', async () => {
    const screen = flatScreen();
    const png = await fullBytes(screen, 'image/png');
    const tried: Candidate[] = [];
    const result = await encodeForProfile(screen, { formats: ['image/png', 'image/jpeg'], maxBytes: png - 1 }, { onCandidate: (c) => tried.push(c) });
    expect(tried[0]).toMatchObject({ mime: 'image/png', width: 1920 });
    expect(tried[1]).toMatchObject({ mime: 'image/jpeg', width: 1920 });
    if (result.ok) expect(result.encoded.data.byteLength).toBeLessThanOrEqual(png - 1);
  });

  it('uses full-size encodes already made (over the cap) instead of making them again', async () => {
    const screen = flatScreen();
    const made: Encoded[] = [
      await encode(sharp(screen.data, { raw: { width: 1920, height: 1080, channels: 3 } }), 'image/png', 80),
      await encode(sharp(screen.data, { raw: { width: 1920, height: 1080, channels: 3 } }), 'image/jpeg', 80),
    ];
    const cap = Math.min(...made.map((e) => e.data.byteLength)) - 1;
    const tried: Candidate[] = [];
    const result = await encodeForProfile(screen, { formats: ['image/png', 'image/jpeg'], maxBytes: cap }, { made, onCandidate: (c) => tried.push(c) });
    expect(result.ok).toBe(true);
    // Nothing at 1920 px and quality 80 again: the next attempts are a lower quality or a smaller size.
    expect(tried.length).toBeGreaterThan(0);
    expect(tried.filter((c) => c.width === 1920 && c.mime === 'image/png')).toHaveLength(0);
    expect(tried[0]).toMatchObject({ mime: 'image/jpeg', width: 1920 });
    expect(tried[0]!.bytes).toBeLessThan(made[1]!.data.byteLength);
  });

  it('shrinks a PNG-only image until it fits, one PNG per size', async () => {
    const raw = photo();
    const tried: Candidate[] = [];
    const result = await encodeForProfile(raw, { formats: ['image/png'], maxBytes: 400_000 }, { onCandidate: (c) => tried.push(c) });
    expect(result.ok).toBe(true);
    const sizes = tried.map((c) => c.width);
    expect(new Set(sizes).size).toBe(sizes.length);
    expect(sizes[0]).toBe(1600);
  });
});

describe('pixel statistics', () => {
  it('repeatedShare counts pixels equal to their left neighbour', () => {
    const data = Buffer.from([1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1]); // 4 RGB pixels: same, new, new
    expect(repeatedShare({ data, width: 4, height: 1, channels: 3 })).toBeCloseTo(1 / 3);
  });

  it('isOpaque sees a single transparent pixel', () => {
    const data = Buffer.alloc(4 * 100, 255);
    expect(isOpaque({ data, width: 10, height: 10, channels: 4 })).toBe(true);
    data[4 * 57 + 3] = 254;
    expect(isOpaque({ data, width: 10, height: 10, channels: 4 })).toBe(false);
  });
});
