// Models as every entry sees them: a selection ("ollama"/endpoint + name) becomes a provider,
// its capabilities with the user's declarations applied, and the image target the door
// fits for (resolveModel, below, does the last step for a spec already read from settings). The app, the harness and the CLI all resolve models here, so a verdict
// declared in Settings (or by --vision) means the same everywhere.
import type { ListedModel } from '../../common/ipc.ts';
import type { ModelCapabilities, ModelInfo, ProviderKind } from '../../common/models.ts';
import { DEFAULT_OLLAMA_HOST, declaredVision, endpointId, imageSizeFor, OLLAMA_ENDPOINT, type ModelSelection, type Settings } from '../../common/settings.ts';
import type { ModelChoice } from '../chat/chatEngine.ts';
import { createProvider } from '../models/createProvider.ts';
import { ProviderError, type ModelDetails, type ModelProvider } from '../models/provider.ts';
import type { SecretStore } from '../settings/secretStore.ts';
import { contextWindowFor } from '../chat/historyBudget.ts';
import { imageRoute, type ImageRoute } from '../chat/imageRoute.ts';
import type { ImageProfile } from '../images/types.ts';
import { targetFor } from '../images/profiles.ts';
import { isThisComputer } from '../thisComputer.ts';

export type SettingsSource = {
  current(): Settings;
  onChange?(listener: (settings: Settings) => void): () => void;
};

/** Where an endpoint is, and how to reach it; the CLI's flags override Settings here. */
export type EndpointOverride = { baseUrl?: string; apiKey?: string; env?: Record<string, string | undefined> };

/** A person's word on a model's vision: --vision (flag) wins over Settings. */
export type VisionDeclaration = { vision: 'yes' | 'no'; source: 'flag' | 'settings' };

export type ChoiceOptions = {
  vision?: VisionDeclaration;
  signal?: AbortSignal;
  /**
   * Only the vision verdict matters (check-image): a declared one is taken without asking the
   * server, and with nothing declared a server that cannot be asked is an error, not "unknown".
   */
  visionOnly?: boolean;
};

export type ModelResolver = {
  /** A model ready for the engine: provider, capabilities (declarations applied), image target. */
  choiceFor(selection: ModelSelection, options?: ChoiceOptions): Promise<ModelChoice>;
  /** The provider for an endpoint, made once per endpoint config so capability caches live on. */
  providerFor(selection: Pick<ModelSelection, 'provider' | 'endpoint'>): Promise<ModelProvider>;
  /** The model a request names, else the default from Settings, else the first local model that sees. */
  selectionOrDefault(selection: ModelSelection | undefined): Promise<ModelSelection>;
  /**
   * The one route for images (imageRoute): the chat model (the selection, else the default), its
   * helper, who sees, under the conversation's own policy (Settings → Privacy) when one is named.
   */
  routeFor(selection: ModelSelection | undefined, conversationId?: string): Promise<ImageRoute>;
  /** The configured vision helper, resolved, when the chat model cannot see. */
  helperFor(chat: ModelChoice): Promise<ModelChoice | undefined>;
  /** Every endpoint's models with the declared verdicts applied; a dead endpoint is an error row. */
  listAll(): Promise<{ models: ListedModel[]; errors: { endpoint: string; code: string; message: string }[] }>;
  /** One endpoint's models with the declared verdicts applied. */
  list(selection: Pick<ModelSelection, 'provider' | 'endpoint'>, options?: { signal?: AbortSignal }): Promise<ModelInfo[]>;
};

export function createModelResolver(deps: { settings: SettingsSource; secrets: SecretStore; endpoint?: EndpointOverride }): ModelResolver {
  const { settings, secrets } = deps;
  const cache = new Map<string, { key: string; provider: ModelProvider }>();

  async function endpointFor(selection: Pick<ModelSelection, 'provider' | 'endpoint'>, s: Settings) {
    const override = deps.endpoint;
    if (selection.provider === 'ollama') return { baseUrl: override?.baseUrl ?? s.providers.ollama.host, apiKey: undefined };
    if (override?.baseUrl !== undefined || selection.endpoint === undefined) return { baseUrl: override?.baseUrl, apiKey: override?.apiKey };
    const endpoint = s.providers.openai.find((e) => e.name === selection.endpoint);
    if (!endpoint) throw new ProviderError('model-not-found', `No OpenAI-compatible endpoint named "${selection.endpoint}" in Settings.`);
    return { baseUrl: endpoint.baseUrl, apiKey: override?.apiKey ?? (endpoint.apiKeyRef ? await secrets.get(endpoint.apiKeyRef) : undefined) };
  }

  async function providerFor(selection: Pick<ModelSelection, 'provider' | 'endpoint'>): Promise<ModelProvider> {
    const s = settings.current();
    const { baseUrl, apiKey } = await endpointFor(selection, s);
    const id = endpointId(selection);
    const key = JSON.stringify([selection.provider, baseUrl ?? '', apiKey ?? '', s.vision[id] ?? {}]);
    const cached = cache.get(`${selection.provider}:${id}`);
    if (cached?.key === key) return cached.provider;
    const provider = newProvider(selection.provider, baseUrl, apiKey, s.vision[id], deps.endpoint?.env);
    cache.set(`${selection.provider}:${id}`, { key, provider });
    return provider;
  }

  async function choiceFor(selection: ModelSelection, options: ChoiceOptions = {}): Promise<ModelChoice> {
    const s = settings.current();
    const { baseUrl, apiKey } = await endpointFor(selection, s);
    const declared = declaredVision(s, selection);
    const vision = options.vision ?? (declared ? { vision: declared, source: 'settings' as const } : undefined);
    // A size set in Settings → Image sizes wins over the model's own rule (architecture §4a).
    const size = imageSizeFor(s, selection);
    const choice = await resolveModel({
      kind: selection.provider,
      model: selection.name,
      baseUrl,
      apiKey,
      ...(vision ? { vision: vision.vision, visionSource: vision.source } : {}),
      visionOverrides: s.vision[endpointId(selection)],
      ...(size ? { profile: size } : {}),
      env: deps.endpoint?.env,
      provider: await providerFor(selection),
      signal: options.signal,
      strict: options.visionOnly === true,
      detect: !(options.visionOnly === true && vision !== undefined),
    });
    if (selection.provider === 'openai' && selection.endpoint) choice.endpoint = selection.endpoint;
    return choice;
  }

  async function list(selection: Pick<ModelSelection, 'provider' | 'endpoint'>, options: { signal?: AbortSignal } = {}): Promise<ModelInfo[]> {
    const s = settings.current();
    const listed = await (await providerFor(selection)).listModels(options);
    return listed.map((m) => {
      const declared = declaredVision(s, { ...selection, name: m.name });
      return declared ? { ...m, capabilities: { ...m.capabilities, vision: declared, visionSource: 'settings' as const } } : m;
    });
  }

  async function selectionOrDefault(selection: ModelSelection | undefined): Promise<ModelSelection> {
    if (selection) return selection;
    const s = settings.current();
    if (s.defaultModel) return s.defaultModel;
    const models = await list({ provider: 'ollama' });
    const seeing = models.find((m) => m.capabilities.vision === 'yes') ?? models[0];
    if (!seeing) throw new ProviderError('model-not-found', 'No model is installed. Pull one that can see, e.g. `ollama pull gemma3`, or add an endpoint in Settings.');
    return { provider: 'ollama', name: seeing.name };
  }

  async function helperFor(chat: ModelChoice): Promise<ModelChoice | undefined> {
    if (chat.capabilities.vision === 'yes') return undefined;
    const helperSelection = settings.current().visionHelper;
    return helperSelection ? choiceFor(helperSelection) : undefined;
  }

  return {
    choiceFor,
    providerFor,
    selectionOrDefault,
    helperFor,
    list,
    async routeFor(selection, conversationId) {
      const chat = await choiceFor(await selectionOrDefault(selection));
      const helper = await helperFor(chat);
      const redact = conversationId ? settings.current().privacy.conversations[conversationId] : undefined;
      return imageRoute({ chat, helper }, redact);
    },
    async listAll() {
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
            const { baseUrl } = await endpointFor(selection, s);
            const local = runsHere({ kind: selection.provider, baseUrl, env: deps.endpoint?.env });
            for (const m of await list(selection)) models.push({ ...m, endpoint: id, ...(local ? { local: true as const } : {}) });
          } catch (error) {
            if (!(error instanceof ProviderError)) throw error;
            errors.push({ endpoint: id, code: error.code, message: error.message });
          }
        }),
      );
      return { models, errors };
    },
  };
}

/** The one place a provider is made: for a selection (providerFor) and for a spec (resolveModel). */
function newProvider(kind: ProviderKind, baseUrl: string | undefined, apiKey: string | undefined, visionOverrides: Record<string, 'yes' | 'no'> | undefined, env: Record<string, string | undefined> | undefined): ModelProvider {
  return createProvider({ kind, baseUrl, apiKey, visionOverrides, env });
}

export type ModelSpec = {
  kind: ProviderKind;
  model: string;
  baseUrl?: string;
  apiKey?: string;
  /** A person's declaration (--vision, or the model's Vision setting) wins over detection. */
  vision?: 'yes' | 'no';
  visionSource?: 'flag' | 'settings';
  /** Per-model vision declarations from settings (OpenAI-compatible endpoints). */
  visionOverrides?: Record<string, 'yes' | 'no'>;
  profile?: Partial<ImageProfile>;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Detection failures throw instead of leaving capabilities unknown (check-image reports them). */
  strict?: boolean;
  /** false: take capabilities as unknown without asking the server (a declared vision still counts). */
  detect?: boolean;
  /** A provider made earlier for this endpoint (its capability cache lives on). */
  provider?: ModelProvider;
};

const UNKNOWN: ModelCapabilities = { vision: 'unknown', visionSource: 'none', tools: 'unknown', thinking: 'unknown' };

/**
 * A model with its provider, capabilities and image target. Detection failures (server down)
 * leave capabilities unknown: the chat request that follows reports the real error.
 */
export async function resolveModel(spec: ModelSpec): Promise<ModelChoice> {
  const provider = spec.provider ?? newProvider(spec.kind, spec.baseUrl, spec.apiKey, spec.visionOverrides, spec.env);
  let detected = UNKNOWN;
  let details: ModelDetails = {};
  try {
    if (spec.detect !== false) {
      detected = await provider.capabilities(spec.model, { signal: spec.signal });
      // Cached with the capabilities (Ollama: the same /api/show), so this costs no request.
      details = (await provider.modelDetails?.(spec.model, { signal: spec.signal })) ?? {};
    }
  } catch (error) {
    if (!(error instanceof ProviderError) || spec.strict) throw error;
  }
  const override = spec.vision ? { vision: spec.vision, source: spec.visionSource ?? ('flag' as const) } : undefined;
  const remote = !runsHere(spec);
  // The door redacts a remote model's copies under the default policy (architecture §3 "Redact").
  const target = { ...targetFor(spec.kind, spec.model, detected, override, spec.profile, details), remote };
  const capabilities: ModelCapabilities = { ...detected, vision: target.vision, visionSource: target.visionSource };
  return { provider, model: spec.model, capabilities, target, context: contextWindowFor(spec.kind, spec.model, details), remote };
}

/** Whether the model's server is on this machine: the one answer (main/thisComputer.ts). Anything else — a LAN box, a cloud API — is remote. */
function runsHere(spec: Pick<ModelSpec, 'kind' | 'baseUrl' | 'env'>): boolean {
  const url = spec.baseUrl ?? (spec.kind === 'ollama' ? (spec.env ?? process.env).OLLAMA_HOST ?? DEFAULT_OLLAMA_HOST : 'https://api.openai.com/v1');
  return isThisComputer(url);
}
