// The typed API over the real core, through the real IPC router (zod-validated both ways), for
// the API tests: a settings store in a fresh data dir, the one composition, the handlers, and
// what main pushed to the renderer.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatEvent } from '../../common/events.ts';
import type { IpcResult } from '../../common/ipc.ts';
import type { SettingsPatch } from '../../common/settings.ts';
import { createApiHandlers } from '../../main/api/apiHandlers.ts';
import { createIpcRouter } from '../../main/api/ipcRouter.ts';
import type { ScreenCapturer } from '../../main/capture/screenCapturer.ts';
import { composeServices } from '../../main/core/composeServices.ts';
import type { TextReader } from '../../main/ocr/textReader.ts';
import { EnvSecretStore } from '../../main/settings/secretStore.ts';
import { SettingsStore } from '../../main/settings/settingsStore.ts';

export type ApiHarness = {
  dataDir: string;
  /** One call as the app's renderer makes it (a trusted sender). */
  call(channel: string, payload?: unknown): Promise<IpcResult<unknown>>;
  /** Everything main pushed, in order. */
  pushed: { channel: string; payload: unknown }[];
  /** The events of one turn, once its `done` arrived. */
  turnEvents(turnId: string): Promise<ChatEvent[]>;
  close(): Promise<void>;
};

export async function apiHarness(options: { providers: NonNullable<SettingsPatch['providers']>; capturer?: ScreenCapturer; ocr?: TextReader; prefix?: string; settings?: Omit<SettingsPatch, 'providers'> }): Promise<ApiHarness> {
  const dataDir = await mkdtemp(join(tmpdir(), options.prefix ?? 'glance-api-'));
  const settings = new SettingsStore({ dataDir });
  await settings.load();
  await settings.update({ ...options.settings, providers: options.providers });
  const { capturer, ocr } = options;
  const services = composeServices({ dataDir, settings, secrets: new EnvSecretStore({}), log: () => undefined, ...(capturer ? { capturer } : {}), ...(ocr ? { ocr } : {}) });
  const pushed: ApiHarness['pushed'] = [];
  const handlers = createApiHandlers({
    services,
    settingsStore: settings,
    ...(capturer ? { capturer } : {}),
    emit: (channel, payload) => pushed.push({ channel, payload }),
    shell: { version: '0.1.0', platform: 'linux' },
  });
  const router = createIpcRouter({ handlers, isTrustedSender: (s) => s.url === 'app://glance/' });
  return {
    dataDir,
    pushed,
    call: (channel, payload = {}) => router.handle(channel, { url: 'app://glance/', isMainFrame: true }, payload),
    async turnEvents(turnId) {
      for (let i = 0; i < 400; i++) {
        const events = pushed.filter((p) => p.channel === 'chat:event' && (p.payload as { turnId: string }).turnId === turnId).map((p) => (p.payload as { event: ChatEvent }).event);
        if (events.at(-1)?.type === 'done') return events;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('turn did not finish');
    },
    async close() {
      await services.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The value of a successful call; a failure throws with its code and message. */
export function value<T>(result: IpcResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value as T;
}
