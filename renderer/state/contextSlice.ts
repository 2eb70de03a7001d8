import type { ContextEstimate } from '../../common/ipc.ts';
import type { SliceCreator } from './store.ts';

export type ContextSlice = {
  /** Main's estimate of the next request (conversation, draft, images) against the model's window. */
  context: ContextEstimate | null;
  refreshContext(): Promise<void>;
};

export const createContextSlice: SliceCreator<ContextSlice> = (set, get, api) => {
  let asked = 0;
  return {
    context: null,
    async refreshContext() {
      const s = get();
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
      // Only the answer to the latest question counts.
      if (ask === asked && result.ok) set({ context: result.value });
    },
  };
};
