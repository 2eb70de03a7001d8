// What the next request would cost against the model's context window, for the composer's
// "Context" meter (architecture §11): the stored conversation plus the draft and its attachments,
// built and fitted exactly as a turn would be (buildMessages + fitHistory).
import type { ContextEstimate } from '../../common/ipc.ts';
import type { ToolSwitchState } from '../../common/toolSwitches.ts';
import { estimateTextTokens } from '../../common/tokens.ts';
import { buildMessages } from './buildMessages.ts';
import type { ChatEngineDeps, ModelChoice } from './chatEngine.ts';
import type { Conversation } from './conversation.ts';
import { estimateMessageTokens, fitHistory } from './historyBudget.ts';
import { DEFAULT_SYSTEM_PROMPT } from './turnLoop.ts';
import type { Tool } from '../tools/tool.ts';

export type ContextRequest = { conversationId?: string; text: string; attachmentIds: readonly string[]; chat: ModelChoice; tools?: ToolSwitchState };

export async function estimateContext(deps: Pick<ChatEngineDeps, 'conversations' | 'attachments' | 'limits' | 'systemPrompt' | 'tools'>, request: ContextRequest): Promise<ContextEstimate> {
  const stored = request.conversationId ? await deps.conversations.get(request.conversationId) : undefined;
  const draft: Conversation['messages'][number] = { role: 'user', id: 'draft', text: request.text, attachmentIds: [...request.attachmentIds], createdAt: new Date().toISOString() };
  const conversation = { ...(stored ?? { version: 1, id: 'draft', title: '', createdAt: '', updatedAt: '', messages: [] }), messages: [...(stored?.messages ?? []), draft] } as Conversation;
  const messages = await buildMessages(conversation, {
    store: deps.attachments,
    chatSees: request.chat.capabilities.vision === 'yes',
    maxImagesPerRequest: deps.limits.maxImagesPerRequest,
    systemPrompt: deps.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
  });
  // The draft's switches (the composer's), else the conversation's.
  const switches = request.tools ?? stored?.tools;
  const window = request.chat.context;
  const tools = request.chat.capabilities.tools === 'no' ? undefined : toolSchemaCost(deps.tools.peek(request.chat.capabilities.vision === 'yes', switches));
  const fitted = window ? fitHistory(messages, window, { extraTokens: tools?.tokens ?? 0 }) : undefined;
  const sent = fitted?.messages ?? messages;
  const imageTokens = sent.reduce((n, m) => n + (m.role === 'user' ? (m.images ?? []).reduce((k, i) => k + (i.tokens ?? 0), 0) : 0), 0);
  return {
    estimatedTokens: fitted?.estimatedTokens ?? sent.reduce((n, m) => n + estimateMessageTokens(m), 0) + (tools?.tokens ?? 0),
    draftTokens: estimateTextTokens(request.text),
    imageTokens,
    contextWindow: window?.tokens ?? null,
    maxContext: window?.max ?? null,
    source: window?.source ?? 'none',
    droppedTurns: fitted?.droppedTurns ?? 0,
    numCtx: fitted?.numCtx ?? null,
    ...(tools ? { tools } : {}),
  };
}

/**
 * What the tool schemas cost per request, measured as the turn sends them (the specs as JSON),
 * per source: four MCP servers with 77 tools were about 50 KB on every request.
 */
function toolSchemaCost(tools: readonly Tool[]): NonNullable<ContextEstimate['tools']> {
  const bySource = new Map<string, { source: string; tools: number; bytes: number; tokens: number }>();
  let bytes = 0;
  let tokens = 0;
  for (const tool of tools) {
    const json = JSON.stringify(tool.spec);
    const b = new TextEncoder().encode(json).length;
    const t = estimateTextTokens(json);
    bytes += b;
    tokens += t;
    const source = tool.source ?? 'built-in';
    const entry = bySource.get(source) ?? { source, tools: 0, bytes: 0, tokens: 0 };
    entry.tools++;
    entry.bytes += b;
    entry.tokens += t;
    bySource.set(source, entry);
  }
  return { tokens, bytes, bySource: [...bySource.values()].sort((a, b) => b.bytes - a.bytes) };
}
