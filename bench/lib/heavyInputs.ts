// Inputs that stress the chokepoint's memory, generated in code (no binary blobs): big and deep
// pixels, metadata-heavy files, formats that must be decoded whole. Each is written to `dir`.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type SharpOptions } from 'sharp';
import { compressedTextChunk, textChunk, withChunks } from '../../test/fixtures/pngChunks.ts';

export type HeavyInput = { key: string; label: string; path: string; bytes: number };

/** A 3840×2160 UI-like screen: panels, a title bar, rows of 1–2 px "text" strokes. */
function screenRaw(width = 3840, height = 2160): Buffer {
  const data = Buffer.alloc(width * height * 3);
  let seed = 99;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let c = 0x1e1e1e;
      if (y < 60) c = 0x2d2d2d;
      else if (x < 348) c = 0x252526;
      else if (y % 20 >= 5 && y % 20 < 15 && x < width - 400) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        if ((x + (y >> 1)) % 3 === 0 && seed % 4 !== 0) c = [0xd4d4d4, 0x569cd6, 0xce9178, 0xb5cea8][Math.floor(x / 50) % 4]!;
      }
      const i = (y * width + x) * 3;
      data[i] = c >> 16;
      data[i + 1] = (c >> 8) & 0xff;
      data[i + 2] = c & 0xff;
    }
  }
  return data;
}

/** A 16-bit RGBA photo-like image: smooth ramps with noise in the low bits (barely compressible). */
function deepRaw(width: number, height: number): Buffer {
  const px = new Uint16Array(width * height * 4);
  let seed = 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      seed = (seed * 1103515245 + 12345) >>> 0;
      const n = seed >>> 22;
      px[i] = ((x * 65535) / width + n * 3) & 0xffff;
      px[i + 1] = ((y * 65535) / height + n * 2) & 0xffff;
      px[i + 2] = ((x + y) * 8 + n * 5) & 0xffff;
      px[i + 3] = 65535;
    }
  }
  return Buffer.from(px.buffer);
}

export async function makeHeavyInputs(dir: string): Promise<HeavyInput[]> {
  const out: HeavyInput[] = [];
  const put = async (key: string, label: string, data: Buffer) => {
    const path = join(dir, key);
    await writeFile(path, data);
    out.push({ key, label, path, bytes: data.byteLength });
  };
  const screen = sharp(screenRaw(), { raw: { width: 3840, height: 2160, channels: 3 } });
  const screenPng = await screen.clone().png().toBuffer();
  await put('screen-4k.png', '4K screen PNG', screenPng);
  await put('screen-4k-interlaced.png', '4K screen PNG, interlaced (Adam7: decoded whole)', await screen.clone().png({ progressive: true }).toBuffer());
  await put('text-chunk.png', '4K screen PNG + 48 MB tEXt chunk', withChunks(screenPng, [textChunk('Comment', 48 * 1024 * 1024)]));
  await put('itxt-bomb.png', '4K screen PNG + iTXt inflating to 200 MB', withChunks(screenPng, [compressedTextChunk('XML:com.adobe.xmp', 200 * 1024 * 1024)]));
  const deep = sharp(deepRaw(3840, 2160), { raw: { width: 3840, height: 2160, channels: 4 as const, depth: 'ushort' as const } } as SharpOptions);
  // rgb16: without it sharp writes the ushort pixels as an 8-bit PNG.
  await put('deep-16bit.png', '16-bit RGBA PNG 3840×2160', await deep.toColourspace('rgb16').png({ compressionLevel: 6 }).toBuffer());
  const photo = sharp(deepRaw(6000, 4000), { raw: { width: 6000, height: 4000, channels: 4 as const, depth: 'ushort' as const } } as SharpOptions).removeAlpha();
  await put('photo-24mp.jpg', '24 MP JPEG photo (6000×4000)', await photo.toColourspace('srgb').jpeg({ quality: 92 }).toBuffer());
  return out;
}
