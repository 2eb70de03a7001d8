import type { ChatEvent } from '../../common/events.ts';

/** A turn still running: its id (also its stored user message's id) and every event it emitted so far. */
export type LiveTurn = { turnId: string; text: string; attachmentIds: string[]; createdAt: string; events: ChatEvent[] };

/**
 * The events of the turns still running, per conversation. The stored conversation holds a
 * step's text only once the step ends, so a window that opens the conversation mid-answer
 * (a reload, switching back) gets the live turn from here and resumes it — one answer, whole,
 * that the next events extend.
 */
export class LiveTurns {
  readonly #byConversation = new Map<string, LiveTurn>();

  start(conversationId: string, turn: Omit<LiveTurn, 'events'>): void {
    this.#byConversation.set(conversationId, { ...turn, events: [] });
  }

  record(conversationId: string, turnId: string, event: ChatEvent): void {
    const turn = this.#byConversation.get(conversationId);
    if (turn?.turnId !== turnId) return;
    if (event.type === 'done') this.#byConversation.delete(conversationId);
    else turn.events.push(event);
  }

  /** A copy, so the caller's view cannot change when more events arrive. */
  get(conversationId: string): LiveTurn | undefined {
    const turn = this.#byConversation.get(conversationId);
    return turn && { ...turn, events: [...turn.events] };
  }
}
