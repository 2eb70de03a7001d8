// Drafts kept across a reload and a restart: what the message box holds (text and images
// waiting) is written to main's draft store a moment after each change, per conversation (the
// new chat under NEW_CHAT), and the stored drafts come back when the window opens.
import type { StoreApi } from 'zustand';
import type { Draft, GlanceApi } from '../../common/ipc.ts';
import type { PendingAttachment } from './attachmentsSlice.ts';
import { NEW_CHAT } from './draftsSlice.ts';
import type { AppState } from './store.ts';

const SAVE_AFTER_MS = 300;

type Snapshot = { key: string; text: string; images: Draft['images'] };
type Timers = Pick<Window, 'setTimeout' | 'clearTimeout' | 'addEventListener' | 'removeEventListener'>;

const keyOf = (s: AppState) => s.chat.conversationId ?? NEW_CHAT;

/** The images of a draft as stored: what a thumbnail needs, never bytes. */
function imagesOf(pending: readonly PendingAttachment[]): Draft['images'] {
  return pending.flatMap((p) => {
    if (p.status !== 'ready') return [];
    const { id, name, origin, mime, width, height, bytes, tokens } = p.attachment;
    return [{ id, name, origin, ...(mime ? { mime } : {}), ...(width ? { width } : {}), ...(height ? { height } : {}), ...(bytes !== undefined ? { bytes } : {}), ...(tokens !== undefined ? { tokens } : {}) }];
  });
}

/** Each draft's items have keys of their own: the same image in two drafts is two attachments (their marks are kept apart). */
let draftSeq = 0;

function pendingOf(draft: Draft): PendingAttachment[] {
  return draft.images.map((image) => ({ key: `d${++draftSeq}-${image.id}`, name: image.name, status: 'ready' as const, attachment: image }));
}

export function watchDrafts(store: StoreApi<AppState>, api: Pick<GlanceApi, 'draftsList' | 'draftsSet'>, target: Timers = window): () => void {
  let waiting: Snapshot | undefined;
  let timer: number | undefined;
  const write = () => {
    if (timer !== undefined) target.clearTimeout(timer);
    timer = undefined;
    if (!waiting) return;
    const snapshot = waiting;
    waiting = undefined;
    void api.draftsSet(snapshot);
  };

  void api.draftsList().then((result) => {
    if (!result.ok) return;
    store.setState((s) => {
      const current = keyOf(s);
      const drafts = { ...s.drafts };
      for (const [key, draft] of Object.entries(result.value)) if (key !== current && !(key in drafts)) drafts[key] = { text: draft.text, pending: pendingOf(draft) };
      const mine = result.value[current];
      // What was typed before the stored drafts arrived wins.
      if (!mine || s.draft !== '' || s.pending.length) return { drafts };
      return { drafts, draft: mine.text, pending: pendingOf(mine) };
    });
  });

  const off = store.subscribe((s, before) => {
    if (keyOf(s) !== keyOf(before)) {
      // Another conversation is shown: the one left is written now; the one shown came from the store.
      write();
      return;
    }
    if (s.draft === before.draft && s.pending === before.pending) return;
    const images = imagesOf(s.pending);
    if (s.draft === before.draft && JSON.stringify(images) === JSON.stringify(imagesOf(before.pending))) return;
    waiting = { key: keyOf(s), text: s.draft, images };
    if (timer !== undefined) target.clearTimeout(timer);
    timer = target.setTimeout(write, SAVE_AFTER_MS);
  });
  target.addEventListener('pagehide', write);
  return () => {
    off();
    write();
    target.removeEventListener('pagehide', write);
  };
}
