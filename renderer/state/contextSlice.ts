import type { ContextEstimate } from '../../common/ipc.ts';
import { runningTurnId } from './chatReducer.ts';
import type { SliceCreator } from './store.ts';

/** A failed estimate (not connected yet, the model's server away) is asked again after these waits. */
const RETRY_MS = [1000, 3000, 10_000];

export type ContextSlice = {
  /** Main's estimate of the next request (conversation, draft, images) against the model's window. */
  context: ContextEstimate | null;
  /**
   * Asks main for the estimate again. While a turn runs it waits: the turn's end asks (the
   * stored conversation changes under it), so a send cannot leave the meter without figures.
   */
  refreshContext(): Promise<void>;
};

export const createContextSlice: SliceCreator<ContextSlice> = (set, get, api) => {
  let asked = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const refresh = async (attempt: number): Promise<void> => {
    clearTimeout(retry);
    const s = get();
    if (runningTurnId(s.chat) !== undefined) return;
    const ask = ++asked;
    const conversationId = s.chat.conversationId;
    const model = s.selectedModel;
    const result = await api.chatContext({
      text: s.draft,
      attachmentIds: s.pending.flatMap((p) => (p.status === 'ready' ? [p.attachment.id] : [])),
      ...(conversationId ? { conversationId } : {}),
      ...(model ? { model } : {}),
      tools: { offServers: [...s.toolSwitches.offServers], offTools: [...s.toolSwitches.offTools] },
    });
    // Only the answer to the latest question counts; a failure keeps the figures shown and asks again.
    if (ask !== asked) return;
    if (result.ok) set({ context: result.value });
    else if (attempt < RETRY_MS.length) retry = setTimeout(() => void refresh(attempt + 1), RETRY_MS[attempt]);
  };
  return {
    context: null,
    refreshContext: () => refresh(0),
  };
};
