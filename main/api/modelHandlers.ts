// Models across every endpoint (declared vision applied), and Ollama pulls with progress.
import { pullOllamaModel } from '../models/ollamaPull.ts';
import type { ApiDeps } from './apiHandlers.ts';
import { ok, providerFailure, type IpcHandlers } from './ipcRouter.ts';
import { hidesFor, policyFor } from '../images/redactStage.ts';

export function modelHandlers(deps: ApiDeps): { handlers: Pick<IpcHandlers, 'models:list' | 'models:pull' | 'models:cancelPull' | 'models:route'>; close(): void } {
  const { services } = deps;
  const pulls = new Map<string, AbortController>();
  return {
    close: () => {
      for (const c of pulls.values()) c.abort();
    },
    handlers: {
      'models:list': async () => ok(await services.models.listAll()),

      'models:route': async ({ model, conversationId }) => {
        try {
          const route = await services.models.routeFor(model, conversationId);
          const privacy = services.settings.current().privacy;
          return ok({
            chat: route.chat.model,
            way: route.way,
            ...(route.way === 'described' && route.seer ? { seer: route.seer.model } : {}),
            policy: policyFor(route.target, privacy),
            hides: hidesFor(route.target, privacy),
            remote: route.target.remote !== false,
          });
        } catch (error) {
          return providerFailure(error);
        }
      },

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
