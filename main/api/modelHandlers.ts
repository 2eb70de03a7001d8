// Models across every endpoint (declared vision applied), and Ollama pulls with progress.
import { pullOllamaModel } from '../models/ollamaPull.ts';
import type { ApiDeps } from './apiHandlers.ts';
import { ok, providerFailure, type IpcHandlers } from './ipcRouter.ts';

export function modelHandlers(deps: ApiDeps): { handlers: Pick<IpcHandlers, 'models:list' | 'models:pull' | 'models:cancelPull'>; close(): void } {
  const { services } = deps;
  const pulls = new Map<string, AbortController>();
  return {
    close: () => {
      for (const c of pulls.values()) c.abort();
    },
    handlers: {
      'models:list': async () => ok(await services.models.listAll()),

      'models:pull': async ({ name }) => {
        const controller = new AbortController();
        pulls.get(name)?.abort();
        pulls.set(name, controller);
        try {
          await pullOllamaModel(services.settings.current().providers.ollama.host, name, {
            signal: controller.signal,
            onProgress: (p) => deps.emit('models:pullProgress', { name, ...p }),
          });
          return ok({ name });
        } catch (error) {
          return providerFailure(error);
        } finally {
          if (pulls.get(name) === controller) pulls.delete(name);
        }
      },
      'models:cancelPull': async ({ name }) => {
        const controller = pulls.get(name);
        controller?.abort();
        return ok({ cancelled: controller !== undefined });
      },
    },
  };
}
