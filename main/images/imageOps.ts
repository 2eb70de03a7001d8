// Thumbnails of stored images for lists and composer chips (crops: cropImage.ts).
import sharp from 'sharp';

/** A small WebP for lists and composer chips. */
export async function thumbnail(data: Uint8Array, maxEdge: number): Promise<{ dataUrl: string; mime: 'image/webp'; width: number; height: number }> {
  const { data: out, info } = await sharp(data)
    .resize({ width: maxEdge, height: maxEdge, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer({ resolveWithObject: true });
  return { dataUrl: `data:image/webp;base64,${out.toString('base64')}`, mime: 'image/webp', width: info.width, height: info.height };
}
