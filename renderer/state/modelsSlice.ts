import type { IpcEventPayload, ListedModel } from '../../common/ipc.ts';
import type { ImageRouteView } from '../../common/ipcPayloads.ts';
import type { ModelSelection } from '../../common/settings.ts';
import { isVisionRefusal } from './refusals.ts';
import type { SliceCreator } from './store.ts';

type PullState = {
  name: string;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  status: string;
  completed?: number;
  total?: number;
  message?: string;
};

export type ModelsSlice = {
  models: ListedModel[];
  modelErrors: { endpoint: string; code: string; message: string }[];
  modelsLoading: boolean;
  selectedModel: ModelSelection | null;
  /** Main's verdict on how this chat's images go (watchImageRoute); null until it answers, or when it cannot. */
  imageRoute: ImageRouteView | null;
  pull: PullState | null;
  loadModels(refresh: boolean): Promise<void>;
  selectModel(model: ModelSelection, options?: { persist?: boolean }): void;
  pullModel(name: string): Promise<void>;
  cancelPull(): Promise<void>;
  receivePullProgress(p: IpcEventPayload<'models:pullProgress'>): void;
};

/** The model Glance suggests pulling when no installed Ollama model can see. */
export const SUGGESTED_VISION_MODEL = 'gemma3:4b';

export function selectionOf(m: ListedModel): ModelSelection {
  return m.provider === 'openai' ? { provider: 'openai', endpoint: m.endpoint, name: m.name } : { provider: 'ollama', name: m.name };
}

export function modelKey(m: ModelSelection | ListedModel): string {
  const endpoint = m.provider === 'openai' ? (m.endpoint ?? '') : 'ollama';
  return `${m.provider}:${endpoint}:${m.name}`;
}

export function findModel(models: readonly ListedModel[], selection: ModelSelection | null): ListedModel | undefined {
  if (!selection) return undefined;
  const key = modelKey(selection);
  return models.find((m) => modelKey(m) === key);
}

/** True when Ollama answered and none of its models can see: the moment to offer a pull. */
export function needsVisionPull(models: readonly ListedModel[], errors: readonly { endpoint: string }[]): boolean {
  if (errors.some((e) => e.endpoint === 'ollama')) return false;
  return !models.some((m) => m.provider === 'ollama' && m.capabilities.vision === 'yes');
}

export const createModelsSlice: SliceCreator<ModelsSlice> = (set, get, api) => ({
  models: [],
  modelErrors: [],
  modelsLoading: false,
  selectedModel: null,
  imageRoute: null,
  pull: null,

  async loadModels(refresh) {
    set({ modelsLoading: true });
    const result = await api.modelsList({ refresh });
    if (!result.ok) {
      set({ modelsLoading: false, modelErrors: [{ endpoint: 'all', code: result.code, message: result.message }] });
      return;
    }
    const { models, errors } = result.value;
    set({ models, modelErrors: errors, modelsLoading: false });
    // Keep the choice if it is still there; else the default from settings; else a model that sees.
    const current = findModel(models, get().selectedModel);
    if (current) return;
    const defaultModel = get().settings?.defaultModel ?? null;
    const preferred = findModel(models, defaultModel) ?? models.find((m) => m.capabilities.vision === 'yes') ?? models[0];
    // With its server down, the model used last is still the one a message goes to: main then
    // records the turn (and the conversation) with the reason, instead of refusing the send.
    const offline = errors.length > 0 && defaultModel && !models.length ? defaultModel : null;
    set({ selectedModel: preferred ? selectionOf(preferred) : (get().selectedModel ?? offline) });
  },

  selectModel(model, options) {
    // What a blind model refused says nothing about the next one.
    set((s) => ({ selectedModel: model, refusals: s.refusals.filter((r) => !isVisionRefusal(r.code)) }));
    // Waiting images say what this model will get, not what the last one would have.
    void get().refitPending();
    // The last choice becomes the default for new windows and the hotkey.
    if (options?.persist !== false) void api.settingsSet({ patch: { defaultModel: model } });
  },

  async pullModel(name) {
    set({ pull: { name, state: 'running', status: 'starting' } });
    const result = await api.modelsPull({ name });
    const pull = get().pull;
    if (pull?.name !== name) return;
    if (result.ok) {
      set({ pull: { ...pull, state: 'done', status: 'success' } });
      await get().loadModels(true);
      const pulled = get().models.find((m) => m.provider === 'ollama' && (m.name === name || m.name === `${name}:latest`));
      if (pulled) get().selectModel(selectionOf(pulled));
    } else if (pull.state !== 'cancelled') {
      set({ pull: { ...pull, state: result.code === 'cancelled' ? 'cancelled' : 'failed', message: result.message } });
    }
  },

  async cancelPull() {
    const pull = get().pull;
    if (!pull || pull.state !== 'running') return;
    set({ pull: { ...pull, state: 'cancelled', message: `Stopped pulling ${pull.name}.` } });
    await api.modelsCancelPull({ name: pull.name });
  },

  receivePullProgress(p) {
    const pull = get().pull;
    if (!pull || pull.name !== p.name || pull.state !== 'running') return;
    set({ pull: { ...pull, status: p.status, completed: p.completed, total: p.total } });
  },
});
