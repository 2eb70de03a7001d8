// Filling what was found (architecture §3 "Redact"): opaque rectangles drawn into the pixels,
// never a blur or a pixelation — both can be undone well enough to read a key back (the reason
// Screenpipe moved to solid boxes). The fill is a flat dark grey with no texture, so nothing of
// what was under it is left in the output, and a model sees a plain box rather than black
// text-like noise.
import type { Sharp } from 'sharp';
import sharp from 'sharp';
import type { Redaction } from '../../common/privacy.ts';

const FILL = { r: 40, g: 40, b: 40, alpha: 1 };

/**
 * `image` (a pipeline over the upright original) with `regions` filled, as a PNG. The result has
 * the image's own size; an empty region list returns it unchanged but re-encoded.
 */
export async function maskImage(image: Sharp, regions: readonly Pick<Redaction, 'x' | 'y' | 'width' | 'height'>[]): Promise<Buffer> {
  // Orientation and any resize are applied first, so region pixels are the original's as shown.
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  for (const r of regions) {
    const x0 = Math.max(0, Math.floor(r.x)), y0 = Math.max(0, Math.floor(r.y));
    const x1 = Math.min(width, Math.ceil(r.x + r.width)), y1 = Math.min(height, Math.ceil(r.y + r.height));
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const at = (y * width + x) * channels;
        data[at] = FILL.r;
        data[at + 1] = FILL.g;
        data[at + 2] = FILL.b;
        data[at + 3] = 255;
      }
    }
  }
  return sharp(data, { raw: { width, height, channels } }).png({ compressionLevel: 3 }).toBuffer();
}
