// Any OpenAI-compatible server through the `openai` package (architecture §4): OpenAI, OpenRouter,
// LM Studio, vLLM, llama.cpp, Ollama's /v1. Wire facts this file relies on:
// - images ride only as `image_url` data-URI parts of *user* messages; a tool message's
//   content is a string (Chat Completions accepts nothing else there);
// - streamed tool calls arrive as fragments keyed by `index` (id and name once, arguments as
//   JSON text in pieces), complete only when the choice has a finish_reason;
// - the package's stream ends *silently* on abort and on a response that stops without
//   `[DONE]`, so cancellation and truncation are detected here, after the loop.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ModelCapabilities, ModelInfo, Tristate } from '../../common/models.ts';
import { CallGuard, cancelled, seconds } from './callGuard.ts';
import { ProviderError } from './provider.ts';
import { mapProviderFailure, type ProviderWording } from './providerErrors.ts';
import type { ModelDetails, ModelEvent, ModelMessage, ModelProvider, ModelRequest, ToolCall, ToolSpec } from './provider.ts';
import { toolArguments } from './toolArguments.ts';
import { errorMessage } from '../errors.ts';

type OpenAICompatibleProviderOptions = {
  /** Default https://api.openai.com/v1. Local servers: e.g. http://127.0.0.1:8080/v1. */
  baseUrl?: string;
  /** Local servers need none; a placeholder is sent then (the package insists on one). */
  apiKey?: string;
  /** Vision declared per model in settings; wins over any metadata. */
  visionOverrides?: Record<string, 'yes' | 'no'>;
  fetch?: typeof fetch;
  capabilityTtlMs?: number;
  now?: () => number;
  /** Timeout for metadata calls (/v1/models, /props). Default 15 s. */
  requestTimeoutMs?: number;
  /** Longest silence in a chat stream, model loading included. Default 5 min. */
  streamIdleTimeoutMs?: number;
};

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const PLACEHOLDER_KEY = 'not-needed';

type Entry = Record<string, unknown> & { id: string };
type Timed<T> = { value: T; at: number };
type PartialCall = { id: string | undefined; name: string; args: string };

export class OpenAICompatibleProvider implements ModelProvider {
  readonly kind = 'openai' as const;
  readonly baseUrl: string;
  private readonly client: OpenAI;
  private readonly fetchImpl: typeof fetch;
  private readonly apiKey: string | undefined;
  private readonly overrides: Record<string, 'yes' | 'no'>;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly requestTimeoutMs: number;
  private readonly streamIdleTimeoutMs: number;
  private entries: Timed<Map<string, Entry>> | undefined;
  private readonly props = new Map<string, Timed<Tristate>>();
  /** When /props last answered 404: most servers have none, so don't ask per model. */
  private propsMissingAt: number | undefined;
  private readonly cache = new Map<string, Timed<ModelCapabilities>>();

  constructor(options: OpenAICompatibleProviderOptions = {}) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.apiKey = options.apiKey || undefined;
    this.overrides = options.visionOverrides ?? {};
    this.ttlMs = options.capabilityTtlMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
    this.streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? 300_000;
    this.client = new OpenAI({
      apiKey: options.apiKey || PLACEHOLDER_KEY,
      baseURL: this.baseUrl,
      fetch: this.fetchImpl,
      // Retrying belongs to the caller: a silent retry doubles a slow local model's wait.
      maxRetries: 0,
      timeout: this.streamIdleTimeoutMs,
    });
  }

  async *stream(request: ModelRequest, options: { signal?: AbortSignal } = {}): AsyncGenerator<ModelEvent> {
    // Built before the guarded section: a malformed request is a bug (throws), not a provider failure.
    const body: ChatCompletionCreateParamsStreaming = {
      model: request.model,
      messages: request.messages.map(toOpenAIMessage),
      stream: true,
      stream_options: { include_usage: true },
    };
    if (request.tools?.length) body.tools = request.tools.map(toOpenAITool);
    if (request.temperature !== undefined) body.temperature = request.temperature;

    const guard = new CallGuard(options.signal, this.streamIdleTimeoutMs);
    let streaming = false;
    let finished = false;
    try {
      if (guard.cancelled) throw cancelled();
      const stream = await this.client.chat.completions.create(body, { signal: guard.signal });
      streaming = true;
      const calls = new Map<number, PartialCall>();
      let finishReason: string | undefined;
      let usage: ChatCompletionChunk['usage'];
      for await (const chunk of stream) {
        guard.touch();
        if (chunk.usage) usage = chunk.usage;
        for (const choice of chunk.choices ?? []) {
          if (choice.index !== undefined && choice.index !== 0) continue;
          const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & { reasoning_content?: unknown; reasoning?: unknown };
          // llama.cpp, vLLM and DeepSeek say reasoning_content; OpenRouter and Ollama say reasoning.
          const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning;
          if (typeof reasoning === 'string' && reasoning) yield { type: 'thinking', delta: reasoning };
          if (typeof delta.content === 'string' && delta.content) yield { type: 'text', delta: delta.content };
          for (const fragment of delta.tool_calls ?? []) accumulate(calls, fragment);
          if (choice.finish_reason) finishReason = choice.finish_reason;
        }
      }
      if (guard.cancelled) throw cancelled();
      if (guard.timedOut) throw this.stalled(true);
      if (finishReason === undefined) {
        throw new ProviderError('interrupted', `The answer from ${this.where} ended before it was complete.`);
      }
      const complete = [...calls.entries()].sort(([a], [b]) => a - b).map(([index, c]) => finishCall(index, c));
      for (const call of complete) yield { type: 'tool_call', call };
      if (usage) yield { type: 'usage', inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens };
      finished = true;
      yield { type: 'done', reason: doneReason(finishReason, complete.length > 0) };
    } catch (error) {
      throw this.toProviderError(error, guard, { model: request.model, phase: streaming ? 'stream' : 'request', what: 'chat' });
    } finally {
      guard.dispose();
      if (!finished) guard.abort();
    }
  }

  async listModels(options: { signal?: AbortSignal } = {}): Promise<ModelInfo[]> {
    const entries = await this.modelEntries(options.signal, true);
    const names = [...entries.keys()].sort((a, b) => a.localeCompare(b));
    const out: ModelInfo[] = [];
    for (const name of names) {
      const entry = entries.get(name) as Entry;
      out.push({ provider: 'openai', name, capabilities: await this.capabilities(name, options), details: entryDetails(entry) });
    }
    return out;
  }

  async capabilities(model: string, options: { signal?: AbortSignal } = {}): Promise<ModelCapabilities> {
    const hit = this.cache.get(model);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    const override = this.overrides[model];
    let detected: ModelCapabilities;
    try {
      detected = await this.detect(model, options.signal);
    } catch (error) {
      // A declared verdict stands even when the server cannot be asked for the rest.
      if (!override || (error instanceof ProviderError && error.code === 'cancelled')) throw error;
      detected = { ...UNKNOWN };
    }
    const value: ModelCapabilities = override ? { ...detected, vision: override, visionSource: 'settings' } : detected;
    this.cache.set(model, { value, at: this.now() });
    return value;
  }

  /** OpenRouter (and some proxies) put the model's context window in its /v1/models entry. */
  async modelDetails(model: string, options: { signal?: AbortSignal } = {}): Promise<ModelDetails> {
    const entry = (await this.modelEntries(options.signal, false)).get(model);
    const length = entry?.context_length;
    return typeof length === 'number' && Number.isInteger(length) && length >= 256 && length <= 100_000_000 ? { contextLength: length } : {};
  }

  private get where(): string {
    return `the model server at ${this.baseUrl}`;
  }

  private async detect(model: string, signal: AbortSignal | undefined): Promise<ModelCapabilities> {
    const entry = (await this.modelEntries(signal, false)).get(model);
    const fromMetadata = entry ? capabilitiesFromEntry(entry) : undefined;
    if (fromMetadata && fromMetadata.vision !== 'unknown') return fromMetadata;
    const vision = await this.llamacppVision(model, signal);
    if (vision !== 'unknown') return { ...(fromMetadata ?? UNKNOWN), vision, visionSource: 'llamacpp-props' };
    return fromMetadata ?? { ...UNKNOWN };
  }

  /** /v1/models, cached with the capabilities. A server without the endpoint lists nothing. */
  private async modelEntries(signal: AbortSignal | undefined, strict: boolean): Promise<Map<string, Entry>> {
    if (this.entries && this.now() - this.entries.at < this.ttlMs) return this.entries.value;
    const guard = new CallGuard(signal, this.requestTimeoutMs);
    const map = new Map<string, Entry>();
    try {
      if (guard.cancelled) throw cancelled();
      for await (const model of this.client.models.list({ signal: guard.signal, timeout: this.requestTimeoutMs })) {
        const entry = model as unknown as Record<string, unknown>;
        if (typeof entry.id === 'string') map.set(entry.id, entry as Entry);
      }
    } catch (error) {
      const mapped = this.toProviderError(error, guard, { model: undefined, phase: 'request', what: 'metadata' });
      // For a capability lookup, a missing /v1/models just means "no metadata".
      if (strict || mapped.status !== 404) throw mapped;
    } finally {
      guard.dispose();
    }
    this.entries = { value: map, at: this.now() };
    return map;
  }

  /** llama.cpp's `GET /props` says `modalities.vision` for the loaded model (or `?model=` in router mode). */
  private async llamacppVision(model: string, signal: AbortSignal | undefined): Promise<Tristate> {
    const root = serverRoot(this.baseUrl);
    if (!root || /(^|\.)(openai\.com|openrouter\.ai)$/i.test(new URL(root).hostname)) return 'unknown';
    const hit = this.props.get(model);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    if (this.propsMissingAt !== undefined && this.now() - this.propsMissingAt < this.ttlMs) return 'unknown';
    const guard = new CallGuard(signal, this.requestTimeoutMs);
    let value: Tristate = 'unknown';
    try {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
      const response = await this.fetchImpl(`${root}/props?model=${encodeURIComponent(model)}`, { headers, signal: guard.signal });
      if (response.ok && response.headers.get('content-type')?.includes('json')) {
        const props: unknown = await response.json();
        const vision = isRecord(props) && isRecord(props.modalities) ? props.modalities.vision : undefined;
        if (typeof vision === 'boolean') value = vision ? 'yes' : 'no';
      } else {
        if (response.status === 404) this.propsMissingAt = this.now();
        await response.body?.cancel();
      }
    } catch (error) {
      if (guard.cancelled) throw cancelled(error);
      // Anything else: this server has no usable /props; /v1/models already proved it is up.
    } finally {
      guard.dispose();
    }
    this.props.set(model, { value, at: this.now() });
    return value;
  }

  private stalled(midAnswer: boolean): ProviderError {
    return new ProviderError(
      'interrupted',
      midAnswer
        ? `The answer from ${this.where} stalled: nothing for ${seconds(this.streamIdleTimeoutMs)}.`
        : `${this.where} sent nothing for ${seconds(this.streamIdleTimeoutMs)}; the model may still be loading. Try again.`,
    );
  }

  private toProviderError(
    error: unknown,
    guard: CallGuard,
    ctx: { model: string | undefined; phase: 'request' | 'stream'; what: 'chat' | 'metadata' },
  ): ProviderError {
    const status = error instanceof APIError && typeof error.status === 'number' ? error.status : undefined;
    return mapProviderFailure(
      error,
      {
        ...ctx,
        guard,
        status,
        detail: apiErrorText(error),
        ...(this.apiKey ? { secrets: [this.apiKey] } : {}),
        timedOut: error instanceof APIConnectionTimeoutError,
        connectFailed: error instanceof APIConnectionError && !(error instanceof APIConnectionTimeoutError),
      },
      this.wording,
    );
  }

  private get wording(): ProviderWording {
    return {
      where: this.where,
      unreachable: `Can't reach the model server at ${this.baseUrl}. Is it running, and is the base URL right? (OpenAI-compatible servers usually end in /v1.)`,
      noListing: `${this.where} has no /models endpoint (HTTP 404). Check the base URL: OpenAI-compatible servers usually end in /v1.`,
      modelNotFound: (model, detail) => `Model "${model}" is not available at ${this.baseUrl}: ${detail}. Run \`glance models --provider openai --base-url ${this.baseUrl}\` to see what it serves.`,
      imageRejectedHint: 'Pick a model that can see, set a vision helper model, or declare this one "vision: no" in Settings.',
      auth: (status, detail) =>
        this.apiKey
          ? `${this.where} refused the API key (HTTP ${status}): ${detail}. Check the key in Settings or the variable passed with --api-key-env.`
          : `${this.where} needs an API key (HTTP ${status}): ${detail}. Set one in Settings or pass --api-key-env VAR.`,
      requestTimeoutMs: this.requestTimeoutMs,
      streamIdleTimeoutMs: this.streamIdleTimeoutMs,
    };
  }
}

const UNKNOWN: ModelCapabilities = Object.freeze({ vision: 'unknown', visionSource: 'none', tools: 'unknown', thinking: 'unknown' });

/** What a /v1/models entry says about a model, or undefined when it says nothing. Exported for its unit test. */
export function capabilitiesFromEntry(entry: Record<string, unknown>): ModelCapabilities | undefined {
  const architecture = isRecord(entry.architecture) ? entry.architecture : undefined;
  const params = Array.isArray(entry.supported_parameters) ? entry.supported_parameters : undefined;
  const tools: Tristate = params ? (params.includes('tools') ? 'yes' : 'no') : 'unknown';
  const thinking: Tristate = params ? (params.includes('reasoning') || params.includes('include_reasoning') ? 'yes' : 'no') : 'unknown';
  if (architecture && Array.isArray(architecture.input_modalities)) {
    const vision: Tristate = architecture.input_modalities.includes('image') ? 'yes' : 'no';
    return { vision, visionSource: 'openrouter-metadata', tools, thinking };
  }
  // Other servers that name input modalities on the entry itself.
  const modalities = isRecord(entry.modalities) ? entry.modalities.input : entry.input_modalities;
  if (Array.isArray(modalities)) {
    return { vision: modalities.includes('image') ? 'yes' : 'no', visionSource: 'openai-metadata', tools, thinking };
  }
  if (params) return { ...UNKNOWN, tools, thinking };
  return undefined;
}

function entryDetails(entry: Entry): Record<string, string> {
  const details: Record<string, string> = {};
  if (typeof entry.owned_by === 'string' && entry.owned_by) details.ownedBy = entry.owned_by;
  if (typeof entry.context_length === 'number') details.contextLength = String(entry.context_length);
  const name = entry.name;
  if (typeof name === 'string' && name && name !== entry.id) details.displayName = name;
  return details;
}

/** http://host:8080/v1 → http://host:8080 (where llama.cpp serves /props). */
function serverRoot(baseUrl: string): string | undefined {
  try {
    const url = new URL(baseUrl);
    const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
    return `${url.origin}${path}`;
  } catch {
    return undefined;
  }
}

function toOpenAIMessage(m: ModelMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user': {
      if (!m.images?.length) return { role: 'user', content: m.content };
      const parts: ChatCompletionContentPart[] = [];
      if (m.content) parts.push({ type: 'text', text: m.content });
      for (const image of m.images) {
        if (!(image.data instanceof Uint8Array)) throw new TypeError('ModelImage.data must be a Uint8Array');
        const base64 = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64');
        parts.push({ type: 'image_url', image_url: { url: `data:${image.mime};base64,${base64}` } });
      }
      return { role: 'user', content: parts };
    }
    case 'assistant': {
      if (!m.toolCalls?.length) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } })),
      };
    }
    case 'tool':
      // Text, always: no image (and no base64 of one) ever rides in a tool message.
      if (typeof m.content !== 'string') throw new TypeError('A tool message carries text only');
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  }
}

function toOpenAITool(t: ToolSpec): ChatCompletionTool {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } };
}

function accumulate(calls: Map<number, PartialCall>, fragment: ChatCompletionChunk.Choice.Delta.ToolCall): void {
  const index = typeof fragment.index === 'number' ? fragment.index : calls.size;
  let call = calls.get(index);
  if (!call) {
    call = { id: undefined, name: '', args: '' };
    calls.set(index, call);
  }
  if (fragment.id) call.id = fragment.id;
  const name = fragment.function?.name;
  // Most servers send the name once; some repeat it whole in every fragment.
  if (name && name !== call.name) call.name += name;
  if (fragment.function?.arguments) call.args += fragment.function.arguments;
}

function finishCall(index: number, c: PartialCall): ToolCall {
  return { id: c.id ?? `call_${index}_${Math.random().toString(36).slice(2, 10)}`, name: c.name, ...toolArguments(c.args) };
}

function doneReason(reason: string, sawToolCall: boolean): 'stop' | 'tool_calls' | 'length' | 'other' {
  if (sawToolCall || reason === 'tool_calls' || reason === 'function_call') return 'tool_calls';
  if (reason === 'stop') return 'stop';
  if (reason === 'length') return 'length';
  return 'other';
}

function apiErrorText(error: unknown): string {
  let text: string;
  if (error instanceof APIError) {
    const body = error.error;
    const message = isRecord(body) ? body.message : undefined;
    text = typeof message === 'string' && message ? message : error.message.replace(/^\d{3}\s+/, '');
  } else {
    text = errorMessage(error);
  }
  return text.replace(/[.\s]+$/, '') || 'unknown error';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
