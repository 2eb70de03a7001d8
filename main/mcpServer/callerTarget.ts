// Which image a caller of `glance mcp serve` gets (architecture §14): the model is not Glance's, so it
// is named in the call (`model`) or taken to be Claude, whose rule is the strictest common one
// (⌈w/28⌉·⌈h/28⌉ ≤ 1568). The rule comes from the one table (images/modelRules.ts) and is read
// only by images/imageRule.ts. Two caps on top: `maxTokens`, when the caller's budget is
// tighter than the model's, and 1 MB of base64 per image — clients and hosts drop or refuse
// tool results above that (Claude Code's 25k-token tool output, chrome-devtools-mcp #152).
import type { ImageRule, Size } from '../images/imageRule.ts';
import { fitForModel, modelView } from '../images/imageRule.ts';
import { imageRuleFor } from '../images/modelRules.ts';
import { profileFor } from '../images/profiles.ts';
import type { ImageTarget } from '../images/types.ts';

const DEFAULT_CALLER_MODEL = 'claude';
/** 1 MB of base64 text is 786,432 bytes of image. */
export const MAX_BASE64_CHARS = 1024 * 1024;
const MAX_IMAGE_BYTES = (MAX_BASE64_CHARS / 4) * 3;
/** Below this long edge a screen holds nothing worth a look: a budget that forces it is refused. */
const MIN_LONG_EDGE = 64;

type CallerTarget = { ok: true; target: ImageTarget; rule: ImageRule; notes: string[] } | { ok: false; message: string };

/**
 * The target every image of a call is fitted and gated for. `source` is the size of what will
 * be fitted (needed to honour `maxTokens`); the caller declared it can see by calling at all.
 */
export function callerTarget(model: string | undefined, maxTokens: number | undefined, source: Size): CallerTarget {
  const name = model?.trim() || DEFAULT_CALLER_MODEL;
  const notes: string[] = [];
  let rule = imageRuleFor('openai', name);
  if (!rule) {
    rule = imageRuleFor('openai', DEFAULT_CALLER_MODEL)!;
    notes.push(`Glance does not know the image rule of "${name}", so the image is fitted to Claude's.`);
  }
  let profile = { ...profileFor('openai', { formats: ['image/png', 'image/jpeg'], maxBytes: MAX_IMAGE_BYTES }, rule) };
  if (maxTokens !== undefined) {
    const sized = sizeForBudget(rule, source, maxTokens);
    if (!sized.ok) return sized;
    if (sized.size) profile = { ...profile, maxLongEdge: Math.max(sized.size.width, sized.size.height), maxPixels: sized.size.width * sized.size.height, sizeOverridden: true };
    if (sized.note) notes.push(sized.note);
  }
  return { ok: true, target: { provider: 'openai', model: name, vision: 'yes', visionSource: 'flag', profile }, rule, notes };
}

/** The largest aspect-kept size whose token estimate is within `maxTokens`; undefined when the rule's own fit already is. */
function sizeForBudget(rule: ImageRule, source: Size, maxTokens: number): { ok: true; size?: Size; note?: string } | { ok: false; message: string } {
  const t = rule.transform;
  const fitted = fitForModel(source.width, source.height, { maxLongEdge: Infinity, maxPixels: Infinity, rule });
  const cost = (s: Size) => modelView(t, s).tokens;
  const full = cost(fitted);
  if (full === null) return { ok: true, note: `${rule.family} images use no context tokens, so maxTokens does not change the size.` };
  if (full <= maxTokens) return { ok: true };
  const at = (k: number): Size => ({ width: Math.max(1, Math.floor(fitted.width * k)), height: Math.max(1, Math.floor(fitted.height * k)) });
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if ((cost(at(mid)) ?? 0) <= maxTokens) lo = mid;
    else hi = mid;
  }
  const size = at(lo);
  const smallest = cost(at(MIN_LONG_EDGE / Math.max(fitted.width, fitted.height))) ?? 0;
  if (Math.max(size.width, size.height) < MIN_LONG_EDGE || (cost(size) ?? 0) > maxTokens) {
    return {
      ok: false,
      message:
        `maxTokens ${maxTokens} is too small to hold an image for ${rule.family}: even ${MIN_LONG_EDGE} pixels on the long edge ` +
        `cost about ${smallest} tokens, and the full fit costs ${full}. Give maxTokens of at least ${smallest}, or leave it out.`,
    };
  }
  return { ok: true, size };
}
