import { z } from 'zod';

export const ProviderKind = z.enum(['ollama', 'openai']);
export type ProviderKind = z.infer<typeof ProviderKind>;

export const Tristate = z.enum(['yes', 'no', 'unknown']);
export type Tristate = z.infer<typeof Tristate>;

/** Where a vision verdict came from, so the UI and `glance models` can say why. */
export const VisionSource = z.enum([
  'ollama-capabilities', // /api/show "capabilities"
  'ollama-projector', // older servers: projector_info / model_info
  'openrouter-metadata', // architecture.input_modalities
  'llamacpp-props', // /props modalities
  'openai-metadata', // other /v1/models fields that name input modalities
  'settings', // declared per model in settings
  'flag', // --vision yes|no on the command line
  'none', // nothing said: unknown
]);
export type VisionSource = z.infer<typeof VisionSource>;

export const ModelCapabilities = z.object({
  vision: Tristate,
  visionSource: VisionSource,
  tools: Tristate,
  thinking: Tristate,
});
export type ModelCapabilities = z.infer<typeof ModelCapabilities>;

export const ModelInfo = z.object({
  provider: ProviderKind,
  name: z.string(),
  capabilities: ModelCapabilities,
  /** Free-form details for display: family, parameter size, quantisation, context length. */
  details: z.record(z.string(), z.string()).default({}),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

/** Codes a model provider's failures map to (architecture §4). */
export const ProviderErrorCode = z.enum([
  'unreachable',
  'model-not-found',
  'rejected-input',
  'auth',
  'rate-limited',
  'interrupted',
  'cancelled',
  'provider-error',
]);
export type ProviderErrorCode = z.infer<typeof ProviderErrorCode>;
