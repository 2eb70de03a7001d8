import { randomUUID } from 'node:crypto';
import type { MarksById } from '../../common/marks.ts';
import { displayName } from '../../common/fileNames.ts';
import { imageAttachedEvent, imageRedactedEvent, imageTranscribedEvent, type ChatEvent } from '../../common/events.ts';
import type { ToolSwitches } from '../../common/ipcPayloads.ts';
import type { AttachmentInfo } from '../../common/images.ts';
import type { Limits } from '../../common/limits.ts';
import type { ModelCapabilities } from '../../common/models.ts';
import type { ImageIntake } from '../images/imageIntake.ts';
import type { Egress } from '../egress/egress.ts';
import type { AttachmentStore, ImageInput, ImageTarget } from '../images/types.ts';
import type { ModelProvider } from '../models/provider.ts';
import { abortable } from '../abortable.ts';
import { safeErrorText } from '../scrubSecrets.ts';
import type { ToolRegistry } from '../tools/tool.ts';
import type { StoredUserMessage } from './conversation.ts';
import { NotStoredError, type ConversationStore } from './conversationStore.ts';
import { ConversationBusyError, type ConversationLock } from './conversationLock.ts';
import { recoverUnfinishedTurn } from './recoverTurn.ts';
import { writeProblem } from './writeProblem.ts';
import { makeRoom } from './versions.ts';
import type { ToolApprover } from './toolApproval.ts';
import { HELPER_PROMPT, now, toError, TurnLoop } from './turnLoop.ts';
import type { ContextWindow } from './historyBudget.ts';
import type { ContextEstimate } from '../../common/ipc.ts';
import type { RedactPolicy, Redaction } from '../../common/privacy.ts';
import { estimateContext, type ContextRequest } from './contextEstimate.ts';
import { imageRoute } from './imageRoute.ts';

/** A model with everything the engine needs to know about it, resolved by a composition root. */
export type ModelChoice = {
  provider: ModelProvider;
  model: string;
  /** Capabilities after settings/flag overrides. */
  capabilities: ModelCapabilities;
  /** Where its images go through the gate (profile included). */
  target: ImageTarget;
  /** The OpenAI-compatible endpoint's name in settings, when it came from one. */
  endpoint?: string;
  /** The model runs off this machine (not loopback): what tools capture leaves it. */
  remote?: boolean;
  /** Its context window: requests are fitted to it (historyBudget.ts). Absent: nothing is trimmed. */
  context?: ContextWindow;
};

/** `shown`: regions of that image the person chose to show for this send ("Show anyway"). */
export type TurnAttachment = ({ attachmentId: string; shown?: Redaction[] } | ImageInput) & { /** "Send anyway" after redaction-failed: this image only. */ sendAnyway?: true };

export type TurnRequest = {
  conversationId?: string;
  /** With conversationId: start a new conversation under that id when none exists yet. */
  createIfMissing?: boolean;
  /** Retry: the conversation's last user turn, if it repeats this one and never finished, is replaced. */
  replaceLastTurn?: boolean;
  /** Edit / Regenerate: the stored user turn with this id, and all after it, give way to this one. */
  replaceFrom?: string;
  text: string;
  /** The stored user message's id (default: a fresh one); the UI passes its turn id to find the turn again. */
  userMessageId?: string;
  attachments?: TurnAttachment[];
  /** Marks the person drew, by the attachment id sent (in its original's pixels): stored with the message, drawn into what is sent. */
  marks?: MarksById;
  /** The names the images have in the draft, by the attachment id sent: stored with the message, shown and told to the model. */
  names?: Record<string, string>;
  chat: ModelChoice;
  /** A vision model that describes images for a blind chat model (architecture §3, "vision helper"). */
  helper?: ModelChoice;
  signal?: AbortSignal;
  think?: boolean;
  /** Asked before a tool that needs consent runs; absent: such tools are not run. */
  approver?: ToolApprover;
  /** Servers and tools switched off for this conversation: stored with it before the turn runs. */
  tools?: ToolSwitches;
};

export type TurnOutcome = {
  status: 'done' | 'refused' | 'failed' | 'cancelled';
  conversationId: string;
  text: string;
  error?: { code: string; message: string };
};

export type ChatEngineDeps = {
  conversations: ConversationStore;
  attachments: AttachmentStore;
  intake: ImageIntake;
  /** The way out (architecture §3b): every image a request carries is the egress's copy for that request's model. */
  egress: Egress;
  tools: ToolRegistry;
  /** maxStepsPerTurn: the last step is offered no tools, so the model must answer. */
  limits: Pick<Limits, 'maxImageDeliveriesPerTurn' | 'maxImagesPerRequest' | 'maxStepsPerTurn' | 'maxImagesPerToolResult' | 'maxAnswerChars' | 'maxInputPixels' | 'streamIdleMs' | 'maxAnswerMs'>;
  systemPrompt?: string;
  /** Secret values (API keys, MCP tokens) to strip from error text, besides key-shaped patterns. */
  secrets?: () => Iterable<string>;
  /** The redaction a person set for one conversation (Settings → Privacy), over the settings' policy. */
  redactFor?: (conversationId: string) => RedactPolicy | undefined;
  /** A window's own words kept with its image ("This window"), as the model reads them: they go beside it (architecture §7). */
  windowTextOf?: (image: AttachmentInfo) => string | undefined;
};

/**
 * The conversation engine (architecture §5): one user turn = model steps until the model answers
 * without tool calls. Tool-captured images are shown to a seeing model as synthetic user
 * turns, bounded per turn, and retracted into text stubs when the turn ends.
 */
export class ChatEngine {
  readonly #deps: ChatEngineDeps;

  constructor(deps: ChatEngineDeps) {
    this.#deps = deps;
  }

  /** The next request's size (history + draft) against the model's context window: the composer's meter. `chat` and `seer` as the route gave them (imageRoute). */
  contextEstimate(request: ContextRequest): Promise<ContextEstimate> {
    return estimateContext(this.#deps, request);
  }

  async runTurn(request: TurnRequest, emit: (event: ChatEvent) => void): Promise<TurnOutcome> {
    const signal = request.signal ?? new AbortController().signal;
    let lock: ConversationLock | undefined;
    if (request.conversationId) {
      try {
        lock = await this.#deps.conversations.lock(request.conversationId, { signal });
      } catch (error) {
        // A data folder that cannot be written takes no lock either (nor another writer's save): the
        // turn runs, the person reads the answer, and its last save says it was not stored.
        if (error instanceof NotStoredError) return this.#runLocked(request, signal, emit);
        const mapped = error instanceof ConversationBusyError ? { code: error.code, message: error.message } : this.#toError(error, signal);
        emit({ type: 'error', code: mapped.code, message: mapped.message });
        emit({ type: 'done', conversationId: request.conversationId, text: '' });
        return { status: mapped.code === 'cancelled' ? 'cancelled' : 'failed', conversationId: request.conversationId, text: '', error: mapped };
      }
    }
    try {
      return await this.#runLocked(request, signal, emit);
    } finally {
      await lock?.release();
    }
  }

  /**
   * A send whose model could not even be reached or named (the server down, no model yet) is
   * stored all the same — the person's words and images, with no answer — so a first chat is
   * listed and nothing is lost; Retry (or the reconnect) sends it, replacing this turn.
   */
  async recordUnsent(request: Omit<TurnRequest, 'chat' | 'attachments'> & { attachmentIds: string[] }, error: { code: string; message: string }, emit: (event: ChatEvent) => void): Promise<TurnOutcome> {
    const { conversations } = this.#deps;
    const id = request.conversationId ?? '';
    const failed = (e: { code: string; message: string }): TurnOutcome => {
      emit({ type: 'error', ...e });
      emit({ type: 'done', conversationId: id, text: '' });
      return { status: 'failed', conversationId: id, text: '', error: e };
    };
    let lock: ConversationLock | undefined;
    try {
      lock = request.conversationId ? await conversations.lock(request.conversationId) : undefined;
      const existing = request.conversationId ? await conversations.get(request.conversationId) : undefined;
      if (existing) recoverUnfinishedTurn(existing);
      if (!existing && !request.createIfMissing) return failed(error);
      const conversation = existing ?? conversations.create(titleFrom(request.text), request.conversationId);
      makeRoom(conversation, request);
      if (request.tools) conversation.tools = request.tools;
      const marks = Object.fromEntries(Object.entries(request.marks ?? {}).filter(([a, m]) => m.length && request.attachmentIds.includes(a)));
      const names = Object.fromEntries(Object.entries(request.names ?? {}).flatMap(([a, n]) => (request.attachmentIds.includes(a) ? [[a, displayName(n)]] : [])));
      conversation.messages.push({
        role: 'user',
        id: request.userMessageId ?? randomUUID(),
        text: request.text,
        attachmentIds: request.attachmentIds,
        ...(Object.keys(marks).length ? { marks } : {}),
        ...(Object.keys(names).length ? { names } : {}),
        unsent: error,
        createdAt: now(),
      });
      await conversations.save(conversation);
    } catch (stored) {
      // Not stored either: the person still sees why it was not sent (and the box's Retry).
      return failed(stored instanceof NotStoredError ? { code: stored.code, message: `${error.message} ${stored.message}` } : error);
    } finally {
      await lock?.release();
    }
    return failed(error);
  }

  /** Error text as a person sees it: a code, and a message redacted and bounded. */
  #toError(error: unknown, signal: AbortSignal): { code: string; message: string } {
    const mapped = toError(error, signal);
    return { code: mapped.code, message: safeErrorText(mapped.message, this.#deps.secrets?.() ?? []) };
  }

  async #runLocked(given: TurnRequest, signal: AbortSignal, emit: (event: ChatEvent) => void): Promise<TurnOutcome> {
    const deps = this.#deps;
    // The one route (imageRoute): which model sees this turn's images, under the conversation's own policy.
    const route = imageRoute(given, given.conversationId ? deps.redactFor?.(given.conversationId) : undefined);
    const request: TurnRequest = { ...given, chat: route.chat, ...(route.helper ? { helper: route.helper } : {}) };
    const { seer } = route;

    const existing = request.conversationId ? await deps.conversations.get(request.conversationId) : undefined;
    // Under the lock, a live delivery is a crashed turn's: retract it before it rides again.
    if (existing) recoverUnfinishedTurn(existing);
    if (request.conversationId && !existing && !request.createIfMissing) {
      const message = `No conversation with id ${request.conversationId}.`;
      emit({ type: 'error', code: 'conversation-not-found', message });
      emit({ type: 'done', conversationId: request.conversationId, text: '' });
      return { status: 'failed', conversationId: request.conversationId, text: '', error: { code: 'conversation-not-found', message } };
    }

    // 1. The user's images go through the gate before anything is sent or stored.
    const attached: AttachmentInfo[] = [];
    const transcripts = new Map<string, { text: string; engine: string }>();
    const marks: MarksById = {};
    const names: Record<string, string> = {};
    const windowTexts: Record<string, string> = {};
    let refused = false;
    let unstored = false;
    for (const item of request.attachments ?? []) {
      // A blind model with no helper gets the text of a text-bearing image: the door decides.
      const result = await this.#attach(item, route.target, signal);
      if (result.ok && result.transcript) transcripts.set(result.attachment.id, result.transcript);
      if (result.ok) {
        // The draft's name for it, not the last name its bytes came with.
        const given = 'attachmentId' in item ? request.names?.[item.attachmentId] : undefined;
        if (given) names[result.attachment.id] = displayName(given);
        attached.push(given ? { ...result.attachment, name: displayName(given) } : result.attachment);
        // Marks follow the image to the copy fitted for this model (the same original, so the same pixels).
        const drawn = 'attachmentId' in item ? request.marks?.[item.attachmentId] : undefined;
        if (drawn?.length) marks[result.attachment.id] = drawn;
        // A window the person attached with its own words read from accessibility: they go with it, kept in the history as text.
        const own = deps.windowTextOf?.(result.attachment);
        if (own !== undefined) windowTexts[result.attachment.id] = own;
      } else {
        refused = true;
        unstored ||= result.code === 'not-stored';
        const name = 'attachmentId' in item ? (await deps.attachments.info(item.attachmentId))?.name : item.name;
        emit({ type: 'image_refused', origin: 'origin' in item ? item.origin : 'user', code: result.code, message: result.message, ...(name ? { name } : {}) });
      }
    }
    if (refused) {
      // An image the store could not keep is a storage fault (the CLI: exit 5), not a bad image.
      const code = unstored ? 'not-stored' : 'image-refused';
      const message = `Nothing was sent: an attached image was ${unstored ? 'not stored' : 'refused'}.`;
      const id = existing?.id ?? request.conversationId ?? '';
      emit({ type: 'error', code, message });
      emit({ type: 'done', conversationId: id, text: '' });
      return { status: 'refused', conversationId: id, text: '', error: { code, message } };
    }

    const conversation = existing ?? deps.conversations.create(titleFrom(request.text), request.conversationId);
    makeRoom(conversation, request);
    conversation.model = { provider: request.chat.provider.kind, name: request.chat.model };
    if (request.chat.endpoint) conversation.model.endpoint = request.chat.endpoint;
    if (request.tools) conversation.tools = request.tools;
    for (const a of attached) {
      emit(imageAttachedEvent(a, a.origin));
      const hidden = imageRedactedEvent(a);
      if (hidden) emit(hidden);
      const t = transcripts.get(a.id);
      if (t) emit(imageTranscribedEvent(a.id, a.origin, t));
      const own = windowTexts[a.id];
      if (own !== undefined) emit({ type: 'image_window_text', attachmentId: a.id, text: own });
    }
    const userMessage: StoredUserMessage = {
      role: 'user',
      id: request.userMessageId ?? randomUUID(),
      text: request.text,
      attachmentIds: attached.map((a) => a.id),
      ...(transcripts.size ? { transcripts: Object.fromEntries(transcripts) } : {}),
      ...(Object.keys(marks).length ? { marks } : {}),
      ...(Object.keys(names).length ? { names } : {}),
      ...(Object.keys(windowTexts).length ? { windowTexts } : {}),
      model: { ...conversation.model },
      createdAt: now(),
    };
    conversation.messages.push(userMessage);
    // A data folder that cannot be written does not stop the answer: the person reads it as it
    // streams, and the last save below says it was not stored (the CLI: after the answer, exit 5).
    await deps.conversations.save(conversation).catch(unlessNotStored);

    const turn = new TurnLoop(conversation, request, seer, deps, emit, signal);
    turn.madeForThisTurn(attached.map((a) => a.id));
    let outcome: TurnOutcome;
    let notStored: NotStoredError | undefined;
    try {
      if (route.way === 'described' && seer && attached.length) {
        userMessage.descriptions = {};
        userMessage.describedBy = seer.model;
        for (const a of attached) {
          const text = await turn.describe([a.id], HELPER_PROMPT, signal);
          userMessage.descriptions[a.id] = text;
          emit({ type: 'image_described', attachmentId: a.id, model: seer.model, text });
        }
      }
      const text = await turn.run();
      outcome = { status: 'done', conversationId: conversation.id, text };
    } catch (error) {
      const mapped = this.#toError(error, signal);
      emit({ type: 'error', code: mapped.code, message: mapped.message });
      outcome = {
        status: mapped.code === 'cancelled' ? 'cancelled' : 'failed',
        conversationId: conversation.id,
        text: turn.answer,
        error: mapped,
      };
    } finally {
      turn.close();
      turn.retract();
      notStored = await deps.conversations.save(conversation).then(() => undefined, unlessNotStored);
    }
    if (notStored) {
      emit({ type: 'error', code: notStored.code, message: notStored.message });
      outcome = { status: outcome.status === 'cancelled' ? 'cancelled' : 'failed', conversationId: conversation.id, text: outcome.text, error: { code: notStored.code, message: notStored.message } };
    }
    emit({ type: 'done', conversationId: conversation.id, text: outcome.text });
    return outcome;
  }

  async #attach(item: TurnAttachment, target: ImageTarget, signal: AbortSignal) {
    // Always through the door: the model may have changed since the image was first attached.
    // A stored image is fitted anew from its original, once per target. Stop ends the wait
    // even if a read ignores the signal. "Show anyway" is this image's and this send's alone.
    const shown = 'attachmentId' in item && item.shown?.length ? item.shown : undefined;
    const { sendAnyway, ...rest } = item;
    const ref = 'attachmentId' in rest ? { attachmentId: rest.attachmentId } : rest;
    const own = { ...target, ...(shown ? { shown } : {}), ...(sendAnyway ? { sendAnyway } : {}) };
    return abortable(this.#deps.intake.admit(ref, own, 'user', { signal }), signal).catch(async (error: unknown) => {
      const problem = signal.aborted ? undefined : await writeProblem(error, 'the attachment store');
      if (problem) return { ok: false as const, code: 'not-stored' as const, message: `The image could not be stored: ${problem}. Glance needs a data folder it may write.` };
      return { ok: false as const, code: 'source-unreachable' as const, message: signal.aborted ? 'Stopped before the image was read.' : `The image could not be taken in: ${this.#toError(error, signal).message}` };
    });
  }
}

/** A save's NotStoredError is returned (the turn goes on); anything else still throws. */
function unlessNotStored(error: unknown): NotStoredError {
  if (error instanceof NotStoredError) return error;
  throw error;
}

function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'New chat';
}
