// node-screenshots' pixels → the capture's PNG. Runs in the capture worker (captureWorker.ts), so
// the grab's 33 MB of RGBA (a 4K display) and its encode stay off the isolate that serves the
// app, and in-process where a worker cannot start. The caller decides which monitors and where
// they go; this file only reads pixels and encodes them.
import sharp from 'sharp';
import type { Image as NativeImage, Monitor as NativeMonitor } from 'node-screenshots';
import { fitRegion, type CaptureFailure, type CaptureRegion } from './screenCapturer.ts';

/** One monitor's pixels at (left, top) on the canvas, scaled to width×height if they differ. */
export type GrabTile = { monitorId: string; left: number; top: number; width: number; height: number };

export type GrabRequest = (
  | { monitorId: string } // that monitor's own image
  | { tiles: GrabTile[]; canvas: { width: number; height: number } } // composited (the 'all' target)
) & {
  region?: CaptureRegion;
  /** Copy the native pixels into V8's memory (Electron's memory cage needs it; see the capturer). */
  copyOutputData: boolean;
};

export type GrabResult = { ok: true; png: Uint8Array; width: number; height: number; region?: CaptureRegion } | CaptureFailure;

const PNG_OPTIONS = { compressionLevel: 1, adaptiveFiltering: false } as const; // fast: the chokepoint re-encodes anyway

/** Native failures (no such monitor, the platform refused) throw: the capturer words them. */
export async function grab(monitors: () => NativeMonitor[], request: GrabRequest): Promise<GrabResult> {
  const list = monitors();
  const native = (id: string) => {
    const found = list.find((m) => String(m.id()) === id);
    if (!found) throw new Error(`the monitor ${id} is gone`);
    return found;
  };
  const { region, copyOutputData } = request;
  if ('monitorId' in request) {
    let image: NativeImage = await native(request.monitorId).captureImage();
    let fitted: CaptureRegion | undefined;
    if (region) {
      const fit = fitRegion(region, image.width, image.height);
      if (!fit.ok) return fit;
      fitted = fit.region;
      image = await image.crop(fitted.x, fitted.y, fitted.width, fitted.height);
    }
    const raw = await image.toRaw(copyOutputData);
    const png = await sharp(raw, { raw: { width: image.width, height: image.height, channels: 4 } }).removeAlpha().png(PNG_OPTIONS).toBuffer();
    return { ok: true, png, width: image.width, height: image.height, ...(fitted ? { region: fitted } : {}) };
  }
  const layers = await Promise.all(
    request.tiles.map(async ({ monitorId, left, top, width: w, height: h }) => {
      const image = await native(monitorId).captureImage();
      let tile = sharp(await image.toRaw(copyOutputData), { raw: { width: image.width, height: image.height, channels: 4 } });
      if (image.width !== w || image.height !== h) tile = tile.resize(w, h, { fit: 'fill' });
      return { input: await tile.raw().toBuffer(), raw: { width: w, height: h, channels: 4 as const }, left, top };
    }),
  );
  const { width, height } = request.canvas;
  let composite = sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } }).composite(layers);
  let fitted: CaptureRegion | undefined;
  if (region) {
    const fit = fitRegion(region, width, height);
    if (!fit.ok) return fit;
    fitted = fit.region;
    // composite() runs after extract() in sharp's pipeline: flatten first, then crop.
    composite = sharp(await composite.raw().toBuffer(), { raw: { width, height, channels: 4 } }).extract({ left: fitted.x, top: fitted.y, width: fitted.width, height: fitted.height });
  }
  const png = await composite.removeAlpha().png(PNG_OPTIONS).toBuffer();
  return { ok: true, png, width: fitted?.width ?? width, height: fitted?.height ?? height, ...(fitted ? { region: fitted } : {}) };
}
