// The typed API (common/ipc.ts) implemented over the core, for every shell alike: the
// Electron app registers these handlers on ipcMain, the harness on its WebSocket. No
// electron here; what only a shell can do (show a window, hide windows before a capture)
// comes in as `shell` callbacks.
import { basename } from 'node:path';
import sharp from 'sharp';
import type { ChatEvent } from '../../common/events.ts';
import type { EventChannel, IpcEventPayload, ListedModel, McpServerStatus, Notice } from '../../common/ipc.ts';
import type { ModelInfo } from '../../common/models.ts';
import { declaredVision, endpointId, OLLAMA_ENDPOINT, type ModelSelection, type Settings } from '../../common/settings.ts';
import type { ScreenCapturer } from '../capture/screenCapturer.ts';
import type { ModelChoice } from '../chat/chatEngine.ts';
import { newConversationId } from '../chat/conversationStore.ts';
import { LiveTurns } from '../chat/liveTurns.ts';
import { cropAttachment } from '../images/cropImage.ts';
import { visionRefusal } from '../images/imageIntake.ts';
import { originalForViewer } from '../images/originalForViewer.ts';
import type { McpHub } from '../mcp/mcpHub.ts';
import { createProvider } from '../models/createProvider.ts';
import { pullOllamaModel } from '../models/ollamaPull.ts';
import { ProviderError, type ModelProvider } from '../models/provider.ts';
import { settingsHandlers } from './settingsHandlers.ts';
import { fail, ok, type IpcHandlers } from './ipcRouter.ts';
import type { SecretStore } from '../settings/secretStore.ts';
import type { SettingsStore } from '../settings/settingsStore.ts';
import { conversationView, withLiveTurn } from './conversationView.ts';
import type { GlanceCore } from '../core/createCore.ts';
import { resolveModel } from '../core/resolveModel.ts';

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
  core: GlanceCore;
  settings: SettingsStore;
  secrets: SecretStore;
  hub?: McpHub;
  capturer?: ScreenCapturer;
  /** Push an event to the renderer(s). */
  emit: <E extends EventChannel>(channel: E, payload: IpcEventPayload<E>) => void;
  shell: Shell;
};

/** Every invoke channel's handler. */
export function createApiHandlers(deps: ApiDeps): IpcHandlers & { close(): Promise<void> } {
  const { core, settings, secrets } = deps;
  const turns = new Map<string, AbortController>();
  const live = new LiveTurns();
  const pulls = new Map<string, AbortController>();

  /** Provider for an endpoint, made once per endpoint config so capability caches live on. */
  const providers = new Map<string, { key: string; provider: ModelProvider }>();
  async function endpointFor(selection: Pick<ModelSelection, 'provider' | 'endpoint'>, s: Settings) {
    if (selection.provider === 'ollama') return { baseUrl: s.providers.ollama.host, apiKey: undefined };
    const endpoint = s.providers.openai.find((e) => e.name === selection.endpoint);
    if (!endpoint) throw new ProviderError('model-not-found', `No OpenAI-compatible endpoint named "${selection.endpoint}" in Settings.`);
    return { baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKeyRef ? await secrets.get(endpoint.apiKeyRef) : undefined };
  }
  async function providerFor(selection: Pick<ModelSelection, 'provider' | 'endpoint'>, s: Settings): Promise<ModelProvider> {
    const { baseUrl, apiKey } = await endpointFor(selection, s);
    const id = endpointId({ ...selection, name: '-' });
    const key = JSON.stringify([baseUrl, apiKey ?? '', s.vision[id] ?? {}]);
    const cached = providers.get(id);
    if (cached?.key === key) return cached.provider;
    const provider = createProvider({ kind: selection.provider, baseUrl, apiKey, visionOverrides: s.vision[id] });
    providers.set(id, { key, provider });
    return provider;
  }

  async function choiceFor(selection: ModelSelection): Promise<ModelChoice> {
    const s = settings.current();
    const { baseUrl, apiKey } = await endpointFor(selection, s);
    const vision = declaredVision(s, selection);
    const choice = await resolveModel({ kind: selection.provider, model: selection.name, baseUrl, apiKey, vision, visionSource: 'settings' });
    if (selection.provider === 'openai' && selection.endpoint) choice.endpoint = selection.endpoint;
    return choice;
  }

  /** The model a request names, else the default from Settings, else the first local model that sees. */
  async function selectionOrDefault(selection: ModelSelection | undefined): Promise<ModelSelection> {
    if (selection) return selection;
    const s = settings.current();
    if (s.defaultModel) return s.defaultModel;
    const models = await (await providerFor({ provider: 'ollama' }, s)).listModels();
    const seeing = models.find((m) => m.capabilities.vision === 'yes') ?? models[0];
    if (!seeing) throw new ProviderError('model-not-found', 'No model is installed. Pull one that can see, e.g. `ollama pull gemma3`, or add an endpoint in Settings.');
    return { provider: 'ollama', name: seeing.name };
  }

  /** The model that looks at images for a chat model: itself if it sees, else the vision helper. */
  async function imageTargetFor(selection: ModelSelection | undefined) {
    const chat = await choiceFor(await selectionOrDefault(selection));
    if (chat.capabilities.vision === 'yes') return { chat, seer: chat };
    const helperSelection = settings.current().visionHelper;
    const helper = helperSelection ? await choiceFor(helperSelection) : undefined;
    return { chat, seer: helper?.capabilities.vision === 'yes' ? helper : undefined, helper };
  }

  const failure = (error: unknown) => {
    if (error instanceof ProviderError) return fail(error.code, error.message);
    throw error;
  };

  /** Tool names per server from the last listing (status alone does not start servers). */
  let hubToolsCache: { server: string; tool: string }[] = [];
  function mcpStatus(): McpServerStatus[] {
    if (!deps.hub) return [];
    const toolNames = new Map<string, string[]>();
    for (const t of hubToolsCache) toolNames.set(t.server, [...(toolNames.get(t.server) ?? []), t.tool]);
    return deps.hub.status().map((st) => {
      const state = st.state === 'ready' || st.state === 'idle' || st.state === 'starting' || st.state === 'failed' ? st.state : st.state === 'closed' || st.state === 'disabled' ? 'stopped' : 'failed';
      const out: McpServerStatus = { name: st.name, transport: st.transport ?? 'stdio', state, tools: toolNames.get(st.name) ?? [] };
      if (st.message) out.message = st.message;
      return out;
    });
  }
  return {
    ...settingsHandlers({ settings, secrets }),

    'chat:send': async (request) => {
      let selection: ModelSelection;
      let chat: ModelChoice;
      let helper: ModelChoice | undefined;
      try {
        selection = await selectionOrDefault(request.model);
        chat = await choiceFor(selection);
        const helperSelection = settings.current().visionHelper;
        if (chat.capabilities.vision !== 'yes' && helperSelection) helper = await choiceFor(helperSelection);
      } catch (error) {
        return failure(error);
      }
      const conversationId = request.conversationId ?? newConversationId();
      const controller = new AbortController();
      turns.set(request.turnId, controller);
      live.start(conversationId, { turnId: request.turnId, text: request.text, attachmentIds: request.attachmentIds, createdAt: new Date().toISOString() });
      let seq = 0;
      const emit = (event: ChatEvent) => {
        live.record(conversationId, request.turnId, event);
        deps.emit('chat:event', { conversationId, turnId: request.turnId, seq: seq++, event });
      };
      const thinking = chat.capabilities.thinking === 'yes';
      void core.engine
        .runTurn(
          {
            conversationId,
            createIfMissing: request.conversationId === undefined,
            replaceLastTurn: request.replaceLastTurn,
            text: request.text,
            userMessageId: request.turnId,
            attachments: request.attachmentIds.map((attachmentId) => ({ attachmentId })),
            chat,
            helper,
            signal: controller.signal,
            ...(thinking ? { think: true } : {}),
          },
          emit,
        )
        .catch((error: unknown) => {
          emit({ type: 'error', code: 'internal', message: error instanceof Error ? error.message : String(error) });
          emit({ type: 'done', conversationId, text: '' });
        })
        .finally(() => turns.delete(request.turnId));
      return ok({ conversationId, turnId: request.turnId });
    },

    'chat:cancel': async ({ turnId }) => {
      const controller = turns.get(turnId);
      controller?.abort();
      return ok({ cancelled: controller !== undefined });
    },

    'attachments:add': async ({ source, model }) => {
      let target;
      try {
        target = await imageTargetFor(model);
      } catch (error) {
        return failure(error);
      }
      const input =
        source.kind === 'path'
          ? { source: source.path, name: basename(source.path), origin: 'user', requestedBy: 'user' as const }
          : { source: source.bytes, name: source.name, origin: 'user', requestedBy: 'user' as const };
      const result = await core.intake.tryAttachImage(input, (target.seer ?? target.chat).target);
      return result.ok ? ok(result.attachment) : fail(result.code, result.message);
    },

    'attachments:thumbnail': async ({ id, maxEdge }) => {
      const got = await core.attachments.get(id);
      if (!got) return fail('not-found', `No stored image has the id ${id}.`);
      const { data, info } = await sharp(got.data)
        .resize({ width: maxEdge, height: maxEdge, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true });
      return ok({ dataUrl: `data:image/webp;base64,${data.toString('base64')}`, mime: 'image/webp', width: info.width, height: info.height });
    },

    'attachments:original': async ({ id }) => {
      const info = await core.attachments.info(id);
      if (!info) return fail('not-found', `No stored image has the id ${id}.`);
      const view = await originalForViewer(core.attachments, info, core.limits);
      if (!view.ok) return fail(view.code, view.message);
      const { data, ...rest } = view;
      return ok({ ...rest, dataUrl: `data:${view.mime};base64,${Buffer.from(data).toString('base64')}` });
    },

    'attachments:crop': async ({ id, region, model }) => {
      const info = await core.attachments.info(id);
      if (!info) return fail('not-found', `No stored image has the id ${id}.`);
      // Cut from the kept original at native resolution: that is what keeps small text legible.
      const crop = await cropAttachment(core.attachments, info, region, core.limits);
      if (!crop.ok) return fail(crop.code, crop.message);
      let target;
      try {
        target = await imageTargetFor(model);
      } catch (error) {
        return failure(error);
      }
      const name = info.name.replace(/(\.[a-z0-9]+)?$/i, '-crop.png');
      const result = await core.intake.tryAttachImage({ source: crop.png, name, origin: info.origin, requestedBy: 'user' }, (target.seer ?? target.chat).target);
      return result.ok ? ok(result.attachment) : fail(result.code, result.message);
    },

    'conversations:list': async () => ok(await core.conversations.list()),
    'conversations:get': async ({ id }) => {
      const c = await core.conversations.get(id);
      return c ? ok(withLiveTurn(await conversationView(c, core.attachments), live.get(id))) : fail('not-found', `No conversation with id ${id}.`);
    },
    'conversations:rename': async ({ id, title }) => {
      if (!(await core.conversations.rename(id, title))) return fail('not-found', `No conversation with id ${id}.`);
      const c = (await core.conversations.list()).find((x) => x.id === id)!;
      return ok(c);
    },
    'conversations:delete': async ({ id }) => ((await core.conversations.delete(id)) ? ok({ id }) : fail('not-found', `No conversation with id ${id}.`)),

    'models:list': async () => {
      const s = settings.current();
      const endpoints: { selection: Pick<ModelSelection, 'provider' | 'endpoint'>; id: string }[] = [
        { selection: { provider: 'ollama' }, id: OLLAMA_ENDPOINT },
        ...s.providers.openai.map((e) => ({ selection: { provider: 'openai' as const, endpoint: e.name }, id: e.name })),
      ];
      const models: ListedModel[] = [];
      const errors: { endpoint: string; code: string; message: string }[] = [];
      await Promise.all(
        endpoints.map(async ({ selection, id }) => {
          try {
            const listed: ModelInfo[] = await (await providerFor(selection, s)).listModels();
            for (const m of listed) {
              const declared = s.vision[id]?.[m.name];
              const capabilities = declared ? { ...m.capabilities, vision: declared, visionSource: 'settings' as const } : m.capabilities;
              models.push({ ...m, capabilities, endpoint: id });
            }
          } catch (error) {
            if (!(error instanceof ProviderError)) throw error;
            errors.push({ endpoint: id, code: error.code, message: error.message });
          }
        }),
      );
      return ok({ models, errors });
    },

    'models:pull': async ({ name }) => {
      const controller = new AbortController();
      pulls.get(name)?.abort();
      pulls.set(name, controller);
      try {
        await pullOllamaModel(settings.current().providers.ollama.host, name, {
          signal: controller.signal,
          onProgress: (p) => deps.emit('models:pullProgress', { name, ...p }),
        });
        return ok({ name });
      } catch (error) {
        return failure(error);
      } finally {
        if (pulls.get(name) === controller) pulls.delete(name);
      }
    },
    'models:cancelPull': async ({ name }) => {
      const controller = pulls.get(name);
      controller?.abort();
      return ok({ cancelled: controller !== undefined });
    },

    'mcp:status': async () => {
      if (deps.hub) hubToolsCache = (await deps.hub.listTools()).map((t) => ({ server: t.server, tool: t.tool }));
      return ok(mcpStatus());
    },
    'mcp:restart': async ({ name }) => {
      if (!deps.hub) return fail('not-found', 'No MCP servers are configured.');
      const status = await deps.hub.restart(name);
      if (!status) return fail('not-found', `No MCP server named "${name}".`);
      hubToolsCache = (await deps.hub.listTools()).map((t) => ({ server: t.server, tool: t.tool }));
      const view = mcpStatus().find((m) => m.name === name)!;
      deps.emit('mcp:changed', mcpStatus());
      return ok(view);
    },

    'capture:screenshot': async ({ display, model }) => {
      if (!deps.capturer) return fail('capture-unavailable', 'Screen capture is not available here.');
      let target;
      try {
        target = await imageTargetFor(model);
      } catch (error) {
        return failure(error);
      }
      // Refuse before capturing when nobody can look at the result.
      const gateTarget = (target.seer ?? target.chat).target;
      const refusal = visionRefusal(gateTarget);
      if (refusal) return fail(refusal.code, refusal.message);
      const restore = (await deps.shell.hideForCapture?.()) ?? (() => undefined);
      let shot;
      try {
        shot = await deps.capturer.capture(display === 'under-cursor' || display === 'all' ? display : { display: display.id });
      } finally {
        restore();
      }
      if (!shot.ok) return fail(shot.code, shot.message);
      const name = `screenshot-${shot.capture.display.name.replace(/[^\w.-]+/g, '_') || 'display'}.png`;
      const result = await core.intake.tryAttachImage({ source: shot.capture.png, name, origin: 'screenshot', requestedBy: 'user', pixelRatio: shot.capture.display.scaleFactor }, gateTarget);
      // The intake keeps the native-resolution capture as the original: a crop (the ask window's region) stays sharp.
      return result.ok ? ok(result.attachment) : fail(result.code, result.message);
    },

    'app:openMain': async ({ conversationId }) => {
      await deps.shell.openMain?.(conversationId);
      return ok({});
    },
    'app:info': async () =>
      ok({
        version: deps.shell.version,
        platform: deps.shell.platform,
        hotkey: deps.shell.hotkey?.() ?? { accelerator: settings.current().hotkey, registered: false, message: 'No global hotkey in this mode.' },
        notices: deps.shell.notices?.() ?? [],
      }),

    async close() {
      for (const c of turns.values()) c.abort();
      for (const c of pulls.values()) c.abort();
    },
  };
}
