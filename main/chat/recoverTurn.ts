import type { Conversation } from './conversation.ts';

/**
 * Repairs what a turn that never finished (the process was killed) left behind, before the
 * next turn builds a request from it (architecture §5: "a delivery left unretracted by a crash is
 * retracted on load"). Turns on one conversation are serialised, so under the conversation's
 * lock any live delivery belongs to a dead turn: left alone, its screenshot would ride in
 * every later request. A tool call stored without its result (a malformed request for every
 * provider) gets one saying it never ran. Returns whether anything changed.
 */
export function recoverUnfinishedTurn(conversation: Conversation): boolean {
  let changed = false;
  for (const m of conversation.messages) {
    if (m.role === 'delivery' && !m.retracted) {
      m.retracted = true;
      changed = true;
    }
  }
  const answered = new Set(conversation.messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  for (let i = 0; i < conversation.messages.length; i++) {
    const m = conversation.messages[i]!;
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const missing = m.toolCalls.filter((c) => !answered.has(c.id));
    if (!missing.length) continue;
    const stubs = missing.map((c) => ({
      role: 'tool' as const,
      id: `${c.id}-unfinished`,
      toolCallId: c.id,
      name: c.name,
      ok: false,
      text: 'Not run: Glance stopped before this tool call finished.',
      createdAt: m.createdAt,
    }));
    // After the results that did arrive, so the calls' order is kept.
    let at = i + 1;
    while (conversation.messages[at]?.role === 'tool') at++;
    conversation.messages.splice(at, 0, ...stubs);
    i = at + stubs.length - 1;
    changed = true;
  }
  return changed;
}
