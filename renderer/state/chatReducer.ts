// The chat view as a pure fold of the `ChatEvent` stream (the same events `glance ask --json`
// prints), plus the few things only the renderer knows (a turn it started, a send that failed).
// History goes through the same reducer: a stored conversation arrives as turns with events.
import type { ChatEvent, ToolApprovalDecision } from '../../common/events.ts';
import type { AttachmentInfo } from '../../common/images.ts';
import type { ConversationView } from '../../common/ipc.ts';
import type { MarksById } from '../../common/marks.ts';
import type { Redaction } from '../../common/privacy.ts';
import type { ModelSelection } from '../../common/settings.ts';

/** An image as the chat shows it. Sizes are absent only for history whose events lack them. */
export type ImageView = {
  id: string;
  name: string;
  origin: string;
  mime?: string;
  width?: number;
  height?: number;
  bytes?: number;
  /** What a vision helper told the blind chat model about it (all that model got). */
  description?: { model: string; text: string };
  /** The model's token estimate for it (null: unknown for that model). */
  tokens?: number | null;
  /** The tool call that captured it. */
  toolCallId?: string;
  /** Shown to the model as an ephemeral user turn… */
  delivered: boolean;
  /** …and replaced by a text stub when the turn ended. */
  retracted: boolean;
  /** A blind model got this image's text, read by local OCR, instead of the image. */
  /** sentChars: only that much of the reading (its beginning and end) fitted the model's context window. */
  sentAsText?: { chars: number; engine: string; text?: string; sentChars?: number };
  /** Went with its window's own words, read from accessibility ("This window"). */
  windowText?: string;
  /** Regions hidden on this device before the model got it (image_redacted), in the original's pixels. */
  redactions?: Redaction[];
  /** The original's size (marks are in its pixels). */
  source?: { width: number; height: number };
};

export type ToolCallView = {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Display names from main (MCP titles), when the tool has them. */
  title?: string;
  /** The MCP server's configured name; the title it gives itself; its own name for the tool. */
  server?: string;
  serverTitle?: string;
  tool?: string;
  /** `cancelled`: stopped by the user (not a failure of the tool). */
  status: 'running' | 'finished' | 'failed' | 'cancelled';
  /** Not run: switched off for this conversation (not a failure). */
  switchedOff?: boolean;
  progress?: { progress: number; total?: number; message?: string };
  durationMs?: number;
  text?: string;
  attachmentIds: string[];
  /** Consent for a tool that can change things: `pending` shows the approval card. */
  approval?: { decision: ToolApprovalDecision; by?: string; reason?: string; claim?: 'read-only' };
};

/** The assistant's side of a turn, in the order it arrived. */
type Part = { kind: 'text'; text: string } | { kind: 'thinking'; text: string } | { kind: 'tool'; id: string };

type TurnStatus = 'sending' | 'streaming' | 'done' | 'failed' | 'cancelled' | 'refused';

type Refusal = { origin: string; code: string; message: string; name?: string };

export type TurnView = {
  id: string;
  text: string;
  createdAt?: string;
  /** Images on the user's message. */
  userAttachmentIds: string[];
  /** True until the engine confirms the user's images (it re-checks them for the model). */
  optimistic: boolean;
  parts: Part[];
  tools: Record<string, ToolCallView>;
  images: Record<string, ImageView>;
  refusals: Refusal[];
  /** Tool servers this answer goes without (still starting, waiting for an answer, failed), in words; the latest said. */
  toolServers?: string;
  error?: { code: string; message: string };
  status: TurnStatus;
  model?: ModelSelection;
  /** Marks drawn on the user's images, by attachment id (sent with it and stored). */
  marks?: MarksById;
  /** The ids the images were sent under (main confirms them under the ids of their copies for the model). */
  sentIds?: string[];
  /** Version `index` (from 0) of `count`: Regenerate, Edit and Retry keep the versions they replace. */
  versions?: Versions;
  /** Events applied so far (by `seq`): a turn resumed mid-answer skips those it already holds. */
  seen: number;
};

/** What the renderer knows of an image it sends: all of AttachmentInfo for a fresh one, less for a re-sent one. */
export type AttachmentLike = Pick<AttachmentInfo, 'id' | 'name' | 'origin'> & {
  mime?: string;
  width?: number;
  height?: number;
  bytes?: number;
  tokens?: number | null;
  /** The original's size: marks are drawn in its pixels. */
  source?: { width: number; height: number };
  /** Regions hidden on this device in the copy the model gets (main's door found them). */
  redactions?: Redaction[];
  /** Regions the person chose "Show anyway" for: sent as they are, this send only (main makes the copy). */
  shown?: Redaction[];
  /** "Send anyway" after redaction-failed: the person chose to send it although it could not be checked. */
  sendAnyway?: boolean;
};

export type Versions = { index: number; count: number };

export type ChatState = {
  conversationId: string | null;
  order: string[];
  turns: Record<string, TurnView>;
};

export type ChatAction =
  | { type: 'reset' }
  | { type: 'loaded'; view: ConversationView }
  | { type: 'turn_started'; turnId: string; text: string; attachments: readonly AttachmentLike[]; model?: ModelSelection; createdAt?: string; marks?: MarksById; versions?: Versions }
  | { type: 'turn_accepted'; turnId: string; conversationId: string }
  /** `chat:send` itself failed (bad request, main unreachable): no events will come. */
  | { type: 'turn_failed'; turnId: string; code: string; message: string }
  /** A retry replaces the failed turn it repeats. */
  | { type: 'turn_removed'; turnId: string }
  /** Edit / Regenerate: this turn and every later one give way to a new one. */
  | { type: 'turns_truncated'; fromTurnId: string }
  | { type: 'event'; turnId: string; conversationId: string; seq?: number; event: ChatEvent };

export const initialChatState: ChatState = Object.freeze({ conversationId: null, order: [], turns: {} }) as ChatState;

export function isRunning(turn: Pick<TurnView, 'status'>): boolean {
  return turn.status === 'sending' || turn.status === 'streaming';
}

function newTurn(id: string, text: string, fields: Partial<TurnView> = {}): TurnView {
  return { id, text, userAttachmentIds: [], optimistic: false, parts: [], tools: {}, images: {}, refusals: [], status: 'sending', seen: 0, ...fields };
}

function imageFromInfo(a: AttachmentLike): ImageView {
  const { id, name, origin, mime, width, height, bytes, tokens } = a;
  return { id, name, origin, mime, width, height, bytes, ...(tokens === undefined ? {} : { tokens }), delivered: false, retracted: false };
}

function withTurn(state: ChatState, turn: TurnView): ChatState {
  const known = turn.id in state.turns;
  return { ...state, order: known ? state.order : [...state.order, turn.id], turns: { ...state.turns, [turn.id]: turn } };
}

function appendPart(parts: Part[], kind: 'text' | 'thinking', delta: string): Part[] {
  const last = parts.at(-1);
  if (last && last.kind === kind) return [...parts.slice(0, -1), { kind, text: last.text + delta }];
  return [...parts, { kind, text: delta }];
}

function markImages(images: Record<string, ImageView>, ids: readonly string[], change: Partial<ImageView>): Record<string, ImageView> {
  const next = { ...images };
  for (const id of ids) {
    // An id the stream never introduced (history trimmed by retention) still gets a row.
    const image = next[id] ?? { id, name: 'image', origin: 'tool', delivered: false, retracted: false };
    next[id] = { ...image, ...change };
  }
  return next;
}

/** One event applied to one turn. Pure; unknown fields are ignored. */
function applyEvent(turn: TurnView, event: ChatEvent): TurnView {
  const streaming: TurnStatus = turn.status === 'sending' ? 'streaming' : turn.status;
  switch (event.type) {
    case 'text':
      return { ...turn, status: streaming, parts: appendPart(turn.parts, 'text', event.delta) };
    case 'thinking':
      return { ...turn, status: streaming, parts: appendPart(turn.parts, 'thinking', event.delta) };
    case 'tool_call': {
      const existing = turn.tools[event.id];
      const names = {
        ...(event.title ? { title: event.title } : {}),
        ...(event.server ? { server: event.server } : {}),
        ...(event.serverTitle ? { serverTitle: event.serverTitle } : {}),
        ...(event.tool !== undefined ? { tool: event.tool } : {}),
      };
      const tool: ToolCallView = existing
        ? { ...existing, name: event.name, arguments: event.arguments, ...names }
        : { id: event.id, name: event.name, arguments: event.arguments, ...names, status: 'running', attachmentIds: [] };
      return {
        ...turn,
        status: streaming,
        tools: { ...turn.tools, [event.id]: tool },
        parts: existing ? turn.parts : [...turn.parts, { kind: 'tool', id: event.id }],
      };
    }
    case 'tool_progress': {
      const tool = turn.tools[event.id];
      if (!tool) return turn;
      const progress = { progress: event.progress, ...(event.total === undefined ? {} : { total: event.total }), ...(event.message === undefined ? {} : { message: event.message }) };
      return { ...turn, tools: { ...turn.tools, [event.id]: { ...tool, progress } } };
    }
    case 'tool_result': {
      const existing = turn.tools[event.id];
      const base: ToolCallView = existing ?? { id: event.id, name: event.name, arguments: {}, status: 'running', attachmentIds: [] };
      const ids = [...new Set([...base.attachmentIds, ...(event.attachmentIds ?? [])])];
      const tool: ToolCallView = {
        ...base,
        status: event.ok ? 'finished' : event.cancelled ? 'cancelled' : 'failed',
        ...(event.switchedOff ? { switchedOff: true } : {}),
        text: event.text,
        attachmentIds: ids,
        ...(event.durationMs === undefined ? {} : { durationMs: event.durationMs }),
      };
      return { ...turn, tools: { ...turn.tools, [event.id]: tool }, parts: existing ? turn.parts : [...turn.parts, { kind: 'tool', id: event.id }] };
    }
    case 'image_attached': {
      const previous = turn.images[event.attachmentId];
      const image: ImageView = {
        id: event.attachmentId,
        name: event.name ?? previous?.name ?? 'image',
        origin: event.origin,
        mime: event.mime,
        width: event.width,
        height: event.height,
        bytes: event.bytes,
        ...(event.tokens === undefined ? {} : { tokens: event.tokens }),
        delivered: previous?.delivered ?? false,
        retracted: previous?.retracted ?? false,
        ...(event.toolCallId === undefined ? {} : { toolCallId: event.toolCallId }),
        ...(event.source ? { source: event.source } : previous?.source ? { source: previous.source } : {}),
      };
      const images = { ...turn.images, [image.id]: image };
      if (event.toolCallId !== undefined) {
        const tool = turn.tools[event.toolCallId];
        if (!tool || tool.attachmentIds.includes(image.id)) return { ...turn, images };
        return { ...turn, images, tools: { ...turn.tools, [tool.id]: { ...tool, attachmentIds: [...tool.attachmentIds, image.id] } } };
      }
      // The engine's confirmation replaces what the renderer showed while sending.
      const base = turn.optimistic ? [] : turn.userAttachmentIds;
      const userAttachmentIds = base.includes(image.id) ? base : [...base, image.id];
      // Its marks follow it to the id main confirmed it under (same order as sent).
      const sentId = turn.sentIds?.[userAttachmentIds.indexOf(image.id)];
      const drawn = sentId !== undefined && sentId !== image.id ? turn.marks?.[sentId] : undefined;
      const marks = drawn ? { ...turn.marks, [image.id]: drawn } : turn.marks;
      return { ...turn, images, optimistic: false, userAttachmentIds, ...(marks ? { marks } : {}) };
    }
    case 'image_refused':
      return { ...turn, refusals: [...turn.refusals, { origin: event.origin, code: event.code, message: event.message, ...(event.name ? { name: event.name } : {}) }] };
    case 'image_described': {
      const image = turn.images[event.attachmentId];
      if (!image) return turn;
      return { ...turn, images: { ...turn.images, [image.id]: { ...image, description: { model: event.model, text: event.text } } } };
    }
    case 'image_transcribed': {
      const image = turn.images[event.attachmentId];
      if (!image) return turn;
      const sentAsText = { chars: event.chars, engine: event.engine, ...(event.text === undefined ? {} : { text: event.text }), ...(event.sentChars === undefined ? {} : { sentChars: event.sentChars }) };
      return { ...turn, images: { ...turn.images, [image.id]: { ...image, sentAsText } } };
    }
    case 'image_window_text': {
      const image = turn.images[event.attachmentId];
      if (!image) return turn;
      return { ...turn, images: { ...turn.images, [image.id]: { ...image, windowText: event.text } } };
    }
    case 'image_redacted': {
      const image = turn.images[event.attachmentId];
      if (!image) return turn;
      return { ...turn, images: { ...turn.images, [image.id]: { ...image, redactions: event.regions } } };
    }
    case 'image_delivered':
      return { ...turn, images: markImages(turn.images, event.attachmentIds, { delivered: true }) };
    case 'tool_approval': {
      const tool = turn.tools[event.id];
      if (!tool) return turn;
      const approval = { decision: event.decision, ...(event.by ? { by: event.by } : {}), ...(event.reason ? { reason: event.reason } : {}), ...(event.claim ? { claim: event.claim } : {}) };
      return { ...turn, tools: { ...turn.tools, [event.id]: { ...tool, approval } } };
    }
    case 'image_retracted':
      return { ...turn, images: markImages(turn.images, event.attachmentIds, { retracted: true }) };
    case 'tool_servers':
      return { ...turn, toolServers: event.text };
    case 'error': {
      const status: TurnStatus = event.code === 'cancelled' ? 'cancelled' : event.code === 'image-refused' ? 'refused' : 'failed';
      return { ...turn, status, error: { code: event.code, message: event.message } };
    }
    case 'done': {
      // A tool card still "running" when the turn ended never got its result.
      // A question nobody answered is no longer asked.
      const tools = Object.fromEntries(
        Object.entries(turn.tools).map(([id, t]) => {
          const ended = t.status === 'running' ? { ...t, status: turn.status === 'cancelled' ? ('cancelled' as const) : ('failed' as const) } : t;
          return [id, ended.approval?.decision === 'pending' ? { ...ended, approval: { decision: 'deny' as const, reason: 'The turn ended before an answer.' } } : ended];
        }),
      );
      return { ...turn, tools, status: isRunning(turn) ? 'done' : turn.status };
    }
  }
}

export function reduceChat(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'reset':
      return initialChatState;
    case 'loaded': {
      const { view } = action;
      const turns: Record<string, TurnView> = {};
      const order: string[] = [];
      for (const stored of view.turns) {
        const images: Record<string, ImageView> = {};
        for (const id of stored.attachmentIds) images[id] = { id, name: 'image', origin: 'user', delivered: false, retracted: false };
        let turn = newTurn(stored.id, stored.text, {
          createdAt: stored.createdAt,
          userAttachmentIds: [...stored.attachmentIds],
          optimistic: false,
          images,
          status: 'streaming',
          ...(stored.model ? { model: stored.model } : {}),
          ...(stored.marks ? { marks: stored.marks } : {}),
          ...(stored.versions ? { versions: stored.versions } : {}),
        });
        for (const event of stored.events) turn = applyEvent(turn, event);
        turn.seen = stored.events.length;
        // History without a `done` (the app stopped mid-turn) is over all the same; a live turn goes on.
        if (isRunning(turn) && !stored.live) turn = { ...turn, status: turn.parts.length ? 'done' : 'failed', ...(turn.parts.length ? {} : { error: { code: 'interrupted', message: 'This turn did not finish.' } }) };
        turns[turn.id] = turn;
        order.push(turn.id);
      }
      return { conversationId: view.id, order, turns };
    }
    case 'turn_started': {
      const images: Record<string, ImageView> = {};
      for (const a of action.attachments) images[a.id] = imageFromInfo(a);
      const turn = newTurn(action.turnId, action.text, {
        userAttachmentIds: action.attachments.map((a) => a.id),
        optimistic: action.attachments.length > 0,
        images,
        ...(action.model ? { model: action.model } : {}),
        ...(action.createdAt ? { createdAt: action.createdAt } : {}),
        ...(action.versions ? { versions: action.versions } : {}),
        ...(action.marks ? { marks: action.marks, sentIds: action.attachments.map((a) => a.id) } : {}),
      });
      return withTurn(state, turn);
    }
    case 'turn_accepted': {
      const turn = state.turns[action.turnId];
      // Events may have finished the turn before `chat:send` answered: a refused first turn stays unsaved.
      if (!turn || state.conversationId !== null || turn.status === 'refused') return state;
      return { ...state, conversationId: action.conversationId };
    }
    case 'turn_failed': {
      const turn = state.turns[action.turnId];
      if (!turn) return state;
      return withTurn(state, { ...turn, status: 'failed', error: { code: action.code, message: action.message } });
    }
    case 'turn_removed': {
      if (!(action.turnId in state.turns)) return state;
      const { [action.turnId]: _removed, ...turns } = state.turns;
      return { ...state, order: state.order.filter((id) => id !== action.turnId), turns };
    }
    case 'turns_truncated': {
      const at = state.order.indexOf(action.fromTurnId);
      if (at < 0) return state;
      const turns = { ...state.turns };
      for (const id of state.order.slice(at)) delete turns[id];
      return { ...state, order: state.order.slice(0, at), turns };
    }
    case 'event': {
      let turn = state.turns[action.turnId];
      if (!turn) {
        // A turn another window started in the conversation shown here (the ask window).
        if (state.conversationId === null || action.conversationId !== state.conversationId) return state;
        turn = newTurn(action.turnId, '', { status: 'streaming' });
      }
      // Already in the view the turn was resumed from.
      if (action.seq !== undefined && action.seq < turn.seen) return state;
      const seen = action.seq === undefined ? turn.seen + 1 : action.seq + 1;
      const next = withTurn(state, { ...applyEvent(turn, action.event), seen });
      if (next.conversationId === null && action.conversationId) next.conversationId = action.conversationId;
      // A first turn whose images were all refused created nothing: the next send starts anew.
      if (action.event.type === 'done' && next.order.every((id) => next.turns[id]!.status === 'refused')) next.conversationId = null;
      return next;
    }
  }
}

/** The running turn of the conversation shown, if any (one at a time). */
export function runningTurnId(state: ChatState): string | undefined {
  for (let i = state.order.length - 1; i >= 0; i--) {
    const id = state.order[i]!;
    if (isRunning(state.turns[id]!)) return id;
  }
  return undefined;
}

/**
 * A turn whose images main's gate has not answered for yet (or refused): nothing of it is shown
 * as sent. Its text and images stay in the composer until the gate lets them through.
 */
export function awaitingGate(turn: Pick<TurnView, 'optimistic' | 'status'>): boolean {
  return turn.optimistic && (turn.status === 'sending' || turn.status === 'refused');
}

/** The turns the message list shows: all but those still waiting for the gate. */
export function shownTurnIds(state: ChatState): string[] {
  return state.order.filter((id) => !awaitingGate(state.turns[id]!));
}

/** The text of the answer so far: every text part of the turn, in order. */
export function answerText(turn: Pick<TurnView, 'parts'>): string {
  return turn.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('');
}

/** True when events of a turn went missing (sent while this window was not listening): time to fetch the conversation again. */
export function missedEvents(state: ChatState, turnId: string, conversationId: string, seq: number | undefined): boolean {
  if (seq === undefined || state.conversationId !== conversationId) return false;
  const turn = state.turns[turnId];
  return seq > (turn?.seen ?? 0);
}
