// The window's own words for a window capture (screenshot_desktop {window}, mcp serve's capture_screen
// {window}): read right after the pixels, bounded, and turned into what the door needs (password
// fields to fill, in the image's pixels) and what the model reads beside the image.
import { windowRegion, type Capture } from '../capture/screenCapturer.ts';
import type { WindowText, WindowTextResult } from './windowText.ts';
import { passwordFields, secretFields } from './windowTextForModel.ts';

export type CapturedWindowText = {
  result: WindowTextResult;
  /** The window's password fields and the secrets in its words, as the door's capture windows (filled when secrets are). */
  fields: Array<ReturnType<typeof passwordFields>[number] | ReturnType<typeof secretFields>[number]>;
  /** Where the image starts in the window's pixels (a zoom into it). */
  offset: { x: number; y: number };
};

/** Reads the captured window's text, or undefined when the capture is not of one window or there is no reader. */
export async function readCapturedWindow(windowText: WindowText | undefined, capture: Pick<Capture, 'window' | 'display' | 'region' | 'width' | 'height'>, signal?: AbortSignal): Promise<CapturedWindowText | undefined> {
  const window = capture.window;
  if (!windowText || !window) return undefined;
  const result = await windowText.read({ title: window.title, x: window.x, y: window.y, width: window.width, height: window.height, scale: capture.display.scaleFactor }, signal ? { signal } : {});
  // The image starts where its capture region does inside the window (a zoom into it), in the window's pixels.
  const cut = windowRegion(window, capture.display);
  const offset = cut && capture.region ? { x: Math.max(0, capture.region.x - cut.x), y: Math.max(0, capture.region.y - cut.y) } : { x: 0, y: 0 };
  const size = { width: capture.width, height: capture.height };
  return { result, fields: [...passwordFields(result, size, offset), ...secretFields(result, size, offset)], offset };
}
