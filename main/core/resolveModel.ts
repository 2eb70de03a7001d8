import type { ModelCapabilities, ProviderKind } from '../../common/models.ts';
import type { ModelChoice } from '../chat/chatEngine.ts';
import { contextWindowFor } from '../chat/historyBudget.ts';
import type { ImageProfile } from '../images/types.ts';
import { targetFor } from '../images/profiles.ts';
import { classifyAddress } from '../images/classifyAddress.ts';
import { DEFAULT_OLLAMA_HOST } from '../../common/settings.ts';
import { createProvider } from '../models/createProvider.ts';
import { ProviderError, type ModelDetails, type ModelProvider } from '../models/provider.ts';

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
  const provider = spec.provider ?? createProvider({ kind: spec.kind, baseUrl: spec.baseUrl, apiKey: spec.apiKey, visionOverrides: spec.visionOverrides, env: spec.env });
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
  const target = targetFor(spec.kind, spec.model, detected, override, spec.profile, details);
  const capabilities: ModelCapabilities = { ...detected, vision: target.vision, visionSource: target.visionSource };
  return { provider, model: spec.model, capabilities, target, context: contextWindowFor(spec.kind, spec.model, details), remote: !runsHere(spec) };
}

/**
 * Whether the model's server is on this machine (a loopback address). Anything else — a LAN
 * box, a cloud API — is remote: what a tool captures (the screen) leaves the computer.
 */
function runsHere(spec: Pick<ModelSpec, 'kind' | 'baseUrl' | 'env'>): boolean {
  const url = spec.baseUrl ?? (spec.kind === 'ollama' ? (spec.env ?? process.env).OLLAMA_HOST ?? DEFAULT_OLLAMA_HOST : 'https://api.openai.com/v1');
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || classifyAddress(host) === 'loopback';
}
