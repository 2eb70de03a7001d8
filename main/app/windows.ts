// The two windows — the chat window and the compact ask window — and the hardening every
// session and webContents gets (architecture §8).
import { BrowserWindow, shell, type BrowserWindowConstructorOptions, type Rectangle, type Screen, type Session, type WebContents } from 'electron';
import { APP_ORIGIN } from './appProtocol.ts';
import { sendEvent } from './ipcElectron.ts';
import { allowsDownload, allowsPermission, contentSecurityPolicy, isExternalLink } from './security.ts';
import { fitBounds, type WindowStateStore } from './windowState.ts';

type WindowKind = 'main' | 'ask';

type WindowsOptions = {
  preloadPath: string;
  state: WindowStateStore;
  screen: Pick<Screen, 'getAllDisplays' | 'getPrimaryDisplay' | 'getCursorScreenPoint' | 'getDisplayNearestPoint'>;
  devServerUrl?: string;
  icon?: string;
  /** Developer tools: in development only. */
  devTools: boolean;
  /** True once the app is quitting: closing the main window then really closes it. */
  quitting: () => boolean;
  /**
   * A native Wayland session (Electron 38+ runs one by default): the pointer's position is not known
   * to apps, a window cannot place itself (the compositor does), and showInactive is not supported.
   */
  wayland?: boolean;
};

const MAIN_SIZE = { width: 1040, height: 760 };
const ASK_SIZE = { width: 640, height: 260 };

export class Windows {
  readonly #options: WindowsOptions;
  #main: BrowserWindow | undefined;
  #ask: BrowserWindow | undefined;

  constructor(options: WindowsOptions) {
    this.#options = options;
  }

  /** The page each window loads: the renderer decides what to show from the hash. */
  pageUrl(kind: WindowKind): string {
    const base = this.#options.devServerUrl ?? `${APP_ORIGIN}/index.html`;
    return kind === 'ask' ? `${base.replace(/\/?$/, '')}#/ask` : base;
  }

  /** Shows the chat window; with a conversation id, tells its page to open that conversation. */
  async showMain(conversationId?: string): Promise<BrowserWindow> {
    const window = this.#main && !this.#main.isDestroyed() ? this.#main : this.#createMain();
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
    // Held for the page until it listens (ipcElectron): a window made just now gets it too.
    if (conversationId) sendEvent(window.webContents, 'app:showConversation', { conversationId });
    return window;
  }

  /** Creates the ask window (hidden) so its page is loaded before the hotkey needs it. */
  prepareAsk(): void {
    if (!this.#ask || this.#ask.isDestroyed()) this.#createAsk();
  }

  /**
   * Opens the ask window on the display under the cursor, once its page has loaded. On Wayland the
   * pointer is not Glance's to know and the compositor places windows: the window takes its size,
   * and shows where the compositor puts new windows (the focused output, on sway and GNOME).
   */
  async showAsk(): Promise<BrowserWindow> {
    const window = this.#ask && !this.#ask.isDestroyed() ? this.#ask : this.#createAsk();
    const saved = this.#options.state.get('ask')?.bounds;
    const size = { width: saved?.width ?? ASK_SIZE.width, height: saved?.height ?? ASK_SIZE.height };
    if (this.#options.wayland) window.setSize(size.width, size.height);
    else {
      const cursor = this.#options.screen.getCursorScreenPoint();
      const area = this.#options.screen.getDisplayNearestPoint(cursor).workArea;
      window.setBounds({ x: Math.round(area.x + (area.width - size.width) / 2), y: Math.round(area.y + area.height / 4), ...size });
    }
    if (window.webContents.isLoading()) await new Promise<void>((resolve) => window.webContents.once('did-finish-load', () => resolve()));
    window.show();
    window.focus();
    return window;
  }

  /**
   * Hides every visible Glance window (so a capture does not contain Glance) and returns a
   * function that shows them again. Waits a moment for the compositor to repaint.
   */
  async hideAll(): Promise<() => void> {
    const hidden = [this.#main, this.#ask].filter((w): w is BrowserWindow => !!w && !w.isDestroyed() && w.isVisible());
    for (const window of hidden) window.hide();
    if (hidden.length > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    return () => {
      // Wayland has no showInactive (a window asked to would stay hidden): shown, the compositor decides focus.
      for (const window of hidden) {
        if (window.isDestroyed()) continue;
        if (this.#options.wayland) window.show();
        else window.showInactive();
      }
    };
  }

  kindOf(contents: WebContents): WindowKind | undefined {
    if (this.#main && !this.#main.isDestroyed() && this.#main.webContents === contents) return 'main';
    if (this.#ask && !this.#ask.isDestroyed() && this.#ask.webContents === contents) return 'ask';
    return undefined;
  }

  get(kind: WindowKind): BrowserWindow | undefined {
    const window = kind === 'main' ? this.#main : this.#ask;
    return window && !window.isDestroyed() ? window : undefined;
  }

  #createMain(): BrowserWindow {
    const saved = this.#options.state.get('main');
    const window = this.#create('main', { ...fitBounds(saved?.bounds, this.#workAreas(), MAIN_SIZE), minWidth: 480, minHeight: 360, title: 'Glance' });
    if (saved?.maximized) window.maximize();
    window.once('ready-to-show', () => window.show());
    this.#main = window;
    return window;
  }

  #createAsk(): BrowserWindow {
    const window = this.#create('ask', {
      ...ASK_SIZE,
      title: 'Ask Glance',
      alwaysOnTop: true,
      skipTaskbar: true,
      minimizable: false,
      maximizable: false,
      fullscreenable: false,
    });
    this.#ask = window;
    return window;
  }

  /** The one place windows are made, so every window gets the same hardened webPreferences. */
  #create(kind: WindowKind, options: BrowserWindowConstructorOptions): BrowserWindow {
    const window = new BrowserWindow({
      ...options,
      show: false,
      autoHideMenuBar: true,
      ...(this.#options.icon ? { icon: this.#options.icon } : {}),
      // Literal (not built by a helper) so static checkers such as electronegativity can read it.
      webPreferences: {
        preload: this.#options.preloadPath,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        experimentalFeatures: false,
        navigateOnDragDrop: false,
        // Middle-click must not open links in new windows (electronegativity AUXCLICK_JS_CHECK).
        disableBlinkFeatures: 'Auxclick',
        devTools: this.#options.devTools,
      },
    });
    window.on('close', (event) => {
      void this.#options.state.save(kind, { bounds: window.getNormalBounds(), maximized: window.isMaximized() });
      // The app lives in the tray: closing a window hides it until Quit.
      if (!this.#options.quitting()) {
        event.preventDefault();
        window.hide();
      }
    });
    void window.loadURL(this.pageUrl(kind));
    return window;
  }

  #workAreas(): Rectangle[] {
    const primary = this.#options.screen.getPrimaryDisplay();
    const others = this.#options.screen.getAllDisplays().filter((d) => d.id !== primary.id);
    return [primary.workArea, ...others.map((d) => d.workArea)];
  }
}

/** Deny every permission but the clipboard write, every remote request and every download but the viewer's Save, for a session. */
export function hardenSession(session: Session, devServerUrl?: string): void {
  const dev = devServerUrl ? new URL(devServerUrl) : undefined;
  const pages = [APP_ORIGIN, ...(dev ? [dev.origin] : [])];
  session.setPermissionRequestHandler((_contents, permission, callback, details) => callback(allowsPermission(permission, details.requestingUrl, pages)));
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => allowsPermission(permission, requestingOrigin, pages));
  session.on('will-download', (event, item) => {
    if (!allowsDownload(item.getURL(), pages)) event.preventDefault();
  });
  // No remote content: the renderer talks to main over IPC only (models are reached from main).
  session.webRequest.onBeforeRequest({ urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'] }, (details, callback) => {
    const url = new URL(details.url);
    callback({ cancel: !(dev && url.host === dev.host) });
  });
  if (dev) {
    const csp = contentSecurityPolicy(devServerUrl);
    session.webRequest.onHeadersReceived({ urls: [`${dev.origin}/*`] }, (details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
    });
  }
}

/** For every webContents the app creates: no navigation, no new windows, no webviews. */
export function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // A link in an answer opens in the user's browser; the app itself never opens a window.
    if (isExternalLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}
