// Image profiles: what each provider accepts (architecture §4a "provider profile").
// Defaults per provider, overridable per model (settings) — the override merges field by field.
import type { ModelCapabilities, ProviderKind } from '../../common/models.ts';
import type { ImageRule } from './imageRule.ts';
import { imageRuleFor, type ModelFacts } from './modelRules.ts';
import type { ImageProfile, ImageTarget } from './types.ts';

const MB = 1024 * 1024;

export const DEFAULT_PROFILES: Readonly<Record<ProviderKind, Readonly<ImageProfile>>> = Object.freeze({
  // Local vision models work on far fewer pixels than a 4K screen: 1568 px on the long edge
  // (a 16:9 screen becomes 1568×882), about 1.4 MP at most.
  // PNG and JPEG only, although WebP would be 30% smaller (bench:intake): recent Ollama servers
  // accept WebP, but older runners built on llama.cpp decode images with stb_image, which has no
  // WebP, and silently DROP the image: the model then answers as if no picture had been sent.
  // A confident answer about an image nobody saw is worse than a bigger payload. A user who
  // knows their server decodes WebP can add it with a per-model override.
  ollama: Object.freeze({ maxLongEdge: 1568, maxPixels: 1_400_000, formats: Object.freeze(['image/png', 'image/jpeg'] as const), maxBytes: 10 * MB }),
  // OpenAI-compatible servers take up to 2048 px and 20 MB per image in PNG, JPEG, WebP or GIF.
  openai: Object.freeze({
    maxLongEdge: 2048,
    maxPixels: 2048 * 2048,
    formats: Object.freeze(['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const),
    maxBytes: 20 * MB,
  }),
});

/**
 * The provider's default profile with the model's image rule (when known) and any per-model
 * override applied field by field. A person's maxLongEdge/maxPixels win over the rule's size.
 */
export function profileFor(provider: ProviderKind, override?: Partial<ImageProfile>, rule?: ImageRule): ImageProfile {
  const base = DEFAULT_PROFILES[provider];
  const merged: ImageProfile = { ...base, formats: [...base.formats] };
  if (rule) merged.rule = rule;
  if (!override) return merged;
  const longEdge = override.maxLongEdge !== undefined && override.maxLongEdge >= 1;
  const pixels = override.maxPixels !== undefined && override.maxPixels >= 1;
  if (longEdge) merged.maxLongEdge = Math.floor(override.maxLongEdge!);
  if (pixels) merged.maxPixels = Math.floor(override.maxPixels!);
  if (rule && (longEdge || pixels)) merged.sizeOverridden = true;
  if (override.maxBytes !== undefined && override.maxBytes >= 1) merged.maxBytes = Math.floor(override.maxBytes);
  // An empty list would accept nothing: keep the default then.
  if (override.formats !== undefined && override.formats.length > 0) merged.formats = [...new Set(override.formats)];
  return merged;
}

/** A vision verdict declared by a person: on the command line ('flag') or in Settings ('settings'). */
export type VisionOverride = 'yes' | 'no' | { vision: 'yes' | 'no'; source: 'flag' | 'settings' };

/**
 * The target an image is fitted and gated for. A declared verdict (a plain 'yes'/'no' is the
 * --vision flag) wins over detection; with neither, vision is unknown and the gate refuses.
 * The model's image rule comes from its architecture and model_info (`facts`) or its name.
 */
export function targetFor(
  provider: ProviderKind,
  model: string,
  capabilities: Pick<ModelCapabilities, 'vision' | 'visionSource'> | undefined,
  visionOverride?: VisionOverride,
  profileOverride?: Partial<ImageProfile>,
  facts?: ModelFacts,
): ImageTarget {
  const profile = profileFor(provider, profileOverride, imageRuleFor(provider, model, facts));
  if (visionOverride !== undefined) {
    const declared = typeof visionOverride === 'string' ? { vision: visionOverride, source: 'flag' as const } : visionOverride;
    return { provider, model, vision: declared.vision, visionSource: declared.source, profile };
  }
  return {
    provider,
    model,
    vision: capabilities?.vision ?? 'unknown',
    visionSource: capabilities?.visionSource ?? 'none',
    profile,
  };
}
