// What a model's server does to an image (architecture §4a), as data: each rule names one of a few
// transforms with its numbers; the functions here are the only code that reads them. From a rule
// Glance computes the largest image worth sending (never pixels the server throws away), what the
// encoder then processes (`modelInput`) and the token estimate. The numbers live in modelRules.ts.
import type { ImageLegibility } from '../../common/images.ts';
import type { ImageProfile } from './types.ts';

export type Size = { width: number; height: number };

export type ImageTransform =
  /**
   * Resized to size×size, aspect ignored (gemma3, moondream, llava 1.5): a fixed token count.
   * Glance sends each axis at most `size` (the squash done here, once, with Lanczos): fitting
   * inside the square keeps the aspect but starves the short axis — 14 px code on a 1440p screen
   * OCRs 63% that way, 88% pre-squashed, 86% sent at 1593×896 for the server to squash (a one-off
   * comparison; bench:legibility has pre-squashed against 1568×882) — and the server throws away
   * anything larger.
   */
  | { kind: 'squash'; size: number; tokens: number }
  /**
   * Qwen's smart_resize: sides rounded to `unit` (patch × merge) px, pixels kept within
   * minTokens…maxTokens units; one token per unit² (qwen2.5-vl 28 px, qwen3-vl 32 px).
   */
  | { kind: 'patchBudget'; unit: number; minTokens: number; maxTokens: number }
  /** Claude: largest aspect-kept size with ⌈w/unit⌉·⌈h/unit⌉ ≤ maxTokens and sides ≤ maxEdge. */
  | { kind: 'unitBudget'; unit: number; maxEdge: number; maxTokens: number }
  /** Long edge fitted to maxEdge; ⌈w/unit⌉·⌈h/unit⌉ tokens, plus one per row when rows end in a break token (Pixtral, Mistral 3). */
  | { kind: 'longEdge'; maxEdge: number; unit: number; rowBreaks: boolean }
  /** OpenAI gpt-4o/4.1: fit fit×fit, then the shortest side to shortSide; base + perTile per tile² tile. */
  | { kind: 'gptTiles'; fit: number; shortSide: number; tile: number; base: number; perTile: number }
  /** OpenAI patch budget (gpt-5.x, 4.1-mini…): at most maxPatches patch² patches; tokens = patches × multiplier. */
  | { kind: 'gptPatches'; patch: number; maxPatches: number; multiplier: number }
  /**
   * A canvas of tile×tile tiles (cols × rows ≤ maxTiles, or only `grids`), the image fitted into
   * the best one: mllama (560 px, ≤ 4 tiles), llava-1.6 anyres (336 px). Tokens per tile, plus a
   * whole-image base tile when `baseTile`; null when images do not use context tokens (mllama's
   * cross-attention).
   */
  | { kind: 'canvasTiles'; tile: number; maxTiles: number; grids?: readonly (readonly [number, number])[]; tokensPerTile: number | null; baseTile: boolean }
  /** MiniCPM-V: up to maxSlices slices of slice² px plus the overview, tokensPerSlice each. */
  | { kind: 'slices'; slice: number; maxSlices: number; tokensPerSlice: number }
  /** Gemini 2.x: ≤ small² is one tile; larger ones tile² tiles of tokensPerTile; fitted to maxEdge first. */
  | { kind: 'geminiTiles'; tile: number; small: number; tokensPerTile: number; maxEdge: number }
  /** A fixed token count whatever the size (Gemini 3 media_resolution), fitted to maxEdge. */
  | { kind: 'fixed'; maxEdge: number; tokens: number };

/** One model family's image rule, as resolved for one model. */
export type ImageRule = {
  /** "gemma3", "qwen2.5-vl", "claude", … */
  family: string;
  transform: ImageTransform;
  /** Where the numbers came from: the server's model_info, the family table, or the model id. */
  source: 'model-info' | 'table' | 'model-id';
  /** Things a person should know: fallbacks taken, estimates. */
  notes: readonly string[];
};

/** What the encoder processes and its cost, for an image sent at `sent`. */
type ModelView = { modelInput: Size; tokens: number | null };

/** Body text on screen is ~14 px per device pixel ratio; below ~9 px after the resize OCR and models lose it (bench:legibility). */
const SCREEN_TEXT_PX = 14;
const LEGIBLE_TEXT_PX = 9;

const scaled = (s: Size, k: number): Size => ({ width: Math.max(1, Math.floor(s.width * k)), height: Math.max(1, Math.floor(s.height * k)) });
const fitBox = (s: Size, w: number, h: number): Size => scaled(s, Math.min(1, w / s.width, h / s.height));

/** The largest aspect-kept size ≤ s (never enlarged) that `fits`; sizes shrink monotonically with the scale. */
function largestFitting(s: Size, fits: (size: Size) => boolean): Size {
  if (fits(s)) return { ...s };
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (fits(scaled(s, mid))) lo = mid;
    else hi = mid;
  }
  return scaled(s, lo);
}

const units = (s: Size, unit: number) => Math.ceil(s.width / unit) * Math.ceil(s.height / unit);

/** Qwen2-VL smart_resize (transformers' image_processing_qwen2_vl), sides multiples of `unit`. */
function smartResize(s: Size, unit: number, minPixels: number, maxPixels: number): Size {
  let h = Math.max(unit, Math.round(s.height / unit) * unit);
  let w = Math.max(unit, Math.round(s.width / unit) * unit);
  if (h * w > maxPixels) {
    const beta = Math.sqrt((s.height * s.width) / maxPixels);
    h = Math.max(unit, Math.floor(s.height / beta / unit) * unit);
    w = Math.max(unit, Math.floor(s.width / beta / unit) * unit);
  } else if (h * w < minPixels) {
    const beta = Math.sqrt(minPixels / (s.height * s.width));
    h = Math.ceil((s.height * beta) / unit) * unit;
    w = Math.ceil((s.width * beta) / unit) * unit;
  }
  return { width: w, height: h };
}

function gptTiles(s: Size, t: Extract<ImageTransform, { kind: 'gptTiles' }>): Size {
  const fitted = fitBox(s, t.fit, t.fit);
  const short = Math.min(fitted.width, fitted.height);
  return short > t.shortSide ? scaled(fitted, t.shortSide / short) : fitted;
}

function grids(t: Extract<ImageTransform, { kind: 'canvasTiles' }>): (readonly [number, number])[] {
  if (t.grids) return [...t.grids];
  const out: [number, number][] = [];
  for (let cols = 1; cols <= t.maxTiles; cols++) for (let rows = 1; cols * rows <= t.maxTiles; rows++) out.push([cols, rows]);
  return out;
}

/**
 * The canvas mllama/llava-next pick (transformers' get_optimal_tiled_canvas): the smallest
 * upscale if any canvas holds the image whole, else the least downscale (ties: smallest area);
 * the image is then fitted into it, aspect kept.
 */
function canvasFit(s: Size, t: Extract<ImageTransform, { kind: 'canvasTiles' }>): { size: Size; tiles: number } {
  const options = grids(t).map(([cols, rows]) => {
    const cw = cols * t.tile;
    const ch = rows * t.tile;
    return { cols, rows, cw, ch, scale: Math.min(cw / s.width, ch / s.height) };
  });
  const up = options.filter((o) => o.scale >= 1);
  const pool = up.length ? up : options;
  const target = up.length ? Math.min(...up.map((o) => o.scale)) : Math.max(...options.map((o) => o.scale));
  const best = pool.filter((o) => o.scale === target).sort((a, b) => a.cw * a.ch - b.cw * b.ch)[0]!;
  return { size: scaled(s, best.scale), tiles: best.cols * best.rows };
}

/** The largest image worth sending for a source of size `s`: what the server would keep, never enlarged. */
export function sendSize(t: ImageTransform, s: Size): Size {
  switch (t.kind) {
    case 'squash':
      return { width: Math.min(s.width, t.size), height: Math.min(s.height, t.size) };
    case 'patchBudget': {
      const max = t.maxTokens * t.unit * t.unit;
      const round = (x: number) => Math.max(t.unit, Math.round(x / t.unit) * t.unit);
      return largestFitting(s, (z) => round(z.width) * round(z.height) <= max);
    }
    case 'unitBudget':
      return largestFitting(s, (z) => Math.max(z.width, z.height) <= t.maxEdge && units(z, t.unit) <= t.maxTokens);
    case 'longEdge':
      return fitBox(s, t.maxEdge, t.maxEdge);
    case 'gptTiles':
      return gptTiles(s, t);
    case 'gptPatches':
      return largestFitting(s, (z) => units(z, t.patch) <= t.maxPatches);
    case 'canvasTiles': {
      const fit = canvasFit(s, t);
      return fit.size.width <= s.width ? fit.size : { ...s };
    }
    case 'slices':
      return largestFitting(s, (z) => z.width * z.height <= t.maxSlices * t.slice * t.slice);
    case 'geminiTiles':
    case 'fixed':
      return fitBox(s, t.maxEdge, t.maxEdge);
  }
}

/** What the server's encoder processes, and its token cost, for an image sent at `sent`. */
export function modelView(t: ImageTransform, sent: Size): ModelView {
  switch (t.kind) {
    case 'squash':
      return { modelInput: { width: t.size, height: t.size }, tokens: t.tokens };
    case 'patchBudget': {
      const u2 = t.unit * t.unit;
      const input = smartResize(sent, t.unit, t.minTokens * u2, t.maxTokens * u2);
      return { modelInput: input, tokens: (input.width / t.unit) * (input.height / t.unit) };
    }
    case 'unitBudget': {
      const input = sendSize(t, sent);
      return { modelInput: input, tokens: units(input, t.unit) };
    }
    case 'longEdge': {
      const input = fitBox(sent, t.maxEdge, t.maxEdge);
      return { modelInput: input, tokens: units(input, t.unit) + (t.rowBreaks ? Math.ceil(input.height / t.unit) : 0) };
    }
    case 'gptTiles': {
      const input = gptTiles(sent, t);
      return { modelInput: input, tokens: t.base + t.perTile * units(input, t.tile) };
    }
    case 'gptPatches': {
      const input = sendSize(t, sent);
      return { modelInput: input, tokens: Math.ceil(units(input, t.patch) * t.multiplier) };
    }
    case 'canvasTiles': {
      const fit = canvasFit(sent, t);
      const tokens = t.tokensPerTile === null ? null : t.tokensPerTile * (fit.tiles + (t.baseTile && fit.tiles > 1 ? 1 : 0));
      return { modelInput: fit.size, tokens };
    }
    case 'slices': {
      const input = sendSize(t, sent);
      const slices = Math.min(t.maxSlices, Math.ceil((input.width * input.height) / (t.slice * t.slice)));
      return { modelInput: input, tokens: t.tokensPerSlice * (slices > 1 ? slices + 1 : 1) };
    }
    case 'geminiTiles': {
      const input = fitBox(sent, t.maxEdge, t.maxEdge);
      const small = input.width <= t.small && input.height <= t.small;
      return { modelInput: input, tokens: small ? t.tokensPerTile : t.tokensPerTile * units(input, t.tile) };
    }
    case 'fixed':
      return { modelInput: fitBox(sent, t.maxEdge, t.maxEdge), tokens: t.tokens };
  }
}

/** Fit width × height inside the profile: long edge and total pixels; never enlarge; at least 1 px. */
export function fitInside(width: number, height: number, profile: Pick<ImageProfile, 'maxLongEdge' | 'maxPixels'>): Size {
  const scale = Math.min(1, profile.maxLongEdge / Math.max(width, height), Math.sqrt(profile.maxPixels / (width * height)));
  if (scale >= 1) return { width, height };
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

/**
 * THE size decision (architecture §3 "Fit to the rule"): the largest image the
 * model's server keeps, never more; without a known rule, or when a person set the size for
 * this model, the profile's long edge and pixel cap.
 */
export function fitForModel(width: number, height: number, profile: Pick<ImageProfile, 'maxLongEdge' | 'maxPixels' | 'rule' | 'sizeOverridden'>): Size {
  if (!profile.rule || profile.sizeOverridden) return fitInside(width, height, profile);
  return sendSize(profile.rule.transform, { width, height });
}

/** modelInput, tokens and legibility of an image fitted for `profile` (null/unknown without a rule). */
export function describeFit(
  original: Size,
  sent: Size,
  profile: Pick<ImageProfile, 'rule'>,
  pixelRatio?: number,
): { modelInput: Size | null; tokens: number | null; legibility: ImageLegibility } {
  const view = profile.rule ? modelView(profile.rule.transform, sent) : undefined;
  const modelInput = view?.modelInput ?? null;
  return { modelInput, tokens: view?.tokens ?? null, legibility: legibility(original, sent, modelInput, pixelRatio) };
}

/**
 * How big screen text is once the server has resized the image: 14 px per device pixel ratio in
 * the original, times the smallest scale on the way (what was sent, then what the encoder made
 * of it — a squash upsamples one axis, which adds no detail).
 */
export function legibility(original: Size, sent: Size, modelInput: Size | null, pixelRatio = 1): ImageLegibility {
  const seen = modelInput ?? sent;
  const scale = Math.min(1, Math.min(sent.width, seen.width) / original.width, Math.min(sent.height, seen.height) / original.height);
  const textPx = Math.round(SCREEN_TEXT_PX * Math.max(0.25, pixelRatio) * scale * 10) / 10;
  return { textPx, smallText: textPx < LEGIBLE_TEXT_PX };
}
