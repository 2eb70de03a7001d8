// The model image rules (architecture §4a) as one table. A model is matched by Ollama's
// `general.architecture`, else by its name/id (Ollama names, OpenAI-compatible ids such as
// "anthropic/claude-sonnet-4.5" or LM Studio's "qwen2.5-vl-7b-instruct"); where the server's
// model_info gives the numbers (`<arch>.vision.image_size`, `patch_size`, `spatial_merge_size`,
// `max_num_tiles`, `longest_edge`/`shortest_edge`) they replace the table's, each checked: a
// missing or absurd value keeps the table's number and says so in a note. No match: no rule, and
// the provider's default profile applies as before (profiles.ts).
import type { ProviderKind } from '../../common/models.ts';
import type { ImageRule, ImageTransform } from './imageRule.ts';

/** A numeric transform field read from model_info: one key, or several multiplied (patch × merge). */
type InfoField = { keys: readonly string[]; min: number; max: number; /** the value is in pixels: divide by unit² to get tokens */ perUnit2?: boolean };

type Family = {
  family: string;
  /** Ollama `general.architecture` values. */
  arch?: readonly string[];
  /** Matched against the model name / id, lower case, vendor prefix kept. */
  name?: RegExp;
  transform: ImageTransform;
  /** model_info keys (after `<arch>.`) that supply a transform field. */
  info?: Readonly<Record<string, InfoField>>;
  /** Context window in tokens where the server does not say (remote models). */
  contextWindow?: number;
  note?: string;
};

const PATCH = { keys: ['vision.patch_size', 'vision.spatial_merge_size'], min: 8, max: 128 } as const;

/** First match wins: specific ids before general ones. */
const FAMILIES: readonly Family[] = [
  // ---- local vision families (Ollama, or the same weights behind an OpenAI-compatible server)
  {
    family: 'gemma3',
    arch: ['gemma3'],
    name: /gemma-?3(?!n)/,
    transform: { kind: 'squash', size: 896, tokens: 256 },
    info: { size: { keys: ['vision.image_size'], min: 64, max: 4096 }, tokens: { keys: ['mm.tokens_per_image'], min: 1, max: 65536 } },
  },
  {
    family: 'gemma4',
    arch: ['gemma4'],
    name: /gemma-?4/,
    // Aspect kept, 16-px patches pooled 3×3 into 48-px tokens, a 280-token default budget.
    transform: { kind: 'patchBudget', unit: 48, minTokens: 70, maxTokens: 280 },
    info: { unit: { keys: ['vision.patch_size', 'vision.pooling_kernel_size'], min: 8, max: 128 } },
    note: 'gemma4: token budget estimated (aspect kept, 48-px tokens, ≤ 280)',
  },
  {
    family: 'qwen3-vl',
    arch: ['qwen3vl', 'qwen3vlmoe'],
    name: /qwen-?3-?vl/,
    transform: { kind: 'patchBudget', unit: 32, minTokens: 1024, maxTokens: 4096 },
    info: {
      unit: PATCH,
      minTokens: { keys: ['vision.shortest_edge'], min: 1, max: 1 << 20, perUnit2: true },
      maxTokens: { keys: ['vision.longest_edge'], min: 16, max: 1 << 20, perUnit2: true },
    },
  },
  {
    family: 'qwen2.5-vl',
    arch: ['qwen25vl', 'qwen2vl'],
    name: /qwen-?2(\.?5)?-?vl/,
    transform: { kind: 'patchBudget', unit: 28, minTokens: 1024, maxTokens: 4096 },
    info: {
      unit: PATCH,
      minTokens: { keys: ['vision.min_pixels'], min: 1, max: 1 << 20, perUnit2: true },
      maxTokens: { keys: ['vision.max_pixels'], min: 16, max: 1 << 20, perUnit2: true },
    },
  },
  {
    family: 'llama3.2-vision',
    arch: ['mllama'],
    name: /llama-?3\.2-?(\d+b-)?vision|mllama/,
    // Images reach the model through cross-attention: they use no context tokens.
    transform: { kind: 'canvasTiles', tile: 560, maxTiles: 4, tokensPerTile: null, baseTile: false },
    info: { tile: { keys: ['vision.image_size'], min: 64, max: 4096 }, maxTiles: { keys: ['vision.max_num_tiles'], min: 1, max: 64 } },
  },
  {
    family: 'mistral3',
    arch: ['mistral3'],
    name: /mistral-?small-?3\.[12]|magistral-?small|devstral-?small/,
    transform: { kind: 'longEdge', maxEdge: 1540, unit: 28, rowBreaks: true },
    info: { maxEdge: { keys: ['vision.image_size'], min: 64, max: 8192 }, unit: PATCH },
  },
  {
    family: 'pixtral',
    arch: ['pixtral'],
    name: /pixtral/,
    transform: { kind: 'longEdge', maxEdge: 1024, unit: 16, rowBreaks: true },
    info: { maxEdge: { keys: ['vision.image_size'], min: 64, max: 8192 }, unit: { keys: ['vision.patch_size'], min: 4, max: 128 } },
  },
  { family: 'minicpm-v', arch: ['minicpmv'], name: /minicpm-?v|minicpm-?o/, transform: { kind: 'slices', slice: 448, maxSlices: 9, tokensPerSlice: 64 } },
  { family: 'moondream', arch: ['moondream'], name: /moondream/, transform: { kind: 'squash', size: 378, tokens: 729 } },
  // llava 1.5 squashes to one 336² tile; 1.6 ("llava:latest") tiles up to 672² (anyres).
  { family: 'llava-1.5', name: /llava.*v?1\.5/, transform: { kind: 'squash', size: 336, tokens: 576 } },
  {
    family: 'llava',
    arch: ['llava'],
    name: /llava/,
    transform: {
      kind: 'canvasTiles',
      tile: 336,
      maxTiles: 4,
      grids: [[1, 2], [2, 1], [2, 2], [3, 1], [1, 3]],
      tokensPerTile: 576,
      baseTile: true,
    },
  },

  // ---- remote models, matched by id (OpenRouter's "vendor/model", or the vendor's own ids)
  {
    family: 'claude-high-res',
    // The larger tier; today's 4.x ids (e.g. anthropic/claude-sonnet-4.5) are standard.
    name: /claude-(opus|sonnet|haiku)-[5-9]|claude-[5-9]/,
    transform: { kind: 'unitBudget', unit: 28, maxEdge: 2576, maxTokens: 4784 },
    contextWindow: 200_000,
  },
  { family: 'claude', name: /claude/, transform: { kind: 'unitBudget', unit: 28, maxEdge: 1568, maxTokens: 1568 }, contextWindow: 200_000 },
  { family: 'gpt-4.1-mini', name: /gpt-4\.1-mini/, transform: { kind: 'gptPatches', patch: 32, maxPatches: 1536, multiplier: 1.62 }, contextWindow: 1_047_576 },
  { family: 'gpt-4.1-nano', name: /gpt-4\.1-nano/, transform: { kind: 'gptPatches', patch: 32, maxPatches: 1536, multiplier: 2.46 }, contextWindow: 1_047_576 },
  { family: 'o4-mini', name: /o4-mini/, transform: { kind: 'gptPatches', patch: 32, maxPatches: 1536, multiplier: 1.72 }, contextWindow: 200_000 },
  {
    family: 'gpt-5',
    name: /gpt-5/,
    transform: { kind: 'gptPatches', patch: 32, maxPatches: 2500, multiplier: 1.2 },
    contextWindow: 400_000,
    note: 'gpt-5: patch budget at detail "high"; the multiplier differs per model',
  },
  { family: 'gpt-4.1', name: /gpt-4\.1/, transform: { kind: 'gptTiles', fit: 2048, shortSide: 768, tile: 512, base: 85, perTile: 170 }, contextWindow: 1_047_576 },
  // gpt-4o-mini bills 2833 + 5667 per tile, but that is pricing: in the context it costs what gpt-4o's does.
  { family: 'gpt-4o', name: /gpt-4o|gpt-4-turbo|chatgpt-4o|(^|\/)o[13](-|$)/, transform: { kind: 'gptTiles', fit: 2048, shortSide: 768, tile: 512, base: 85, perTile: 170 }, contextWindow: 128_000 },
  { family: 'gemini-3', name: /gemini-[3-9]/, transform: { kind: 'fixed', maxEdge: 2048, tokens: 1120 }, contextWindow: 1_048_576, note: 'gemini 3: media_resolution "high" (1120 tokens); size the server uses estimated' },
  { family: 'gemini', name: /gemini/, transform: { kind: 'geminiTiles', tile: 768, small: 384, tokensPerTile: 258, maxEdge: 3072 }, contextWindow: 1_048_576 },
];

/** What a server said about a model that matters here (Ollama /api/show). */
export type ModelFacts = {
  /** `model_info` as received; anything may be missing or nonsense. */
  modelInfo?: Record<string, unknown>;
  /** Older servers put the vision tower's keys here (`clip.vision.image_size` …). */
  projectorInfo?: Record<string, unknown>;
};

/**
 * The family entry for a model. When Ollama names the architecture, it decides: a vision
 * architecture Glance knows is that family; a text architecture (llama, qwen2, phi2…) sees only
 * through a separate projector (llava, minicpm-v, moondream), and then the name picks the
 * family; a text architecture with no projector is a vision model Glance does not know. Without
 * model_info (OpenAI-compatible servers), the name or id decides.
 */
function familyFor(model: string, facts: ModelFacts, arch: string | undefined): Family | undefined {
  const name = model.toLowerCase();
  if (arch) {
    const byArch = FAMILIES.filter((f) => f.arch?.includes(arch));
    // One architecture can hold two families (llava 1.5 / 1.6): let the name decide between them.
    const found = byArch.find((f) => f.name?.test(name)) ?? byArch[0];
    if (found) return found;
    const projector = Object.keys(facts.projectorInfo ?? {}).length > 0 || Object.keys(facts.modelInfo ?? {}).some((k) => /^(clip|mmproj)\./.test(k));
    if (!projector) return undefined;
  }
  return FAMILIES.find((f) => f.name?.test(name));
}

function numberAt(info: Record<string, unknown> | undefined, key: string): unknown {
  return info?.[key];
}

/**
 * The image rule for a model, or undefined when Glance does not know its family (then the
 * provider's default profile applies). Never throws on what a server sent.
 */
export function imageRuleFor(provider: ProviderKind, model: string, facts: ModelFacts = {}): ImageRule | undefined {
  const info = facts.modelInfo;
  const archValue = numberAt(info, 'general.architecture');
  const arch = typeof archValue === 'string' ? archValue : undefined;
  const family = familyFor(model, facts, arch);
  if (!family) return undefined;
  const notes: string[] = family.note ? [family.note] : [];
  const transform: Record<string, unknown> = { ...family.transform };
  let fromInfo = false;
  if (provider === 'ollama' && arch && family.info) {
    // Unit first: pixel-valued budgets are converted with the unit actually in use.
    const rank = (field: string) => (field === 'unit' ? 0 : 1);
    const order = Object.entries(family.info).sort(([a], [b]) => rank(a) - rank(b));
    for (const [field, spec] of order) {
      const values = spec.keys.map((k) => numberAt(info, `${arch}.${k}`) ?? numberAt(facts.projectorInfo, `clip.${k}`));
      if (values.every((v) => v === undefined)) continue;
      const label = spec.keys.map((k) => `${arch}.${k}`).join(' × ');
      const numeric = values.every((v) => typeof v === 'number' && Number.isFinite(v) && v > 0);
      // A product needs every factor; one factor missing (merge size) keeps the table's number.
      let value = numeric ? (values as number[]).reduce((a, b) => a * b, 1) : Number.NaN;
      if (numeric && spec.perUnit2) value = Math.floor(value / (Number(transform.unit) ** 2));
      if (!Number.isFinite(value) || value < spec.min || value > spec.max) {
        notes.push(`model_info ${label} = ${values.map((v) => JSON.stringify(v) ?? 'missing').join(' × ')} is not usable; using ${String(transform[field])}`);
        continue;
      }
      transform[field] = Math.round(value);
      fromInfo = true;
    }
  }
  const t = transform as ImageTransform;
  if (t.kind === 'patchBudget' && t.minTokens > t.maxTokens) {
    notes.push(`model_info gives a token minimum (${t.minTokens}) above the maximum (${t.maxTokens}); using ${t.maxTokens} for both`);
    t.minTokens = t.maxTokens;
  }
  return { family: family.family, transform: t, source: fromInfo ? 'model-info' : provider === 'openai' && !family.arch ? 'model-id' : 'table', notes };
}

/** A remote model's known context window (tokens), when the server does not report one. */
export function knownContextWindow(model: string): number | undefined {
  const name = model.toLowerCase();
  return FAMILIES.find((f) => f.contextWindow !== undefined && f.name?.test(name))?.contextWindow;
}
