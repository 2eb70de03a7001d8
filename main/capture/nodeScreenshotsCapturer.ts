// ScreenCapturer on node-screenshots (xcap via N-API): X11, Wayland (portal / wlroots),
// macOS and Windows, in plain Node and in Electron's main process.
//
// Facts about node-screenshots 0.2.8 on Linux that shape this file (all measured):
// - It reads DISPLAY when it first connects and keeps that connection — including a failed
//   one — for the life of the process. So we check that the X server answers (our own tiny
//   X11 client) before the first native call, and a test that wants another display runs in
//   its own process.
// - It finds monitors through X (RandR monitors that have an output: every real monitor),
//   even in a Wayland session, where XWayland must be there; the pixels then come from the
//   Wayland side (portal or wlroots screencopy).
// - In a sway session (SWAYSOCK) the monitors, windows and pixels come from sway and grim instead
//   (wlroots.ts): node-screenshots lists only XWayland's windows there, and nothing without XWayland.
//   On another Wayland desktop without XWayland, grim with the outputs the compositor lists.
import sharp, { type Sharp } from 'sharp';
import { desktopLayout, displayAt, findWindow, fitRegion, noWindow, regionInWindow, windowAt, windowRegion, windowsInCapture } from './screenCapturer.ts';
import type {
  Capture,
  CaptureFailure,
  CaptureOptions,
  CaptureRegion,
  CaptureResult,
  CaptureScope,
  CursorLocator,
  DisplayInfo,
  FrameCapture,
  FrameResult,
  ScreenCapturer,
  WindowInfo,
} from './screenCapturer.ts';
import { probeX11Display } from './x11Pointer.ts';
import { withX11Facts } from './x11WindowNames.ts';
import { headMonitors, xineramaHeads } from './x11Heads.ts';
import { abortable } from '../abortable.ts';
import { onPath, outputsModule, swaySocket, wlrootsModule, type CaptureModule as NativeModule, type ImageLike as NativeImage, type MonitorLike as NativeMonitor, type WindowLike as NativeWindow } from './wlroots.ts';
import { errorText } from '../errors.ts';
import type { RawFrame } from '../../common/images.ts';

/** `asked`: macOS was just asked (its prompt is up); a grant applies after Glance is reopened. */
export type PermissionStatus = 'granted' | 'denied' | 'unknown' | 'asked';

export type NodeScreenshotsCapturerOptions = {
  /** Pointer position for 'under-cursor' (Electron: screen.getCursorScreenPoint()). Default: ask the X server on Linux/X11; elsewhere none (primary is used). */
  cursor?: CursorLocator;
  /** macOS: Screen Recording permission (Electron: systemPreferences.getMediaAccessStatus('screen')). Checked before every capture when given. */
  checkPermission?: () => Promise<PermissionStatus>;
  /** Give up on one capture after this long (default 15 s): a Wayland portal may wait on a dialog. */
  timeoutMs?: number;
  /**
   * Have the native module copy the pixels into memory V8 owns instead of handing over its own.
   * Electron's V8 memory cage forbids buffers over outside memory, and node-screenshots' README
   * says Electron crashes without the copy; plain Node is faster without it. Default: on inside
   * Electron (`process.versions.electron`), off elsewhere.
   */
  copyOutputData?: boolean;
};

type Monitors = { displays: DisplayInfo[]; natives: Map<string, NativeMonitor> };
/** What a capture hands over: a PNG (capture), or the pixels left raw (captureFrame). */
type Mode = 'png' | 'frame';
type AnyResult = { ok: true; capture: Capture | FrameCapture } | CaptureFailure;

const PNG_OPTIONS = { compressionLevel: 1, adaptiveFiltering: false } as const; // fast: the chokepoint re-encodes anyway

export class NodeScreenshotsCapturer implements ScreenCapturer {
  readonly #options: NodeScreenshotsCapturerOptions;
  readonly #env: NodeJS.ProcessEnv;
  readonly #platform: NodeJS.Platform;
  readonly #copyOutputData: boolean;
  #native: Promise<NativeModule | CaptureFailure> | undefined;
  #xReachable = false;

  constructor(options: NodeScreenshotsCapturerOptions = {}) {
    this.#options = options;
    // process.env, not an injected copy: the native code reads DISPLAY/WAYLAND_DISPLAY from it.
    this.#env = process.env;
    this.#platform = process.platform;
    this.#copyOutputData = options.copyOutputData ?? process.versions.electron !== undefined;
  }

  async listDisplays(): Promise<DisplayInfo[]> {
    const monitors = await this.#monitors();
    return 'displays' in monitors ? monitors.displays : [];
  }

  async listWindows(): Promise<WindowInfo[]> {
    if (await this.#preflight()) return [];
    const native = await this.#loadNative();
    if ('ok' in native) return [];
    try {
      // A window with only the legacy WM_NAME, or no class, comes back "": X is asked for those.
      const list = nativeWindows(await native.Window.all());
      return native.x11 ? await withX11Facts(list) : list;
    } catch {
      return []; // no window list (no window manager hints): display captures still work
    }
  }

  async capture(scope: CaptureScope, options: CaptureOptions = {}): Promise<CaptureResult> {
    return (await this.#timed(scope, options, 'png')) as CaptureResult;
  }

  /** The capture without its PNG: RGB pixels as the grab left them (the alpha, always opaque, dropped). */
  async captureFrame(scope: CaptureScope, options: CaptureOptions = {}): Promise<FrameResult> {
    return this.#timed(scope, options, 'frame');
  }

  async #timed(scope: CaptureScope, options: CaptureOptions, mode: Mode): Promise<AnyResult> {
    const timeoutMs = this.#options.timeoutMs ?? 15_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      return await abortable(this.#capture(scope, options, signal, mode), signal);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.aborted) {
        return { ok: false, code: 'capture-unavailable', message: `The screen capture did not finish within ${Math.round(timeoutMs / 1000)} s.${this.#isWayland() ? ' On Wayland the desktop may be waiting for you to allow the screenshot.' : ''}` };
      }
      throw error;
    }
  }

  async #capture(scope: CaptureScope, options: CaptureOptions, signal: AbortSignal, mode: Mode): Promise<AnyResult> {
    let region = options.region;
    if (this.#platform === 'darwin' && this.#options.checkPermission) {
      const status = await this.#options.checkPermission();
      if (status === 'asked') return { ok: false, code: 'permission-denied', message: MACOS_ASKED };
      if (status === 'denied') return { ok: false, code: 'permission-denied', message: MACOS_PERMISSION };
    }
    const monitors = await this.#monitors(signal);
    if (!('displays' in monitors)) return monitors;
    signal.throwIfAborted();
    const { displays, natives } = monitors;

    let chosen: DisplayInfo[];
    let window: WindowInfo | undefined;
    let pointer: { x: number; y: number } | undefined;
    if (scope === 'all') chosen = displays;
    else if (scope === 'primary') chosen = [primaryOf(displays)];
    else if (scope === 'under-cursor') {
      pointer = await this.#pointer(displays);
      chosen = [(pointer && displayAt(displays, pointer)) ?? primaryOf(displays)];
    } else if ('window' in scope) {
      // Cut from its display's capture: what was on screen there, windows on top of it included.
      const windows = await this.listWindows();
      window = findWindow(windows, scope.window);
      if (!window) return noWindow(scope.window, windows);
      const display = displayAt(displays, { x: window.x + window.width / 2, y: window.y + window.height / 2 }) ?? primaryOf(displays);
      const cut = windowRegion(window, display);
      if (!cut) return noWindow(scope.window, windows);
      const inWindow = region ? regionInWindow(region, cut) : { ok: true as const, region: cut };
      if (!inWindow.ok) return inWindow;
      region = inWindow.region;
      chosen = [display];
    } else {
      const found = displays.find((d) => d.id === scope.display) ?? displays.find((d) => d.name === scope.display);
      if (!found) {
        return { ok: false, code: 'no-display', message: `There is no display "${scope.display}". Displays: ${displays.map(describeDisplay).join('; ')}.` };
      }
      chosen = [found];
    }
    signal.throwIfAborted();

    try {
      if (chosen.length === 1) {
        const display = chosen[0] as DisplayInfo;
        // The window list is read beside the pixels, not after: both describe the same moment.
        // Every window on it too: an excluded app's (a password manager) is filled before OCR.
        // One window list (Window.all(), ~11 ms on a 4K X desktop) serves both, read while the grab runs natively.
        const [shot, listed] = await Promise.all([this.#captureOne(display, natives.get(display.id) as NativeMonitor, region, mode), this.listWindows()]);
        const underPointer = pointer && options.windowUnderPointer ? underPointerIn(listed, pointer, display) : undefined;
        if (!shot.ok) return shot;
        const windows = windowsInCapture(listed, display, shot.capture.region);
        return { ok: true, capture: { ...shot.capture, ...(window ? { window } : {}), ...(underPointer && !region ? { underPointer } : {}), ...(windows.length ? { windows } : {}) } };
      }
      return await this.#captureAll(chosen, natives, region, mode);
    } catch (error) {
      return this.#nativeFailure(error);
    }
  }

  async #captureOne(display: DisplayInfo, monitor: NativeMonitor, region: CaptureRegion | undefined, mode: Mode): Promise<AnyResult> {
    let image: NativeImage = await monitor.captureImage();
    let fitted: CaptureRegion | undefined;
    if (region) {
      const fit = fitRegion(region, image.width, image.height);
      if (!fit.ok) return fit;
      fitted = fit.region;
      image = await image.crop(fitted.x, fitted.y, fitted.width, fitted.height);
    }
    const raw = await image.toRaw(this.#copyOutputData);
    const pixels = await encoded(sharp(raw, { raw: { width: image.width, height: image.height, channels: image.channels ?? 4 } }).removeAlpha(), mode, image.width, image.height);
    return { ok: true, capture: capture(pixels, image.width, image.height, display, fitted) };
  }

  /** Every monitor on one canvas at the largest scale factor, laid out as the desktop is. */
  async #captureAll(displays: DisplayInfo[], natives: Map<string, NativeMonitor>, region: CaptureRegion | undefined, mode: Mode): Promise<AnyResult> {
    const { width, height, display: all, tiles } = desktopLayout(displays);
    // Read beside the grabs, as for one display: the canvas is the desktop's logical space at the
    // largest scale factor, so windows land on it as on a display of that scale.
    const listed = this.listWindows();
    const layers = await Promise.all(
      tiles.map(async ({ display: d, left, top, width: w, height: h }) => {
        const image = await (natives.get(d.id) as NativeMonitor).captureImage();
        let tile = sharp(await image.toRaw(this.#copyOutputData), { raw: { width: image.width, height: image.height, channels: image.channels ?? 4 } }).ensureAlpha(1);
        if (image.width !== w || image.height !== h) tile = tile.resize(w, h, { fit: 'fill' });
        return { input: await tile.raw().toBuffer(), raw: { width: w, height: h, channels: 4 as const }, left, top };
      }),
    );
    let canvas = sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } }).composite(layers);
    let fitted: CaptureRegion | undefined;
    if (region) {
      const fit = fitRegion(region, width, height);
      if (!fit.ok) return fit;
      fitted = fit.region;
      // composite() runs after extract() in sharp's pipeline: flatten first, then crop.
      canvas = sharp(await canvas.raw().toBuffer(), { raw: { width, height, channels: 4 } }).extract({ left: fitted.x, top: fitted.y, width: fitted.width, height: fitted.height });
    }
    const w = fitted?.width ?? width;
    const h = fitted?.height ?? height;
    const windows = windowsInCapture(await listed, all, fitted);
    return { ok: true, capture: { ...capture(await encoded(canvas.removeAlpha(), mode, w, h), w, h, all, fitted), ...(windows.length ? { windows } : {}) } };
  }

  /** Where the pointer is; undefined when nobody can tell (then the primary display is the sensible guess). */
  async #pointer(displays: DisplayInfo[]): Promise<{ x: number; y: number } | undefined> {
    let point: { x: number; y: number } | undefined;
    try {
      const native = await this.#loadNative();
      // sway says where its focus is (it follows the pointer); a pointer read through XWayland (Electron's) is only right over X windows.
      if ('focus' in native && native.focus) point = await native.focus();
      else if (this.#options.cursor) point = await this.#options.cursor();
      else if (this.#platform === 'linux' && !this.#isWayland()) {
        // X reports device pixels; xcap's monitor geometry is divided by one global scale (Xft.dpi / 96).
        const scale = displays[0]?.scaleFactor ?? 1;
        const probe = await probeX11Display({ env: this.#env });
        if (probe.ok) point = { x: probe.pointer.x / scale, y: probe.pointer.y / scale };
      }
    } catch {
      point = undefined;
    }
    return point;
  }

  async #monitors(signal?: AbortSignal): Promise<Monitors | CaptureFailure> {
    const ready = await this.#preflight(signal);
    if (ready) return ready;
    const native = await this.#loadNative();
    if ('ok' in native) return native;
    let list: NativeMonitor[];
    try {
      list = await native.Monitor.all();
    } catch (error) {
      return this.#nativeFailure(error);
    }
    if (native.x11) {
      // Screens joined by Xinerama share one RandR output: node-screenshots sees one of them (x11Heads.ts).
      const heads = await xineramaHeads({ env: this.#env, timeoutMs: 1_000 }).catch(() => []);
      if (heads.length > list.length) list = headMonitors(heads, { env: this.#env });
    }
    if (list.length === 0) return { ok: false, code: 'no-display', message: 'The system reports no displays to capture.' };
    const natives = new Map<string, NativeMonitor>();
    const displays = list.map((m): DisplayInfo => {
      const id = String(m.id());
      natives.set(id, m);
      return { id, name: m.name(), x: m.x(), y: m.y(), width: m.width(), height: m.height(), scaleFactor: m.scaleFactor() || 1, primary: m.isPrimary() };
    });
    // Xvfb and some drivers mark no output primary: the one at the origin is what users call primary.
    if (!displays.some((d) => d.primary)) {
      const origin = displays.find((d) => d.x === 0 && d.y === 0) ?? displays[0];
      if (origin) origin.primary = true;
    }
    displays.sort((a, b) => Number(b.primary) - Number(a.primary) || a.x - b.x || a.y - b.y);
    return { displays, natives };
  }

  /** On Linux, say plainly when there is nothing to capture, before native code gets a chance to fail for good. */
  async #preflight(signal?: AbortSignal): Promise<CaptureFailure | undefined> {
    if (this.#platform !== 'linux' || this.#xReachable || this.#wayland()) return undefined;
    const display = this.#env.DISPLAY;
    if (!display) {
      if (this.#isWayland()) {
        // Measured: node-screenshots finds monitors through X (XWayland) even on Wayland, so without it nothing works.
        return {
          ok: false,
          code: 'capture-unavailable',
          message:
            'Screen capture is unavailable: this is a Wayland session without XWayland (DISPLAY is not set), and the capture backend ' +
            'finds monitors through XWayland. Turn XWayland on (most desktops have it on by default), install grim (on a wlroots desktop: sway, ' +
            'Hyprland, river), or log in to an X11 session.',
        };
      }
      return {
        ok: false,
        code: 'no-display',
        message: 'There is no display to capture: DISPLAY is not set and this is not a Wayland session. Run Glance inside a desktop session (for tests, under Xvfb).',
      };
    }
    const probe = await probeX11Display({ env: this.#env, ...(signal ? { signal } : {}) });
    if (!probe.ok) {
      const what = this.#isWayland() ? `the XWayland display ${display}` : `the X display ${display}`;
      return { ok: false, code: 'no-display', message: `Cannot reach ${what}: ${probe.reason}. Is the desktop session running, and is DISPLAY right?` };
    }
    this.#xReachable = true;
    return undefined;
  }

  #loadNative(): Promise<NativeModule | CaptureFailure> {
    const wayland = this.#wayland();
    if (wayland) return Promise.resolve(wayland);
    // Loaded on first use, so importing this module has no side effects and a missing binary is a value.
    this.#native ??= import('node-screenshots').then(
      (m) => ({ Monitor: m.Monitor, Window: m.Window, x11: this.#platform === 'linux' }),
      (error: unknown): CaptureFailure => ({
        ok: false,
        code: 'capture-unavailable',
        message: `Screen capture is unavailable: the node-screenshots native module did not load on ${this.#platform}-${process.arch} (${errorText(error)}).`,
      }),
    );
    return this.#native;
  }

  /**
   * The Wayland route that does not go through node-screenshots (wlroots.ts), on Linux: in a sway
   * session sway's IPC and grim; without XWayland, where grim is installed, the outputs the
   * compositor lists and grim.
   */
  #wayland(): NativeModule | undefined {
    if (this.#platform !== 'linux' || !this.#isWayland()) return undefined;
    const sway = swaySocket(this.#env);
    if (sway) return wlrootsModule(this.#env, sway);
    return !this.#env.DISPLAY && onPath('grim', this.#env) ? outputsModule(this.#env) : undefined;
  }

  #isWayland(): boolean {
    // The same test xcap applies: it captures through Wayland whenever this holds.
    return this.#env.XDG_SESSION_TYPE === 'wayland' || (this.#env.WAYLAND_DISPLAY ?? '').toLowerCase().includes('wayland');
  }

  #nativeFailure(error: unknown): CaptureFailure {
    const detail = errorText(error);
    if (this.#platform === 'darwin') return { ok: false, code: 'permission-denied', message: `Could not capture the screen (${detail}). ${MACOS_PERMISSION}` };
    if (this.#platform === 'linux' && this.#isWayland()) {
      return {
        ok: false,
        code: 'capture-unavailable',
        message:
          `Screen capture is unavailable in this Wayland session: the compositor did not provide a screenshot (${detail}). ` +
          "Wayland lets apps capture the screen only through the desktop's screenshot portal (xdg-desktop-portal) or wlroots screencopy: " +
          'install or enable the portal for your desktop, or log in to an X11 session.',
      };
    }
    return { ok: false, code: 'capture-unavailable', message: `Screen capture failed: ${detail}.` };
  }
}

const MACOS_ASKED =
  'macOS is asking whether Glance may record the screen: choose Allow in its dialog (or turn Glance on in System Settings → Privacy & Security → ' +
  'Screen & System Audio Recording), then quit and reopen Glance — macOS applies the permission when the app starts again.';

const MACOS_PERMISSION =
  'On macOS, Glance needs the Screen Recording permission: open System Settings → Privacy & Security → Screen & System Audio Recording, ' +
  'turn it on for Glance (for the command line, for your terminal app), then quit and reopen it.';

/**
 * The pixels as the capture hands them over: a PNG, or raw RGB. Measured on a 4K editor screen
 * (2026-12-04): the level-1 PNG straight from the grab's RGBA 33–41 ms; the alpha dropped in
 * libvips 14 ms; a fit of those RGB pixels to 896² → JPEG 15 ms, where from RGBA it is 46–60 ms
 * (sharp premultiplies an image with alpha before a resize; `premultiplied: true` is slower still).
 */
async function encoded(pipeline: Sharp, mode: Mode, width: number, height: number): Promise<{ png: Uint8Array } | { frame: RawFrame }> {
  if (mode === 'png') return { png: bytes(await pipeline.png(PNG_OPTIONS).toBuffer()) };
  return { frame: { data: bytes(await pipeline.raw().toBuffer()), width, height, channels: 3 } };
}

function bytes(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

function capture(pixels: { png: Uint8Array } | { frame: RawFrame }, width: number, height: number, display: DisplayInfo, region: CaptureRegion | undefined): Capture | FrameCapture {
  return { ...pixels, width, height, display, ...(region ? { region } : {}), capturedAt: new Date().toISOString() };
}

/**
 * Windows as the port describes them, topmost first (xcap sorts by z, topmost first — measured under
 * openbox). Left out: minimised and empty windows, and this process's own (Glance's windows, which
 * are hidden for a capture anyway). A window whose pid the system does not say (X clients without
 * _NET_WM_PID) is kept.
 */
function nativeWindows(list: NativeWindow[]): WindowInfo[] {
  const out: WindowInfo[] = [];
  for (const w of list) {
    try {
      if (w.isMinimized() || w.width() <= 0 || w.height() <= 0) continue;
      if (attempt(() => w.pid(), undefined) === process.pid) continue;
      // Throws when no window is active (_NET_ACTIVE_WINDOW unset: nothing focused yet). Measured:
      // that dropped every window from the list, so a password manager's went unfilled.
      const focused = attempt(() => w.isFocused(), false);
      const frame = w.frame?.();
      out.push({ id: String(w.id()), app: w.appName(), title: w.title(), focused, x: w.x(), y: w.y(), width: w.width(), height: w.height(), ...(frame ? { frame } : {}) });
    } catch {
      // a window that closed while it was listed
    }
  }
  return out;
}

/** What `read` gives, or `otherwise` when the native call throws (a fact the system does not say). */
function attempt<T>(read: () => T, otherwise: T): T {
  try {
    return read();
  } catch {
    return otherwise;
  }
}

/** The topmost window under the pointer, where it lies in a capture of `display`. */
function underPointerIn(windows: readonly WindowInfo[], pointer: { x: number; y: number }, display: DisplayInfo) {
  const found = windowAt(windows, pointer);
  const region = found && windowRegion(found, display);
  return found && region ? { app: found.app, title: found.title, region } : undefined;
}

function primaryOf(displays: DisplayInfo[]): DisplayInfo {
  return displays.find((d) => d.primary) ?? (displays[0] as DisplayInfo);
}

function describeDisplay(d: DisplayInfo): string {
  return `${d.id} (${d.name}, ${d.width}×${d.height} at ${d.x},${d.y}${d.primary ? ', primary' : ''})`;
}

