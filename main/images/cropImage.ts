// Crops from the ORIGINAL (architecture §3, §5 zoom_image): a region named in the coordinates of
// the image as the model (or the user) was shown it is mapped onto the kept original and cut
// out at native resolution, so small text the fitted copy lost is back. One place decides how
// a region is read and refused; zoom_image, read_text and the ask window's crop all use it.
import type { AttachmentInfo } from '../../common/images.ts';
import type { Limits } from '../../common/limits.ts';
import sharp from 'sharp';
import type { Redaction } from '../../common/privacy.ts';
import { maskImage } from '../privacy/maskImage.ts';
import { decodedInput } from './decodeInput.ts';
import type { AttachmentStore, ImageInput } from './types.ts';
import { errorMessage } from '../errors.ts';

export type Region = { x: number; y: number; width: number; height: number };

/** Below this many shown pixels on a side a region holds nothing worth a look. */
const MIN_SIDE = 1;

type RegionRefusal = { ok: false; code: 'bad-region' | 'not-found' | 'corrupt' | 'too-many-pixels'; message: string };

export type Crop = {
  ok: true;
  /** The region cut out, lossless (PNG): it goes through the intake like any image. */
  png: Buffer;
  /** The region actually used, in the shown image's coordinates (clamped to its edges). */
  shown: Region;
  /** The same region in the original's pixels. */
  source: Region;
  /** Size of the (oriented) original the crop came from. */
  sourceSize: { width: number; height: number };
  /** False when no original was kept and the stored copy was cropped instead. */
  fromOriginal: boolean;
  /**
   * A capture's windows (the record's, in its original's pixels) where they lie in the crop, so a
   * password manager's window stays filled in a zoom or a region of it; absent when none fall in it.
   */
  windows?: ImageInput['windows'];
};

/**
 * Reads a region from tool arguments or a request: four finite numbers, a width and height of at
 * least MIN_SIDE. Plain-word refusals; the numbers are not yet checked against an image.
 */
export function parseRegion(value: { x?: unknown; y?: unknown; width?: unknown; height?: unknown }): Region | RegionRefusal {
  const fields = ['x', 'y', 'width', 'height'] as const;
  const out: Partial<Region> = {};
  for (const f of fields) {
    const v = value[f];
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
    if (!Number.isFinite(n)) return bad(`${f} must be a number of pixels (got ${describe(v)}).`);
    out[f] = n;
  }
  const r = out as Region;
  if (r.x < 0 || r.y < 0) return bad(`x and y must be 0 or more: the region's top-left corner lies inside the image (got x ${r.x}, y ${r.y}).`);
  if (r.width < MIN_SIDE || r.height < MIN_SIDE) return bad(`width and height must be at least ${MIN_SIDE} pixels (got ${r.width}×${r.height}).`);
  return r;
}

/** The region clamped to a width × height image, or a refusal when it lies outside it. */
export function clampRegion(r: Region, width: number, height: number): Region | RegionRefusal {
  if (r.x >= width || r.y >= height) {
    return bad(`The region starts at ${round(r.x)},${round(r.y)}, outside the ${width}×${height} image. Use coordinates from 0,0 to ${width - 1},${height - 1}.`);
  }
  const right = Math.min(width, r.x + r.width);
  const bottom = Math.min(height, r.y + r.height);
  const out = { x: r.x, y: r.y, width: right - r.x, height: bottom - r.y };
  if (out.width < MIN_SIDE || out.height < MIN_SIDE) return bad(`The region ${fmt(r)} leaves less than ${MIN_SIDE} pixels inside the ${width}×${height} image.`);
  return out;
}

/**
 * Cuts `region` (in `info`'s width × height, the copy that was shown) out of the attachment's
 * original at native resolution. The original is decoded with the pixel cap in force, EXIF
 * orientation applied (the shown copy was oriented too), and only the region is encoded.
 */
export async function cropAttachment(
  store: AttachmentStore,
  info: AttachmentInfo,
  region: Region,
  limits: Pick<Limits, 'maxInputPixels'>,
  options: { signal?: AbortSignal; /** Regions of the original (its upright pixels) filled before the cut: what it hides stays hidden in every piece. */ fill?: readonly Redaction[] } = {},
): Promise<Crop | RegionRefusal> {
  const shown = clampRegion(region, info.width, info.height);
  if ('ok' in shown) return shown;
  const kept = await store.source(info);
  if (!kept) return { ok: false, code: 'not-found', message: `The image ${info.id} is no longer stored (it may have expired under the retention setting).` };
  const input = await decodedInput(kept.data, kept.mime, limits, options);
  if (!input.ok) return input;
  const { width: ow, height: oh } = input.size;
  const sx = ow / info.width;
  const sy = oh / info.height;
  // Rounded, so a region of half the shown image is half the original (541 rows of 1080 would be a surprise).
  const left = Math.min(ow - 1, Math.round(shown.x * sx));
  const top = Math.min(oh - 1, Math.round(shown.y * sy));
  const source = {
    x: left,
    y: top,
    width: Math.max(1, Math.min(ow - left, Math.round(shown.width * sx))),
    height: Math.max(1, Math.min(oh - top, Math.round(shown.height * sy))),
  };
  options.signal?.throwIfAborted();
  try {
    const whole = options.fill?.length ? sharp(await maskImage(input.image(), options.fill)) : input.image();
    const png = await whole.extract({ left: source.x, top: source.y, width: source.width, height: source.height }).png().toBuffer();
    const windows = info.windows?.length ? windowsInRegion(info.windows, info.source, input.size, source) : [];
    return { ok: true, png, shown, source, sourceSize: input.size, fromOriginal: kept.fromOriginal, ...(windows.length ? { windows } : {}) };
  } catch (error) {
    return { ok: false, code: 'corrupt', message: `The image ${info.id} could not be read: ${errorMessage(error).split('\n')[0]}.` };
  }
}

/**
 * Windows given in the pixels of a `basis`-sized image, moved into a `region` of the same picture
 * decoded at `size` (the original, or a smaller stored copy): scaled, clipped to the region, made
 * relative to its corner; windows wholly outside it are dropped.
 */
export function windowsInRegion(
  windows: NonNullable<ImageInput['windows']>,
  basis: { width: number; height: number },
  size: { width: number; height: number },
  region: Region = { x: 0, y: 0, ...size },
): NonNullable<ImageInput['windows']> {
  if (basis.width <= 0 || basis.height <= 0) return [];
  const sx = size.width / basis.width;
  const sy = size.height / basis.height;
  return windows.flatMap((w) => {
    // Outward to whole pixels: a scaled window's edge never leaves a readable sliver.
    const x0 = Math.max(region.x, Math.floor(w.x * sx));
    const y0 = Math.max(region.y, Math.floor(w.y * sy));
    const x1 = Math.min(region.x + region.width, Math.ceil((w.x + w.width) * sx));
    const y1 = Math.min(region.y + region.height, Math.ceil((w.y + w.height) * sy));
    return x1 > x0 && y1 > y0 ? [{ app: w.app, title: w.title, ...(w.password ? { password: true as const } : {}), ...(w.secret ? { secret: w.secret } : {}), x: x0 - region.x, y: y0 - region.y, width: x1 - x0, height: y1 - y0 }] : [];
  });
}

/**
 * A record's capture windows in the pixels of what the store holds for it: the original's own, or
 * (no original kept) scaled to the stored copy.
 */
export function recordWindows(info: AttachmentInfo, fromOriginal: boolean): ImageInput['windows'] {
  if (!info.windows?.length || fromOriginal) return info.windows;
  return windowsInRegion(info.windows, info.source, { width: info.width, height: info.height });
}

function bad(message: string): RegionRefusal {
  return { ok: false, code: 'bad-region', message };
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'number') return String(v);
  return JSON.stringify(v)?.slice(0, 40) ?? typeof v;
}

const round = (n: number) => Math.round(n * 10) / 10;

function fmt(r: Region): string {
  return `${round(r.width)}×${round(r.height)} at ${round(r.x)},${round(r.y)}`;
}
