import sharp, { type SharpOptions } from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { normaliseImage } from './normalise.ts';
import { pngChunks } from './pngChunks.ts';
import { deinterlacedPng } from './pngInterlace.ts';
import { DEFAULT_PROFILES } from './profiles.ts';

/** Colour type, bit depth and interlace method from IHDR. */
function ihdr(png: Uint8Array): { colourType: number; depth: number; interlace: number } {
  return { depth: png[24]!, colourType: png[25]!, interlace: png[28]! };
}

/** Pixels with structure and noise, so every filter type and every pass gets used. */
function pixels(width: number, height: number, channels: number, bytes = 1): Buffer {
  const data = Buffer.alloc(width * height * channels * bytes);
  let seed = 7;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const pixel = Math.floor(i / (channels * bytes));
    const x = pixel % width;
    const y = Math.floor(pixel / width);
    data[i] = (x * 5 + y * 3 + (i % channels) * 40 + ((seed >>> 28) & 3)) & 0xff;
  }
  return data;
}

async function interlaced(
  width: number,
  height: number,
  channels: 1 | 2 | 3 | 4,
  options: { depth16?: boolean; colours?: number; palette?: boolean } = {},
): Promise<Buffer> {
  const raw = { width, height, channels, ...(options.depth16 ? { depth: 'ushort' } : {}) };
  let image = sharp(pixels(width, height, channels, options.depth16 ? 2 : 1), { raw } as SharpOptions);
  if (options.depth16) image = image.toColourspace(channels <= 2 ? 'grey16' : 'rgb16');
  else if (channels <= 2) image = image.toColourspace('b-w');
  return image
    .png({ progressive: true, adaptiveFiltering: true, ...(options.colours ? { colours: options.colours, palette: options.palette ?? true, dither: 0 } : {}) })
    .toBuffer();
}

const raw = (png: Uint8Array) => sharp(png).raw({ depth: 'ushort' }).toBuffer();

describe('deinterlacedPng', () => {
  const cases: Array<[string, () => Promise<Buffer>, { colourType: number; depth: number }]> = [
    ['RGB, 8 bits', () => interlaced(37, 23, 3), { colourType: 2, depth: 8 }],
    ['RGBA, 8 bits', () => interlaced(29, 31, 4), { colourType: 6, depth: 8 }],
    ['grey, 8 bits', () => interlaced(33, 17, 1), { colourType: 0, depth: 8 }],
    ['grey + alpha, 8 bits', () => interlaced(19, 41, 2), { colourType: 4, depth: 8 }],
    ['RGB, 16 bits', () => interlaced(21, 13, 3, { depth16: true }), { colourType: 2, depth: 16 }],
    ['RGBA, 16 bits', () => interlaced(17, 19, 4, { depth16: true }), { colourType: 6, depth: 16 }],
    ['grey, 16 bits', () => interlaced(23, 9, 1, { depth16: true }), { colourType: 0, depth: 16 }],
    ['palette, 8 bits', () => interlaced(35, 27, 3, { colours: 200 }), { colourType: 3, depth: 8 }],
    ['palette, 4 bits', () => interlaced(35, 27, 3, { colours: 16 }), { colourType: 3, depth: 4 }],
    ['palette, 2 bits', () => interlaced(27, 35, 3, { colours: 4 }), { colourType: 3, depth: 2 }],
    ['palette, 1 bit', () => interlaced(13, 11, 3, { colours: 2 }), { colourType: 3, depth: 1 }],
    ['1×1 (six of the seven passes empty)', () => interlaced(1, 1, 3), { colourType: 2, depth: 8 }],
    ['5×3 (some passes empty)', () => interlaced(5, 3, 3), { colourType: 2, depth: 8 }],
    ['1 pixel wide', () => interlaced(1, 30, 4), { colourType: 6, depth: 8 }],
  ];

  it.each(cases)('%s: the same pixels, no longer interlaced', async (_name, make, expected) => {
    const input = await make();
    expect(ihdr(input)).toEqual({ ...expected, interlace: 1 });
    const before = Buffer.from(input);
    const output = await deinterlacedPng(input);
    expect(ihdr(output)).toEqual({ ...expected, interlace: 0 });
    expect((await sharp(output).metadata()).isProgressive).toBe(false);
    expect((await raw(output)).equals(await raw(input))).toBe(true);
    expect(Buffer.from(input).equals(before)).toBe(true); // the original is not touched
  });

  it('keeps the palette and transparency chunks, and drops text', async () => {
    const input = await sharp(pixels(40, 30, 4), { raw: { width: 40, height: 30, channels: 4 } })
      .png({ progressive: true, palette: true, colours: 64 })
      .withMetadata()
      .toBuffer();
    const types = pngChunks(input)!.map((c) => c.type);
    expect(types).toContain('PLTE');
    expect(types).toContain('tRNS');
    const output = await deinterlacedPng(input);
    expect(pngChunks(output)!.map((c) => c.type)).toEqual(['IHDR', ...types.filter((t) => ['PLTE', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'cICP', 'sBIT', 'eXIf'].includes(t)), 'IDAT', 'IEND']);
    expect((await raw(output)).equals(await raw(input))).toBe(true);
  });

  it('returns a PNG that is not interlaced as it is', async () => {
    const plain = await sharp(pixels(20, 20, 3), { raw: { width: 20, height: 20, channels: 3 } }).png().toBuffer();
    expect(await deinterlacedPng(plain)).toBe(plain);
  });

  it('returns damaged data as it is, for the decoder to refuse in plain words', async () => {
    const input = await interlaced(64, 48, 3);
    const idat = pngChunks(input)!.find((c) => c.type === 'IDAT')!;
    const truncated = Buffer.concat([input.subarray(0, idat.offset + 8 + (idat.length >> 1))]);
    expect(await deinterlacedPng(truncated)).toBe(truncated);
    const badChecksum = Buffer.from(input);
    badChecksum[idat.offset + 8 + idat.length - 1]! ^= 0xff; // the Adler-32 at the end of the zlib stream
    expect(await deinterlacedPng(badChecksum)).toBe(badChecksum);
    const scrambled = Buffer.from(input);
    for (let i = idat.offset + 8 + 10; i < idat.offset + 8 + idat.length - 10; i += 7) scrambled[i] = 0x5a;
    expect(await deinterlacedPng(scrambled)).toBe(scrambled);
    // A zlib header asking for a preset dictionary (PNG has none): refused, not waited on forever.
    const withDictionary = Buffer.from(input);
    const at = idat.offset + 8;
    const flags = (withDictionary[at + 1]! & 0xc0) | 0x20;
    withDictionary[at + 1] = flags + ((31 - ((withDictionary[at]! * 256 + flags) % 31)) % 31);
    expect(await deinterlacedPng(withDictionary)).toBe(withDictionary);
  });

  it('stops when the caller aborts', async () => {
    const input = await interlaced(300, 300, 3);
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(deinterlacedPng(input, controller.signal)).rejects.toThrow('stopped');
  });
});

describe('normaliseImage with an interlaced PNG', () => {
  it('sends what the same screen non-interlaced sends, byte for byte', async () => {
    const screen = sharp(pixels(1600, 900, 3), { raw: { width: 1600, height: 900, channels: 3 } });
    const plain = await screen.clone().png().toBuffer();
    const adam7 = await screen.clone().png({ progressive: true }).toBuffer();
    expect(ihdr(adam7).interlace).toBe(1);
    const profile = { ...DEFAULT_PROFILES.ollama, maxLongEdge: 800 };
    const a = await normaliseImage(plain, { kind: 'png', mime: 'image/png' }, profile, DEFAULT_LIMITS);
    const b = await normaliseImage(adam7, { kind: 'png', mime: 'image/png' }, profile, DEFAULT_LIMITS);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(b.image.width).toBe(800);
    expect(b.image.sha256).toBe(a.image.sha256);
  });

  it('refuses a damaged interlaced PNG in plain words', async () => {
    const input = await interlaced(1200, 800, 3);
    const idat = pngChunks(input)!.find((c) => c.type === 'IDAT')!;
    const damaged = Buffer.from(input);
    for (let i = idat.offset + 8 + 10; i < idat.offset + 8 + idat.length - 10; i += 7) damaged[i] = 0x5a;
    const result = await normaliseImage(damaged, { kind: 'png', mime: 'image/png' }, { ...DEFAULT_PROFILES.ollama, maxLongEdge: 400 }, DEFAULT_LIMITS);
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
  });
});
