import { imageAttachedEvent, imageRedactedEvent, imageTranscribedEvent, type ChatEvent } from '../../common/events.ts';
import type { ConversationView } from '../../common/ipc.ts';
import type { Conversation } from '../chat/conversation.ts';
import type { LiveTurn } from '../chat/liveTurns.ts';
import type { AttachmentStore } from '../images/types.ts';
import { versionAt } from '../chat/versions.ts';

/**
 * A stored conversation replayed as the `ChatEvent`s each user turn produced, so the UI
 * renders history through the same reducer as live streaming. `from`: the view of the turns
 * from that message on (a user message's index), for a window's first screen.
 */
export async function conversationView(conversation: Conversation, store: AttachmentStore, from = 0): Promise<ConversationView> {
  const turns: ConversationView['turns'] = [];
  let current: ConversationView['turns'][number] | undefined;
  // No `text` on the replayed `done`: the text events before it hold the answer already.
  const finish = () => {
    if (current) current.events.push({ type: 'done', conversationId: conversation.id });
  };
  // Every record the view needs, read at once rather than one after another.
  const ids = new Set(conversation.messages.slice(from).flatMap((m) => (m.role === 'user' || m.role === 'delivery' ? m.attachmentIds : m.role === 'tool' ? (m.attachmentIds ?? []) : [])));
  const infos = new Map(await Promise.all([...ids].map(async (id) => [id, await store.info(id)] as const)));
  const attached = (id: string, origin: string, toolCallId?: string, name?: string): ChatEvent | undefined => {
    const a = infos.get(id);
    if (!a) return undefined;
    return imageAttachedEvent(name ? { ...a, name } : a, origin, toolCallId);
  };

  for (const [index, m] of conversation.messages.entries()) {
    if (index < from) continue;
    if (m.role === 'user') {
      finish();
      current = { id: m.id, text: m.text, attachmentIds: m.attachmentIds, createdAt: m.createdAt, events: [] };
      const version = versionAt(conversation, index);
      if (version) current.versions = version;
      if (m.model) current.model = m.model;
      if (m.marks) current.marks = m.marks;
      turns.push(current);
      for (const id of m.attachmentIds) {
        const e = attached(id, 'user', undefined, m.names?.[id]);
        if (e) current.events.push(e);
        const info = infos.get(id);
        const hidden = info && imageRedactedEvent(info);
        if (hidden) current.events.push(hidden);
        const t = m.transcripts?.[id];
        if (e && t) current.events.push(imageTranscribedEvent(id, 'user', t));
        const own = m.windowTexts?.[id];
        if (e && own !== undefined) current.events.push({ type: 'image_window_text', attachmentId: id, text: own });
        const described = m.descriptions?.[id];
        // The helper's name was not stored with older descriptions.
        if (e && described !== undefined) current.events.push({ type: 'image_described', attachmentId: id, model: m.describedBy ?? 'the vision helper', text: described });
      }
      if (m.unsent) current.events.push({ type: 'error', ...m.unsent });
      continue;
    }
    if (!current) continue;
    const events = current.events;
    if (m.role === 'assistant') {
      if (m.thinking) events.push({ type: 'thinking', delta: m.thinking });
      if (m.text) events.push({ type: 'text', delta: m.text });
      for (const call of m.toolCalls ?? []) {
        events.push({ type: 'tool_call', ...call });
      }
      if (m.interrupted) {
        events.push(
          m.interrupted === 'cancelled'
            ? { type: 'error', code: 'cancelled', message: 'Stopped.' }
            : { type: 'error', code: 'interrupted', message: 'The answer was cut off.' },
        );
      }
    } else if (m.role === 'tool') {
      for (const id of m.attachmentIds ?? []) {
        const e = attached(id, m.name, m.toolCallId);
        if (e) events.push(e);
        const info = infos.get(id);
        const hidden = e && info && imageRedactedEvent(info);
        if (hidden) events.push(hidden);
      }
      const result: ChatEvent = { type: 'tool_result', id: m.toolCallId, name: m.name, ok: m.ok, text: m.text, attachmentIds: m.attachmentIds ?? [] };
      if (m.durationMs !== undefined) result.durationMs = m.durationMs;
      if (m.cancelled) result.cancelled = true;
      if (m.switchedOff) result.switchedOff = true;
      events.push(result);
    } else {
      events.push({ type: 'image_delivered', attachmentIds: m.attachmentIds, origin: m.origin });
      if (m.retracted) events.push({ type: 'image_retracted', attachmentIds: m.attachmentIds });
    }
  }
  finish();
  const view: ConversationView = { id: conversation.id, title: conversation.title, createdAt: conversation.createdAt, updatedAt: conversation.updatedAt, turns };
  if (conversation.tools) view.tools = conversation.tools;
  if (conversation.model) view.model = { provider: conversation.model.provider, name: conversation.model.name, ...(conversation.model.endpoint ? { endpoint: conversation.model.endpoint } : {}) };
  return view;
}

/**
 * The view with a turn still running served as the events it emitted so far, under its own
 * turn id and without a `done`: the stored turn (saved when it started) is replaced, one not
 * saved yet is added. Synchronous, and called last, so no event falls between the snapshot
 * and the answer that carries it.
 */
export function withLiveTurn(view: ConversationView, live: LiveTurn | undefined): ConversationView {
  if (!live) return view;
  const turns = [...view.turns];
  const index = turns.findIndex((t) => t.id === live.turnId);
  const turn = { id: live.turnId, text: live.text, attachmentIds: live.attachmentIds, createdAt: live.createdAt, events: live.events, live: true };
  if (index >= 0) turns.splice(index, 1, { ...turns[index]!, ...turn });
  else turns.push(turn);
  return { ...view, turns };
}
