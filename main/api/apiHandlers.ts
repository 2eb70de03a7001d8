// The typed API (common/ipc.ts) implemented over the composed services, for every shell
// alike: the Electron app registers these handlers on ipcMain, the harness on its WebSocket.
// No electron here; what only a shell can do (show a window, hide windows before a capture)
// comes in as `shell` callbacks. Each group of channels lives in its own file.
import type { EventChannel, IpcEventPayload, Notice } from '../../common/ipc.ts';
import type { ScreenCapturer } from '../capture/screenCapturer.ts';
import { LiveTurns } from '../chat/liveTurns.ts';
import type { Services } from '../core/composeServices.ts';
import type { SettingsStore } from '../settings/settingsStore.ts';
import { attachmentHandlers } from './attachmentHandlers.ts';
import { chatHandlers } from './chatHandlers.ts';
import { conversationHandlers } from './conversationHandlers.ts';
import { ok, type IpcHandlers } from './ipcRouter.ts';
import { mcpHandlers } from './mcpHandlers.ts';
import type { McpQuestions } from './mcpQuestions.ts';
import { modelHandlers } from './modelHandlers.ts';
import { settingsHandlers } from './settingsHandlers.ts';

export type Shell = {
  /** Show the main window (from the ask window), optionally on a conversation. */
  openMain?(conversationId?: string): Promise<void>;
  /** Hide Glance's windows before a capture; the returned function shows them again. */
  hideForCapture?(): Promise<() => void>;
  hotkey?(): { accelerator: string; registered: boolean; message?: string };
  notices?(): Notice[];
  version: string;
  platform: string;
};

export type ApiDeps = {
  services: Services;
  /** The writable settings (the services read them through `services.settings`). */
  settingsStore: SettingsStore;
  capturer?: ScreenCapturer;
  /** Push an event to the renderer(s). */
  emit: <E extends EventChannel>(channel: E, payload: IpcEventPayload<E>) => void;
  shell: Shell;
  /** Where MCP servers' questions (elicitation, `${input:…}`) are answered; without it they are declined. */
  questions?: McpQuestions;
};

/** Every invoke channel's handler, and `close` to abort what is still running. */
export function createApiHandlers(deps: ApiDeps): IpcHandlers & { close(): Promise<void> } {
  // Turns still streaming, so a page that reloads or switches conversations can resume them.
  const live = new LiveTurns();
  const chat = chatHandlers(deps, live);
  const models = modelHandlers(deps);
  const mcp = mcpHandlers(deps);
  return {
    ...settingsHandlers({ settings: deps.settingsStore, secrets: deps.services.secrets }),
    ...chat.handlers,
    ...attachmentHandlers(deps),
    ...conversationHandlers(deps, live),
    ...models.handlers,
    ...mcp.handlers,
    'app:openMain': async ({ conversationId }) => {
      await deps.shell.openMain?.(conversationId);
      return ok({});
    },
    // Held pushes are the transport's (main/app/ipcElectron.ts); the API only acknowledges.
    'app:listening': async () => ok({}),
    'app:info': async () =>
      ok({
        version: deps.shell.version,
        platform: deps.shell.platform,
        hotkey: deps.shell.hotkey?.() ?? { accelerator: deps.services.settings.current().hotkey, registered: false, message: 'No global hotkey in this mode.' },
        notices: deps.shell.notices?.() ?? [],
      }),
    async close() {
      chat.close();
      models.close();
      mcp.close();
    },
  };
}
