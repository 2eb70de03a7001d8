import { randomUUID } from 'node:crypto';
import type { ChatEvent } from '../../common/events.ts';
import type { AttachmentInfo } from '../../common/images.ts';
import type { Limits } from '../../common/limits.ts';
import type { ModelCapabilities } from '../../common/models.ts';
import type { ImageIntake } from '../images/imageIntake.ts';
import type { AttachmentStore, ImageInput, ImageTarget } from '../images/types.ts';
import { ProviderError, type ModelProvider, type ModelRequest, type ToolCall } from '../models/provider.ts';
import type { Tool, ToolOutcome, ToolRegistry } from '../tools/tool.ts';
import { buildMessages } from './buildMessages.ts';
import type { Conversation, StoredDeliveryMessage, StoredMessage, StoredToolMessage, StoredUserMessage } from './conversation.ts';
import type { ConversationStore } from './conversationStore.ts';

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
};

export type TurnAttachment = { attachmentId: string } | ImageInput;

export type TurnRequest = {
  conversationId?: string;
  /** With conversationId: start a new conversation under that id when none exists yet. */
  createIfMissing?: boolean;
  /** Retry: the conversation's last user turn, if it repeats this one and never finished, is replaced. */
  replaceLastTurn?: boolean;
  text: string;
  /** The stored user message's id (default: a fresh one); the UI passes its turn id to find the turn again. */
  userMessageId?: string;
  attachments?: TurnAttachment[];
  chat: ModelChoice;
  /** A vision model that describes images for a blind chat model (DESIGN §3, "vision helper"). */
  helper?: ModelChoice;
  signal?: AbortSignal;
  think?: boolean;
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
  tools: ToolRegistry;
  limits: Pick<Limits, 'maxImageDeliveriesPerTurn' | 'maxImagesPerRequest'>;
  systemPrompt?: string;
  /** Model steps per user turn; the last one is offered no tools so the model must answer. */
  maxSteps?: number;
};

const HELPER_PROMPT =
  'Describe this image for someone who cannot see it. Transcribe every legible piece of text exactly. ' +
  'Name colours, layout, charts and their values. Be factual; do not guess beyond what is visible.';

const DEFAULT_SYSTEM_PROMPT =
  'You are Glance, a desktop assistant. When images are shown to you, describe only what you actually see in them. ' +
  'Images captured by tools are shown to you once, in the turn they were captured; afterwards only a text stub remains.';

/**
 * The conversation engine (DESIGN §5): one user turn = model steps until the model answers
 * without tool calls. Tool-captured images are shown to a seeing model as synthetic user
 * turns, bounded per turn, and retracted into text stubs when the turn ends.
 */
export class ChatEngine {
  readonly #deps: ChatEngineDeps;

  constructor(deps: ChatEngineDeps) {
    this.#deps = deps;
  }

  async runTurn(request: TurnRequest, emit: (event: ChatEvent) => void): Promise<TurnOutcome> {
    const deps = this.#deps;
    const signal = request.signal ?? new AbortController().signal;
    const seer = pickSeer(request);

    const existing = request.conversationId ? await deps.conversations.get(request.conversationId) : undefined;
    if (request.conversationId && !existing && !request.createIfMissing) {
      const message = `No conversation with id ${request.conversationId}.`;
      emit({ type: 'error', code: 'conversation-not-found', message });
      emit({ type: 'done', conversationId: request.conversationId, text: '' });
      return { status: 'failed', conversationId: request.conversationId, text: '', error: { code: 'conversation-not-found', message } };
    }

    // 1. The user's images go through the gate before anything is sent or stored.
    const attached: AttachmentInfo[] = [];
    let refused = false;
    for (const item of request.attachments ?? []) {
      const result = await this.#attach(item, seer?.target ?? request.chat.target, signal);
      if (result.ok) attached.push(result.attachment);
      else {
        refused = true;
        emit({ type: 'image_refused', origin: 'origin' in item ? item.origin : 'user', code: result.code, message: result.message });
      }
    }
    if (refused) {
      const message = 'Nothing was sent: an attached image was refused.';
      const id = existing?.id ?? request.conversationId ?? '';
      emit({ type: 'error', code: 'image-refused', message });
      emit({ type: 'done', conversationId: id, text: '' });
      return { status: 'refused', conversationId: id, text: '', error: { code: 'image-refused', message } };
    }

    const conversation = existing ?? deps.conversations.create(titleFrom(request.text), request.conversationId);
    if (request.replaceLastTurn) {
      // Only a stored turn that this one repeats and that never finished is replaced: a send
      // that failed before anything was stored must not take the previous turn with it.
      const last = conversation.messages.findLastIndex((m) => m.role === 'user');
      const tail = conversation.messages.slice(last);
      const end = tail.at(-1);
      const finished = end?.role === 'assistant' && !end.interrupted && !end.toolCalls?.length;
      if (last >= 0 && tail[0]?.role === 'user' && tail[0].text === request.text && !finished) conversation.messages.splice(last);
    }
    conversation.model = { provider: request.chat.provider.kind, name: request.chat.model };
    if (request.chat.endpoint) conversation.model.endpoint = request.chat.endpoint;
    for (const a of attached) {
      emit({ type: 'image_attached', attachmentId: a.id, origin: a.origin, name: a.name, mime: a.mime, width: a.width, height: a.height, bytes: a.bytes });
    }
    const userMessage: StoredUserMessage = {
      role: 'user',
      id: request.userMessageId ?? randomUUID(),
      text: request.text,
      attachmentIds: attached.map((a) => a.id),
      model: { ...conversation.model },
      createdAt: now(),
    };
    conversation.messages.push(userMessage);
    await deps.conversations.save(conversation);

    const turn = new TurnState(conversation, request, seer, deps, emit, signal);
    let outcome: TurnOutcome;
    try {
      if (seer && seer !== request.chat && attached.length) {
        userMessage.descriptions = {};
        for (const a of attached) userMessage.descriptions[a.id] = await turn.describe([a.id], HELPER_PROMPT, signal);
      }
      const text = await turn.run();
      outcome = { status: 'done', conversationId: conversation.id, text };
    } catch (error) {
      const mapped = toError(error, signal);
      emit({ type: 'error', code: mapped.code, message: mapped.message });
      outcome = {
        status: mapped.code === 'cancelled' ? 'cancelled' : 'failed',
        conversationId: conversation.id,
        text: turn.answer,
        error: mapped,
      };
    } finally {
      turn.retract();
      await deps.conversations.save(conversation);
    }
    emit({ type: 'done', conversationId: conversation.id, text: outcome.text });
    return outcome;
  }

  async #attach(item: TurnAttachment, target: ImageTarget, signal: AbortSignal) {
    // Always through the gate: the model may have changed since the image was first attached.
    // A stored image is fitted anew from its original, once per target.
    if ('attachmentId' in item) return this.#deps.intake.refit(item.attachmentId, target, { signal });
    return this.#deps.intake.tryAttachImage(item, target, { signal });
  }
}

/** The model that looks at images this turn: the chat model if it sees, else the helper. */
function pickSeer(request: TurnRequest): ModelChoice | undefined {
  if (request.chat.capabilities.vision === 'yes') return request.chat;
  if (request.helper?.capabilities.vision === 'yes') return request.helper;
  return undefined;
}

/** Mutable state of one user turn. */
class TurnState {
  answer = '';
  readonly #conversation: Conversation;
  readonly #request: TurnRequest;
  readonly #seer: ModelChoice | undefined;
  readonly #deps: ChatEngineDeps;
  readonly #emit: (event: ChatEvent) => void;
  readonly #signal: AbortSignal;
  readonly #deliveries: StoredDeliveryMessage[] = [];

  constructor(conversation: Conversation, request: TurnRequest, seer: ModelChoice | undefined, deps: ChatEngineDeps, emit: (e: ChatEvent) => void, signal: AbortSignal) {
    this.#conversation = conversation;
    this.#request = request;
    this.#seer = seer;
    this.#deps = deps;
    this.#emit = emit;
    this.#signal = signal;
  }

  get #chatSees(): boolean {
    return this.#request.chat.capabilities.vision === 'yes';
  }

  async run(): Promise<string> {
    const { chat } = this.#request;
    const tools = await this.#deps.tools.forTurn(this.#seer !== undefined, this.#signal);
    const toolsOffered = chat.capabilities.tools !== 'no' && tools.size > 0;
    const maxSteps = this.#deps.maxSteps ?? 12;
    for (let step = 1; ; step++) {
      const offerTools = toolsOffered && step < maxSteps;
      const request: ModelRequest = {
        model: chat.model,
        messages: await buildMessages(this.#conversation, {
          store: this.#deps.attachments,
          chatSees: this.#chatSees,
          maxImagesPerRequest: this.#deps.limits.maxImagesPerRequest,
          systemPrompt: this.#deps.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
        }),
      };
      if (offerTools) request.tools = [...tools.values()].map((t) => t.spec);
      if (this.#request.think !== undefined) request.think = this.#request.think;

      const calls = await this.#step(request);
      if (!calls.length) return this.answer;
      await this.#runTools(calls, tools);
      await this.#deps.conversations.save(this.#conversation);
    }
  }

  /** One model step: stream it, keep what arrived even if the stream breaks. */
  async #step(request: ModelRequest): Promise<ToolCall[]> {
    const message = { role: 'assistant' as const, id: randomUUID(), text: '', createdAt: now() };
    const stored: StoredMessage & { role: 'assistant' } = message;
    const calls: ToolCall[] = [];
    let thinking = '';
    // The answer of the turn is the text of its last step.
    this.answer = '';
    try {
      for await (const event of this.#request.chat.provider.stream(request, { signal: this.#signal })) {
        if (event.type === 'text') {
          stored.text += event.delta;
          this.answer += event.delta;
          this.#emit({ type: 'text', delta: event.delta });
        } else if (event.type === 'thinking') {
          thinking += event.delta;
          this.#emit({ type: 'thinking', delta: event.delta });
        } else if (event.type === 'tool_call') {
          calls.push(event.call);
        }
      }
    } catch (error) {
      if (stored.text || thinking) {
        if (thinking) stored.thinking = thinking;
        stored.interrupted = isCancel(error, this.#signal) ? 'cancelled' : 'error';
        this.#conversation.messages.push(stored);
      }
      throw error;
    }
    if (thinking) stored.thinking = thinking;
    if (calls.length) stored.toolCalls = calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
    this.#conversation.messages.push(stored);
    return calls;
  }

  async #runTools(calls: ToolCall[], tools: Map<string, Tool>): Promise<void> {
    const canDeliver = this.#chatSees && this.#deliveries.length < this.#deps.limits.maxImageDeliveriesPerTurn;
    const queued: AttachmentInfo[] = [];
    const origins = new Set<string>();
    for (const [index, call] of calls.entries()) {
      if (this.#signal.aborted) {
        // Every tool call needs a result message, or the next request is malformed.
        for (const pending of calls.slice(index)) this.#pushTool(pending, { ok: false, text: 'Cancelled by the user before it ran.' }, 0);
        throw new ProviderError('cancelled', 'Stopped.');
      }
      this.#emit({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments });
      const started = performance.now();
      const outcome = await this.#runTool(call, tools.get(call.name));
      const durationMs = Math.round(performance.now() - started);
      const images = outcome.images ?? [];
      for (const a of images) {
        this.#emit({ type: 'image_attached', attachmentId: a.id, origin: a.origin, name: a.name, mime: a.mime, width: a.width, height: a.height, bytes: a.bytes, toolCallId: call.id });
      }
      for (const r of outcome.refusals ?? []) {
        const code = r.code as Extract<ChatEvent, { type: 'image_refused' }>['code'];
        this.#emit({ type: 'image_refused', origin: call.name, code, message: r.message });
      }
      let text = outcome.text;
      if (images.length) {
        if (canDeliver) {
          text += `\n(${images.length === 1 ? 'The image is' : 'The images are'} shown to you in the next message.)`;
          queued.push(...images);
          origins.add(call.name);
        } else if (this.#chatSees) {
          text += `\n(Not shown: the limit of ${this.#deps.limits.maxImageDeliveriesPerTurn} image deliveries for this turn is reached. No more images will be shown until the user's next message; answer with what you have.)`;
        } else if (this.#seer) {
          const description = await this.describe(images.map((a) => a.id), HELPER_PROMPT, this.#signal);
          text += `\nDescription by the vision helper (${this.#seer.model}): ${description}`;
        }
      }
      this.#emit({ type: 'tool_result', id: call.id, name: call.name, ok: outcome.ok, text, durationMs, attachmentIds: images.map((a) => a.id) });
      this.#pushTool(call, { ...outcome, text }, durationMs);
    }
    if (queued.length) {
      const origin = [...origins].join(', ');
      const delivery: StoredDeliveryMessage = { role: 'delivery', id: randomUUID(), origin, attachmentIds: queued.map((a) => a.id), retracted: false, createdAt: now() };
      this.#conversation.messages.push(delivery);
      this.#deliveries.push(delivery);
      this.#emit({ type: 'image_delivered', attachmentIds: delivery.attachmentIds, origin });
    }
  }

  #pushTool(call: ToolCall, outcome: ToolOutcome, durationMs: number): void {
    const message: StoredToolMessage = { role: 'tool', id: randomUUID(), toolCallId: call.id, name: call.name, ok: outcome.ok, text: outcome.text, durationMs, createdAt: now() };
    if (outcome.images?.length) message.attachmentIds = outcome.images.map((a) => a.id);
    this.#conversation.messages.push(message);
  }

  async #runTool(call: ToolCall, tool: Tool | undefined): Promise<ToolOutcome> {
    if (!tool) return { ok: false, text: `There is no tool named "${call.name}".` };
    if (call.invalidArguments !== undefined) {
      return { ok: false, text: `The arguments were not a JSON object, so the tool did not run. Received: ${call.invalidArguments.slice(0, 500)}` };
    }
    try {
      return await tool.run(call.arguments, {
        signal: this.#signal,
        onProgress: (p) => this.#emit({ type: 'tool_progress', id: call.id, ...p }),
        imageTarget: this.#seer?.target,
        describe: (ids, prompt, signal) => this.describe(ids, prompt, signal),
      });
    } catch (error) {
      if (isCancel(error, this.#signal)) return { ok: false, text: 'Cancelled by the user.' };
      return { ok: false, text: `The tool failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /** A side call to the model that sees: images + prompt in, prose out. */
  async describe(attachmentIds: string[], prompt: string, signal: AbortSignal): Promise<string> {
    const seer = this.#seer;
    if (!seer) throw new ProviderError('rejected-input', 'No model that can see images is configured.');
    const images = [];
    for (const id of attachmentIds) {
      const got = await this.#deps.attachments.get(id);
      if (!got) throw new ProviderError('rejected-input', `The attachment ${id} is no longer stored.`);
      images.push({ data: got.data, mime: got.info.mime });
    }
    let text = '';
    for await (const event of seer.provider.stream({ model: seer.model, messages: [{ role: 'user', content: prompt, images }] }, { signal })) {
      if (event.type === 'text') text += event.delta;
    }
    return text.trim();
  }

  /** End of the user turn: every delivered tool image becomes a durable text stub. */
  retract(): void {
    const ids = this.#deliveries.flatMap((d) => (d.retracted ? [] : d.attachmentIds));
    for (const d of this.#deliveries) d.retracted = true;
    if (ids.length) this.#emit({ type: 'image_retracted', attachmentIds: ids });
  }
}

function isCancel(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof ProviderError && error.code === 'cancelled');
}

function toError(error: unknown, signal: AbortSignal): { code: string; message: string } {
  if (isCancel(error, signal)) return { code: 'cancelled', message: 'Stopped.' };
  if (error instanceof ProviderError) return { code: error.code, message: error.message };
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'New chat';
}

function now(): string {
  return new Date().toISOString();
}

