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
import { CaptureWorkerClient } from './captureWorkerClient.ts';
import { grab, type GrabRequest, type GrabResult } from './nativeGrab.ts';
import { desktopLayout, displayAt } from './screenCapturer.ts';
import type {
  Capture,
  CaptureFailure,
  CaptureOptions,
  CaptureRegion,
  CaptureResult,
  CaptureTarget,
  CursorLocator,
  DisplayInfo,
  ScreenCapturer,
} from './screenCapturer.ts';
import { probeX11Display } from './x11Pointer.ts';
import { abortable } from '../abortable.ts';
import type { Monitor as NativeMonitor } from 'node-screenshots';

type NativeModule = { Monitor: { all(): NativeMonitor[] } };

export type PermissionStatus = 'granted' | 'denied' | 'unknown';

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
  /**
   * Grab and encode in a worker thread (default), so a 4K grab's 33 MB of pixels and their
   * encode never reach this thread's heap (V8 collected them here on every capture, 30–50 ms of
   * marking), or in this thread (false; also where the worker cannot start).
   */
  worker?: boolean;
};

type Monitors = { displays: DisplayInfo[]; natives: Map<string, NativeMonitor> };

export class NodeScreenshotsCapturer implements ScreenCapturer {
  readonly #options: NodeScreenshotsCapturerOptions;
  readonly #env: NodeJS.ProcessEnv;
  readonly #platform: NodeJS.Platform;
  readonly #copyOutputData: boolean;
  #native: Promise<NativeModule | CaptureFailure> | undefined;
  /** The capture worker once it is up; `#starting` while it starts; none where it cannot. */
  #worker: CaptureWorkerClient | undefined;
  #starting: Promise<boolean> | undefined;
  #workerUnavailable = false;
  #xReachable = false;

  constructor(options: NodeScreenshotsCapturerOptions = {}) {
    this.#options = options;
    // process.env, not an injected copy: the native code reads DISPLAY/WAYLAND_DISPLAY from it.
    this.#env = process.env;
    this.#platform = process.platform;
    this.#copyOutputData = options.copyOutputData ?? process.versions.electron !== undefined;
  }

  /**
   * Starts the capture worker now rather than with the first capture (the app does, at launch).
   * Answers whether it is up: a capture never waits for it, but grabs in this thread meanwhile.
   */
  warm(): Promise<boolean> {
    if (this.#options.worker === false || this.#workerUnavailable) return Promise.resolve(false);
    if (this.#worker?.alive) return Promise.resolve(true);
    // A worker that stopped is replaced; one that could not start is not tried again.
    this.#starting ??= CaptureWorkerClient.start().then((client) => {
      this.#starting = undefined;
      this.#worker = client;
      this.#workerUnavailable = !client;
      return !!client;
    });
    return this.#starting;
  }

  async listDisplays(): Promise<DisplayInfo[]> {
    const monitors = await this.#monitors();
    return 'displays' in monitors ? monitors.displays : [];
  }

  async capture(target: CaptureTarget, options: CaptureOptions = {}): Promise<CaptureResult> {
    const timeoutMs = this.#options.timeoutMs ?? 15_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      return await abortable(this.#capture(target, options.region, signal), signal);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.aborted) {
        return { ok: false, code: 'capture-unavailable', message: `The screen capture did not finish within ${Math.round(timeoutMs / 1000)} s.${this.#isWayland() ? ' On Wayland the desktop may be waiting for you to allow the screenshot.' : ''}` };
      }
      throw error;
    }
  }

  async #capture(target: CaptureTarget, region: CaptureRegion | undefined, signal: AbortSignal): Promise<CaptureResult> {
    void this.warm(); // starts while the display is found; this capture does not wait for it
    if (this.#platform === 'darwin' && this.#options.checkPermission) {
      if ((await this.#options.checkPermission()) === 'denied') return { ok: false, code: 'permission-denied', message: MACOS_PERMISSION };
    }
    const monitors = await this.#monitors(signal);
    if (!('displays' in monitors)) return monitors;
    signal.throwIfAborted();
    const { displays, natives } = monitors;

    let chosen: DisplayInfo[];
    if (target === 'all') chosen = displays;
    else if (target === 'primary') chosen = [primaryOf(displays)];
    else if (target === 'under-cursor') chosen = [await this.#underCursor(displays)];
    else {
      const found = displays.find((d) => d.id === target.display) ?? displays.find((d) => d.name === target.display);
      if (!found) {
        return { ok: false, code: 'no-display', message: `There is no display "${target.display}". Displays: ${displays.map(describeDisplay).join('; ')}.` };
      }
      chosen = [found];
    }
    signal.throwIfAborted();

    try {
      if (chosen.length === 1) {
        const display = chosen[0] as DisplayInfo;
        return await this.#captureOne(display, natives, region, signal);
      }
      return await this.#captureAll(chosen, natives, region, signal);
    } catch (error) {
      return this.#nativeFailure(error);
    }
  }

  async #captureOne(display: DisplayInfo, natives: Map<string, NativeMonitor>, region: CaptureRegion | undefined, signal: AbortSignal): Promise<CaptureResult> {
    const grabbed = await this.#grab(natives, { monitorId: display.id, ...(region ? { region } : {}), copyOutputData: this.#copyOutputData }, signal);
    if (!grabbed.ok) return grabbed;
    return { ok: true, capture: capture(grabbed.png, grabbed.width, grabbed.height, display, grabbed.region) };
  }

  /** Every monitor on one canvas at the largest scale factor, laid out as the desktop is. */
  async #captureAll(displays: DisplayInfo[], natives: Map<string, NativeMonitor>, region: CaptureRegion | undefined, signal: AbortSignal): Promise<CaptureResult> {
    const { width, height, display: all, tiles } = desktopLayout(displays);
    const grabbed = await this.#grab(natives, {
      tiles: tiles.map(({ display, left, top, width: w, height: h }) => ({ monitorId: display.id, left, top, width: w, height: h })),
      canvas: { width, height },
      ...(region ? { region } : {}),
      copyOutputData: this.#copyOutputData,
    }, signal);
    if (!grabbed.ok) return grabbed;
    return { ok: true, capture: capture(grabbed.png, grabbed.width, grabbed.height, all, grabbed.region) };
  }

  /** The pixels as PNG: in the capture worker when it is up, else here with the monitors already listed. */
  async #grab(natives: Map<string, NativeMonitor>, request: GrabRequest, signal: AbortSignal): Promise<GrabResult> {
    const worker = this.#worker?.alive ? this.#worker : undefined;
    return worker ? worker.grab(request, signal) : grab(() => [...natives.values()], request);
  }

  async #underCursor(displays: DisplayInfo[]): Promise<DisplayInfo> {
    let point: { x: number; y: number } | undefined;
    try {
      if (this.#options.cursor) point = await this.#options.cursor();
      else if (this.#platform === 'linux' && !this.#isWayland()) {
        // X reports device pixels; xcap's monitor geometry is divided by one global scale (Xft.dpi / 96).
        const scale = displays[0]?.scaleFactor ?? 1;
        const probe = await probeX11Display({ env: this.#env });
        if (probe.ok) point = { x: probe.pointer.x / scale, y: probe.pointer.y / scale };
      }
    } catch {
      point = undefined; // no cursor: the primary display is the sensible guess
    }
    return (point && displayAt(displays, point)) ?? primaryOf(displays);
  }

  async #monitors(signal?: AbortSignal): Promise<Monitors | CaptureFailure> {
    const ready = await this.#preflight(signal);
    if (ready) return ready;
    const native = await this.#loadNative();
    if ('ok' in native) return native;
    let list: NativeMonitor[];
    try {
      list = native.Monitor.all();
    } catch (error) {
      return this.#nativeFailure(error);
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
    if (this.#platform !== 'linux' || this.#xReachable) return undefined;
    const display = this.#env.DISPLAY;
    if (!display) {
      if (this.#isWayland()) {
        // Measured: node-screenshots finds monitors through X (XWayland) even on Wayland, so without it nothing works.
        return {
          ok: false,
          code: 'capture-unavailable',
          message:
            'Screen capture is unavailable: this is a Wayland session without XWayland (DISPLAY is not set), and the capture backend ' +
            'finds monitors through XWayland. Turn XWayland on (most desktops have it on by default) or log in to an X11 session.',
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
    // Loaded on first use, so importing this module has no side effects and a missing binary is a value.
    this.#native ??= import('node-screenshots').then(
      (m) => m,
      (error: unknown): CaptureFailure => ({
        ok: false,
        code: 'capture-unavailable',
        message: `Screen capture is unavailable: the node-screenshots native module did not load on ${this.#platform}-${process.arch} (${errorText(error)}).`,
      }),
    );
    return this.#native;
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

const MACOS_PERMISSION =
  'On macOS, Glance needs the Screen Recording permission: open System Settings → Privacy & Security → Screen & System Audio Recording, ' +
  'turn it on for Glance (for the command line, for your terminal app), then quit and reopen it.';

function capture(png: Uint8Array, width: number, height: number, display: DisplayInfo, region: CaptureRegion | undefined): Capture {
  return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width, height, display, ...(region ? { region } : {}), capturedAt: new Date().toISOString() };
}

function primaryOf(displays: DisplayInfo[]): DisplayInfo {
  return displays.find((d) => d.primary) ?? (displays[0] as DisplayInfo);
}

function describeDisplay(d: DisplayInfo): string {
  return `${d.id} (${d.name}, ${d.width}×${d.height} at ${d.x},${d.y}${d.primary ? ', primary' : ''})`;
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim() || 'no details';
}

