// The screen capture port (architecture §7). Backends: node-screenshots (nodeScreenshotsCapturer.ts,
// plain Node and Electron main) and Electron's desktopCapturer (main/capture/electron*, app only).
// Failures are values: a missing display, a refused permission or a bad region is something to
// tell the user (or the model) in plain words, not an exception.

import type { RawFrame } from '../../common/images.ts';

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

/**
 * A top-level window on the desktop, in the same logical coordinates as DisplayInfo. `app` and
 * `title` are written by whoever owns the window: untrusted text (a web page sets its title).
 */
export type WindowInfo = {
  id: string;
  app: string;
  title: string;
  focused: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The window with its window manager's decorations (title bar, borders), where the desktop says; x, y, width, height are its content. */
  frame?: { x: number; y: number; width: number; height: number };
};

/** A window as it sits in a capture: its rectangle in the captured image's pixels (clipped to it). */
type CapturedWindow = { app: string; title: string; region: CaptureRegion };

/** `window`: a window id, title or app name (matched by findWindow). */
export type CaptureScope = { display: string } | { window: string } | 'under-cursor' | 'primary' | 'all';

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
  /** A window capture: the window that was cut from its display's capture. */
  window?: WindowInfo;
  /** With `windowUnderPointer`: the topmost window under the pointer at capture time, where it is in this image. */
  underPointer?: CapturedWindow;
  /**
   * The windows on this image (read beside the pixels), where each lies in it: the door fills the
   * windows of excluded apps (password managers) before anything else (architecture §3 "Redact").
   * Absent when the backend lists none.
   */
  windows?: CapturedWindow[];
};

type CaptureFailureCode = 'capture-unavailable' | 'permission-denied' | 'no-display' | 'no-window' | 'bad-region';

/**
 * A capture as raw pixels (captureFrame): the same facts as Capture, with the pixels not yet
 * encoded. The hotkey hands these to the door, which fits the model's copy from them and encodes
 * the lossless original after (the PNG is off the path to the model).
 */
export type FrameCapture = Omit<Capture, 'png'> & { frame: RawFrame };
export type FrameResult = { ok: true; capture: FrameCapture | Capture } | CaptureFailure;

export type CaptureFailure = { ok: false; code: CaptureFailureCode; message: string };
export type CaptureResult = { ok: true; capture: Capture } | CaptureFailure;

export type CaptureOptions = {
  /** In the captured image's coordinates: the display's, or for a window scope the window's. */
  region?: CaptureRegion;
  signal?: AbortSignal;
  /**
   * 'under-cursor' only: also find the window under the pointer (read with the same capture, so
   * the ask window can cut it later without capturing again). Off by default: it costs a window list.
   */
  windowUnderPointer?: boolean;
};

export interface ScreenCapturer {
  /** The monitors, primary first. Empty when capture is unavailable (capture() says why). */
  listDisplays(): Promise<DisplayInfo[]>;
  /** Top-level windows, topmost first; minimised, empty and Glance's own windows left out. Empty when unknown. */
  listWindows(): Promise<WindowInfo[]>;
  /** Captures anew on every call (never cached). Rejects only when `signal` aborts. */
  capture(scope: CaptureScope, options?: CaptureOptions): Promise<CaptureResult>;
  /**
   * The same capture with its pixels left raw (no PNG), for a caller that hands them straight to
   * the door. Optional: a backend without it is asked for capture(); a fallback may answer with a PNG.
   */
  captureFrame?(scope: CaptureScope, options?: CaptureOptions): Promise<FrameResult>;
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
 * 'all' scope): the canvas size, a synthetic display covering it, and where each tile goes.
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

/**
 * The window a person or a model means by `query`: its id, else its exact title, else its exact
 * app name, else the first title containing it (case-insensitive); the topmost wins a tie.
 */
export function findWindow(windows: readonly WindowInfo[], query: string): WindowInfo | undefined {
  const q = query.trim().toLowerCase();
  if (!q) return undefined;
  return (
    windows.find((w) => w.id === query.trim()) ??
    windows.find((w) => w.title.toLowerCase() === q) ??
    windows.find((w) => w.app.toLowerCase() === q) ??
    windows.find((w) => w.title.toLowerCase().includes(q))
  );
}

/** No window matches `query`: said with the windows there are (their titles are their owners' text). */
export function noWindow(query: string, windows: readonly WindowInfo[]): CaptureFailure {
  const names = windows.slice(0, 20).map((w) => `${JSON.stringify(w.title || '(untitled)')} (${w.app || 'unknown app'})`);
  return {
    ok: false,
    code: 'no-window',
    message: windows.length ? `There is no window matching "${query}". Windows: ${names.join('; ')}.` : `There is no window matching "${query}": no windows are listed on this desktop.`,
  };
}

/** The topmost window (the list is topmost first) containing the point, if any. */
export function windowAt(windows: readonly WindowInfo[], point: { x: number; y: number }): WindowInfo | undefined {
  return windows.find((w) => point.x >= w.x && point.x < w.x + w.width && point.y >= w.y && point.y < w.y + w.height);
}

/**
 * Where a window lies in a capture of `display`, in that capture's pixels, clipped to it; undefined
 * when it lies wholly outside (a window on another monitor).
 */
export function windowRegion(window: Pick<WindowInfo, 'x' | 'y' | 'width' | 'height'>, display: DisplayInfo): CaptureRegion | undefined {
  const s = display.scaleFactor;
  const x0 = Math.max(0, Math.round((window.x - display.x) * s));
  const y0 = Math.max(0, Math.round((window.y - display.y) * s));
  const x1 = Math.min(Math.round(display.width * s), Math.round((window.x + window.width - display.x) * s));
  const y1 = Math.min(Math.round(display.height * s), Math.round((window.y + window.height - display.y) * s));
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : undefined;
}

/** `windows` as they lie in a capture of `display` (cut to `region`, in the display's pixels, if one was): clipped, off-image ones dropped. */
export function windowsInCapture(windows: readonly WindowInfo[], display: DisplayInfo, region?: CaptureRegion): CapturedWindow[] {
  return windows.flatMap((w) => {
    const on = windowRegion(w, display);
    if (!on) return [];
    if (!region) return [{ app: w.app, title: w.title, region: on }];
    const x0 = Math.max(on.x, region.x), y0 = Math.max(on.y, region.y);
    const x1 = Math.min(on.x + on.width, region.x + region.width), y1 = Math.min(on.y + on.height, region.y + region.height);
    return x1 > x0 && y1 > y0 ? [{ app: w.app, title: w.title, region: { x: x0 - region.x, y: y0 - region.y, width: x1 - x0, height: y1 - y0 } }] : [];
  });
}

/** A capture's windows as the door's ImageInput takes them. */
export function doorWindows(capture: Pick<Capture, 'windows'>): { windows?: { app: string; title: string; x: number; y: number; width: number; height: number }[] } {
  return capture.windows?.length ? { windows: capture.windows.map((w) => ({ app: w.app, title: w.title, ...w.region })) } : {};
}

/** A region given in a window's own pixels, moved into its display capture's pixels (clipped to the window). */
export function regionInWindow(region: CaptureRegion, window: CaptureRegion): { ok: true; region: CaptureRegion } | CaptureFailure {
  const fit = fitRegion(region, window.width, window.height);
  if (!fit.ok) return { ...fit, message: fit.message.replace('the display', 'the window') };
  return { ok: true, region: { ...fit.region, x: fit.region.x + window.x, y: fit.region.y + window.y } };
}

