import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { pngChunk, textChunk, withChunks, compressedTextChunk } from '../../test/fixtures/pngChunks.ts';
import { normaliseImage } from './normalise.ts';
import { pngChunks, pngFacts, pngForPassthrough, withoutAncillaryChunks } from './pngChunks.ts';
import { DEFAULT_PROFILES, profileFor } from './profiles.ts';

async function screenPng(): Promise<Buffer> {
  // Blue and white halves with a red square: known pixels.
  return sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } })
    .composite([
      { input: { create: { width: 150, height: 200, channels: 3, background: '#0000ff' } }, left: 0, top: 0 },
      { input: { create: { width: 40, height: 40, channels: 3, background: '#ff0000' } }, left: 200, top: 80 },
    ])
    .png()
    .toBuffer();
}

const raw = (png: Uint8Array) => sharp(png).raw().toBuffer();

describe('withoutAncillaryChunks', () => {
  it('drops a big tEXt chunk and keeps every pixel', async () => {
    const plain = await screenPng();
    const heavy = withChunks(plain, [textChunk('Comment', 2 * 1024 * 1024)]);
    expect(pngChunks(heavy)?.map((c) => c.type)).toContain('tEXt');
    const stripped = withoutAncillaryChunks(heavy);
    expect(pngChunks(stripped)?.map((c) => c.type)).not.toContain('tEXt');
    expect(pngChunks(stripped)?.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(stripped.byteLength).toBeLessThan(plain.byteLength);
    expect((await raw(stripped)).equals(await raw(plain))).toBe(true);
  });

  it('drops compressed text (iTXt) that would inflate to hundreds of megabytes', async () => {
    const plain = await screenPng();
    const bomb = compressedTextChunk('XML:com.adobe.xmp', 200 * 1024 * 1024);
    const heavy = withChunks(plain, [bomb, bomb]); // ~0.4 MB on disk each
    expect(heavy.byteLength - plain.byteLength).toBeGreaterThan(256 * 1024);
    const stripped = withoutAncillaryChunks(heavy);
    expect(pngChunks(stripped)?.map((c) => c.type)).not.toContain('iTXt');
    expect((await raw(stripped)).equals(await raw(plain))).toBe(true);
  });

  it('keeps the chunks that change the pixels: transparency, colour, EXIF', async () => {
    const plain = await screenPng();
    const keepers = [pngChunk('gAMA', Buffer.from([0, 0, 0xb1, 0x8f])), pngChunk('sRGB', Buffer.from([0])), pngChunk('eXIf', Buffer.from('MM\0*\0\0\0\x08\0\0', 'latin1'))];
    const heavy = withChunks(plain, [...keepers, textChunk('Comment', 1024 * 1024), pngChunk('tIME', Buffer.alloc(7))]);
    const types = pngChunks(withoutAncillaryChunks(heavy))?.map((c) => c.type);
    expect(types).toEqual(['IHDR', 'gAMA', 'sRGB', 'eXIf', 'IDAT', 'IEND']);
    // A palette image's transparency (tRNS) survives.
    const clear = await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0 } } }).png({ palette: true }).toBuffer();
    const clearHeavy = withChunks(clear, [textChunk('Comment', 1024 * 1024)]);
    const stripped = withoutAncillaryChunks(clearHeavy);
    expect(pngChunks(stripped)?.map((c) => c.type)).toContain('tRNS');
    expect((await sharp(stripped).metadata()).hasAlpha).toBe(true);
  });

  it('leaves the bytes alone when there is little to drop (no copy) or the chunk list is broken', async () => {
    const plain = await screenPng();
    const light = withChunks(plain, [textChunk('Title', 100)]);
    expect(withoutAncillaryChunks(light)).toBe(light);
    const heavy = withChunks(plain, [textChunk('Comment', 1024 * 1024)]);
    const cut = heavy.subarray(0, heavy.byteLength - 100); // no IEND
    expect(withoutAncillaryChunks(cut)).toBe(cut);
    expect(withoutAncillaryChunks(Buffer.from('not a png at all'))).toEqual(Buffer.from('not a png at all'));
  });
});

describe('pngFacts', () => {
  it('reads size, depth, colour type, interlace, the zlib level and a stored first block from the bytes alone', async () => {
    const plain = await screenPng();
    expect(pngFacts(plain)).toMatchObject({ width: 300, height: 200, depth: 8, colourType: 6, interlaced: false, zlibLevel: 2, stored: false });
    expect(pngFacts(await sharp(plain).png({ compressionLevel: 1 }).toBuffer())).toMatchObject({ zlibLevel: 0, stored: false });
    expect(pngFacts(await sharp(plain).png({ compressionLevel: 0 }).toBuffer())).toMatchObject({ zlibLevel: 0, stored: true });
    expect(pngFacts(await sharp(plain).png({ compressionLevel: 9, progressive: true }).toBuffer())).toMatchObject({ zlibLevel: 3, interlaced: true });
    expect(pngFacts(await sharp(plain).removeAlpha().png().toBuffer())?.colourType).toBe(2);
    const idat = (png: Uint8Array) => pngChunks(png)!.filter((c) => c.type === 'IDAT').reduce((n, c) => n + c.length, 0);
    expect(pngFacts(plain)?.idatBytes).toBe(idat(plain));
    expect(pngFacts(Buffer.from('not a png at all'))).toBeUndefined();
  });
});

describe('pngForPassthrough', () => {
  it('gives the PNG reduced to its pixels: critical chunks, transparency and the sRGB mark, the same pixels', async () => {
    const plain = await screenPng();
    const tagged = withChunks(plain, [pngChunk('sRGB', Buffer.from([0])), textChunk('Comment', 1000), pngChunk('tIME', Buffer.alloc(7)), pngChunk('pHYs', Buffer.alloc(9))]);
    const own = pngForPassthrough(tagged);
    expect(own && pngChunks(own)?.map((c) => c.type)).toEqual(['IHDR', 'sRGB', 'IDAT', 'IEND']);
    expect((await raw(own!)).equals(await raw(plain))).toBe(true);
    const clear = await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0 } } }).png({ palette: true }).toBuffer();
    expect(pngChunks(pngForPassthrough(clear)!)?.map((c) => c.type)).toContain('tRNS');
  });

  it('refuses what the decoder would change or a re-encode would beat: 16-bit, interlaced, colour profiles, orientation, zlib level 1', async () => {
    const plain = await screenPng();
    const cases: Record<string, Uint8Array> = {
      '16-bit': await sharp(plain).toColourspace('rgb16').png().toBuffer(),
      interlaced: await sharp(plain).png({ progressive: true }).toBuffer(),
      'level 1': await sharp(plain).png({ compressionLevel: 1 }).toBuffer(),
      gAMA: withChunks(plain, [pngChunk('gAMA', Buffer.from([0, 0, 0xb1, 0x8f]))]),
      iCCP: withChunks(plain, [pngChunk('iCCP', Buffer.from('p\0\0xxxx', 'latin1'))]),
      eXIf: withChunks(plain, [pngChunk('eXIf', Buffer.from('MM\0*\0\0\0\x08\0\0', 'latin1'))]),
      'not a PNG': Buffer.from('not a png at all'),
    };
    for (const [name, data] of Object.entries(cases)) expect(pngForPassthrough(data), name).toBeUndefined();
    expect(pngForPassthrough(await sharp(plain).png({ compressionLevel: 6 }).toBuffer())).toBeDefined();
  });

  it('a PNG at its own size goes out as its own pixels, text dropped, where that is smaller than the JPEG', async () => {
    const plain = await screenPng();
    const heavy = withChunks(plain, [textChunk('Comment', 3000)]);
    const sniffed = { kind: 'png' as const, mime: 'image/png' };
    const sent = await normaliseImage(heavy, sniffed, DEFAULT_PROFILES.ollama, DEFAULT_LIMITS);
    if (!sent.ok) throw new Error(sent.message);
    expect(sent.image.mime).toBe('image/png');
    expect(Buffer.from(sent.image.data).equals(Buffer.from(pngForPassthrough(heavy)!))).toBe(true);
    expect(pngChunks(sent.image.data)?.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    // Fitted down, it is decoded and encoded as any other.
    const smaller = await normaliseImage(heavy, sniffed, profileFor('ollama', { maxLongEdge: 150 }), DEFAULT_LIMITS);
    expect(smaller.ok && [smaller.image.width, smaller.image.height]).toEqual([150, 100]);
  });

  it('a damaged PNG is refused, not passed through: the whole image is decoded first', async () => {
    const plain = await screenPng();
    const chunks = pngChunks(plain)!;
    const idat = chunks.find((c) => c.type === 'IDAT')!;
    const broken = Buffer.from(plain);
    broken[idat.offset + 8 + Math.floor(idat.length / 2)]! ^= 0xff; // a flipped byte mid-stream: the CRC no longer matches
    const result = await normaliseImage(broken, { kind: 'png', mime: 'image/png' }, DEFAULT_PROFILES.ollama, DEFAULT_LIMITS);
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
  });
});

describe('normaliseImage on metadata-heavy PNGs', () => {
  it('sends the same image with or without a big text chunk, and records the file as it was', async () => {
    const plain = await screenPng();
    const heavy = withChunks(plain, [textChunk('Comment', 3 * 1024 * 1024), compressedTextChunk('XML:com.adobe.xmp', 50 * 1024 * 1024)]);
    const sniffed = { kind: 'png' as const, mime: 'image/png' };
    const a = await normaliseImage(plain, sniffed, DEFAULT_PROFILES.ollama, DEFAULT_LIMITS);
    const b = await normaliseImage(heavy, sniffed, DEFAULT_PROFILES.ollama, DEFAULT_LIMITS);
    if (!a.ok || !b.ok) throw new Error('refused');
    expect(b.image.sha256).toBe(a.image.sha256);
    expect(b.image.source.bytes).toBe(heavy.byteLength);
  });
});
