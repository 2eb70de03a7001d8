// The screen capture port (architecture §7). Backends: node-screenshots (nodeScreenshotsCapturer.ts,
// plain Node and Electron main) and Electron's desktopCapturer (main/capture/electron*, app only).
// Failures are values: a missing display, a refused permission or a bad region is something to
// tell the user (or the model) in plain words, not an exception.

/**
 * A monitor. x, y, width and height are in the desktop's logical coordinates (what Electron's
 * `screen` API and the cursor position use); scaleFactor maps them to device pixels, so a
 * capture of the whole display is about width×scaleFactor by height×scaleFactor pixels.
 */
export type DisplayInfo = {
  id: string;
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  scaleFactor: number;
  primary: boolean;
};

export type CaptureTarget = { display: string } | 'under-cursor' | 'primary' | 'all';

/** A rectangle in the captured image's pixel coordinates (origin at the display's top-left). */
export type CaptureRegion = { x: number; y: number; width: number; height: number };

export type Capture = {
  /** The pixels as PNG (lossless: the chokepoint decides what the model gets). */
  png: Uint8Array;
  width: number;
  height: number;
  /** The display captured; for 'all' over several monitors, a synthetic display covering them (id "all"). */
  display: DisplayInfo;
  /** The region actually captured, when one was asked for (clamped to the display). */
  region?: CaptureRegion;
  /** ISO time of the capture. */
  capturedAt: string;
};

export type CaptureFailureCode = 'capture-unavailable' | 'permission-denied' | 'no-display' | 'bad-region';
export type CaptureFailure = { ok: false; code: CaptureFailureCode; message: string };
export type CaptureResult = { ok: true; capture: Capture } | CaptureFailure;

export type CaptureOptions = {
  region?: CaptureRegion;
  signal?: AbortSignal;
};

export interface ScreenCapturer {
  /** The monitors, primary first. Empty when capture is unavailable (capture() says why). */
  listDisplays(): Promise<DisplayInfo[]>;
  /** Captures anew on every call (never cached). Rejects only when `signal` aborts. */
  capture(target: CaptureTarget, options?: CaptureOptions): Promise<CaptureResult>;
}

/** Where the pointer is, in the same logical coordinates as DisplayInfo; undefined if unknown. */
export type CursorLocator = () => Promise<{ x: number; y: number } | undefined>;

/** The display containing the point; else the nearest one (a pointer on an edge); else undefined. */
export function displayAt(displays: readonly DisplayInfo[], point: { x: number; y: number }): DisplayInfo | undefined {
  let nearest: DisplayInfo | undefined;
  let nearestDistance = Infinity;
  for (const d of displays) {
    const dx = point.x < d.x ? d.x - point.x : point.x >= d.x + d.width ? point.x - (d.x + d.width - 1) : 0;
    const dy = point.y < d.y ? d.y - point.y : point.y >= d.y + d.height ? point.y - (d.y + d.height - 1) : 0;
    const distance = dx * dx + dy * dy;
    if (distance === 0) return d;
    if (distance < nearestDistance) {
      nearest = d;
      nearestDistance = distance;
    }
  }
  return nearest;
}

/**
 * Checks a region against an image of width×height and clamps one that hangs over an edge
 * (rounding when a model maps coordinates back must not fail a zoom). A region that is not
 * a rectangle of positive size, or lies wholly outside, is refused.
 */
export function fitRegion(region: CaptureRegion, width: number, height: number): { ok: true; region: CaptureRegion } | CaptureFailure {
  const values = [region.x, region.y, region.width, region.height];
  if (!values.every(Number.isFinite) || region.width <= 0 || region.height <= 0) {
    return { ok: false, code: 'bad-region', message: `The region ${describeRegion(region)} is not a rectangle of positive size.` };
  }
  const x0 = Math.max(0, Math.floor(region.x));
  const y0 = Math.max(0, Math.floor(region.y));
  const x1 = Math.min(width, Math.ceil(region.x + region.width));
  const y1 = Math.min(height, Math.ceil(region.y + region.height));
  if (x1 <= x0 || y1 <= y0) {
    return {
      ok: false,
      code: 'bad-region',
      message: `The region ${describeRegion(region)} lies outside the display, which is ${width}×${height} pixels (x 0–${width - 1}, y 0–${height - 1}).`,
    };
  }
  return { ok: true, region: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } };
}

function describeRegion(r: CaptureRegion): string {
  return `${r.width}×${r.height} at (${r.x}, ${r.y})`;
}

/**
 * Every display on one canvas at the largest scale factor, laid out as the desktop is (the
 * 'all' target): the canvas size, a synthetic display covering it, and where each tile goes.
 */
export function desktopLayout(displays: readonly DisplayInfo[]): {
  width: number;
  height: number;
  display: DisplayInfo;
  tiles: { display: DisplayInfo; left: number; top: number; width: number; height: number }[];
} {
  const scale = Math.max(...displays.map((d) => d.scaleFactor));
  const left = Math.min(...displays.map((d) => d.x));
  const top = Math.min(...displays.map((d) => d.y));
  const right = Math.max(...displays.map((d) => d.x + d.width));
  const bottom = Math.max(...displays.map((d) => d.y + d.height));
  return {
    width: Math.round((right - left) * scale),
    height: Math.round((bottom - top) * scale),
    display: { id: 'all', name: 'All displays', x: left, y: top, width: right - left, height: bottom - top, scaleFactor: scale, primary: false },
    tiles: displays.map((d) => ({
      display: d,
      left: Math.round((d.x - left) * scale),
      top: Math.round((d.y - top) * scale),
      width: Math.round(d.width * scale),
      height: Math.round(d.height * scale),
    })),
  };
}
