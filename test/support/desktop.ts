// A real desktop for the window tests: Xvfb, openbox as the window manager, Chromium windows of
// known colour and title (test/fixtures/desktopWindows.ts), and the wait until they are listed by
// their own titles and painted. One set-up for the capture, chat, e2e and MCP server suites.
import sharp from 'sharp';
import type { ScreenCapturer } from '../../main/capture/screenCapturer.ts';
import { openWindow, startWindowManager, type KnownWindow, type OpenWindow } from '../fixtures/desktopWindows.ts';
import { startXvfb, type XServer } from '../fixtures/xvfb.ts';

export type Desktop = {
  x: XServer;
  /** Closes the windows, then the window manager, then the X server. */
  close(): Promise<void>;
};

/**
 * Starts the desktop and opens `windows` in order (the last on top). `thisProcess`: DISPLAY is set
 * for the calling test process (node-screenshots connects once per process), not only handed to
 * the children.
 */
export async function openDesktop(size: { width: number; height: number }, windows: KnownWindow[], options: { thisProcess?: boolean } = {}): Promise<Desktop> {
  const x = await startXvfb(size);
  if (options.thisProcess) {
    Object.assign(process.env, { DISPLAY: x.display, XDG_SESSION_TYPE: 'x11' });
    delete process.env.WAYLAND_DISPLAY;
  }
  const wm = await startWindowManager(x.env);
  const open: OpenWindow[] = [];
  for (const w of windows) open.push(await openWindow(x.env, w));
  return {
    x,
    async close() {
      for (const w of open) await w.close();
      await wm.stop();
      await x.stop();
    },
  };
}

/** The pixel at (px, py) of a PNG as "r,g,b". */
export async function rgbAt(png: Uint8Array, px: number, py: number): Promise<string> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (py * info.width + px) * info.channels;
  return [data[at], data[at + 1], data[at + 2]].join();
}

/**
 * Waits (up to 15 s) until every window is listed by its own title — a Chromium window is titled
 * by its URL until the page's <title> reaches X — and shows its colour a little inside its corner.
 */
export async function waitForWindows(capturer: ScreenCapturer, windows: KnownWindow[], inset = 20): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const shot = await capturer.capture('primary');
    if (shot.ok) {
      const titles = (await capturer.listWindows()).map((w) => w.title);
      const painted = await Promise.all(windows.map(async (w) => (await rgbAt(shot.capture.png, w.x + inset, w.y + inset)) === hexToRgb(w.color)));
      if (painted.every(Boolean) && windows.every((w) => titles.includes(w.title))) return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

function hexToRgb(hex: string): string {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join();
}
