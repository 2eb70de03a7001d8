// Electron entry point. Thin: it wires services built in compositionRoot.ts to windows, the
// tray, the global shortcut and IPC. Everything it calls runs under plain Node too.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  app,
  desktopCapturer,
  globalShortcut,
  ipcMain,
  net,
  Notification,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  systemPreferences,
} from 'electron';
import type { IncomingAttachment, IpcResult } from '../../common/ipc.ts';
import type { AttachmentInfo } from '../../common/images.ts';
import { defaultDataDir } from '../settings/paths.ts';
import { maskSettings } from '../settings/maskSettings.ts';
import { APP_ORIGIN, APP_SCHEME_PRIVILEGES, registerAppProtocol } from './appProtocol.ts';
import { createAppServices, type AppServices, type PushEvent } from './compositionRoot.ts';
import { describeAccelerator, rebindHotkey, registerHotkey, type HotkeyState } from './hotkey.ts';
import { bindIpcRouter, broadcastEvent, sendEvent } from './ipcElectron.ts';
import { createIpcRouter, createSenderCheck, type SenderInfo } from '../api/ipcRouter.ts';
import { createTray } from './tray.ts';
import { appLauncher, installCommand } from '../installCommand.ts';
import { WindowStateStore } from './windowState.ts';
import { Windows, hardenContents, hardenSession } from './windows.ts';
import { errorMessage } from '../errors.ts';
import { DESKTOP_FILE, DESKTOP_ID, ensureDesktopEntry } from './desktopEntry.ts';

const fromHere = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
// Layout of the build (dist/): main/app/main.js, preload/index.cjs, renderer/, icons/.
const PRELOAD = fromHere('../../preload/index.cjs');
const RENDERER_DIR = fromHere('../../renderer');
const ICONS_DIR = fromHere('../../icons');
const QUIT_TIMEOUT_MS = 5_000;

const devServerUrl = app.isPackaged ? undefined : process.env.GLANCE_DEV_SERVER_URL;
const wayland = process.platform === 'linux' && (process.env.XDG_SESSION_TYPE === 'wayland' || !!process.env.WAYLAND_DISPLAY);

// Before `ready`: the app:// scheme, the shared data folder, the .desktop name, the portal.
protocol.registerSchemesAsPrivileged(APP_SCHEME_PRIVILEGES);
app.setPath('userData', defaultDataDir());
// The GlobalShortcuts portal knows an app by a reverse-DNS id that must match an installed .desktop
// file (GNOME drops the binding otherwise). Electron 45 turns the portal on by itself on Wayland, so
// no --enable-features is appended (that would replace the person's own features).
if (process.platform === 'linux') app.setDesktopName(DESKTOP_FILE);
// Windows: toasts from an installed (NSIS) app show only under the id its shortcut carries (the appId).
if (process.platform === 'win32') app.setAppUserModelId(DESKTOP_ID);
app.on('web-contents-created', (_event, contents) => hardenContents(contents));
// macOS: an image dropped on the Dock icon (or opened with Glance) can be what launched it — the
// event comes before ready, so it is listened for now and the paths wait for the chat window.
let openFiles: ((paths: string[]) => void) | undefined;
const launchFiles: string[] = [];
app.on('open-file', (event, path) => {
  event.preventDefault();
  if (openFiles) openFiles([path]);
  else launchFiles.push(path);
});

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start().catch((error: unknown) => {
    console.error('[glance] could not start:', errorMessage(error));
    app.exit(1);
  });
}

function iconFile(name: string): string | undefined {
  const path = `${ICONS_DIR}/${name}`;
  return existsSync(path) ? path : undefined;
}

/** Main's own calls into the API (hotkey, drops) go through the same router as the renderer's. */
const SELF: SenderInfo = { url: `${APP_ORIGIN}/index.html`, isMainFrame: true };
let incomingCount = 0;

const incomingId = () => `in-${Date.now().toString(36)}-${incomingCount++}`;

function incoming(target: IncomingAttachment['target'], result: IpcResult<unknown>, origin: string, id = incomingId()): IncomingAttachment {
  const outcome: IncomingAttachment['result'] = result.ok
    ? { ok: true, attachment: result.value as AttachmentInfo }
    : { ok: false, origin, code: result.code, message: result.message };
  return { id, target, result: outcome };
}

async function start(): Promise<void> {
  await app.whenReady();
  const dataDir = app.getPath('userData');
  hardenSession(session.defaultSession, devServerUrl);
  registerAppProtocol(protocol, net, RENDERER_DIR, devServerUrl);

  const state = new WindowStateStore(dataDir);
  await state.load();
  let quitting = false;
  const windows = new Windows({ preloadPath: PRELOAD, state, screen, devServerUrl, icon: iconFile('icon.png'), devTools: !app.isPackaged, quitting: () => quitting, wayland });
  const push: PushEvent = (channel, payload) => broadcastEvent(channel, payload);
  const env = { platform: process.platform, wayland };
  let hotkey: HotkeyState = { accelerator: '', registered: false };
  const services: AppServices = await createAppServices(
    dataDir,
    { safeStorage, desktopCapturer, screen, systemPreferences, platform: process.platform, openExternal: (url) => shell.openExternal(url) },
    {
      openMain: async (conversationId) => void (await windows.showMain(conversationId)),
      hideForCapture: () => windows.hideAll(),
      hotkey: () => hotkey,
      notices: () => services.notices.list(),
      version: app.getVersion(),
      platform: process.platform,
    },
    push,
  );
  process.on('unhandledRejection', (reason) => services.log(`unhandled rejection: ${errorMessage(reason)}`));

  // ---- IPC: one router for the renderer and for main's own calls
  const router = createIpcRouter({
    handlers: services.handlers,
    isTrustedSender: createSenderCheck({ appOrigin: APP_ORIGIN, devServerUrl }),
    scrubSecrets: services.scrubSecrets,
    log: services.log,
  });
  bindIpcRouter(ipcMain, router);

  // ---- the hotkey: capture first (Glance hidden), then the ask window with the result
  let capturing = false;
  const screenshotAndAsk = async () => {
    if (capturing) return;
    capturing = true;
    try {
      // Held under the item's id if it cannot be checked for secrets: the ask window's "Send anyway" names it.
      const id = incomingId();
      const result = await router.handle('capture:screenshot', SELF, { display: 'under-cursor', hold: id });
      const item = incoming('ask', result, 'hotkey', id);
      sendEvent((await windows.showAsk()).webContents, 'attachments:incoming', item);
    } finally {
      capturing = false;
    }
  };
  const onPress = () => void screenshotAndAsk();
  const report = (next: HotkeyState) => {
    if (next.message && next.registered) {
      // Wayland: asked of the portal, not yet known to work — said once, quietly.
      services.log(next.message);
      services.notices.add('info', 'hotkey-unavailable', next.message);
    } else if (next.message) {
      services.log(next.message);
      services.notices.add('warning', 'hotkey-unavailable', next.message);
      if (Notification.isSupported()) new Notification({ title: 'Glance', body: next.message }).show();
    } else {
      services.notices.clear('hotkey-unavailable');
    }
    return next;
  };
  // The portal needs a .desktop file named after Glance's id before the first binding (npm start installs none).
  if (wayland) await ensureDesktopEntry(process.env, [process.execPath, ...(app.isPackaged ? [] : [app.getAppPath()])]).catch((error: unknown) => services.log(`could not write ${DESKTOP_FILE}: ${errorMessage(error)}`));
  hotkey = report(registerHotkey(globalShortcut, services.settings.current().hotkey, onPress, env));

  // ---- images dropped on the tray (macOS) or the dock icon go to the chat window
  const attachDropped = async (paths: string[]) => {
    for (const path of paths) {
      const result = await router.handle('attachments:add', SELF, { source: { kind: 'path', path } });
      sendEvent((await windows.showMain()).webContents, 'attachments:incoming', incoming('main', result, 'user'));
    }
  };
  openFiles = (paths) => void attachDropped(paths);
  if (launchFiles.length) openFiles(launchFiles.splice(0));

  const { refreshMenu } = createTray(iconFile(process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'), {
    screenshotAndAsk: onPress,
    openMain: () => void windows.showMain(),
    quit: () => app.quit(),
    dropFiles: (paths) => void attachDropped(paths),
    // A `glance` launcher in ~/.local/bin running this app's binary as Node, for MCP clients; said as a notice.
    installCommand: () =>
      void installCommand({ launcher: appLauncher(process.execPath, app.getAppPath()) }).then(
        (installed) => services.notices.add('info', 'install-command', installed.message),
        (error: unknown) => services.notices.add('error', 'install-command', `The glance command could not be installed: ${errorMessage(error)}`),
      ),
    hotkeyLabel: () => (hotkey.registered ? describeAccelerator(hotkey.accelerator, process.platform) : undefined),
  });

  services.notices.onAdd((notice) => push('app:notice', notice));
  services.settings.onChange((settings) => {
    push('settings:changed', maskSettings(settings));
    if (settings.hotkey !== hotkey.accelerator || !hotkey.registered) {
      hotkey = report(rebindHotkey(globalShortcut, hotkey, settings.hotkey, onPress, env));
      refreshMenu();
    }
  });

  // ---- lifecycle: one instance, lives in the tray, quits cleanly
  app.on('second-instance', () => void windows.showMain());
  app.on('activate', () => void windows.showMain());
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', () => {
    quitting = true;
  });
  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    globalShortcut.unregisterAll();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, QUIT_TIMEOUT_MS));
    void Promise.race([services.close(), timeout])
      .catch((error: unknown) => services.log(`shutdown: ${errorMessage(error)}`))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });

  // The ask window loads now, hidden, so the hotkey shows it at once and it never misses an image.
  windows.prepareAsk();
  if (!process.argv.includes('--hidden')) await windows.showMain();
}
