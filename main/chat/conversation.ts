import { ToolSwitches } from '../../common/ipcPayloads.ts';
import { z } from 'zod';
import { ProviderKind } from '../../common/models.ts';
import { MarksById } from '../../common/marks.ts';

/**
 * A conversation as it is stored on disk (architecture §5 "Conversations are JSON files"). It holds attachment ids and text
 * stubs, never image bytes or base64: the schema has no field that could carry them.
 */
const ToolCallRecord = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** Display names as the tool had them when called (for the card after a reload). */
  title: z.string().optional(),
  /** The MCP server's configured name (older records: its self-given title). */
  server: z.string().optional(),
  serverTitle: z.string().optional(),
  /** The server's own name for the tool, when the model's name for it is sanitised. */
  tool: z.string().optional(),
});

const UserMessage = z.object({
  role: z.literal('user'),
  id: z.string(),
  text: z.string(),
  /** Images the user attached (ids in the attachment store). */
  attachmentIds: z.array(z.string()).default([]),
  /** Descriptions a vision helper wrote for a blind chat model, by attachment id. */
  descriptions: z.record(z.string(), z.string()).optional(),
  /** The helper model that wrote them (absent in older files). */
  describedBy: z.string().optional(),
  /**
   * Text read by local OCR for a blind chat model with no helper, by attachment id (sent instead of
   * the image); `sentChars` when only that much of it fitted the model's context window in this turn.
   */
  transcripts: z.record(z.string(), z.object({ text: z.string(), engine: z.string(), sentChars: z.number().int().nonnegative().optional() })).optional(),
  /** Marks the person drew, by attachment id, in its original's pixels: drawn into the copy each request sends. */
  marks: MarksById.optional(),
  /** The names the images had in the person's draft, by attachment id (the store's record keeps the last name its bytes came with). */
  names: z.record(z.string(), z.string()).optional(),
  /**
   * A window's own words read from accessibility when it was captured ("This window"), by attachment
   * id, as the model reads them beside the image (bounded); secrets in them are hidden per request
   * for that request's model, never here.
   */
  windowTexts: z.record(z.string(), z.string()).optional(),
  /** Never sent: no model could be reached or named (the reason, shown again after a reload, with Retry). */
  unsent: z.object({ code: z.string(), message: z.string() }).optional(),
  /** The model asked to answer it. */
  model: z.object({ provider: ProviderKind, name: z.string(), endpoint: z.string().optional() }).optional(),
  createdAt: z.string(),
});

/**
 * A synthetic user turn that showed tool-captured images to the model (architecture §5 "synthetic").
 * While `retracted` is false (only within the user turn that made it) its images ride in
 * requests; afterwards it is rendered as durable text stubs.
 */
const DeliveryMessage = z.object({
  role: z.literal('delivery'),
  id: z.string(),
  origin: z.string(),
  attachmentIds: z.array(z.string()),
  retracted: z.boolean(),
  createdAt: z.string(),
});

const AssistantMessage = z.object({
  role: z.literal('assistant'),
  id: z.string(),
  text: z.string(),
  thinking: z.string().optional(),
  toolCalls: z.array(ToolCallRecord).optional(),
  /** The stream ended early (dropped or stopped): `text` is what arrived. */
  interrupted: z.enum(['error', 'cancelled']).optional(),
  createdAt: z.string(),
});

const ToolMessage = z.object({
  role: z.literal('tool'),
  id: z.string(),
  toolCallId: z.string(),
  name: z.string(),
  ok: z.boolean(),
  /** What the model reads: text and image descriptors only. */
  text: z.string(),
  attachmentIds: z.array(z.string()).optional(),
  durationMs: z.number().optional(),
  /** The user stopped the turn while it ran. */
  cancelled: z.boolean().optional(),
  /** Not run: switched off for this conversation when the model asked for it. */
  switchedOff: z.boolean().optional(),
  createdAt: z.string(),
});

export const StoredMessage = z.discriminatedUnion('role', [UserMessage, DeliveryMessage, AssistantMessage, ToolMessage]);
export type StoredMessage = z.infer<typeof StoredMessage>;
export type StoredUserMessage = z.infer<typeof UserMessage>;
export type StoredDeliveryMessage = z.infer<typeof DeliveryMessage>;
export type StoredToolMessage = z.infer<typeof ToolMessage>;

export const CONVERSATION_VERSION = 1;

export const Conversation = z.object({
  version: z.literal(CONVERSATION_VERSION),
  id: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The last model used; `endpoint` names an OpenAI-compatible endpoint from settings. */
  model: z.object({ provider: ProviderKind, name: z.string(), endpoint: z.string().optional() }).optional(),
  /** MCP servers and tools the person switched off for this conversation (not offered to the model). */
  tools: ToolSwitches.optional(),
  messages: z.array(StoredMessage),
  /**
   * Versions Regenerate, Edit and Retry kept (chat/versions.ts): by the id of the message before
   * each fork (`''`: the start), every branch that followed it, the active one's slot `null`
   * (it is `messages`' tail). Absent in older files.
   */
  versions: z.record(z.string(), z.object({ active: z.number().int().nonnegative(), tails: z.array(z.array(StoredMessage).nullable()).min(2) })).optional(),
});
export type Conversation = z.infer<typeof Conversation>;

