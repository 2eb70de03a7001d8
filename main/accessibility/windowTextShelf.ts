// The window text read with a capture, kept beside the image it came with (by its original: every
// copy made from it, for any model, finds it; boxes in the original's pixels), so read_text on that
// image gives the window's own words where they lie in the rectangle asked for, exact and at once,
// and OCR only where they do not; and a window the person attaches ("This window") carries its text
// to the model (architecture §7). In memory, bounded: a capture's text lives as long as this process
// and the last few captures.
import type { AttachmentInfo } from '../../common/images.ts';
import type { Box, TextElement, WindowTextResult } from './windowText.ts';
import { windowTextForModel } from './windowTextForModel.ts';

export type KeptWindowText = { app: string; elements: TextElement[]; truncated: boolean; capturedAt: string };

const KEEP = 64;

export class WindowTextShelf {
  readonly #kept = new Map<string, KeptWindowText>();

  /** Keeps a read for `image` (and every copy of its original); boxes move by `offset` (where the image starts in the window's pixels). */
  keep(image: ImageKey, result: WindowTextResult, offset: { x: number; y: number } = { x: 0, y: 0 }): void {
    if (!result.ok || result.elements.length === 0) return;
    const elements = result.elements.map((e) => (e.box ? { ...e, box: { ...e.box, x: e.box.x - offset.x, y: e.box.y - offset.y } } : e));
    const key = keyOf(image);
    this.#kept.delete(key);
    this.#kept.set(key, { app: result.app, elements, truncated: result.truncated, capturedAt: new Date().toISOString() });
    for (const oldest of this.#kept.keys()) {
      if (this.#kept.size <= KEEP) break;
      this.#kept.delete(oldest);
    }
  }

  get(image: ImageKey): KeptWindowText | undefined {
    return this.#kept.get(keyOf(image));
  }

  /**
   * A region cut from `parent` (`area`, in its original's pixels) keeps the words that lie in it,
   * moved into its own pixels; the kept elements, or undefined when the parent has none there.
   */
  keepPart(parent: ImageKey, part: ImageKey, area: Box): KeptWindowText | undefined {
    const kept = this.get(parent);
    const elements = kept ? elementsIn(kept, area) : [];
    if (!kept || elements.length === 0) return undefined;
    this.keep(part, { ok: true, app: kept.app, elements, truncated: kept.truncated, nodes: elements.length, ms: 0 }, { x: area.x, y: area.y });
    return this.get(part);
  }
}

type ImageKey = Pick<AttachmentInfo, 'id' | 'original'>;

/** Copies made from one original (fitted for another model, shown anyway) share its window's words. */
const keyOf = (image: ImageKey) => image.original?.sha256 ?? image.id;

/** A kept read in words for the model, as a capture's answer gives it (bounded in tokens, password fields hidden). */
export function keptForModel(kept: KeptWindowText): string {
  return windowTextForModel({ ok: true, app: kept.app, elements: kept.elements, truncated: kept.truncated, nodes: kept.elements.length, ms: 0 });
}

/**
 * The kept elements that lie in `region` (the image's original pixels): those whose box overlaps it
 * by half of the box or more, or that hold the region (a text view it falls inside). Password
 * fields come along, as hidden. Elements without a box (scrolled off) are in no region.
 */
export function elementsIn(kept: KeptWindowText, region: Box): TextElement[] {
  return kept.elements.filter((e) => {
    if (!e.box || (!e.text.trim() && !e.password)) return false;
    const w = Math.min(e.box.x + e.box.width, region.x + region.width) - Math.max(e.box.x, region.x);
    const h = Math.min(e.box.y + e.box.height, region.y + region.height) - Math.max(e.box.y, region.y);
    if (w <= 0 || h <= 0) return false;
    const inter = w * h;
    return inter >= (e.box.width * e.box.height) / 2 || inter >= (region.width * region.height) / 2;
  });
}
