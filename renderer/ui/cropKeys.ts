// The keyboard's region selection on a capture: a draft rectangle in the stored image's pixels
// (not CSS pixels, so it does not depend on how large the preview happens to be drawn).
import type { CropRegion } from '../state/attachmentsSlice.ts';

type Size = { width: number; height: number };
type Arrow = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';

/** One arrow press moves (or, with Shift, resizes) by this share of the image's width or height. */
const KEY_STEP = 0.02;

export function isArrowKey(key: string): key is Arrow {
  return key === 'ArrowLeft' || key === 'ArrowRight' || key === 'ArrowUp' || key === 'ArrowDown';
}

/** Where a keyboard selection starts: the middle half of the image in each direction. */
export function centredRegion(size: Size): CropRegion {
  return { x: size.width / 4, y: size.height / 4, width: size.width / 2, height: size.height / 2 };
}

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

/**
 * An arrow press: moves the region (kept inside the image), or with `resize` moves its right or
 * bottom edge (Right/Down grow, Left/Up shrink, never below one step nor past the image).
 */
export function stepRegion(region: CropRegion, key: Arrow, resize: boolean, size: Size): CropRegion {
  const dx = size.width * KEY_STEP;
  const dy = size.height * KEY_STEP;
  const sign = key === 'ArrowLeft' || key === 'ArrowUp' ? -1 : 1;
  const horizontal = key === 'ArrowLeft' || key === 'ArrowRight';
  if (resize) {
    return horizontal
      ? { ...region, width: clamp(region.width + sign * dx, Math.min(dx, size.width - region.x), size.width - region.x) }
      : { ...region, height: clamp(region.height + sign * dy, Math.min(dy, size.height - region.y), size.height - region.y) };
  }
  return horizontal
    ? { ...region, x: clamp(region.x + sign * dx, 0, size.width - region.width) }
    : { ...region, y: clamp(region.y + sign * dy, 0, size.height - region.height) };
}

/** Whole pixels inside the image, at least 1×1: what `attachments:crop` is asked for. */
export function pixelRegion(region: CropRegion, size: Size): CropRegion {
  const x = clamp(Math.round(region.x), 0, size.width - 1);
  const y = clamp(Math.round(region.y), 0, size.height - 1);
  return {
    x,
    y,
    width: clamp(Math.round(region.width), 1, size.width - x),
    height: clamp(Math.round(region.height), 1, size.height - y),
  };
}

/** For the live region while the selection moves: shares of the capture, which mean the same at any resolution. */
export function describeRegion(region: CropRegion, size: Size): string {
  const pct = (n: number, of: number) => `${Math.round((n / of) * 100)}%`;
  return `Selected ${pct(region.width, size.width)} × ${pct(region.height, size.height)} of the capture, ${pct(region.x, size.width)} from the left, ${pct(region.y, size.height)} from the top. Enter sends only this region; Escape returns to the whole screenshot.`;
}
