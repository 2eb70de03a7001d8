// Apart from privacy.ts, whose settings schemas are zod's: the chat window's first screen needs
// this comparison, and importing it from there put all of zod in the scripts loaded before the
// window's first frame.
import type { Redaction } from './privacy.ts';

/** The same region (a "Show anyway" names a region by its box, kind and rule). */
export function sameRegion(a: Redaction, b: Redaction): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height && a.kind === b.kind && a.rule === b.rule;
}
