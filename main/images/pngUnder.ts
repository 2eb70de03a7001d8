// An image as a PNG under a byte budget (glance mcp serve's resources over stdio, architecture §14):
// re-compressed losslessly at full size when that fits (captures are kept at a fast PNG level), else
// the largest smaller PNG found that does, its shape kept.
import sharp from 'sharp';

/** Lossless PNG at full size if it fits, else the largest smaller PNG found that does. */
export async function pngUnder(data: Uint8Array, maxBytes: number): Promise<{ data: Buffer; width: number; height: number }> {
  const png = (width?: number) => {
    const image = sharp(data);
    return (width ? image.resize({ width, kernel: 'lanczos3' }) : image).png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer({ resolveWithObject: true });
  };
  let out = await png();
  const full = out.info.width;
  let width = full;
  for (let i = 0; i < 8 && out.data.length > maxBytes; i++) {
    // Bytes go roughly with the pixels: shrink by the square root of the excess, a little more each round.
    width = Math.max(64, Math.floor(width * Math.sqrt(maxBytes / out.data.length) * (0.95 - i * 0.05)));
    out = await png(width);
  }
  if (out.data.length > maxBytes) throw new Error(`The image could not be made smaller than ${out.data.length} bytes as PNG (the most is ${maxBytes}).`);
  return { data: out.data, width: out.info.width, height: out.info.height };
}
