import type { PendingAttachment } from './attachmentsSlice.ts';
import type { SliceCreator } from './store.ts';

/** What the composer held for a conversation the user left: its text and the images waiting. */
type Draft = { text: string; pending: PendingAttachment[] };

/** The key of the draft of a new chat (not stored yet, no id). */
export const NEW_CHAT = 'new';

export type DraftsSlice = {
  /** The message box's text, in the store so it survives Settings and the composer unmounting. */
  draft: string;
  /** Drafts of the conversations not shown, by conversation id (or NEW_CHAT); main keeps them all (draftSync.ts). */
  drafts: Record<string, Draft>;
  setDraft(text: string): void;
  /** The conversation shown changes: the composer's draft is kept under `from`, and the one of `to` comes back. */
  switchDraft(from: string, to: string): void;
};

export const createDraftsSlice: SliceCreator<DraftsSlice> = (set) => ({
  draft: '',
  drafts: {},
  setDraft(text) {
    set({ draft: text });
  },
  switchDraft(from, to) {
    if (from === to) return;
    set((s) => {
      const { [to]: restored, ...rest } = s.drafts;
      // Images still being checked settle into the composer they were added to; an empty draft is not kept.
      const kept = s.pending.filter((p) => p.status === 'ready');
      const drafts = s.draft.trim() || kept.length ? { ...rest, [from]: { text: s.draft, pending: kept } } : rest;
      return { drafts, draft: restored?.text ?? '', pending: restored?.pending ?? [], refusals: [] };
    });
  },
});
