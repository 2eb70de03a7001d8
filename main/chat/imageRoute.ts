// Which model looks at a turn's images, under which redaction policy, and how — as pixels, through
// a vision helper's description, as the text local OCR reads from them, or not at all. Decided here
// once, from the chat model, its helper and the conversation's own policy: the engine's send, the
// UI's attach, preview and crop, the Context meter and mcp serve's describe all take this verdict,
// and the window shows it (`models:route`) instead of guessing from the model list.
import type { RedactPolicy } from '../../common/privacy.ts';
import type { ImageTarget } from '../images/types.ts';
import type { ModelChoice } from './chatEngine.ts';

/**
 * How images reach the chat model: `pixels` (it sees them), `described` (a vision helper looks and
 * tells it), `text` (it is blind and no helper is set: a text-bearing image goes as the text local
 * OCR reads, any other is refused), `unknown` (nobody says whether it sees: images are refused
 * until the person declares it).
 */
export type ImageWay = 'pixels' | 'described' | 'text' | 'unknown';

export type ImageRoute = {
  /** The chat model, with the conversation's policy on its target. */
  chat: ModelChoice;
  /** The vision helper set for a model that cannot see (whether or not it sees itself). */
  helper?: ModelChoice;
  /** The model that gets the pixels: the chat model when it sees, else a helper that does. */
  seer?: ModelChoice;
  /** Where the images go through the door: the seer's target, else the chat model's (the door refuses or reads as text there). */
  target: ImageTarget;
  way: ImageWay;
};

/**
 * The route for one turn. `conversationRedact` is the conversation's own policy (Settings →
 * Privacy); a target that already names one (a command's `--redact`) keeps it.
 */
export function imageRoute(models: { chat: ModelChoice; helper?: ModelChoice | undefined }, conversationRedact?: RedactPolicy): ImageRoute {
  const own = (m: ModelChoice): ModelChoice => (conversationRedact && !m.target.redact ? { ...m, target: { ...m.target, redact: conversationRedact } } : m);
  const chat = own(models.chat);
  const helper = models.helper ? own(models.helper) : undefined;
  const seer = chat.capabilities.vision === 'yes' ? chat : helper?.capabilities.vision === 'yes' ? helper : undefined;
  const way: ImageWay = seer === chat ? 'pixels' : seer ? 'described' : chat.capabilities.vision === 'no' ? 'text' : 'unknown';
  return { chat, ...(helper ? { helper } : {}), ...(seer ? { seer } : {}), target: (seer ?? chat).target, way };
}
