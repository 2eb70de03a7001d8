// The API's composition, for the app and the harness alike (architecture §13): the services with
// MCP servers asking the person through the renderer (McpQuestions: a dialog per question) and
// sampling through the person's model after a yes, then every channel's handler over them. The
// entries pass only what they alone have: their secret store, a capturer, how to push an event,
// their shell callbacks, how to open a URL.
import { composeServices, type ComposeOptions, type Services } from '../core/composeServices.ts';
import type { SettingsStore } from '../settings/settingsStore.ts';
import { createApiHandlers, type ApiDeps, type Shell } from './apiHandlers.ts';
import type { IpcHandlers } from './ipcRouter.ts';
import { McpQuestions } from './mcpQuestions.ts';
import { mcpSampler } from './mcpSampling.ts';

type ApiOptions = Omit<ComposeOptions, 'settings' | 'mcpInteraction' | 'liveMcp'> & {
  /** The writable settings: the services read them, settings:set writes them. */
  settings: SettingsStore;
  /** Push an event to the renderer(s). */
  emit: ApiDeps['emit'];
  shell: Shell;
  /** The system browser: MCP sign-in pages and accepted URL elicitations. */
  openUrl?: (url: string) => Promise<void>;
};

type ComposedApi = {
  services: Services;
  /** Every invoke channel's handler. */
  handlers: IpcHandlers;
  /** Abort turns and pulls, then stop MCP servers. */
  close(): Promise<void>;
};

export function composeApi(options: ApiOptions): ComposedApi {
  const { emit, shell, openUrl, ...compose } = options;
  const questions = new McpQuestions();
  questions.connect(emit);
  const services: Services = composeServices({
    ...compose,
    // MCP servers apply live: started at launch, each saved change to them applied at once.
    liveMcp: true,
    // A window lives on: an image attached for a local model is read for secrets as it enters when a remote one is configured.
    readAhead: true,
    mcpInteraction: {
      ...questions.interaction({ secrets: compose.secrets, ...(openUrl ? { openUrl } : {}) }),
      // Through the user's default model, after a yes in the dialog (services exists by the time a server asks).
      sample: mcpSampler(() => services.models, questions),
    },
  });
  const { close: closeApi, ...handlers } = createApiHandlers({
    services,
    settingsStore: options.settings,
    ...(options.capturer ? { capturer: options.capturer } : {}),
    emit,
    shell,
    questions,
  });
  return {
    services,
    handlers,
    close: async () => {
      // Questions first: a start waiting on the person's answer ends at once, so nothing holds the stop.
      questions.close();
      await closeApi();
      await services.close();
    },
  };
}
