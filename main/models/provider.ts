import type { ImageMime } from '../../common/images.ts';
import type { ModelCapabilities, ModelInfo, ProviderErrorCode, ProviderKind } from '../../common/models.ts';

/** An image as a provider receives it: bytes, never a path or a string. */
export type ModelImage = {
  data: Uint8Array;
  mime: ImageMime;
  /** The image's token estimate for this model (history budget); null or absent when unknown. */
  tokens?: number | null;
};

export type ToolCall = {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /**
   * Set when the model's arguments were not a JSON object (broken or non-object JSON):
   * `arguments` is then `{}` and this holds the raw text. Answer such a call with an error
   * the model can correct rather than running the tool.
   */
  invalidArguments?: string;
};

/** Provider-neutral messages: the engine never sees a wire format (architecture §4). */
export type ModelMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: ModelImage[] }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[]; thinking?: string }
  /** Always text: no wire format carries images in a tool message. */
  | { role: 'tool'; content: string; toolCallId: string; name: string };

/** A function tool offered to the model; `parameters` is a JSON Schema object. */
export type ToolSpec = { name: string; description: string; parameters: Record<string, unknown> };

export type ModelRequest = {
  model: string;
  messages: ModelMessage[];
  tools?: ToolSpec[];
  /** Ask a thinking model to think (Ollama `think`); ignored where unsupported. */
  think?: boolean;
  temperature?: number;
  /**
   * Tokens this request needs (history budget estimate plus room for the answer). Ollama sets
   * `num_ctx` from it, within the model's maximum, so the server never truncates the prompt.
   */
  contextTokens?: number;
};

export type ModelEvent =
  | { type: 'text'; delta: string }
  | { type: 'thinking'; delta: string }
  /** A complete tool call: providers accumulate streamed fragments before emitting it. */
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; inputTokens?: number; outputTokens?: number }
  | { type: 'done'; reason: 'stop' | 'tool_calls' | 'length' | 'other' };

/** A provider failure with a code the UI and CLI map to plain words and exit codes. */
export class ProviderError extends Error {
  readonly code: ProviderErrorCode;
  readonly status: number | undefined;
  constructor(code: ProviderErrorCode, message: string, options?: { status?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.code = code;
    this.status = options?.status;
  }
}

/** What a server says about one model's images and context (Ollama /api/show; OpenRouter's /v1/models). */
export type ModelDetails = {
  /** Ollama `model_info`, as received (checked where it is used: modelRules.ts). */
  modelInfo?: Record<string, unknown>;
  /** Older Ollama servers: the vision tower's keys. */
  projectorInfo?: Record<string, unknown>;
  /** The model's maximum context in tokens (Ollama `<arch>.context_length`, OpenRouter `context_length`). */
  contextLength?: number;
  /** The context the server uses unless told (Ollama: the Modelfile's `num_ctx`). */
  defaultContext?: number;
};

/** One interface for Ollama and OpenAI-compatible servers (architecture §4). */
export interface ModelProvider {
  readonly kind: ProviderKind;
  /** Streams one model step. Throws ProviderError; an aborted signal ends it with code 'cancelled'. */
  stream(request: ModelRequest, options: { signal?: AbortSignal }): AsyncIterable<ModelEvent>;
  listModels(options?: { signal?: AbortSignal }): Promise<ModelInfo[]>;
  /** Capabilities of one model, with where the vision verdict came from. */
  capabilities(model: string, options?: { signal?: AbortSignal }): Promise<ModelCapabilities>;
  /** Image and context facts of one model; {} where the server says nothing. */
  modelDetails?(model: string, options?: { signal?: AbortSignal }): Promise<ModelDetails>;
}
