// The window text read with a capture, kept beside the image it came with (by attachment id, in the
// image's original pixels), so read_text on that image gives the window's own words where they lie
// in the rectangle asked for, exact and at once, and OCR only where they do not (architecture §7).
// In memory, bounded: a capture's text lives as long as this process and the last few captures.
import type { Box, TextElement, WindowTextResult } from './windowText.ts';

export type KeptWindowText = { app: string; elements: TextElement[]; truncated: boolean; capturedAt: string };

const KEEP = 64;

export class WindowTextShelf {
  readonly #kept = new Map<string, KeptWindowText>();

  /** Keeps a read for the image `attachmentId`; boxes move by `offset` (where the image starts in the window's pixels). */
  keep(attachmentId: string, result: WindowTextResult, offset: { x: number; y: number } = { x: 0, y: 0 }): void {
    if (!result.ok || result.elements.length === 0) return;
    const elements = result.elements.map((e) => (e.box ? { ...e, box: { ...e.box, x: e.box.x - offset.x, y: e.box.y - offset.y } } : e));
    this.#kept.delete(attachmentId);
    this.#kept.set(attachmentId, { app: result.app, elements, truncated: result.truncated, capturedAt: new Date().toISOString() });
    for (const oldest of this.#kept.keys()) {
      if (this.#kept.size <= KEEP) break;
      this.#kept.delete(oldest);
    }
  }

  get(attachmentId: string): KeptWindowText | undefined {
    return this.#kept.get(attachmentId);
  }
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
