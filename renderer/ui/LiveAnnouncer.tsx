import { useEffect, useState } from 'react';
import type { TurnView } from '../state/chatReducer.ts';
import { useAppStore } from '../state/store.ts';
import { toolTitle } from './toolNames.ts';

/** What changed in a turn that a screen reader user should hear, or nothing. */
function announcement(before: TurnView | undefined, after: TurnView): string | undefined {
  for (const tool of Object.values(after.tools)) {
    const asked = before?.tools[tool.id]?.approval?.decision;
    if (tool.approval?.decision === 'pending' && asked !== 'pending') return `${toolTitle(tool.name, tool.title)} needs your approval: Allow once, Allow for this chat, Always or Deny.`;
  }
  for (const tool of Object.values(after.tools)) {
    const was = before?.tools[tool.id]?.status;
    if (was === tool.status) continue;
    const name = toolTitle(tool.name, tool.title);
    if (tool.status === 'running') return `Running ${name}…`;
    if (tool.approval?.decision === 'deny') return `${name} was not run.`;
    return tool.status === 'finished' ? `${name} finished.` : tool.status === 'cancelled' ? `${name} cancelled.` : `${name} failed.`;
  }
  if (before && before.status !== after.status) {
    if (after.status === 'done') return 'Answer finished.';
    if (after.status === 'cancelled') return 'Answer stopped.';
    if (after.status === 'failed') return `The answer failed: ${after.error?.message ?? 'unknown error'}`;
  }
  return undefined;
}

/**
 * A polite live region: "Answer finished." and tool status, said once each (the streaming text
 * itself is not read out word by word — the article is aria-busy while it streams).
 */
export function LiveAnnouncer() {
  const store = useAppStore();
  const [text, setText] = useState('');
  useEffect(
    () =>
      store.subscribe((state, previous) => {
        // The count after a switch of versions (the switcher itself is drawn anew on another turn).
        if (state.versionSaid !== previous.versionSaid && state.versionSaid) return setText(state.versionSaid);
        if (state.chat === previous.chat || state.chat.conversationId !== previous.chat.conversationId) return;
        const id = state.chat.order.at(-1);
        const turn = id ? state.chat.turns[id] : undefined;
        if (!turn) return;
        const said = announcement(previous.chat.turns[turn.id], turn);
        if (said) setText(said);
      }),
    [store],
  );
  return (
    <div role="status" aria-live="polite" aria-label="Announcements" className="visually-hidden">
      {text}
    </div>
  );
}
