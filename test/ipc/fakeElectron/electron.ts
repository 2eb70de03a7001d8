// A fake of the parts of Electron's main-process API that main/app uses, so the real entry
// point (main/app/main.ts) can start under plain Node. It records what the app asks of
// Electron and, once the app is up, runs a short script of IPC calls, printing one JSON line
// per observation ("FAKE {...}") for test/ipc/mainProcess.test.ts to check.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { fakeSafeStorage } from '../../settings/safeStorageFixture.ts';

type Listener = (...args: unknown[]) => unknown;
const report = (kind: string, data: unknown) => process.stdout.write(`FAKE ${JSON.stringify({ kind, data })}\n`);

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener) {
    const wrapped: Listener = (...args) => {
      this.listeners.set(event, (this.listeners.get(event) ?? []).filter((l) => l !== wrapped));
      return listener(...args);
    };
    return this.on(event, wrapped);
  }
  emit(event: string, ...args: unknown[]) {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
}

// ---------------------------------------------------------------- app
const paths = new Map<string, string>();
let quitRequested = false;
class App extends Emitter {
  isPackaged = false;
  commandLine = { appendSwitch: (...args: string[]) => report('appendSwitch', args) };
  setPath(name: string, value: string) {
    paths.set(name, value);
  }
  getPath(name: string) {
    return paths.get(name) ?? '/nonexistent';
  }
  setDesktopName(name: string) {
    report('setDesktopName', name);
  }
  requestSingleInstanceLock() {
    return true;
  }
  getVersion() {
    return '0.1.0';
  }
  getAppPath() {
    return process.cwd();
  }
  whenReady() {
    setTimeout(() => void drive(), 50);
    return new Promise<void>((resolve) => setTimeout(resolve, 0));
  }
  quit() {
    if (quitRequested) {
      let prevented = false;
      this.emit('will-quit', { preventDefault: () => (prevented = true) });
      if (!prevented) exit();
      return;
    }
    quitRequested = true;
    this.emit('before-quit', {});
    let prevented = false;
    this.emit('will-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) exit();
  }
  exit(code = 0) {
    report('exit', code);
    process.exit(code);
  }
}
export const app = new App();
function exit() {
  report('quit', true);
  process.exit(0);
}

// ---------------------------------------------------------------- windows
let nextId = 1;
const windows: BrowserWindow[] = [];
// Electron 38+ on a Wayland session runs native Wayland, where some calls do nothing (Electron's docs).
const wayland = process.env.XDG_SESSION_TYPE === 'wayland' || !!process.env.WAYLAND_DISPLAY;
const unsupported = (call: string) => report('unsupported', call);
/**
 * As in Electron: a page's document has loaded (`did-finish-load`) well before its app code — a
 * dynamic import of the bundle — has subscribed to pushes; what is sent in between is lost. The
 * page here subscribes RENDERER_LISTENS_MS after its load, then says `app:listening` as the real one does.
 */
const PAGE_LOADS_MS = 30;
const RENDERER_LISTENS_MS = 1500;
class WebContents extends Emitter {
  sent: { channel: string; payload: unknown }[] = [];
  mainFrame = { parent: null, url: 'app://glance/index.html' };
  windowOpenHandler: ((d: { url: string }) => unknown) | undefined;
  #loading = false;
  #listening = false;
  load(url: string) {
    this.#loading = true;
    this.#listening = false;
    this.mainFrame = { parent: null, url };
    this.emit('did-start-loading');
    setTimeout(() => {
      this.#loading = false;
      this.emit('did-finish-load');
      setTimeout(() => {
        this.#listening = true;
        void handlers.get('app:listening')?.({ senderFrame: this.mainFrame, sender: this }, {});
      }, RENDERER_LISTENS_MS);
    }, PAGE_LOADS_MS);
  }
  isLoading() {
    return this.#loading;
  }
  isDestroyed() {
    return false;
  }
  send(channel: string, payload: unknown) {
    if (!this.#listening) {
      report('lost', { channel, url: this.mainFrame.url });
      return;
    }
    this.sent.push({ channel, payload });
    report('send', { channel, payload });
  }
  setWindowOpenHandler(handler: (d: { url: string }) => unknown) {
    this.windowOpenHandler = handler;
  }
}
export class BrowserWindow extends Emitter {
  readonly id = nextId++;
  readonly webContents = new WebContents();
  #visible = false;
  constructor(options: Record<string, unknown>) {
    super();
    windows.push(this);
    report('BrowserWindow', options);
    app.emit('web-contents-created', {}, this.webContents);
  }
  static getAllWindows() {
    return windows;
  }
  static fromWebContents(contents: unknown) {
    return windows.find((w) => w.webContents === contents) ?? null;
  }
  async loadURL(url: string) {
    report('loadURL', url);
    this.webContents.load(url);
  }
  show() {
    this.#visible = true;
  }
  showInactive() {
    // Not supported on Wayland: the window stays as it was.
    if (wayland) return unsupported('BrowserWindow.showInactive');
    this.#visible = true;
  }
  hide() {
    this.#visible = false;
  }
  focus() {}
  isVisible() {
    return this.#visible;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  maximize() {}
  isMaximized() {
    return false;
  }
  isDestroyed() {
    return false;
  }
  setBounds(bounds: unknown) {
    // A Wayland client cannot place its window: the position is ignored.
    if (wayland) unsupported('BrowserWindow.setBounds position');
    report('setBounds', bounds);
  }
  setSize(width: number, height: number) {
    report('setSize', { width, height });
  }
  getNormalBounds() {
    return { x: 10, y: 10, width: 800, height: 600 };
  }
}

// ---------------------------------------------------------------- IPC, shortcuts, tray, misc
const handlers = new Map<string, Listener>();
export const ipcMain = {
  handle: (channel: string, handler: Listener) => void handlers.set(channel, handler),
  removeHandler: (channel: string) => void handlers.delete(channel),
};

const TAKEN = ['CommandOrControl+Shift+Space'];
const held = new Map<string, () => void>();
// On Wayland Electron 45 hands bindings to the GlobalShortcuts portal: register answers true before
// the desktop says anything, and a portal binding is released only by unregisterAll.
export const globalShortcut = wayland
  ? {
      register: (accelerator: string, callback: () => void) => (held.set(accelerator, callback), true),
      isRegistered: (accelerator: string) => held.has(accelerator),
      unregister: () => unsupported('globalShortcut.unregister of a portal binding'),
      unregisterAll: () => held.clear(),
    }
  : {
      register: (accelerator: string, callback: () => void) => (TAKEN.includes(accelerator) ? false : (held.set(accelerator, callback), true)),
      isRegistered: (accelerator: string) => held.has(accelerator),
      unregister: (accelerator: string) => void held.delete(accelerator),
      unregisterAll: () => held.clear(),
    };

export class Notification {
  readonly options: unknown;
  constructor(options: unknown) {
    this.options = options;
  }
  static isSupported() {
    return true;
  }
  show() {
    report('notification', this.options);
  }
}

export class Tray extends Emitter {
  setToolTip() {}
  setContextMenu(menu: { label?: string }[]) {
    report('trayMenu', menu.map((i) => i.label ?? '-'));
  }
}
export const Menu = { buildFromTemplate: (template: unknown) => template };
export const nativeImage = {
  createFromPath: () => ({ setTemplateImage() {} }),
  createEmpty: () => ({ setTemplateImage() {} }),
};
export const shell = { openExternal: async (url: string) => report('openExternal', url) };

const permission: { request?: Listener; check?: Listener } = {};
const downloadListeners: Listener[] = [];
/** Whether a download of `url` goes ahead: every will-download listener is asked, as Electron does. */
function downloads(url: string): boolean {
  let prevented = false;
  for (const l of downloadListeners) l({ preventDefault: () => (prevented = true) }, { getURL: () => url }, windows[0]?.webContents);
  return !prevented;
}
export const session = {
  defaultSession: {
    setPermissionRequestHandler: (h: Listener) => void (permission.request = h),
    setPermissionCheckHandler: (h: Listener) => void (permission.check = h),
    // Electron goes on with a download unless a will-download listener prevents it.
    on: (event: string, listener: Listener) => void (event === 'will-download' && downloadListeners.push(listener)),
    webRequest: { onBeforeRequest: () => undefined, onHeadersReceived: () => undefined },
  },
};
let appHandler: ((request: Request) => Promise<Response>) | undefined;
export const protocol = {
  registerSchemesAsPrivileged: (schemes: unknown) => report('registerSchemesAsPrivileged', schemes),
  handle: (scheme: string, handler: (request: Request) => Promise<Response>) => {
    report('protocol.handle', scheme);
    appHandler = handler;
  },
};
// A file:// fetch gives the bytes and no type: what a page is served as is the app's own doing.
export const net = {
  fetch: async (url: string) => (url.startsWith('file:') ? new Response(await readFile(fileURLToPath(url))) : fetch(url)),
};
const display = { id: 1, label: 'Fake', bounds: { x: 0, y: 0, width: 1280, height: 800 }, workArea: { x: 0, y: 0, width: 1280, height: 770 }, scaleFactor: 1 };
export const screen = {
  getAllDisplays: () => [display],
  getPrimaryDisplay: () => display,
  // Wayland tells a client nothing of the pointer outside its own windows.
  getCursorScreenPoint: () => (wayland ? (unsupported('screen.getCursorScreenPoint'), { x: 0, y: 0 }) : { x: 100, y: 100 }),
  getDisplayNearestPoint: () => display,
};
export const desktopCapturer = { getSources: async () => [] };
// A Mac never asked answers "denied" for the screen (never "not-determined"); main consults it on macOS only.
export const systemPreferences = { getMediaAccessStatus: (media: string) => (media === 'screen' ? 'denied' : 'granted') };
export const safeStorage = fakeSafeStorage({ backend: 'basic_text' });

// ---------------------------------------------------------------- the script
async function drive() {
  for (let i = 0; i < 200 && handlers.size === 0; i++) await new Promise((r) => setTimeout(r, 25));
  report('channels', [...handlers.keys()].sort());
  // The window's page, as protocol.handle serves it from the renderer folder.
  const page = await appHandler?.(new Request('app://glance/index.html'));
  report('served', { status: page?.status, type: page?.headers.get('content-type'), nosniff: page?.headers.get('x-content-type-options') });
  const call = async (channel: string, payload: unknown, url = 'app://glance/index.html') => {
    const handler = handlers.get(channel);
    const result = await handler?.({ senderFrame: { url, parent: null }, sender: windows[0]?.webContents }, payload);
    report('result', { channel, url, result });
  };
  await call('app:info', {});
  await call('settings:get', {}, 'https://evil.example/');
  await call('settings:set', { patch: { hotkey: 'Alt+Shift+G' } });
  await call('app:info', {});
  // Press the hotkey: capture (through the API) and the ask window with the outcome. No model
  // server listens here, so the outcome is a refusal the ask window shows.
  held.get('Alt+Shift+G')?.();
  for (let i = 0; i < 400 && !windows.some((w) => w.webContents.sent.some((m) => m.channel === 'attachments:incoming')); i++) await new Promise((r) => setTimeout(r, 25));
  report('askVisible', windows.map((w) => w.isVisible()));
  await call('secrets:set', { name: 'openrouter', value: 'sk-or-v1-fakefakefakefakefakefakefake' });
  await call('secrets:status', {});
  await call('conversations:list', {});
  report('permission', { request: await new Promise((resolve) => permission.request?.({}, 'media', resolve, {})), check: permission.check?.({}, 'media', '', {}) });
  // By name, as Chromium asks: Copy message's clipboard write from Glance's page, and from another.
  report('clipboard', {
    app: await new Promise((resolve) => permission.request?.({}, 'clipboard-sanitized-write', resolve, { requestingUrl: 'app://glance/index.html' })),
    appCheck: permission.check?.({}, 'clipboard-sanitized-write', 'app://glance', {}),
    other: await new Promise((resolve) => permission.request?.({}, 'clipboard-sanitized-write', resolve, { requestingUrl: 'https://evil.example/' })),
    read: await new Promise((resolve) => permission.request?.({}, 'clipboard-read', resolve, { requestingUrl: 'app://glance/index.html' })),
  });
  report('shortcuts', [...held.keys()]);
  // The viewer's Save (an <a download> of the image it shows) goes; a page's other downloads do not.
  report('downloads', {
    viewerImage: downloads('data:image/png;base64,iVBORw0KGgo='),
    viewerBlob: downloads('blob:app://glance/6f1c0d4e-0000-4000-8000-000000000000'),
    remote: downloads('https://evil.example/payload.exe'),
    otherData: downloads('data:text/html;base64,PHNjcmlwdD4='),
  });
  const contents = windows[0]!.webContents;
  let prevented = false;
  contents.emit('will-navigate', { preventDefault: () => (prevented = true) }, 'https://evil.example/');
  report('navigation', { prevented, open: contents.windowOpenHandler?.({ url: 'https://ollama.com/' }), openFile: contents.windowOpenHandler?.({ url: 'file:///etc/passwd' }) });
  app.quit();
}
