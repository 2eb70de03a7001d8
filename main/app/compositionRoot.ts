// The app's services, constructed once and passed to their users (architecture §13: one
// composition root, no hidden singletons). Electron objects come in as parameters; what is
// built here is the same core the CLI and the harness build (main/core).
import type { DesktopCapturer, Screen, SystemPreferences } from 'electron';
import type { EventChannel, IpcEventPayload } from '../../common/ipc.ts';
import { ElectronCapturer, FallbackCapturer } from '../capture/electronCapturer.ts';
import { NodeScreenshotsCapturer } from '../capture/nodeScreenshotsCapturer.ts';
import type { ScreenCapturer } from '../capture/screenCapturer.ts';
import type { Shell } from '../api/apiHandlers.ts';
import { composeApi } from '../api/composeApi.ts';
import { mcpSecretValues } from '../settings/maskSettings.ts';
import { scrubSecrets } from '../scrubSecrets.ts';
import { SafeStorageSecretStore, type SafeStorageLike, type SecretStore } from '../settings/secretStore.ts';
import { SettingsStore } from '../settings/settingsStore.ts';
import type { IpcHandlers } from '../api/ipcRouter.ts';
import { Notices } from './notices.ts';
import { macScreenPermission } from './screenPermission.ts';
import { errorMessage } from '../errors.ts';

export type PushEvent = <E extends EventChannel>(channel: E, payload: IpcEventPayload<E>) => void;

type ElectronParts = {
  safeStorage: SafeStorageLike;
  desktopCapturer: Pick<DesktopCapturer, 'getSources'>;
  screen: Pick<Screen, 'getAllDisplays' | 'getPrimaryDisplay' | 'getCursorScreenPoint'>;
  systemPreferences: Pick<SystemPreferences, 'getMediaAccessStatus'>;
  platform: NodeJS.Platform;
  /** The system browser (shell.openExternal): MCP sign-in pages and accepted URL elicitations. */
  openExternal?: (url: string) => Promise<void>;
};

export type AppServices = {
  settings: SettingsStore;
  secrets: SecretStore;
  capturer: ScreenCapturer;
  notices: Notices;
  /** Every IPC channel's handler, over the core. */
  handlers: IpcHandlers;
  /** Strips known keys (and the usual key and image patterns) from a line. */
  scrubSecrets: (text: string) => string;
  /** The main process log: every line redacted. */
  log: (line: string) => void;
  /** Abort turns and pulls, stop MCP servers. */
  close: () => Promise<void>;
};

export async function createAppServices(dataDir: string, electron: ElectronParts, shell: Shell, push: PushEvent): Promise<AppServices> {
  const notices = new Notices();
  const secrets = new SafeStorageSecretStore({
    dataDir,
    safeStorage: electron.safeStorage,
    platform: electron.platform,
    warn: (message) => {
      log(message);
      notices.add('warning', 'secrets-insecure', message);
    },
  });
  const settings = new SettingsStore({ dataDir, secrets });
  // The log redacts the keys the secret store has seen and the MCP tokens in the settings.
  const scrubLine = (text: string) => scrubSecrets(text, [...secrets.knownValues(), ...mcpSecretValues(settings.current())]);
  const log = (line: string) => console.error(`[glance] ${scrubLine(line)}`);

  const loaded = await settings.load();
  for (const warning of loaded.warnings) {
    log(warning);
    notices.add(loaded.keptAs ? 'error' : 'warning', loaded.keptAs ? 'settings-recovered' : 'settings', warning);
  }
  // Read once here for the retention sweep (MCP servers and limits follow later saves live).

  const permission = macScreenPermission(electron);
  const capturer = new FallbackCapturer(
    // Electron's memory cage: the native pixels are copied into V8's memory (node-screenshots' README).
    new NodeScreenshotsCapturer({ cursor: async () => electron.screen.getCursorScreenPoint(), checkPermission: permission, copyOutputData: true }),
    new ElectronCapturer(electron),
  );

  const { services, handlers, close } = composeApi({
    dataDir,
    settings,
    secrets,
    capturer,
    log: (line) => console.error(`[glance] ${line}`),
    emit: push,
    shell,
    ...(electron.openExternal ? { openUrl: electron.openExternal } : {}),
    // A damaged conversation, drafts.json or image: what was set aside or left out, and where.
    onDamaged: (damage) => {
      log(damage.message);
      notices.add('warning', damage.code, damage.message);
    },
    // A server that cannot start is a notice the person sees, not only a log line.
    onMcpFailure: (server) => notices.add('error', `mcp-${server.name}`, server.message ?? `MCP server "${server.name}" is ${server.state}.`),
  });

  // A hand edit of settings.json applies as a save from Settings does; one that cannot be read is a notice.
  const stopWatching = settings.watch({
    onProblem: (message) => {
      log(message);
      notices.add('warning', 'settings-edit', message);
    },
    onApplied: (warnings) => {
      notices.clear('settings-edit');
      for (const warning of warnings) notices.add('warning', 'settings', warning);
    },
  });

  // A server that failed and is now ready again, or was removed in Settings: its notice goes.
  services.hub?.onChange(() => {
    const failing = new Set(services.hub?.unavailable().map((s) => `mcp-${s.name}`));
    for (const n of notices.list()) if (n.code.startsWith('mcp-') && !failing.has(n.code)) notices.clear(n.code);
  });

  // Attachment retention runs once per start, in the background: nothing waits for it.
  void services
    .sweepAttachments()
    .then(({ removed }) => removed.length > 0 && log(`attachments: removed ${removed.length} unreferenced image(s) past the retention period`))
    .catch((error: unknown) => log(`attachments: retention sweep failed: ${errorMessage(error)}`));

  return {
    settings,
    secrets,
    capturer,
    notices,
    handlers,
    scrubSecrets: scrubLine,
    log,
    close: async () => {
      stopWatching();
      await close();
    },
  };
}
