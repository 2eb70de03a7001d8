// Thumbnails of stored images for lists and composer chips (crops: cropImage.ts).
import sharp from 'sharp';

/**
 * A small WebP for lists and composer chips. `aspectOf` (the image as it entered) restores the
 * shape of a copy squashed for a model whose server ignores aspect (gemma3's 896×896).
 */
export async function thumbnail(
  data: Uint8Array,
  maxEdge: number,
  aspectOf?: { width: number; height: number },
): Promise<{ dataUrl: string; mime: 'image/webp'; width: number; height: number }> {
  const meta = await sharp(data).metadata();
  const w = meta.width ?? 1;
  const h = meta.height ?? 1;
  const squashed = aspectOf !== undefined && aspectOf.width > 0 && aspectOf.height > 0 && Math.abs(w / h / (aspectOf.width / aspectOf.height) - 1) > 0.02;
  const resize = squashed
    ? (() => {
        const k = Math.min(1, maxEdge / Math.max(aspectOf.width, aspectOf.height), Math.max(w, h) / Math.max(aspectOf.width, aspectOf.height));
        return { width: Math.max(1, Math.round(aspectOf.width * k)), height: Math.max(1, Math.round(aspectOf.height * k)), fit: 'fill' as const };
      })()
    : { width: maxEdge, height: maxEdge, fit: 'inside' as const, withoutEnlargement: true };
  const { data: out, info } = await sharp(data)
    .resize(resize)
    .webp({ quality: 80 })
    .toBuffer({ resolveWithObject: true });
  return { dataUrl: `data:image/webp;base64,${out.toString('base64')}`, mime: 'image/webp', width: info.width, height: info.height };
}
