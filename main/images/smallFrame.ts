// Small frames for telling whether the screen changed (glance mcp serve's wait_for, architecture §14):
// a capture scaled to fit `maxSide` (RGB: a colour change at equal brightness is a change too), and
// where two of them differ.
import sharp from 'sharp';

export type SmallFrame = { /** RGB, row by row. */ data: Uint8Array; width: number; height: number; /** Source pixels per small pixel. */ scale: number };

export async function smallFrame(png: Uint8Array, sourceWidth: number, sourceHeight: number, maxSide = 256): Promise<SmallFrame> {
  const { data, info } = await sharp(png)
    .resize({ width: maxSide, height: maxSide, fit: 'inside', kernel: 'cubic', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, scale: sourceWidth / info.width || sourceHeight / info.height || 1 };
}

/**
 * The box (in source pixels) around the small pixels where a channel differs by more than `threshold` levels,
 * or undefined when none does (or the frames are not the same size: then the whole frame).
 */
export function changedBox(a: SmallFrame, b: SmallFrame, threshold = 24): { x: number; y: number; width: number; height: number } | undefined {
  if (a.width !== b.width || a.height !== b.height) return { x: 0, y: 0, width: Math.round(b.width * b.scale), height: Math.round(b.height * b.scale) };
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * 3;
      if (Math.abs(a.data[i]! - b.data[i]!) <= threshold && Math.abs(a.data[i + 1]! - b.data[i + 1]!) <= threshold && Math.abs(a.data[i + 2]! - b.data[i + 2]!) <= threshold) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  if (x1 < 0) return undefined;
  const k = b.scale;
  return { x: Math.floor(x0 * k), y: Math.floor(y0 * k), width: Math.ceil((x1 - x0 + 1) * k), height: Math.ceil((y1 - y0 + 1) * k) };
}
