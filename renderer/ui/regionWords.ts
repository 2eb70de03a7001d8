import type { Redaction } from '../../common/privacy.ts';

/**
 * Where a hidden region is, in words a person reads at a glance: "jwt, top left, 358×26 px".
 * `size` is the image the region's pixels are in (the original); without it, only the kind and size.
 */
export function regionWords(r: Pick<Redaction, 'x' | 'y' | 'width' | 'height' | 'kind'>, size?: { width?: number; height?: number }): string {
  const dims = `${r.width}×${r.height} px`;
  if (!size?.width || !size.height) return `${r.kind}, ${dims}`;
  const cx = (r.x + r.width / 2) / size.width;
  const cy = (r.y + r.height / 2) / size.height;
  const row = cy < 1 / 3 ? 'top' : cy < 2 / 3 ? 'middle' : 'bottom';
  const col = cx < 1 / 3 ? 'left' : cx < 2 / 3 ? 'centre' : 'right';
  const place = row === 'middle' && col === 'centre' ? 'centre' : row === 'middle' ? `${col} edge, middle` : `${row} ${col}`;
  return `${r.kind}, ${place}, ${dims}`;
}
