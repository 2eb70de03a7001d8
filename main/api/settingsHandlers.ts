// IPC handlers for settings and secrets. No electron here: the app and the harness use them
// alike, and tests run them under Node.
import type { Settings } from '../../common/settings.ts';
import { maskSettings, unmaskPatch } from '../settings/maskSettings.ts';
import type { SecretStore } from '../settings/secretStore.ts';
import type { SettingsStore } from '../settings/settingsStore.ts';
import { fail, ok, type IpcHandlers } from './ipcRouter.ts';

type SettingsHandlers = Pick<IpcHandlers, 'settings:get' | 'settings:set' | 'secrets:set' | 'secrets:status'>;

/** Every key name worth showing: those endpoints refer to, and those already stored. */
async function secretNames(settings: Settings, secrets: SecretStore): Promise<string[]> {
  const referenced = settings.providers.openai.flatMap((e) => (e.apiKeyRef ? [e.apiKeyRef] : []));
  return [...new Set([...referenced, ...(await secrets.names())])].sort();
}

export function settingsHandlers(deps: { settings: SettingsStore; secrets: SecretStore }): SettingsHandlers {
  const { settings, secrets } = deps;
  return {
    'settings:get': async () => ok(maskSettings(settings.current())),
    'settings:set': async ({ patch }) => {
      const result = await settings.update(unmaskPatch(patch, settings.current()));
      return result.ok ? ok(maskSettings(result.settings)) : fail('invalid-settings', result.message);
    },
    'secrets:set': async ({ name, value }) => {
      if (value === null) {
        await secrets.delete(name);
        return ok({ name, set: await secrets.has(name) });
      }
      const stored = await secrets.set(name, value);
      return stored.ok ? ok({ name, set: true }) : fail(stored.code, stored.message);
    },
    'secrets:status': async () => {
      const names = await secretNames(settings.current(), secrets);
      const statuses = await Promise.all(names.map(async (name) => ({ name, set: await secrets.has(name) })));
      return ok({ backend: await secrets.backend(), secrets: statuses });
    },
  };
}
