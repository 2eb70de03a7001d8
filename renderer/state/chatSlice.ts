import type { ConversationView, IpcEventPayload, IpcResult } from '../../common/ipc.ts';
import type { MarksById } from '../../common/marks.ts';
import type { Redaction } from '../../common/privacy.ts';
import { currentMarks, markKey } from './markupSlice.ts';
import type { RefusalNotice } from './attachmentsSlice.ts';
import { awaitingGate, initialChatState, isRunning, missedEvents, reduceChat, runningTurnId, type AttachmentLike, type ChatAction, type ChatState, type TurnView, type Versions } from './chatReducer.ts';
import { NEW_CHAT } from './draftsSlice.ts';
import { FIRST_SCREEN_TURNS } from './firstScreen.ts';
import { afterWindowOpened } from '../ui/windowOpened.ts';
import type { SliceCreator } from './store.ts';

export type ConversationFetch = Promise<IpcResult<ConversationView>>;

export type ChatSlice = {
  chat: ChatState;
  /** A conversation being fetched (its id), so the view can say so. */
  loadingConversation: string | null;
  /** Turns of the open conversation not here yet: it was opened on its last ones (firstScreen.ts). */
  earlierTurns: number;
  loadError: string | null;
  /**
   * A send whose images main's gate is still checking: its text and images stay in the composer
   * (nothing shows as sent) until the gate lets them through, or refuses them with the reasons.
   */
  heldSend: { turnId: string; keys: readonly string[] } | null;
  dispatchChat(action: ChatAction): void;
  receiveChatEvent(payload: IpcEventPayload<'chat:event'>): void;
  /**
   * Shows its last turns, then fetches the whole. `fetch`: the answer to a `conversations:get`
   * for `id` already asked (the page's first script does).
   */
  openConversation(id: string, fetch?: ConversationFetch): Promise<void>;
  /** Fetches the conversation shown again (a live turn missed events while the window was not listening). */
  refreshConversation(): Promise<void>;
  newChat(): void;
  /**
   * Sends the composer's text with the ready attachments to the selected model. False when it
   * could not start (the box keeps its draft); a send main turns down shows as a failed turn.
   */
  send(text: string): Promise<boolean>;
  stop(): Promise<void>;
  /** The approval card's answer for a tool call awaiting consent. */
  approveTool(turnId: string, callId: string, decision: 'once' | 'chat' | 'always' | 'deny'): Promise<void>;
  retry(turnId: string): Promise<void>;
  /** Asks again from this turn: a new version of the answer (the old one and its later turns are kept). */
  regenerate(turnId: string): Promise<void>;
  /** Sends `text` in place of this user message; the turns after it go with the version it was. */
  editMessage(turnId: string, text: string): Promise<void>;
  /** Shows version `index` of this turn (and the branch after it); answers the id of the turn now shown there. */
  switchVersion(turnId: string, index: number): Promise<string | undefined>;
  /** What the last switch of versions said ("Version 2 of 3"), for the live region. */
  versionSaid: string;
};

/** Runs `fn` once the window has painted what it opened on and then the frame being drawn now. */
function afterPaint(fn: () => void): void {
  if (typeof requestAnimationFrame !== 'function') return void setTimeout(fn);
  afterWindowOpened(() => requestAnimationFrame(() => setTimeout(fn)));
}

function newTurnId(): string {
  return crypto.randomUUID();
}

export const createChatSlice: SliceCreator<ChatSlice> = (set, get, api) => {
  const dispatch = (action: ChatAction) => set((s) => ({ chat: reduceChat(s.chat, action) }));

  /** One user turn; `attachments` are what the user sees on the message while it is checked again. */
  const startTurn = async (text: string, attachments: readonly AttachmentLike[], retry = false, replaceFrom?: string, drawn?: MarksById, turnId = newTurnId(), versions?: Versions): Promise<boolean> => {
    // Only marks on images this turn carries, and none empty.
    const entries = attachments.flatMap((a) => (drawn?.[a.id]?.length ? [[a.id, drawn[a.id]!] as const] : []));
    const marks = entries.length ? Object.fromEntries(entries) : undefined;
    const model = get().selectedModel ?? undefined;
    const conversationId = get().chat.conversationId ?? undefined;
    // A new chat's switches travel with its first message (an existing one has them stored).
    const switches = get().toolSwitches;
    const tools = !conversationId && (switches.offServers.length || switches.offTools.length) ? { tools: { offServers: [...switches.offServers], offTools: [...switches.offTools] } } : {};
    dispatch({ type: 'turn_started', turnId, text, attachments, ...(model ? { model } : {}), createdAt: new Date().toISOString(), ...(marks ? { marks } : {}), ...(versions ? { versions } : {}) });
    const result = await api.chatSend({
      turnId,
      text,
      attachmentIds: attachments.map((a) => a.id),
      ...(marks ? { marks } : {}),
      // Each image under the name it has here (the same bytes may have come in under another name before).
      names: Object.fromEntries(attachments.map((a) => [a.id, a.name || 'image'])),
      ...shownAnyway(attachments),
      ...(conversationId ? { conversationId } : {}),
      ...(model ? { model } : {}),
      // Main replaces the stored turn this repeats, if it was stored and never finished.
      ...(retry ? { replaceLastTurn: true } : {}),
      ...(replaceFrom ? { replaceFrom } : {}),
      ...tools,
    });
    if (!result.ok) {
      dispatch({ type: 'turn_failed', turnId, code: result.code, message: result.message });
      releaseHeld(turnId);
      void get().refreshContext();
      return false;
    }
    dispatch({ type: 'turn_accepted', turnId, conversationId: result.value.conversationId });
    return true;
  };

  /** The gate let a held send through (or it failed otherwise): the composer lets go of what was sent. */
  const releaseHeld = (turnId: string) => {
    const held = get().heldSend;
    if (held?.turnId !== turnId) return;
    set((s) => ({ heldSend: null, draft: '', pending: s.pending.filter((p) => !held.keys.includes(p.key)) }));
  };

  /** The turns before those an opened conversation showed first, put before them (those stay as they are). */
  const loadEarlierTurns = async (id: string) => {
    const result = await api.conversationsGet({ id });
    const { chat, loadingConversation, earlierTurns } = get();
    if (!result.ok || chat.conversationId !== id || loadingConversation !== null || !earlierTurns) return;
    const at = result.value.turns.findIndex((t) => t.id === chat.order[0]);
    // The turns shown are no longer the stored ones' end (an edit meanwhile): show the stored ones.
    if (at < 0) return void set((s) => ({ earlierTurns: 0, chat: reduceChat(s.chat, { type: 'loaded', view: result.value }) }));
    const earlier = reduceChat(initialChatState, { type: 'loaded', view: { ...result.value, turns: result.value.turns.slice(0, at) } });
    set((s) => ({ earlierTurns: 0, chat: { ...s.chat, order: [...earlier.order, ...s.chat.order], turns: { ...earlier.turns, ...s.chat.turns } } }));
  };

  let refreshing = false;
  /** Conversations already asked to be listed (one listing per new conversation, not per event). */
  const listed = new Set<string>();

  return {
    chat: initialChatState,
    loadingConversation: null,
    earlierTurns: 0,
    loadError: null,
    heldSend: null,
    versionSaid: '',
    dispatchChat: dispatch,

    receiveChatEvent(payload) {
      const gap = missedEvents(get().chat, payload.turnId, payload.conversationId, payload.seq);
      dispatch({ type: 'event', turnId: payload.turnId, conversationId: payload.conversationId, ...(payload.seq === undefined ? {} : { seq: payload.seq }), event: payload.event });
      if (gap) void get().refreshConversation();
      const turn = get().chat.turns[payload.turnId];
      const held = get().heldSend?.turnId === payload.turnId;
      if (held && turn && !awaitingGate(turn)) releaseHeld(turn.id);
      // A refused send posts nothing: its text and images stayed in the box; the reasons go above it.
      if (held && payload.event.type === 'done' && turn?.status === 'refused') {
        set({ heldSend: null, refusals: refusalNotices(turn) });
        dispatch({ type: 'turn_removed', turnId: turn.id });
      } else if (payload.event.type === 'done' && turn?.status === 'refused') {
        // A retry or an edit that was refused: its text and images go back to the box.
        const images = turn.userAttachmentIds.flatMap((id) => (turn.images[id] ? [turn.images[id]] : []));
        set((s) => ({
          draft: s.draft.trim() ? s.draft : turn.text,
          pending: [...images.map((a) => ({ key: `r-${a.id}`, name: a.name, status: 'ready' as const, attachment: a })), ...s.pending.filter((p) => !images.some((a) => p.status === 'ready' && p.attachment.id === a.id))],
          refusals: refusalNotices(turn),
        }));
        dispatch({ type: 'turn_removed', turnId: turn.id });
      }
      // A finished turn may have changed the title; a new conversation is listed as soon as it streams.
      const unlisted = !get().conversations.some((c) => c.id === payload.conversationId) && !listed.has(payload.conversationId);
      if (unlisted) listed.add(payload.conversationId);
      if (payload.event.type === 'done' || unlisted) void get().loadConversations();
      // The stored conversation changed: the Context meter's figures, at once (not after a debounce the next send would cancel).
      if (payload.event.type === 'done') void get().refreshContext();
    },

    async openConversation(id, fetch) {
      if (get().chat.conversationId === id || get().loadingConversation === id) return;
      set({ loadingConversation: id, loadError: null });
      const result = await (fetch ?? api.conversationsGet({ id, last: FIRST_SCREEN_TURNS }));
      if (get().loadingConversation !== id) return; // another one was opened meanwhile
      if (!result.ok) {
        set({ loadingConversation: null, loadError: result.message });
        return;
      }
      if (!fetch) performance.mark('glance:conversation-fetched'); // for bench:ui (main.tsx marks an early fetch)
      const from = get().chat.conversationId ?? NEW_CHAT;
      // Leaving a send the gate is still checking: it goes on, and its text is not kept as this chat's draft.
      const held = get().heldSend;
      if (held) releaseHeld(held.turnId);
      const earlierTurns = result.value.earlier ?? 0;
      set((s) => ({ loadingConversation: null, earlierTurns, chat: reduceChat(s.chat, { type: 'loaded', view: result.value }) }));
      // The rest once these are on screen (a frame after the window's first, or this switch's).
      if (earlierTurns) afterPaint(() => void loadEarlierTurns(id));
      get().showToolSwitches(result.value.tools);
      get().switchDraft(from, id);
      if (result.value.model) get().selectModel(result.value.model, { persist: false });
    },

    async refreshConversation() {
      const id = get().chat.conversationId;
      if (!id || refreshing) return;
      refreshing = true;
      const result = await api.conversationsGet({ id }).finally(() => (refreshing = false));
      if (result.ok && get().chat.conversationId === id && get().loadingConversation === null) set((s) => ({ earlierTurns: 0, chat: reduceChat(s.chat, { type: 'loaded', view: result.value }) }));
    },

    newChat() {
      const from = get().chat.conversationId ?? NEW_CHAT;
      const held = get().heldSend;
      if (held) releaseHeld(held.turnId);
      set({ loadingConversation: null, loadError: null, earlierTurns: 0 });
      dispatch({ type: 'reset' });
      get().showToolSwitches(undefined);
      get().switchDraft(from, NEW_CHAT);
    },

    async send(text) {
      const state = get();
      if (runningTurnId(state.chat) !== undefined || state.pending.some((p) => p.status === 'checking')) return false;
      // Under the name each has in the draft, not the one its bytes were stored with first.
      const ready = state.pending.flatMap((p) => (p.status === 'ready' ? [{ ...p.attachment, name: p.name }] : []));
      if (text.trim() === '' && ready.length === 0) return false;
      const drawn = Object.fromEntries(state.pending.flatMap((p) => (p.status === 'ready' ? [[p.attachment.id, currentMarks(state.markup[markKey(p.key, p.attachment.id)])]] : [])));
      const turnId = newTurnId();
      // Text alone is sent at once; images wait in the box for the gate (main checks them again for this model).
      if (ready.length) set({ refusals: [], heldSend: { turnId, keys: state.pending.map((p) => p.key) } });
      else set({ pending: [], refusals: [], draft: '' });
      await startTurn(text, ready, false, undefined, drawn, turnId);
      return true;
    },

    async stop() {
      const turnId = runningTurnId(get().chat);
      if (turnId) await api.chatCancel({ turnId });
    },

    async approveTool(turnId, callId, decision) {
      // The card goes as soon as main has the answer; the decision event confirms it.
      await api.chatApproveTool({ turnId, callId, decision });
    },

    async retry(turnId) {
      const state = get();
      const turn = state.chat.turns[turnId];
      if (!turn || isRunning(turn) || runningTurnId(state.chat) !== undefined) return;
      const attachments = turn.userAttachmentIds.map((id) => state.chat.turns[turnId]!.images[id] ?? { id, name: 'image', origin: 'user' });
      dispatch({ type: 'turn_removed', turnId });
      await startTurn(turn.text, attachments, true, undefined, turn.marks, undefined, nextVersions(turn));
    },

    async regenerate(turnId) {
      const turn = get().chat.turns[turnId];
      if (turn) await get().editMessage(turnId, turn.text);
    },

    async editMessage(turnId, text) {
      const state = get();
      const turn = state.chat.turns[turnId];
      if (!turn || runningTurnId(state.chat) !== undefined) return;
      const attachments = turn.userAttachmentIds.map((id) => turn.images[id] ?? { id, name: 'image', origin: 'user' });
      if (text.trim() === '' && !attachments.length) return;
      dispatch({ type: 'turns_truncated', fromTurnId: turnId });
      await startTurn(text, attachments, false, turnId, turn.marks, undefined, nextVersions(turn));
    },

    async switchVersion(turnId, index) {
      const state = get();
      const id = state.chat.conversationId;
      const at = state.chat.order.indexOf(turnId);
      if (!id || at < 0 || runningTurnId(state.chat) !== undefined) return undefined;
      const result = await api.conversationsSwitchVersion({ id, turnId, index });
      if (!result.ok) {
        set({ versionSaid: result.message });
        return undefined;
      }
      if (get().chat.conversationId !== id) return undefined;
      // The whole conversation, as stored now (earlier turns included).
      set((s) => ({ earlierTurns: 0, chat: reduceChat(s.chat, { type: 'loaded', view: result.value }) }));
      const shown = get().chat.order[at];
      const versions = shown ? get().chat.turns[shown]?.versions : undefined;
      if (versions) set({ versionSaid: `Version ${versions.index + 1} of ${versions.count}` });
      void get().refreshContext();
      return shown;
    },
  };
};

/** The versions a turn that replaces `turn` will have: the old one is kept when it was answered. */
function nextVersions(turn: TurnView): Versions | undefined {
  const count = (turn.versions?.count ?? 1) + (turn.parts.length ? 1 : 0);
  return count > 1 ? { index: count - 1, count } : undefined;
}

/** A refused send's reasons, as the composer's alerts show them. */
function refusalNotices(turn: TurnView): RefusalNotice[] {
  return turn.refusals.map((r, i) => ({ key: `${turn.id}-${i}`, name: r.name ?? r.origin, code: r.code, message: r.message, fromSend: true }));
}

/** "Show anyway" choices for this send, by attachment id (main's door makes the copy with them). */
function shownAnyway(attachments: readonly AttachmentLike[]): { shown?: Record<string, Redaction[]>; sendAnyway?: string[] } {
  const entries = attachments.flatMap((a) => (a.shown?.length ? [[a.id, a.shown] as const] : []));
  const unchecked = attachments.filter((a) => a.sendAnyway).map((a) => a.id);
  return { ...(entries.length ? { shown: Object.fromEntries(entries) } : {}), ...(unchecked.length ? { sendAnyway: unchecked } : {}) };
}
