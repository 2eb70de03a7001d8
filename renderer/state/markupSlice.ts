import type { Mark } from '../../common/marks.ts';
import { MAX_MARKS } from '../../common/limits.ts';
import type { SliceCreator } from './store.ts';

/** One image's marks with their undo history: `states[at]` is what is shown and sent. */
type MarkHistory = { states: Mark[][]; at: number };

export type MarkupSlice = {
  /**
   * By the attachment in its draft (markKey: the composer item's key and its image's id), until it is
   * sent. Not by the image's id alone: the same bytes attached in another chat are another attachment,
   * and must not come back with marks drawn there.
   */
  markup: Record<string, MarkHistory>;
  /** The attachment open in the mark-up editor (`key`: its markKey). */
  markupOpen: { key: string; id: string; name: string; width: number; height: number } | null;
  openMarkup(image: MarkupSlice['markupOpen']): void;
  addMark(id: string, mark: Mark): void;
  undoMark(id: string): void;
  redoMark(id: string): void;
};

/** Where an attachment's marks are kept: the composer item (`pendingKey`) holding that image (`id`); a crop is another image, so its marks start afresh. */
export const markKey = (pendingKey: string, id: string) => `${pendingKey}:${id}`;

const EMPTY: MarkHistory = { states: [[]], at: 0 };

/** The marks an image will be sent with. */
export function currentMarks(history: MarkHistory | undefined): Mark[] {
  return history ? (history.states[history.at] ?? []) : [];
}

export const createMarkupSlice: SliceCreator<MarkupSlice> = (set, get) => {
  const update = (id: string, next: (h: MarkHistory) => MarkHistory) => set((s) => ({ markup: { ...s.markup, [id]: next(s.markup[id] ?? EMPTY) } }));
  return {
    markup: {},
    markupOpen: null,
    openMarkup(image) {
      set({ markupOpen: image });
    },
    addMark(id, mark) {
      if (currentMarks(get().markup[id]).length >= MAX_MARKS) return;
      // A new mark after an undo drops what could have been redone, as every editor does.
      update(id, (h) => ({ states: [...h.states.slice(0, h.at + 1), [...(h.states[h.at] ?? []), mark]], at: h.at + 1 }));
    },
    undoMark(id) {
      update(id, (h) => ({ ...h, at: Math.max(0, h.at - 1) }));
    },
    redoMark(id) {
      update(id, (h) => ({ ...h, at: Math.min(h.states.length - 1, h.at + 1) }));
    },
  };
};
