// The model image rules against architecture §4a: what each family's server does to a 3840×2160
// screenshot (the size Glance sends, what the encoder sees, the tokens), model_info overrides,
// and the fallbacks for missing or absurd values.
import { describe, expect, it } from 'vitest';
import { describeFit, fitForModel, legibility, modelView, sendSize, type ImageRule } from './imageRule.ts';
import { imageRuleFor, knownContextWindow } from './modelRules.ts';
import { profileFor, targetFor } from './profiles.ts';

const UHD = { width: 3840, height: 2160 };
const FHD = { width: 1920, height: 1080 };

function rule(provider: 'ollama' | 'openai', model: string, modelInfo?: Record<string, unknown>): ImageRule {
  const found = imageRuleFor(provider, model, modelInfo ? { modelInfo } : {});
  if (!found) throw new Error(`no rule for ${model}`);
  return found;
}

/** Sent size, encoder size and tokens for a source. */
function seen(r: ImageRule, source = UHD) {
  const sent = sendSize(r.transform, source);
  const view = modelView(r.transform, sent);
  return { family: r.family, sent: [sent.width, sent.height], input: [view.modelInput.width, view.modelInput.height], tokens: view.tokens };
}

describe('model image rules (architecture §4a)', () => {
  it('gemma3: squashed to 896×896 whatever the aspect, 256 tokens; Glance sends each axis at most 896', () => {
    // Pre-squashed: exactly the encoder's pixels (fitting inside the square would starve the short axis).
    expect(seen(rule('ollama', 'gemma3:4b'))).toEqual({ family: 'gemma3', sent: [896, 896], input: [896, 896], tokens: 256 });
    expect(seen(rule('ollama', 'gemma3'), { width: 1200, height: 300 })).toMatchObject({ sent: [896, 300], input: [896, 896] });
    // Smaller than the square: sent as it is (never enlarged), still 256 tokens.
    expect(seen(rule('ollama', 'gemma3'), { width: 240, height: 120 })).toMatchObject({ sent: [240, 120], input: [896, 896], tokens: 256 });
  });

  it('qwen2.5-vl: 28-px tokens within 1024–4096; a 4K screen is sent at about 2380×1344', () => {
    const q = seen(rule('ollama', 'qwen2.5vl:7b'));
    expect(q).toMatchObject({ family: 'qwen2.5-vl', input: [2380, 1344], tokens: 85 * 48 });
    expect(q.sent[0]).toBeGreaterThanOrEqual(2380);
    expect(q.sent[0]).toBeLessThan(2400);
    // The server rounds a 1080p screen to 28-px multiples: 69 × 39 tokens, nothing thrown away.
    expect(seen(rule('ollama', 'qwen2.5vl'), FHD)).toMatchObject({ sent: [1920, 1080], input: [1932, 1092], tokens: 69 * 39 });
    // Small images are scaled up to the 1024-token minimum by the server.
    expect(seen(rule('ollama', 'qwen2.5vl'), { width: 240, height: 120 }).tokens).toBeGreaterThanOrEqual(1024);
  });

  it('qwen3-vl: 32-px tokens within 1024–4096', () => {
    expect(seen(rule('ollama', 'qwen3-vl:8b'))).toMatchObject({ family: 'qwen3-vl', input: [2720, 1536], tokens: 85 * 48 });
    expect(seen(rule('ollama', 'qwen3-vl'), FHD)).toMatchObject({ sent: [1920, 1080], input: [1920, 1088], tokens: 60 * 34 });
  });

  it('llama3.2-vision: 560-px tiles, at most 4 (1120²); images use no context tokens', () => {
    expect(seen(rule('ollama', 'llama3.2-vision:11b'))).toEqual({ family: 'llama3.2-vision', sent: [1120, 630], input: [1120, 630], tokens: null });
    // A tall page picks the 1×4 canvas: 560 wide, up to 2240 high.
    expect(seen(rule('ollama', 'llama3.2-vision'), { width: 1000, height: 4000 })).toMatchObject({ sent: [560, 2240] });
  });

  it('llava / minicpm-v / moondream: 336–672 px and 576–2880 tokens / 448-px slices ≤ 9, ≤ 640 tokens / 378², 729 tokens', () => {
    expect(seen(rule('ollama', 'llava:7b'))).toEqual({ family: 'llava', sent: [672, 378], input: [672, 378], tokens: 2880 });
    expect(seen(rule('ollama', 'llava:7b-v1.5-q4_0'))).toEqual({ family: 'llava-1.5', sent: [336, 336], input: [336, 336], tokens: 576 });
    expect(seen(rule('ollama', 'minicpm-v:8b'))).toEqual({ family: 'minicpm-v', sent: [1792, 1008], input: [1792, 1008], tokens: 640 });
    expect(seen(rule('ollama', 'minicpm-v'), { width: 400, height: 300 }).tokens).toBe(64);
    expect(seen(rule('ollama', 'moondream'))).toEqual({ family: 'moondream', sent: [378, 378], input: [378, 378], tokens: 729 });
  });

  it('mistral-small 3.x / pixtral: long edge 1540 / 1024, a token per patch plus a break per row', () => {
    expect(seen(rule('ollama', 'mistral-small3.2:24b'))).toEqual({ family: 'mistral3', sent: [1540, 866], input: [1540, 866], tokens: 55 * 31 + 31 });
    expect(seen(rule('openai', 'mistralai/pixtral-12b'))).toMatchObject({ family: 'pixtral', sent: [1024, 576], tokens: 64 * 36 + 36 });
  });

  it('Claude: ⌈w/28⌉·⌈h/28⌉ ≤ 1568 and sides ≤ 1568; the high-res tier 2576 px / 4784', () => {
    const c = seen(rule('openai', 'anthropic/claude-sonnet-4.5'));
    expect(c.family).toBe('claude');
    expect(c.tokens).toBe(Math.ceil(c.input[0]! / 28) * Math.ceil(c.input[1]! / 28));
    expect(c.tokens).toBeLessThanOrEqual(1568);
    expect(c.tokens).toBeGreaterThan(1500); // the largest that fits, not merely some size that does
    expect(c.sent).toEqual(c.input); // the server keeps what Glance sends
    const high = seen(rule('openai', 'claude-opus-5'));
    expect(high).toMatchObject({ family: 'claude-high-res', sent: [2576, 1449], tokens: 4784 });
    expect(Math.max(...high.sent)).toBeLessThanOrEqual(2576);
  });

  it('OpenAI gpt-4o/4.1: fit 2048², shortest side 768, 85 + 170 per 512-px tile; gpt-5: ≤ 2500 32-px patches × 1.2', () => {
    expect(seen(rule('openai', 'gpt-4o'))).toEqual({ family: 'gpt-4o', sent: [1365, 768], input: [1365, 768], tokens: 85 + 170 * 6 });
    expect(seen(rule('openai', 'openai/gpt-4.1'))).toMatchObject({ family: 'gpt-4.1', tokens: 1105 });
    expect(seen(rule('openai', 'gpt-4o-mini')).tokens).toBe(1105);
    const g5 = seen(rule('openai', 'gpt-5.1'));
    const patches = Math.ceil(g5.sent[0]! / 32) * Math.ceil(g5.sent[1]! / 32);
    expect(patches).toBeLessThanOrEqual(2500);
    expect(patches).toBeGreaterThan(2400);
    expect(g5.tokens).toBe(Math.ceil(patches * 1.2));
  });

  it('Gemini: 258 per 768-px tile (2.x), a fixed 1120 (3+)', () => {
    expect(seen(rule('openai', 'google/gemini-2.5-pro'), FHD)).toMatchObject({ family: 'gemini', tokens: 3 * 2 * 258 });
    expect(seen(rule('openai', 'google/gemini-2.5-flash'), { width: 300, height: 200 }).tokens).toBe(258);
    expect(seen(rule('openai', 'gemini-3-pro-preview')).tokens).toBe(1120);
  });

  it('matches the same weights behind an OpenAI-compatible server by id (LM Studio, Ollama /v1)', () => {
    expect(imageRuleFor('openai', 'qwen2.5-vl-7b-instruct')?.family).toBe('qwen2.5-vl');
    expect(imageRuleFor('openai', 'google/gemma-3-27b-it')?.family).toBe('gemma3');
    expect(imageRuleFor('openai', 'meta-llama/llama-3.2-11b-vision-instruct')?.family).toBe('llama3.2-vision');
  });

  it('unknown models have no rule and keep the provider default profile', () => {
    expect(imageRuleFor('openai', 'my-local-model')).toBeUndefined();
    expect(imageRuleFor('ollama', 'llama3.1:8b', { modelInfo: { 'general.architecture': 'llama' } })).toBeUndefined();
    const profile = profileFor('ollama');
    expect(fitForModel(3840, 2160, profile)).toEqual({ width: 1568, height: 882 });
    expect(describeFit(UHD, { width: 1568, height: 882 }, profile)).toMatchObject({ modelInput: null, tokens: null });
  });

  it('knows remote context windows by id', () => {
    expect(knownContextWindow('anthropic/claude-sonnet-4.5')).toBe(200_000);
    expect(knownContextWindow('gpt-4o')).toBe(128_000);
    expect(knownContextWindow('my-local-model')).toBeUndefined();
  });
});

describe('model_info from Ollama /api/show', () => {
  it('the architecture decides over the name, and model_info numbers replace the table', () => {
    const r = rule('ollama', 'my-finetune', { 'general.architecture': 'gemma3', 'gemma3.vision.image_size': 448, 'gemma3.mm.tokens_per_image': 64 });
    expect(r).toMatchObject({ family: 'gemma3', source: 'model-info', transform: { kind: 'squash', size: 448, tokens: 64 }, notes: [] });
    const q = rule('ollama', 'custom-vl', {
      'general.architecture': 'qwen25vl',
      'qwen25vl.vision.patch_size': 14,
      'qwen25vl.vision.spatial_merge_size': 2,
      'qwen25vl.vision.max_pixels': 1280 * 28 * 28,
    });
    expect(q.transform).toMatchObject({ kind: 'patchBudget', unit: 28, maxTokens: 1280 });
    const m = rule('ollama', 'x', { 'general.architecture': 'mllama', 'mllama.vision.image_size': 448, 'mllama.vision.max_num_tiles': 2 });
    // Two 448-px tiles side by side: 896×448, the 16:9 screen fitted inside.
    expect(seen(m)).toMatchObject({ sent: [796, 448] });
    const q3 = rule('ollama', 'y', { 'general.architecture': 'qwen3vl', 'qwen3vl.vision.patch_size': 16, 'qwen3vl.vision.spatial_merge_size': 2, 'qwen3vl.vision.longest_edge': 2048 * 32 * 32 });
    expect(q3.transform).toMatchObject({ unit: 32, maxTokens: 2048, minTokens: 1024 });
  });

  it('absurd or missing values fall back to the table with a note, never a crash', () => {
    const bad = rule('ollama', 'g', { 'general.architecture': 'gemma3', 'gemma3.vision.image_size': -5, 'gemma3.mm.tokens_per_image': 'lots' });
    expect(bad.transform).toEqual({ kind: 'squash', size: 896, tokens: 256 });
    expect(bad.source).toBe('table');
    expect(bad.notes).toEqual([expect.stringMatching(/gemma3\.vision\.image_size = -5 is not usable; using 896/), expect.stringMatching(/tokens_per_image = "lots"/)]);
    const huge = rule('ollama', 'g', { 'general.architecture': 'gemma3', 'gemma3.vision.image_size': 1e9 });
    expect(huge.transform).toMatchObject({ size: 896 });
    // One factor of a product missing: the table's unit stays.
    const half = rule('ollama', 'q', { 'general.architecture': 'qwen25vl', 'qwen25vl.vision.patch_size': 14 });
    expect(half.transform).toMatchObject({ unit: 28 });
    expect(half.notes[0]).toMatch(/patch_size × qwen25vl\.vision\.spatial_merge_size = 14 × missing/);
    const zeroTiles = rule('ollama', 'v', { 'general.architecture': 'mllama', 'mllama.vision.max_num_tiles': 0 });
    expect(zeroTiles.transform).toMatchObject({ maxTiles: 4 });
    // A minimum above the maximum is clamped rather than trusted.
    const inverted = rule('ollama', 'z', { 'general.architecture': 'qwen3vl', 'qwen3vl.vision.shortest_edge': 8192 * 1024, 'qwen3vl.vision.longest_edge': 4096 * 1024 });
    expect(inverted.transform).toMatchObject({ minTokens: 4096, maxTokens: 4096 });
    expect(inverted.notes.join(' ')).toMatch(/above the maximum/);
    // Not an object at all, or no architecture: the name decides.
    expect(imageRuleFor('ollama', 'gemma3', { modelInfo: { 'general.architecture': 42 } })?.family).toBe('gemma3');
  });
});

describe('fit, override and legibility', () => {
  it('fits to the rule; a person’s maxLongEdge/maxPixels for the model wins over it', () => {
    const gemma = targetFor('ollama', 'gemma3', undefined, 'yes');
    expect(fitForModel(3840, 2160, gemma.profile)).toEqual({ width: 896, height: 896 });
    const overridden = targetFor('ollama', 'gemma3', undefined, 'yes', { maxLongEdge: 1568 });
    expect(overridden.profile.sizeOverridden).toBe(true);
    expect(fitForModel(3840, 2160, overridden.profile)).toEqual({ width: 1568, height: 882 });
    // … and the rule still says what the encoder makes of it.
    expect(describeFit(UHD, { width: 1568, height: 882 }, overridden.profile)).toMatchObject({ modelInput: { width: 896, height: 896 }, tokens: 256 });
  });

  it('says when screen text is too small to read after the server’s resize', () => {
    // 4K squashed to 896: 14 px text becomes ≈3 px wide.
    expect(legibility(UHD, { width: 896, height: 896 }, { width: 896, height: 896 })).toEqual({ textPx: 3.3, smallText: true });
    // Fitted inside the square, the upscaled short axis adds nothing: the same ≈3 px.
    expect(legibility(UHD, { width: 896, height: 504 }, { width: 896, height: 896 })).toEqual({ textPx: 3.3, smallText: true });
    // 1440p for qwen2.5-vl is kept whole: legible.
    const q = rule('ollama', 'qwen2.5vl');
    const qhd = { width: 2560, height: 1440 };
    const sent = sendSize(q.transform, qhd);
    expect(legibility(qhd, sent, modelView(q.transform, sent).modelInput).smallText).toBe(false);
    // Retina 2×: text is 28 device pixels, so halving the image keeps it at 14.
    expect(legibility({ width: 2880, height: 1800 }, { width: 1440, height: 900 }, null, 2)).toEqual({ textPx: 14, smallText: false });
  });
});

describe('architecture versus name (Ollama)', () => {
  it('a text architecture without a projector is a vision model Glance does not know, whatever its name', () => {
    expect(imageRuleFor('ollama', 'llava-seer', { modelInfo: { 'general.architecture': 'llama' } })).toBeUndefined();
    // llava as Ollama ships it: a llama text model with a CLIP projector; the name picks the family.
    expect(imageRuleFor('ollama', 'llava:13b', { modelInfo: { 'general.architecture': 'llama' }, projectorInfo: { 'general.architecture': 'clip' } })?.family).toBe('llava');
    expect(imageRuleFor('ollama', 'minicpm-v', { modelInfo: { 'general.architecture': 'qwen2', 'clip.vision.image_size': 448 } })?.family).toBe('minicpm-v');
    // Nothing known from the server: the name decides.
    expect(imageRuleFor('ollama', 'llava:7b')?.family).toBe('llava');
  });
});
