// What the next request would cost against the model's context window, for the composer's
// "Context" meter (architecture §11): the stored conversation plus the draft and its attachments,
// built and fitted exactly as a turn would be (buildMessages + fitHistory), with the system prompt
// the turn sends (server instructions included), the tools it offers (shortened as it shortens them)
// and the draft's images fitted through the door for the model that will look at them.
import type { ContextEstimate } from '../../common/ipc.ts';
import type { ToolSwitchState } from '../../common/toolSwitches.ts';
import type { ModelMessage } from '../models/provider.ts';
import { GONE } from '../egress/egress.ts';
import { buildMessages } from './buildMessages.ts';
import type { ChatEngineDeps, ModelChoice } from './chatEngine.ts';
import type { Conversation, StoredUserMessage } from './conversation.ts';
import { answerReserve, estimateMessageTokens, fitHistory, imageTokens } from './historyBudget.ts';
import { turnSystemPrompt } from './turnLoop.ts';
import type { Tool } from '../tools/tool.ts';
import { fitToolSpecs, toolSpecTokens } from '../tools/toolSpecFit.ts';

export type ContextRequest = {
  conversationId?: string;
  text: string;
  attachmentIds: readonly string[];
  chat: ModelChoice;
  /** The model that looks at images: the chat model when it sees, else its vision helper. */
  seer?: ModelChoice;
  tools?: ToolSwitchState;
};

type EstimateDeps = Pick<ChatEngineDeps, 'conversations' | 'attachments' | 'intake' | 'limits' | 'systemPrompt' | 'tools'>;

export async function estimateContext(deps: EstimateDeps, request: ContextRequest): Promise<ContextEstimate> {
  const stored = request.conversationId ? await deps.conversations.get(request.conversationId) : undefined;
  const draft = await draftMessage(deps, request);
  const conversation = { ...(stored ?? { version: 1, id: 'draft', title: '', createdAt: '', updatedAt: '', messages: [] }), messages: [...(stored?.messages ?? []), draft] } as Conversation;
  // The draft's switches (the composer's), else the conversation's.
  const switches = request.tools ?? stored?.tools;
  const offered = request.chat.capabilities.tools === 'no' ? [] : deps.tools.peek(request.seer !== undefined, switches);
  const messages = await buildMessages(conversation, {
    store: deps.attachments,
    // Counted, never sent: the stored copies stand in for what the send will make (nothing leaves here).
    send: async (id) => {
      const got = await deps.attachments.get(id);
      return got ? { ok: true, info: got.info, data: got.data } : { ok: false, id, message: GONE };
    },
    // Counted as stored: hiding a secret changes its words, not their number to speak of.
    text: (text) => Promise.resolve(text),
    chatSees: request.chat.capabilities.vision === 'yes',
    maxImagesPerRequest: deps.limits.maxImagesPerRequest,
    systemPrompt: turnSystemPrompt(deps, switches),
    ...(offered.some((t) => t.spec.name === 'zoom_image') ? { zoomTool: 'zoom_image' } : {}),
  });
  const window = request.chat.context;
  const budget = window?.tokens ? window.tokens - answerReserve(window.tokens) : null;
  const fittedSpecs = fitToolSpecs(offered.map((t) => t.spec), budget);
  const tools = request.chat.capabilities.tools === 'no' ? undefined : toolSchemaCost(offered, fittedSpecs);
  const fitted = window ? fitHistory(messages, window, { extraTokens: fittedSpecs.tokens }) : undefined;
  const sent = fitted?.messages ?? messages;

  // An empty box is not a message: nothing of it would be sent.
  const parts = splitParts(sent, request.text === '' && request.attachmentIds.length === 0);
  return {
    estimatedTokens: parts.system + parts.history + parts.draft + parts.images + (tools?.tokens ?? 0),
    systemTokens: parts.system,
    historyTokens: parts.history,
    draftTokens: parts.draft,
    imageTokens: parts.images,
    contextWindow: window?.tokens ?? null,
    budget,
    overBudget: fitted?.overBudget ?? false,
    maxContext: window?.max ?? null,
    source: window?.source ?? 'none',
    droppedTurns: fitted?.droppedTurns ?? 0,
    numCtx: fitted?.numCtx ?? null,
    ...(tools ? { tools } : {}),
  };
}

/**
 * The draft as the send would store it: each image fitted for the model that will look at it
 * (the copy a switch of model makes anew), a blind model's readings in place of the image.
 */
async function draftMessage(deps: EstimateDeps, request: ContextRequest): Promise<StoredUserMessage> {
  const draft: StoredUserMessage = { role: 'user', id: 'draft', text: request.text, attachmentIds: [], createdAt: new Date().toISOString() };
  const target = (request.seer ?? request.chat).target;
  for (const id of request.attachmentIds) {
    const result = await deps.intake.admit({ attachmentId: id }, target, 'user');
    // Refused for this model: it would not be sent (the composer says why), so it costs nothing.
    if (!result.ok) continue;
    draft.attachmentIds.push(result.attachment.id);
    if (result.transcript) (draft.transcripts ??= {})[result.attachment.id] = result.transcript;
  }
  return draft;
}

/** The request in the meter's parts; they add up to the whole (tool descriptions aside). */
function splitParts(sent: readonly ModelMessage[], emptyDraft: boolean): { system: number; history: number; draft: number; images: number } {
  const imageCost = (m: ModelMessage) => (m.role === 'user' ? (m.images ?? []).reduce((k, i) => k + imageTokens(i), 0) : 0);
  const parts = { system: 0, history: 0, draft: 0, images: 0 };
  sent.forEach((m, i) => {
    const images = imageCost(m);
    const text = estimateMessageTokens(m) - images;
    parts.images += images;
    if (i === 0 && m.role === 'system') parts.system += text;
    else if (i === sent.length - 1) parts.draft += emptyDraft ? 0 : text;
    else parts.history += text;
  });
  return parts;
}

/**
 * What the tool schemas cost per request, measured as the turn sends them (the specs as JSON,
 * shortened for a small window as the turn shortens them), per source: four MCP servers with 77
 * tools were about 50 KB on every request.
 */
function toolSchemaCost(tools: readonly Tool[], fitted: ReturnType<typeof fitToolSpecs>): NonNullable<ContextEstimate['tools']> {
  const bySource = new Map<string, { source: string; tools: number; bytes: number; tokens: number }>();
  let bytes = 0;
  let tokens = 0;
  tools.forEach((tool, i) => {
    const spec = fitted.specs[i] ?? tool.spec;
    const b = new TextEncoder().encode(JSON.stringify(spec)).length;
    const t = toolSpecTokens(spec);
    bytes += b;
    tokens += t;
    const source = tool.source ?? 'built-in';
    const entry = bySource.get(source) ?? { source, tools: 0, bytes: 0, tokens: 0 };
    entry.tools++;
    entry.bytes += b;
    entry.tokens += t;
    bySource.set(source, entry);
  });
  return { tokens, bytes, bySource: [...bySource.values()].sort((a, b) => b.bytes - a.bytes), ...(fitted.fullTokens !== undefined ? { fullTokens: fitted.fullTokens } : {}) };
}
