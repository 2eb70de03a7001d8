import { randomUUID } from 'node:crypto';
import { NotStoredError } from './conversationStore.ts';
import { imageAttachedEvent, imageRedactedEvent, imageTranscribedEvent, type ChatEvent } from '../../common/events.ts';
import type { AttachmentInfo } from '../../common/images.ts';
import { ProviderError, type ModelRequest, type ToolCall } from '../models/provider.ts';
import { abortable } from '../abortable.ts';
import { safeErrorText } from '../scrubSecrets.ts';
import type { PendingSource, Tool, ToolOutcome } from '../tools/tool.ts';
import { switchedOff, type ToolSwitchState } from '../../common/toolSwitches.ts';
import { readinessText } from '../../common/toolServers.ts';
import { conversationImages } from './conversationImages.ts';
import { buildMessages } from './buildMessages.ts';
import type { Mark } from '../../common/marks.ts';
import { drawMarks } from '../images/drawMarks.ts';
import { GONE, type NotSent, type SentImage } from '../egress/egress.ts';
import type { ChatEngineDeps, ModelChoice, TurnRequest } from './chatEngine.ts';
import type { Conversation, StoredDeliveryMessage, StoredMessage, StoredToolMessage } from './conversation.ts';
import { answerReserve, fitHistory } from './historyBudget.ts';
import { fitToolSpecs } from '../tools/toolSpecFit.ts';
import { boundToolImages } from './imageBudget.ts';
import { askConsent } from './toolApproval.ts';
import { AnswerCap, NOT_OFFERED_MESSAGE, stepLimitMessage, TurnLimitError } from './turnLimits.ts';
import { watchedStream } from './streamWatch.ts';
import { errorMessage } from '../errors.ts';

// One user turn's agent loop (architecture §5), split from chatEngine.ts (which sets the turn up:
// lock, gate, user message, outcome): model steps, tools with consent, deliveries, retraction.

export const HELPER_PROMPT =
  'Describe this image for someone who cannot see it. Transcribe every legible piece of text exactly. ' +
  'Name colours, layout, charts and their values. Be factual; do not guess beyond what is visible.';

export const DEFAULT_SYSTEM_PROMPT =
  'You are Glance, a desktop assistant. When images are shown to you, describe only what you actually see in them. ' +
  'Images captured by tools are shown to you once, in the turn they were captured; afterwards only a text stub remains.';

/** One user turn's loop: model steps, tools, deliveries, until the model answers without tool calls. */
export class TurnLoop {
  answer = '';
  readonly #conversation: Conversation;
  readonly #request: TurnRequest;
  readonly #seer: ModelChoice | undefined;
  readonly #deps: ChatEngineDeps;
  readonly #emit: (event: ChatEvent) => void;
  readonly #signal: AbortSignal;
  readonly #deliveries: StoredDeliveryMessage[] = [];
  readonly #marked = new Map<string, Promise<AttachmentInfo | undefined>>();
  /** Copies the door made for this turn's model in this turn (an attachment shown or sent anyway on request, a marked copy): they go as made. */
  readonly #made = new Set<string>();
  /** Each image as this turn's model gets it (the egress's copy), looked up once per turn. */
  readonly #sent = new Map<string, Promise<SentImage | NotSent>>();
  /** Set when the turn ended (Stop may end it while a tool still runs): nothing is saved after. */
  #closed = false;

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

  close(): void {
    this.#closed = true;
  }

  async run(): Promise<string> {
    const { chat } = this.#request;
    const switches = this.#conversation.tools;
    const canSee = this.#seer !== undefined;
    let tools = await this.#deps.tools.forTurn(canSee, this.#signal, switches);
    let pending = this.#toolServers([], switches);
    const maxSteps = this.#deps.limits.maxStepsPerTurn;
    for (let step = 1; ; step++) {
      // A server still starting (or waiting for the person's answer) when the turn began joins the next step once ready.
      if (step > 1 && pending.some((p) => p.state !== 'failed')) {
        tools = await this.#deps.tools.forTurn(canSee, this.#signal, switches);
        pending = this.#toolServers(pending, switches);
      }
      const toolsOffered = chat.capabilities.tools !== 'no' && tools.size > 0;
      const offerTools = toolsOffered && step < maxSteps;
      const messages = await buildMessages(this.#conversation, {
        store: this.#deps.attachments,
        send: (id) => this.#send(id),
        // Text goes to the chat model: as its target may read it.
        text: async (text) => (await this.#deps.egress.text(text, chat.target)).text,
        chatSees: this.#chatSees,
        maxImagesPerRequest: this.#deps.limits.maxImagesPerRequest,
        systemPrompt: turnSystemPrompt(this.#deps, switches),
        ...(tools.has('zoom_image') ? { zoomTool: 'zoom_image' } : {}),
        marked: (image, marks) => this.#markedCopy(image, marks),
      });
      // A small window gets shortened tool descriptions (toolSpecFit.ts), as the Context meter counts them.
      const budget = chat.context?.tokens ? chat.context.tokens - answerReserve(chat.context.tokens) : null;
      const { specs, tokens: specTokens } = fitToolSpecs(offerTools ? [...tools.values()].map((t) => t.spec) : [], budget);
      // Within the model's context window: oldest turns out first, with a stub; never cut by the server.
      const fitted = chat.context ? fitHistory(messages, chat.context, { extraTokens: specTokens }) : undefined;
      const request: ModelRequest = { model: chat.model, messages: fitted?.messages ?? messages };
      if (fitted?.numCtx !== undefined) request.contextTokens = fitted.numCtx;
      if (fitted?.cutReadings) this.#readingsCut(fitted.cutReadings);
      if (offerTools) request.tools = specs;
      if (this.#request.think !== undefined) request.think = this.#request.think;

      const calls = await this.#step(request, tools);
      if (!calls.length) return this.answer;
      if (!offerTools) {
        // Calls for tools no longer (or never) offered are not run: a model that keeps calling
        // tools would otherwise never stop.
        const last = this.#conversation.messages.at(-1);
        if (last?.role === 'assistant') delete last.toolCalls;
        throw new TurnLimitError(toolsOffered ? stepLimitMessage(maxSteps) : NOT_OFFERED_MESSAGE);
      }
      await this.#runTools(calls, tools);
      if (this.#closed) throw new ProviderError('cancelled', 'Stopped.');
      // Not writable: the turn goes on, and the engine's last save reports it.
      await this.#deps.conversations.save(this.#conversation).catch((error: unknown) => {
        if (!(error instanceof NotStoredError)) throw error;
      });
    }
  }

  /**
   * Says which tool servers this step goes without (still starting, waiting for an answer, failed),
   * when that is news: at the turn's start, and again when the list changed (a server joined).
   */
  #toolServers(before: PendingSource[], switches: Conversation['tools']): PendingSource[] {
    const now = this.#request.chat.capabilities.tools === 'no' ? [] : this.#deps.tools.pending(switches);
    const key = (list: PendingSource[]) => list.map((p) => `${p.name}:${p.state}`).join('|');
    if (key(now) === key(before)) return now;
    const joined = before.filter((b) => b.state !== 'failed' && !now.some((n) => n.name === b.name)).map((b) => b.name);
    const text = [joined.length ? `Now offered: the tools of ${joined.map((n) => `"${n}"`).join(', ')}.` : '', readinessText(now)].filter(Boolean).join(' ');
    if (now.length || joined.length) this.#emit({ type: 'tool_servers', servers: now, ...(joined.length ? { joined } : {}), text });
    return now;
  }

  /**
   * The copy of a marked image this model gets: the marks drawn into its fitted pixels (at that
   * size, so a re-fit for another model draws them again), through the door like every image.
   * Made once per turn and image (each step rebuilds the request).
   */
  #markedCopy(image: AttachmentInfo, marks: readonly Mark[]): Promise<AttachmentInfo | undefined> {
    const key = `${image.id}:${JSON.stringify(marks)}`;
    let copy = this.#marked.get(key);
    if (!copy) {
      copy = (async () => {
        const target = this.#seer?.target;
        // `image` is the copy this model gets (the egress's, hidden regions filled): marks are drawn on it.
        const sent = await this.#send(image.id);
        if (!target || !sent.ok) return undefined;
        const got = sent;
        const drawn = await drawMarks(got.data, marks, image.source);
        const name = image.name.replace(/(\.[a-z0-9]+)?$/i, '-marked.png');
        const input = { source: drawn.png, name, origin: image.origin, requestedBy: 'user' as const, ...(image.window ? { window: image.window } : {}) };
        const result = await this.#deps.intake.admit(input, target, 'user', { signal: this.#signal });
        if (result.ok) this.#made.add(result.attachment.id);
        return result.ok ? result.attachment : undefined;
      })();
      this.#marked.set(key, copy);
    }
    return copy;
  }

  /** Image readings cut to fit the window: kept on the user message and told to the UI, so nobody thinks the model got all of them. */
  #readingsCut(sent: Record<string, number>): void {
    // Only this turn's readings are ever cut (older turns go whole first): they are on its user message.
    const m = this.#conversation.messages.findLast((x) => x.role === 'user');
    if (m?.role !== 'user' || !m.transcripts) return;
    for (const [id, chars] of Object.entries(sent)) {
      const t = m.transcripts[id];
      if (!t || t.sentChars === chars) continue;
      t.sentChars = chars;
      this.#emit(imageTranscribedEvent(id, 'user', t));
    }
  }

  /** One model step: stream it, keep what arrived even if the stream breaks. */
  async #step(request: ModelRequest, tools: Map<string, Tool>): Promise<ToolCall[]> {
    const message = { role: 'assistant' as const, id: randomUUID(), text: '', createdAt: now() };
    const stored: StoredMessage & { role: 'assistant' } = message;
    const calls: ToolCall[] = [];
    let thinking = '';
    // The answer of the turn is the text of its last step.
    this.answer = '';
    const caps = { text: new AnswerCap(this.#deps.limits.maxAnswerChars), thinking: new AnswerCap(this.#deps.limits.maxAnswerChars) };
    try {
      const provider = this.#request.chat.provider;
      const stream = watchedStream((signal) => provider.stream(request, { signal }), this.#signal, this.#deps.limits, 'The model');
      for await (const event of stream) {
        if (event.type === 'text' || event.type === 'thinking') {
          const { delta, full } = caps[event.type].take(event.delta);
          if (event.type === 'text') {
            stored.text += delta;
            this.answer += delta;
          } else thinking += delta;
          this.#emit({ type: event.type, delta });
          // Past the cap the stream is stopped (leaving the loop aborts the request).
          if (full) {
            calls.length = 0;
            break;
          }
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
    if (calls.length) stored.toolCalls = calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, ...displayNames(tools.get(c.name)) }));
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
        for (const pending of calls.slice(index)) this.#pushTool(pending, { ok: false, text: 'Cancelled by the user before it ran.' }, 0, true);
        throw new ProviderError('cancelled', 'Stopped.');
      }
      this.#emit({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments, ...displayNames(tools.get(call.name)) });
      const started = performance.now();
      const outcome = await this.#runTool(call, tools.get(call.name));
      const durationMs = Math.round(performance.now() - started);
      // A server's error text may echo secrets or megabytes: redacted and bounded before anyone sees or stores it.
      if (!outcome.ok) outcome.text = safeErrorText(outcome.text, this.#deps.secrets?.() ?? []);
      const { images, held, note } = boundToolImages(outcome.images ?? [], this.#deps.limits.maxImagesPerToolResult);
      for (const a of images) {
        this.#emit(imageAttachedEvent(a, a.origin, call.id));
        const hidden = imageRedactedEvent(a);
        if (hidden) this.#emit(hidden);
      }
      for (const r of outcome.refusals ?? []) {
        const code = r.code as Extract<ChatEvent, { type: 'image_refused' }>['code'];
        this.#emit({ type: 'image_refused', origin: call.name, code, message: r.message });
      }
      let text = outcome.text + note;
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
      const all = [...images, ...held];
      const cancelled = !outcome.ok && this.#signal.aborted;
      this.#emit({ type: 'tool_result', id: call.id, name: call.name, ok: outcome.ok, text, durationMs, attachmentIds: all.map((a) => a.id), ...(cancelled ? { cancelled } : {}), ...(outcome.switchedOff ? { switchedOff: true } : {}) });
      this.#pushTool(call, { ...outcome, text, images: all }, durationMs, cancelled);
    }
    if (queued.length) {
      const origin = [...origins].join(', ');
      const delivery: StoredDeliveryMessage = { role: 'delivery', id: randomUUID(), origin, attachmentIds: queued.map((a) => a.id), retracted: false, createdAt: now() };
      this.#conversation.messages.push(delivery);
      this.#deliveries.push(delivery);
      this.#emit({ type: 'image_delivered', attachmentIds: delivery.attachmentIds, origin });
    }
  }

  #pushTool(call: ToolCall, outcome: ToolOutcome, durationMs: number, cancelled = false): void {
    const message: StoredToolMessage = { role: 'tool', id: randomUUID(), toolCallId: call.id, name: call.name, ok: outcome.ok, text: outcome.text, durationMs, createdAt: now() };
    if (cancelled) message.cancelled = true;
    if (outcome.switchedOff) message.switchedOff = true;
    if (outcome.images?.length) message.attachmentIds = outcome.images.map((a) => a.id);
    this.#conversation.messages.push(message);
  }

  async #runTool(call: ToolCall, tool: Tool | undefined): Promise<ToolOutcome> {
    if (!tool) {
      // One the person switched off for this chat is that, not a tool that does not exist.
      const known = this.#deps.tools.peek(true).find((t) => t.spec.name === call.name);
      if (known && switchedOff(call.name, known.source, this.#conversation.tools)) {
        return { ok: false, text: `The tool "${call.name}" is switched off for this conversation, so it did not run. Answer without it.`, switchedOff: true };
      }
      return { ok: false, text: this.#deps.tools.whyMissing(call.name) ?? `There is no tool named "${call.name}".` };
    }
    if (call.invalidArguments !== undefined) {
      return { ok: false, text: `The arguments were not a JSON object, so the tool did not run. Received: ${call.invalidArguments.slice(0, 500)}` };
    }
    const refusal = await abortable(
      askConsent(tool, call, { conversationId: this.#conversation.id, remote: (this.#seer ?? this.#request.chat).remote === true, approver: this.#request.approver, signal: this.#signal, emit: this.#emit }),
      this.#signal,
    );
    if (refusal) return refusal;
    try {
      const running = tool.run(call.arguments, {
        signal: this.#signal,
        onProgress: (p) => this.#emit({ type: 'tool_progress', id: call.id, ...p }),
        imageTarget: this.#seer?.target,
        images: conversationImages(this.#conversation),
        describe: (ids, prompt, signal) => this.describe(ids, prompt, signal),
      });
      // A tool that ignores the signal (a blocking read) must not hold the turn after Stop.
      return await abortable(running, this.#signal);
    } catch (error) {
      if (isCancel(error, this.#signal)) return { ok: false, text: 'Cancelled by the user.' };
      return { ok: false, text: `The tool failed: ${errorMessage(error)}` };
    }
  }

  /** A side call to the model that sees: images + prompt in, prose out. */
  async describe(attachmentIds: string[], prompt: string, signal: AbortSignal): Promise<string> {
    const seer = this.#seer;
    if (!seer) throw new ProviderError('rejected-input', 'No model that can see images is configured.');
    const images = [];
    for (const id of attachmentIds) {
      // The helper may be another server than the chat model's: the copy is the egress's for it.
      const got = await this.#deps.egress.image(id, seer.target, { made: this.#made, signal });
      if (!got.ok) throw new ProviderError('rejected-input', got.message === GONE ? `The attachment ${id} is no longer stored.` : `The image ${id} was not sent: ${got.message}`);
      images.push({ data: got.data, mime: got.info.mime });
    }
    let text = '';
    for await (const event of seer.provider.stream({ model: seer.model, messages: [{ role: 'user', content: prompt, images }] }, { signal })) {
      if (event.type === 'text') text += event.delta;
    }
    return text.trim();
  }

  /** Copies the door made for this turn's model from the person's attachments ("Show anyway", "Send anyway" are this send's alone). */
  madeForThisTurn(ids: readonly string[]): void {
    for (const id of ids) this.#made.add(id);
  }

  /** Image `id` as this turn's model gets it, through the egress (architecture §3b). */
  #send(id: string): Promise<SentImage | NotSent> {
    const target = this.#seer?.target;
    if (!target) return Promise.resolve({ ok: false, id, message: 'no model that can see images is in this turn' });
    let sent = this.#sent.get(id);
    if (!sent) {
      sent = this.#deps.egress.image(id, target, { made: this.#made, signal: this.#signal });
      this.#sent.set(id, sent);
    }
    return sent;
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

export function toError(error: unknown, signal: AbortSignal): { code: string; message: string } {
  if (isCancel(error, signal)) return { code: 'cancelled', message: 'Stopped.' };
  if (error instanceof ProviderError || error instanceof TurnLimitError) return { code: error.code, message: error.message };
  return { code: 'internal', message: errorMessage(error) };
}
export function now(): string {
  return new Date().toISOString();
}

/** The system prompt plus what tool providers add (MCP server instructions, unavailable servers), but for servers switched off. */
export function turnSystemPrompt(deps: Pick<ChatEngineDeps, 'systemPrompt' | 'tools'>, switches: ToolSwitchState | undefined): string {
  const prompt = deps.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
  const notes = deps.tools.promptNotes(switches);
  return notes ? `${prompt}\n\n${notes}` : prompt;
}

/**
 * What the UI names a tool by (architecture §5): its server's configured name first, the title the
 * server gives itself second, and the server's own tool name when the model's name differs.
 */
function displayNames(tool: Tool | undefined): { title?: string; server?: string; serverTitle?: string; tool?: string } {
  if (!tool) return {};
  return {
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.source ? { server: tool.source } : {}),
    ...(tool.sourceTitle ? { serverTitle: tool.sourceTitle } : {}),
    ...(tool.sourceTool !== undefined && tool.source && tool.spec.name !== `${tool.source}__${tool.sourceTool}` ? { tool: tool.sourceTool } : {}),
  };
}
