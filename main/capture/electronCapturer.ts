// ScreenCapturer on Electron's desktopCapturer: the fallback inside the app when
// node-screenshots cannot capture (architecture §7). Thumbnails are requested at the display's size
// × scale factor, so "thumbnail" means native resolution, and matched to the display by
// `display_id`. Electron objects are passed in, so this file loads under plain Node too.
import sharp from 'sharp';
import type { DesktopCapturer, Screen, SystemPreferences } from 'electron';
import { desktopLayout, displayAt, fitRegion } from './screenCapturer.ts';
import type { CaptureOptions, CaptureResult, CaptureScope, DisplayInfo, FrameResult, ScreenCapturer, WindowInfo } from './screenCapturer.ts';
import { abortable } from '../abortable.ts';

type ElectronCapturerDeps = {
  desktopCapturer: Pick<DesktopCapturer, 'getSources'>;
  screen: Pick<Screen, 'getAllDisplays' | 'getPrimaryDisplay' | 'getCursorScreenPoint'>;
  /** macOS: checked before every capture. */
  systemPreferences?: Pick<SystemPreferences, 'getMediaAccessStatus'>;
  platform: NodeJS.Platform;
  /** Give up on one capture after this long (default 15 s): a Wayland portal may wait on a dialog. */
  timeoutMs?: number;
};

const MACOS_PERMISSION =
  'Glance needs Screen Recording permission: open System Settings → Privacy & Security → Screen Recording, turn on Glance, then restart it.';

export class ElectronCapturer implements ScreenCapturer {
  readonly #deps: ElectronCapturerDeps;

  constructor(deps: ElectronCapturerDeps) {
    this.#deps = deps;
  }

  async listDisplays(): Promise<DisplayInfo[]> {
    const primaryId = this.#deps.screen.getPrimaryDisplay().id;
    const displays = this.#deps.screen.getAllDisplays().map(
      (d, i): DisplayInfo => ({
        id: String(d.id),
        name: d.label || `Display ${i + 1}`,
        ...d.bounds,
        scaleFactor: d.scaleFactor || 1,
        primary: d.id === primaryId,
      }),
    );
    return displays.sort((a, b) => Number(b.primary) - Number(a.primary));
  }

  /** desktopCapturer's window sources carry no geometry, so no window can be cut from a display capture. */
  async listWindows(): Promise<WindowInfo[]> {
    return [];
  }

  async capture(scope: CaptureScope, options: CaptureOptions = {}): Promise<CaptureResult> {
    const { platform, systemPreferences } = this.#deps;
    if (typeof scope === 'object' && 'window' in scope) {
      return { ok: false, code: 'no-window', message: 'Capturing one window is not available with this capture backend (it does not say where windows are).' };
    }
    if (platform === 'darwin' && systemPreferences) {
      const status = systemPreferences.getMediaAccessStatus('screen');
      if (status === 'denied' || status === 'restricted') return { ok: false, code: 'permission-denied', message: MACOS_PERMISSION };
    }
    const displays = await this.listDisplays();
    if (displays.length === 0) return { ok: false, code: 'no-display', message: 'The system reports no displays to capture.' };
    const primary = displays.find((d) => d.primary) ?? (displays[0] as DisplayInfo);

    let chosen: DisplayInfo[];
    if (scope === 'all') chosen = displays;
    else if (scope === 'primary') chosen = [primary];
    else if (scope === 'under-cursor') chosen = [displayAt(displays, this.#deps.screen.getCursorScreenPoint()) ?? primary];
    else {
      const found = displays.find((d) => d.id === scope.display || d.name === scope.display);
      if (!found) return { ok: false, code: 'no-display', message: `There is no display "${scope.display}". Displays: ${displays.map((d) => `${d.id} (${d.name})`).join(', ')}.` };
      chosen = [found];
    }

    const tiles = await this.#grab(chosen, options.signal);
    if (!tiles.ok) return tiles;
    const { png, width, height, display } = chosen.length === 1 ? single(tiles.images[0]!, chosen[0]!) : await combine(tiles.images, chosen);
    if (!options.region) return { ok: true, capture: { png, width, height, display, capturedAt: new Date().toISOString() } };
    const fit = fitRegion(options.region, width, height);
    if (!fit.ok) return fit;
    const r = fit.region;
    const cropped = await sharp(png).extract({ left: r.x, top: r.y, width: r.width, height: r.height }).png().toBuffer();
    return { ok: true, capture: { png: cropped, width: r.width, height: r.height, display, region: r, capturedAt: new Date().toISOString() } };
  }

  /** One getSources call at the largest native size any chosen display needs. */
  async #grab(displays: DisplayInfo[], signal?: AbortSignal): Promise<{ ok: true; images: { png: Uint8Array; width: number; height: number }[] } | Extract<CaptureResult, { ok: false }>> {
    const native = (d: DisplayInfo) => ({ width: Math.round(d.width * d.scaleFactor), height: Math.round(d.height * d.scaleFactor) });
    const thumbnailSize = {
      width: Math.max(...displays.map((d) => native(d).width)),
      height: Math.max(...displays.map((d) => native(d).height)),
    };
    const timeoutMs = this.#deps.timeoutMs ?? 15_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let sources: Awaited<ReturnType<DesktopCapturer['getSources']>>;
    try {
      sources = await abortable(this.#deps.desktopCapturer.getSources({ types: ['screen'], thumbnailSize, fetchWindowIcons: false }), both);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const why = timeout.aborted ? `it did not answer within ${Math.round(timeoutMs / 1000)} s` : (error as Error).message;
      return { ok: false, code: 'capture-unavailable', message: `The screen could not be captured: ${why}.${this.#hint()}` };
    }
    const images = [];
    for (const d of displays) {
      // Wayland's portal gives sources without a display_id: one source can only be the one display.
      const source = sources.find((s) => s.display_id === d.id) ?? (sources.length === 1 && displays.length === 1 ? sources[0] : undefined);
      if (!source || source.thumbnail.isEmpty()) {
        return { ok: false, code: 'capture-unavailable', message: `The screen of display ${d.id} (${d.name}) could not be captured.${this.#hint()}` };
      }
      const size = source.thumbnail.getSize();
      images.push({ png: source.thumbnail.toPNG(), width: size.width, height: size.height });
    }
    return { ok: true, images };
  }

  #hint(): string {
    if (this.#deps.platform === 'darwin') return ` ${MACOS_PERMISSION}`;
    if (this.#deps.platform === 'linux' && process.env.XDG_SESSION_TYPE === 'wayland') {
      return ' On Wayland, capture goes through the desktop portal: allow it when asked (it may be unavailable on this desktop).';
    }
    return '';
  }
}

function single(image: { png: Uint8Array; width: number; height: number }, display: DisplayInfo) {
  return { ...image, display };
}

/** Every display on one canvas at the largest scale factor, laid out as the desktop is. */
async function combine(images: { png: Uint8Array; width: number; height: number }[], displays: DisplayInfo[]) {
  const { width, height, display, tiles } = desktopLayout(displays);
  const layers = await Promise.all(
    tiles.map(async (t, i) => ({
      input: await sharp(images[i]!.png).resize(t.width, t.height, { fit: 'fill' }).png().toBuffer(),
      left: t.left,
      top: t.top,
    })),
  );
  const png = await sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 } } }).composite(layers).png().toBuffer();
  return { png, width, height, display };
}


/**
 * node-screenshots first, desktopCapturer when it cannot capture at all. A refused permission
 * or a missing display is an answer, not a reason to try the other backend.
 */
export class FallbackCapturer implements ScreenCapturer {
  readonly #primary: ScreenCapturer;
  readonly #fallback: ScreenCapturer;

  constructor(primary: ScreenCapturer, fallback: ScreenCapturer) {
    this.#primary = primary;
    this.#fallback = fallback;
  }

  async listDisplays(): Promise<DisplayInfo[]> {
    const displays = await this.#primary.listDisplays();
    return displays.length > 0 ? displays : this.#fallback.listDisplays();
  }

  async listWindows(): Promise<WindowInfo[]> {
    const windows = await this.#primary.listWindows();
    return windows.length > 0 ? windows : this.#fallback.listWindows();
  }

  async capture(scope: CaptureScope, options?: CaptureOptions): Promise<CaptureResult> {
    const first = await this.#primary.capture(scope, options);
    if (first.ok || first.code !== 'capture-unavailable') return first;
    const second = await this.#fallback.capture(scope, options);
    return second.ok ? second : { ...second, message: `${second.message} (${first.message})` };
  }

  /** Raw pixels from the primary; the fallback answers with its PNG capture. */
  async captureFrame(scope: CaptureScope, options?: CaptureOptions): Promise<FrameResult> {
    const first = this.#primary.captureFrame ? await this.#primary.captureFrame(scope, options) : await this.#primary.capture(scope, options);
    if (first.ok || first.code !== 'capture-unavailable') return first;
    const second = await this.#fallback.capture(scope, options);
    return second.ok ? second : { ...second, message: `${second.message} (${first.message})` };
  }
}
