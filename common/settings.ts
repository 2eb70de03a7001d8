import { z } from 'zod';
import { DEFAULT_LIMITS } from './limits.ts';
import { ProviderKind } from './models.ts';
import { PrivacySection } from './privacy.ts';

/**
 * The settings file (`<dataDir>/settings.json`) and what the renderer may read of it.
 * It lives in common/ because the IPC contract carries it; reading, migrating and writing
 * the file is main/settings' job. API keys are never here: an endpoint names its key
 * (`apiKeyRef`) and the secret store holds the value.
 */
export const SETTINGS_VERSION = 1;

export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
export const DEFAULT_HOTKEY = 'CommandOrControl+Shift+Space';
const DEFAULT_RETENTION_DAYS = 90;
/** The endpoint id of the local Ollama server (OpenAI-compatible endpoints use their name). */
export const OLLAMA_ENDPOINT = 'ollama';

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** A key's name in the secret store, e.g. "openrouter". */
export const SecretName = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, "_", "." or "-" (1–64)');

const EndpointName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/, 'letters, digits, space, "_", "." or "-" (1–64), starting with a letter or digit')
  .refine((n) => n !== OLLAMA_ENDPOINT, `"${OLLAMA_ENDPOINT}" is the local Ollama server's name`);

export const OpenAIEndpoint = z.object({
  name: EndpointName,
  baseUrl: HttpUrl,
  /** Name of the API key in the secret store; absent for servers that need none (LM Studio, llama.cpp). */
  apiKeyRef: SecretName.optional(),
});
export type OpenAIEndpoint = z.infer<typeof OpenAIEndpoint>;

/** A model to talk to: which server (Ollama, or an OpenAI-compatible endpoint by name) and which model. */
export const ModelSelection = z
  .object({
    provider: ProviderKind,
    /** Endpoint name; required for provider "openai". */
    endpoint: z.string().optional(),
    name: z.string().min(1).max(256),
  })
  .refine((m) => m.provider !== 'openai' || (m.endpoint !== undefined && m.endpoint !== ''), {
    message: 'an openai model needs its endpoint name',
    path: ['endpoint'],
  });
export type ModelSelection = z.infer<typeof ModelSelection>;

const ProvidersSection = z
  .object({
    ollama: z.object({ host: HttpUrl.default(DEFAULT_OLLAMA_HOST) }).prefault({}),
    openai: z.array(OpenAIEndpoint).default([]),
  })
  .refine((p) => new Set(p.openai.map((e) => e.name)).size === p.openai.length, {
    message: 'endpoint names must be unique',
    path: ['openai'],
  });

/** Declared vision per model: endpoint id ("ollama" or an endpoint name) → model name → yes/no. */
const VisionSection = z.record(z.string(), z.record(z.string(), z.enum(['yes', 'no'])));

const LimitsSection = z.object({
  ingestBytes: z.number().int().min(1024).max(1024 * 1024 * 1024).default(DEFAULT_LIMITS.ingestBytes),
  maxInputPixels: z.number().int().min(1_000_000).max(1_000_000_000).default(DEFAULT_LIMITS.maxInputPixels),
  maxImageDeliveriesPerTurn: z.number().int().min(0).max(20).default(DEFAULT_LIMITS.maxImageDeliveriesPerTurn),
  maxImagesPerRequest: z.number().int().min(1).max(32).default(DEFAULT_LIMITS.maxImagesPerRequest),
  fetchTimeoutMs: z.number().int().min(1000).max(300_000).default(DEFAULT_LIMITS.fetchTimeoutMs),
  maxStepsPerTurn: z.number().int().min(2).max(200).default(DEFAULT_LIMITS.maxStepsPerTurn),
  maxImagesPerToolResult: z.number().int().min(0).max(32).default(DEFAULT_LIMITS.maxImagesPerToolResult),
  maxAnswerChars: z.number().int().min(1000).max(10_000_000).default(DEFAULT_LIMITS.maxAnswerChars),
  streamIdleMs: z.number().int().min(1000).max(3_600_000).default(DEFAULT_LIMITS.streamIdleMs),
  maxAnswerMs: z.number().int().min(1000).max(24 * 3_600_000).default(DEFAULT_LIMITS.maxAnswerMs),
  maxStoredImagesPerToolResult: z.number().int().min(0).max(10_000).default(DEFAULT_LIMITS.maxStoredImagesPerToolResult),
  maxStoredBytesPerToolResult: z.number().int().min(0).max(4 * 1024 * 1024 * 1024).default(DEFAULT_LIMITS.maxStoredBytesPerToolResult),
  mcpTurnWaitMs: z.number().int().min(0).max(600_000).default(DEFAULT_LIMITS.mcpTurnWaitMs),
});

const AbsolutePath = z
  .string()
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'), 'must be an absolute path');

/**
 * One MCP server in the `mcpServers` shape Claude Desktop and others use (architecture §6):
 * stdio `{ command, args, env, cwd }` or streamable HTTP `{ url, headers }`. Deliberately
 * loose here (other keys kept, e.g. `capture`, `timeoutMs`, `disabled`): main/mcp/config.ts
 * is the authoritative check, per server, so one bad entry never costs the whole settings file.
 */
/** A server entry as the user wrote it (raw); main/mcp/config.ts parses it into an McpServerConfig. */
export const McpServerEntry = z.looseObject({
  type: z.string().optional(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});
export type McpServerEntry = z.infer<typeof McpServerEntry>;
export const McpServers = z.record(z.string().min(1, 'a server needs a non-empty name'), McpServerEntry);

/**
 * A VS Code `inputs` entry: what to ask a person for `${input:id}`. The answer is never kept
 * here: it goes to the secret store, and a `password` input is typed without echo.
 */
export const McpInputEntry = z.looseObject({
  id: z.string().min(1),
  type: z.string().optional(),
  description: z.string().optional(),
  password: z.boolean().optional(),
  default: z.string().optional(),
});

const AttachmentsSection = z.object({
  /** Days an attachment nobody refers to is kept; null keeps them forever. */
  retentionDays: z.number().int().min(1).max(3650).nullable().default(DEFAULT_RETENTION_DAYS),
});

/**
 * Standing decisions on tools that need consent (architecture §5): a tool's name as the model sees it
 * (`server__tool`, or `screenshot_desktop`), or a glob over names (`files__*` = a whole server).
 * "allow" runs without asking, "deny" never runs, "ask" shows the approval card every time.
 * An exact name wins over a glob.
 */
export const ToolPolicy = z.record(z.string().min(1).max(200), z.enum(['allow', 'deny', 'ask']));
export type ToolPolicy = z.infer<typeof ToolPolicy>;

/** The sizes a person may set (architecture §4a: "a per-model override wins"). */
export const IMAGE_EDGE_RANGE = { min: 64, max: 8192 } as const;
export const IMAGE_PIXELS_RANGE = { min: 10_000, max: 64_000_000 } as const;

/** A model's image size set by a person: the longest edge and/or the most pixels it is sent. */
export const ImageSizeOverride = z.strictObject({
  maxLongEdge: z.number().int().min(IMAGE_EDGE_RANGE.min).max(IMAGE_EDGE_RANGE.max).optional(),
  maxPixels: z.number().int().min(IMAGE_PIXELS_RANGE.min).max(IMAGE_PIXELS_RANGE.max).optional(),
});
export type ImageSizeOverride = z.infer<typeof ImageSizeOverride>;

/** Per model, like `vision`: endpoint id → model name → size. Absent: the model's own rule decides. */
const ImageSizesSection = z.record(z.string(), z.record(z.string(), ImageSizeOverride));

/** Each top-level section; a settings patch replaces whole sections. */
const SECTIONS = {
  providers: ProvidersSection,
  defaultModel: ModelSelection.nullable(),
  /** A vision model that describes images for a blind chat model (architecture §3, "Gate"). */
  visionHelper: ModelSelection.nullable(),
  vision: VisionSection,
  limits: LimitsSection,
  /** Roots a model-requested local path must stay under. */
  allowedRoots: z.array(AbsolutePath),
  /** Electron accelerator for screenshot-and-ask; "" turns the hotkey off. */
  hotkey: z.string().max(100),
  mcpServers: McpServers,
  /** VS Code `inputs` that came with pasted or imported servers. */
  mcpInputs: z.array(McpInputEntry),
  attachments: AttachmentsSection,
  toolApproval: ToolPolicy,
  imageSizes: ImageSizesSection,
  /** On-device redaction before an image, or its text, reaches a model (architecture §3 "Redact"). */
  privacy: PrivacySection,
} as const;

export const Settings = z.object({
  version: z.literal(SETTINGS_VERSION),
  providers: SECTIONS.providers.prefault({}),
  defaultModel: SECTIONS.defaultModel.default(null),
  visionHelper: SECTIONS.visionHelper.default(null),
  vision: SECTIONS.vision.default({}),
  limits: SECTIONS.limits.prefault({}),
  allowedRoots: SECTIONS.allowedRoots.default([]),
  hotkey: SECTIONS.hotkey.default(DEFAULT_HOTKEY),
  mcpServers: SECTIONS.mcpServers.default({}),
  mcpInputs: SECTIONS.mcpInputs.default([]),
  attachments: SECTIONS.attachments.prefault({}),
  toolApproval: SECTIONS.toolApproval.default({}),
  imageSizes: SECTIONS.imageSizes.default({}),
  privacy: SECTIONS.privacy.prefault({}),
});
export type Settings = z.infer<typeof Settings>;
type SettingsSection = Exclude<keyof Settings, 'version'>;
export const SETTINGS_SECTIONS = Object.keys(SECTIONS) as SettingsSection[];

/** A change from the UI: the sections given replace the current ones; absent sections stay. */
export const SettingsPatch = z.strictObject({
  providers: SECTIONS.providers.optional(),
  defaultModel: SECTIONS.defaultModel.optional(),
  visionHelper: SECTIONS.visionHelper.optional(),
  vision: SECTIONS.vision.optional(),
  limits: SECTIONS.limits.optional(),
  allowedRoots: SECTIONS.allowedRoots.optional(),
  hotkey: SECTIONS.hotkey.optional(),
  mcpServers: SECTIONS.mcpServers.optional(),
  mcpInputs: SECTIONS.mcpInputs.optional(),
  attachments: SECTIONS.attachments.optional(),
  toolApproval: SECTIONS.toolApproval.optional(),
  imageSizes: SECTIONS.imageSizes.optional(),
  privacy: SECTIONS.privacy.optional(),
});
export type SettingsPatch = z.infer<typeof SettingsPatch>;

export function defaultSettings(): Settings {
  return Settings.parse({ version: SETTINGS_VERSION });
}

/** The endpoint id a selection talks to: "ollama" or the OpenAI-compatible endpoint's name. */
export function endpointId(model: Pick<ModelSelection, 'provider' | 'endpoint'>): string {
  return model.provider === 'ollama' ? OLLAMA_ENDPOINT : (model.endpoint ?? '');
}

/**
 * A per-model entry of a section keyed endpoint id → model name (`vision`, `imageSizes`). For
 * Ollama `name` and `name:latest` are the same model (Ollama adds the tag), so an entry under
 * either form counts for both.
 */
function perModel<T>(section: Record<string, Record<string, T>>, model: Pick<ModelSelection, 'provider' | 'endpoint' | 'name'>): T | undefined {
  const entries = section[endpointId(model)];
  if (!entries) return undefined;
  const exact = entries[model.name];
  if (exact !== undefined || model.provider !== 'ollama') return exact;
  const alias = model.name.endsWith(':latest') ? model.name.slice(0, -':latest'.length) : model.name.includes(':') ? undefined : `${model.name}:latest`;
  return alias === undefined ? undefined : entries[alias];
}

/** What the user declared about a model's vision, if anything — the one lookup the app, the harness and every CLI command use. */
export function declaredVision(settings: Pick<Settings, 'vision'>, model: Pick<ModelSelection, 'provider' | 'endpoint' | 'name'>): 'yes' | 'no' | undefined {
  return perModel(settings.vision, model);
}

/** The image size a person set for a model in Settings, if any. */
export function imageSizeFor(settings: Pick<Settings, 'imageSizes'>, model: Pick<ModelSelection, 'provider' | 'endpoint' | 'name'>): ImageSizeOverride | undefined {
  return perModel(settings.imageSizes, model);
}
