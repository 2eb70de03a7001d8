// Ollama through the `ollama` package (architecture §4). Wire facts this file relies on:
// - the client turns a *string* image into a file read, so images go in as Uint8Array only;
// - `AbortableAsyncIterator.abort()` aborts one stream, `Ollama.abort()` every stream of that
//   client instance: we never call the latter and build one client per call, whose injected
//   fetch carries our signal (so a cancel also works while we still wait for headers, and
//   list/show, which take no signal in 0.6.4, are cancellable too);
// - tool calls may arrive in any chunk, not only the last; an `{"error"}` line or a stream
//   without `done` throws from the iterator;
// - its stream parser prints an unparseable line to stderr, so the chat body reaches it through
//   checkedNdjson() (ndjsonLines.ts): only JSON objects pass, and the answer says how many did not.
import { Ollama } from 'ollama';
import type { AbortableAsyncIterator, ChatRequest, ChatResponse, Message, Tool } from 'ollama';
import { formatBytes } from '../../common/images.ts';
import type { ModelCapabilities, ModelInfo, Tristate } from '../../common/models.ts';
import { CallGuard, cancelled, fetchWithSignal } from './callGuard.ts';
import { resolveOllamaHost } from './ollamaHost.ts';
import { ProviderError } from './provider.ts';
import { errorDetail, mapProviderFailure, type ProviderWording } from './providerErrors.ts';
import type { ModelDetails, ModelEvent, ModelMessage, ModelProvider, ModelRequest, ToolSpec } from './provider.ts';
import { checkedNdjson, skippedLinesNote } from './ndjsonLines.ts';
import { toolArguments } from './toolArguments.ts';

type OllamaProviderOptions = {
  /** Base URL or OLLAMA_HOST-style host; default: `env.OLLAMA_HOST`, else http://127.0.0.1:11434. */
  host?: string;
  env?: Record<string, string | undefined>;
  fetch?: typeof fetch;
  /** How long a capability verdict is reused (ms). Default 60 s: a re-pulled model may change. */
  capabilityTtlMs?: number;
  /** Clock for the capability cache (tests). */
  now?: () => number;
  /** Timeout for metadata calls (/api/tags, /api/show). Default 15 s. */
  requestTimeoutMs?: number;
  /** Longest silence in a chat stream, model loading included. Default 5 min. */
  streamIdleTimeoutMs?: number;
};

type CachedCapabilities = { value: ModelCapabilities; details: ModelDetails; at: number };

export class OllamaProvider implements ModelProvider {
  readonly kind = 'ollama' as const;
  readonly host: string;
  private readonly baseFetch: typeof fetch;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly requestTimeoutMs: number;
  private readonly streamIdleTimeoutMs: number;
  private readonly cache = new Map<string, CachedCapabilities>();

  constructor(options: OllamaProviderOptions = {}) {
    const env = options.env ?? process.env;
    this.host = resolveOllamaHost(options.host ?? env.OLLAMA_HOST);
    this.baseFetch = options.fetch ?? globalThis.fetch;
    this.ttlMs = options.capabilityTtlMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
    this.streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? 300_000;
  }

  async *stream(request: ModelRequest, options: { signal?: AbortSignal } = {}): AsyncGenerator<ModelEvent> {
    // Built before the guarded section: a malformed request is a bug (throws), not a provider failure.
    const body: ChatRequest & { stream: true } = {
      model: request.model,
      messages: request.messages.map(toOllamaMessage),
      stream: true,
    };
    if (request.tools?.length) body.tools = request.tools.map(toOllamaTool);
    if (request.think !== undefined) body.think = request.think;
    if (request.temperature !== undefined) body.options = { temperature: request.temperature };
    // Without it Ollama runs the model's default window and silently drops the front of a longer prompt.
    if (request.contextTokens !== undefined) body.options = { ...body.options, num_ctx: request.contextTokens };

    const guard = new CallGuard(options.signal, this.streamIdleTimeoutMs);
    let iterator: AbortableAsyncIterator<ChatResponse> | undefined;
    let streaming = false;
    let sawToolCall = false;
    let callCount = 0;
    let skipped = 0;
    try {
      if (guard.cancelled) throw cancelled();
      iterator = await this.client(guard.signal, () => void skipped++).chat(body);
      streaming = true;
      for await (const chunk of iterator) {
        guard.touch();
        const message = chunk.message;
        if (message?.thinking) yield { type: 'thinking', delta: message.thinking };
        if (message?.content) yield { type: 'text', delta: message.content };
        for (const call of message?.tool_calls ?? []) {
          sawToolCall = true;
          const id = (call as { id?: unknown }).id;
          yield {
            type: 'tool_call',
            call: {
              id: typeof id === 'string' && id ? id : `call_${++callCount}_${randomSuffix()}`,
              name: call.function?.name ?? '',
              ...toolArguments(call.function?.arguments),
            },
          };
        }
        if (chunk.done) {
          if (skipped > 0) yield { type: 'text', delta: skippedLinesNote(skipped, `Ollama at ${this.host}`) };
          if (chunk.prompt_eval_count !== undefined || chunk.eval_count !== undefined) {
            yield { type: 'usage', inputTokens: chunk.prompt_eval_count, outputTokens: chunk.eval_count };
          }
          yield { type: 'done', reason: doneReason(chunk.done_reason, sawToolCall) };
          return;
        }
      }
      // The package's iterator throws when the stream ends without `done`; be explicit anyway.
      throw new ProviderError('interrupted', `The answer from Ollama at ${this.host} ended before it was complete.`);
    } catch (error) {
      throw this.toProviderError(error, guard, { model: request.model, phase: streaming ? 'stream' : 'request', what: 'chat' });
    } finally {
      guard.dispose();
      // Closes the socket if the consumer stopped early; a no-op after `done`.
      iterator?.abort();
    }
  }

  async listModels(options: { signal?: AbortSignal } = {}): Promise<ModelInfo[]> {
    const list = await this.metadataCall(options.signal, undefined, (client) => client.list());
    const models = Array.isArray(list.models) ? list.models : [];
    return mapLimit(models, 4, async (m) => {
      const details: Record<string, string> = {};
      if (m.details?.family) details.family = m.details.family;
      if (m.details?.parameter_size) details.parameterSize = m.details.parameter_size;
      if (m.details?.quantization_level) details.quantization = m.details.quantization_level;
      if (typeof m.size === 'number' && m.size > 0) details.size = m.size >= 1024 ** 3 ? `${(m.size / 1024 ** 3).toFixed(1)} GB` : formatBytes(m.size);
      let capabilities: ModelCapabilities;
      try {
        const shown = await this.show(m.name, options.signal);
        capabilities = shown.capabilities;
        if (shown.contextLength) details.contextLength = shown.contextLength;
      } catch (error) {
        // One model we cannot inspect must not hide the others; a dead server still fails.
        if (error instanceof ProviderError && (error.code === 'unreachable' || error.code === 'cancelled')) throw error;
        capabilities = { ...UNKNOWN };
      }
      return { provider: 'ollama' as const, name: m.name, capabilities, details };
    });
  }

  async capabilities(model: string, options: { signal?: AbortSignal } = {}): Promise<ModelCapabilities> {
    const hit = this.cache.get(model);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    return (await this.show(model, options.signal)).capabilities;
  }

  async modelDetails(model: string, options: { signal?: AbortSignal } = {}): Promise<ModelDetails> {
    const hit = this.cache.get(model);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.details;
    return (await this.show(model, options.signal)).details;
  }

  private async show(model: string, signal: AbortSignal | undefined) {
    const raw: unknown = await this.metadataCall(signal, model, (client) => client.show({ model }));
    const show = isRecord(raw) ? raw : {};
    const capabilities = capabilitiesFromShow(show);
    const details = detailsFromShow(show);
    this.cache.set(model, { value: capabilities, details, at: this.now() });
    return { capabilities, details, contextLength: details.contextLength === undefined ? undefined : String(details.contextLength) };
  }

  private async metadataCall<T>(signal: AbortSignal | undefined, model: string | undefined, call: (client: Ollama) => Promise<T>): Promise<T> {
    const guard = new CallGuard(signal, this.requestTimeoutMs);
    try {
      if (guard.cancelled) throw cancelled();
      return await call(this.client(guard.signal));
    } catch (error) {
      throw this.toProviderError(error, guard, { model, phase: 'request', what: 'metadata' });
    } finally {
      guard.dispose();
    }
  }

  /** `skipped`: a chat stream, read through checkedNdjson (each dropped line is counted). */
  private client(signal: AbortSignal, skipped?: () => void): Ollama {
    const base = jsonErrors(fetchWithSignal(this.baseFetch, signal));
    return new Ollama({ host: this.host, fetch: skipped ? checkedBody(base, skipped) : base });
  }

  private toProviderError(
    error: unknown,
    guard: CallGuard,
    ctx: { model: string | undefined; phase: 'request' | 'stream'; what: 'chat' | 'metadata' },
  ): ProviderError {
    const detail = errorDetail(error);
    return mapProviderFailure(error, { ...ctx, guard, status: responseStatus(error), detail, incomplete: /did not receive done/i.test(detail) }, this.wording);
  }

  private get wording(): ProviderWording {
    const where = `Ollama at ${this.host}`;
    return {
      where,
      unreachable: `Can't reach Ollama at ${this.host}. Is Ollama running? Start it with \`ollama serve\`.`,
      noListing: `${this.host} does not answer Ollama's /api/tags (HTTP 404). Is it an Ollama server? For an OpenAI-compatible server use --provider openai.`,
      modelNotFound: (model) => `Model "${model}" is not on ${where}. Run \`ollama pull ${model}\`.`,
      imageRejectedHint: 'Pick a model that can see (e.g. gemma3, qwen2.5vl, llava) or set a vision helper model.',
      auth: (status, detail) => `${where} refused access (HTTP ${status}): ${detail}. Check the credentials or proxy in front of it.`,
      requestTimeoutMs: this.requestTimeoutMs,
      streamIdleTimeoutMs: this.streamIdleTimeoutMs,
    };
  }
}

const UNKNOWN: ModelCapabilities = Object.freeze({ vision: 'unknown', visionSource: 'none', tools: 'unknown', thinking: 'unknown' });

/** /api/show → capabilities. Exported for its unit test. */
export function capabilitiesFromShow(show: Record<string, unknown>): ModelCapabilities {
  const caps = show.capabilities;
  if (Array.isArray(caps)) {
    const has = (name: string): Tristate => (caps.includes(name) ? 'yes' : 'no');
    return { vision: has('vision'), visionSource: 'ollama-capabilities', tools: has('tools'), thinking: has('thinking') };
  }
  // Servers before the `capabilities` field: a projector means a vision encoder.
  const template = typeof show.template === 'string' ? show.template : '';
  const tools: Tristate = template.includes('.Tools') ? 'yes' : 'unknown';
  const projector = show.projector_info;
  const modelInfoKeys = isRecord(show.model_info) ? Object.keys(show.model_info) : [];
  if (
    (isRecord(projector) && Object.keys(projector).length > 0) ||
    modelInfoKeys.some((k) => /(^|\.)(vision|projector|mmproj|clip)(\.|$)/i.test(k))
  ) {
    return { vision: 'yes', visionSource: 'ollama-projector', tools, thinking: 'unknown' };
  }
  return { ...UNKNOWN, tools };
}

/** `<arch>.context_length` (the model's maximum), checked: an absurd value says nothing. */
function contextLengthFrom(modelInfo: Record<string, unknown> | undefined): number | undefined {
  const arch = modelInfo?.['general.architecture'];
  if (typeof arch !== 'string') return undefined;
  const value = modelInfo?.[`${arch}.context_length`];
  return typeof value === 'number' && Number.isInteger(value) && value >= 256 && value <= 100_000_000 ? value : undefined;
}

/** /api/show → model_info, projector_info, the model's maximum and default context. Exported for its unit test. */
function detailsFromShow(show: Record<string, unknown>): ModelDetails {
  const details: ModelDetails = {};
  if (isRecord(show.model_info)) details.modelInfo = show.model_info;
  if (isRecord(show.projector_info)) details.projectorInfo = show.projector_info;
  const max = contextLengthFrom(details.modelInfo);
  if (max !== undefined) details.contextLength = max;
  // `parameters` is Modelfile text: "num_ctx 8192" on its own line when the model sets one.
  const numCtx = typeof show.parameters === 'string' ? /^\s*num_ctx\s+(\d+)\s*$/m.exec(show.parameters)?.[1] : undefined;
  if (numCtx !== undefined && Number(numCtx) >= 256) details.defaultContext = Number(numCtx);
  return details;
}

function toOllamaMessage(m: ModelMessage): Message {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user': {
      const message: Message = { role: 'user', content: m.content };
      if (m.images?.length) {
        message.images = m.images.map((image) => {
          // A string here would be read as a file path by the client: never let one through.
          if (!(image.data instanceof Uint8Array)) throw new TypeError('ModelImage.data must be a Uint8Array');
          return image.data;
        });
      }
      return message;
    }
    case 'assistant': {
      const message: Message = { role: 'assistant', content: m.content };
      // Thinking models (e.g. gpt-oss) expect their reasoning back alongside their tool calls.
      if (m.thinking) message.thinking = m.thinking;
      if (m.toolCalls?.length) message.tool_calls = m.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } }));
      return message;
    }
    case 'tool':
      return { role: 'tool', content: m.content, tool_name: m.name };
  }
}

function toOllamaTool(t: ToolSpec): Tool {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters as Tool['function']['parameters'] } };
}

function doneReason(reason: string | undefined, sawToolCall: boolean): 'stop' | 'tool_calls' | 'length' | 'other' {
  if (sawToolCall) return 'tool_calls';
  if (reason === 'length') return 'length';
  if (reason === 'stop' || reason === undefined || reason === '') return 'stop';
  return 'other';
}

/** A successful response's body with its unreadable lines removed (ndjsonLines.ts). */
function checkedBody(base: typeof fetch, skipped: () => void): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.ok || !response.body) return response;
    return new Response(checkedNdjson(response.body, skipped), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * The client logs to stdout (console.log) while reading a non-JSON error body, which would
 * corrupt `--json` output, and makes its message of `error` as is: an object there (`{"error":
 * {"message": …}}`, OpenAI's shape, which some servers answer on /api/*) read "[object Object]".
 * Hand it JSON bodies whose `error` is a string.
 */
function jsonErrors(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.ok) return response;
    const text = (await response.text().catch(() => '')).trim();
    return new Response(JSON.stringify({ error: errorBodyText(text) || response.statusText || `HTTP ${response.status}` }), {
      status: response.status,
      statusText: response.statusText,
      headers: { 'content-type': 'application/json' },
    });
  };
}

/** The words in an error body: `error` as a string, or its object's `message`, else the body itself. */
function errorBodyText(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  const error = isRecord(body) ? body.error : undefined;
  if (typeof error === 'string') return error;
  if (isRecord(error)) return typeof error.message === 'string' ? error.message : JSON.stringify(error);
  return text;
}

function responseStatus(error: unknown): number | undefined {
  if (error && typeof error === 'object' && (error as { name?: unknown }).name === 'ResponseError') {
    const status = (error as { status_code?: unknown }).status_code;
    if (typeof status === 'number') return status;
  }
  return undefined;
}


function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 10);
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
