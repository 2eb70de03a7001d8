import type { ProviderKind } from '../../common/models.ts';
import { OllamaProvider } from './ollamaProvider.ts';
import { OpenAICompatibleProvider } from './openaiProvider.ts';
import type { ModelProvider } from './provider.ts';

type CreateProviderOptions = {
  kind: ProviderKind;
  /** Ollama: default `env.OLLAMA_HOST`, else http://127.0.0.1:11434. OpenAI: default https://api.openai.com/v1. */
  baseUrl?: string;
  /**
   * OpenAI-compatible only. Without one, `env.OPENAI_API_KEY` is used for api.openai.com
   * (never sent to another server) and a placeholder for local servers.
   */
  apiKey?: string;
  /** OpenAI-compatible only: vision declared per model (settings). */
  visionOverrides?: Record<string, 'yes' | 'no'>;
  fetch?: typeof fetch;
  /** Where OLLAMA_HOST / OPENAI_API_KEY are read; default process.env (the CLI passes io.env). */
  env?: Record<string, string | undefined>;
};

/** The one factory the CLI, the engine and the app use. */
export function createProvider(options: CreateProviderOptions): ModelProvider {
  const env = options.env ?? process.env;
  if (options.kind === 'ollama') {
    return new OllamaProvider({ host: options.baseUrl, env, fetch: options.fetch });
  }
  const apiKey = options.apiKey ?? (options.baseUrl === undefined ? env.OPENAI_API_KEY : undefined);
  return new OpenAICompatibleProvider({
    baseUrl: options.baseUrl,
    apiKey,
    visionOverrides: options.visionOverrides,
    fetch: options.fetch,
  });
}
