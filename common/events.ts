import { z } from 'zod';
import { ImageLegibility, ImageRefusalCode, ModelInputSize, type AttachmentInfo } from './images.ts';
import { ImageRedactedEvent } from './privacy.ts';

export { ImageRedactedEvent };

/**
 * The one event stream: the renderer folds it into UI state, `glance ask --json` prints it
 * one object per line (architecture §12, §10). Every field here is part of that contract.
 */
const TextEvent = z.object({ type: z.literal('text'), delta: z.string() });
const ThinkingEvent = z.object({ type: z.literal('thinking'), delta: z.string() });
const ToolCallEvent = z.object({
  type: z.literal('tool_call'),
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** The tool's display title (MCP tool.title, else annotations.title), when it has one. */
  title: z.string().optional(),
  /** The MCP server's name as configured (what the person called it; never the server's own claim). */
  server: z.string().optional(),
  /** The title the server gives itself (serverInfo.title), secondary; never one naming Glance. */
  serverTitle: z.string().optional(),
  /** The server's own name for the tool, when `name` (the model's) is sanitised or suffixed. */
  tool: z.string().optional(),
});
const ToolProgressEvent = z.object({
  type: z.literal('tool_progress'),
  id: z.string(),
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
});
const ToolResultEvent = z.object({
  type: z.literal('tool_result'),
  id: z.string(),
  name: z.string(),
  ok: z.boolean(),
  text: z.string(),
  durationMs: z.number().nonnegative().optional(),
  attachmentIds: z.array(z.string()).optional(),
  /** Stopped by the user rather than failed (the UI says "cancelled", not "failed"). */
  cancelled: z.boolean().optional(),
  /** Not run because the person switched it off for this conversation (Tools): not a failure. */
  switchedOff: z.boolean().optional(),
});
const ImageAttachedEvent = z.object({
  type: z.literal('image_attached'),
  attachmentId: z.string(),
  origin: z.string(),
  name: z.string().optional(),
  mime: z.string(),
  width: z.number(),
  height: z.number(),
  bytes: z.number(),
  /** The tool call that captured it, when a tool did. */
  toolCallId: z.string().optional(),
  /** What the model's encoder processes and its token estimate (null: unknown); absent on old records. */
  modelInput: ModelInputSize.nullable().optional(),
  tokens: z.number().nullable().optional(),
  /** Whether small screen text survives the model's resize ("text ≈N px"). */
  legibility: ImageLegibility.optional(),
  /** The original's size: marks drawn on the image are in its pixels (the thumbnail draws them). */
  source: z.object({ width: z.number(), height: z.number() }).optional(),
});
/** The one way an `image_attached` event is made from a stored attachment (engine, tools, history view). */
export function imageAttachedEvent(
  a: Pick<AttachmentInfo, 'id' | 'name' | 'mime' | 'width' | 'height' | 'bytes' | 'modelInput' | 'tokens' | 'legibility'> & { source?: { width: number; height: number } },
  origin: string,
  toolCallId?: string,
): z.infer<typeof ImageAttachedEvent> {
  const event: z.infer<typeof ImageAttachedEvent> = { type: 'image_attached', attachmentId: a.id, origin, name: a.name, mime: a.mime, width: a.width, height: a.height, bytes: a.bytes };
  if (toolCallId) event.toolCallId = toolCallId;
  if (a.modelInput !== undefined) event.modelInput = a.modelInput;
  if (a.tokens !== undefined) event.tokens = a.tokens;
  if (a.legibility !== undefined) event.legibility = a.legibility;
  if (a.source) event.source = { width: a.source.width, height: a.source.height };
  return event;
}

/** The `image_redacted` that follows an attachment's `image_attached` when regions of it were hidden (else undefined). */
export function imageRedactedEvent(a: Pick<AttachmentInfo, 'id' | 'redactions' | 'redactionMs' | 'shownOnRequest'>): z.infer<typeof ImageRedactedEvent> | undefined {
  if (!a.redactions?.length && !a.shownOnRequest?.length) return undefined;
  return { type: 'image_redacted', attachmentId: a.id, regions: a.redactions ?? [], ...(a.shownOnRequest?.length ? { shown: a.shownOnRequest } : {}), ms: a.redactionMs ?? 0 };
}

const ImageRefusedEvent = z.object({
  type: z.literal('image_refused'),
  origin: z.string(),
  code: ImageRefusalCode,
  message: z.string(),
  /** The file's name, when known (so one alert can name each refused file). */
  name: z.string().optional(),
});
/**
 * A blind chat model (no vision helper) got the text of a user's image, read by local OCR,
 * instead of the image: the UI shows the image as "sent as text".
 */
const ImageTranscribedEvent = z.object({
  type: z.literal('image_transcribed'),
  attachmentId: z.string(),
  origin: z.string(),
  /** Characters of text read (what the model gets, unless sentChars says less). */
  chars: z.number().int().nonnegative(),
  /** Only this many characters of it (its beginning and end) fitted the model's context window. */
  sentChars: z.number().int().nonnegative().optional(),
  /** The OCR engine, e.g. "tesseract.js 7 (eng)". */
  engine: z.string(),
  /** The text itself, so the person sees what the model read (absent from older events). */
  text: z.string().optional(),
});
/** The one way an `image_transcribed` event is made from a stored reading (engine, turn loop, history view). */
export function imageTranscribedEvent(attachmentId: string, origin: string, reading: { text: string; engine: string; sentChars?: number }): z.infer<typeof ImageTranscribedEvent> {
  const event: z.infer<typeof ImageTranscribedEvent> = { type: 'image_transcribed', attachmentId, origin, chars: reading.text.length, engine: reading.engine, text: reading.text };
  if (reading.sentChars !== undefined) event.sentChars = reading.sentChars;
  return event;
}
/**
 * A user's image went with its window's own words, read from accessibility when it was captured
 * ("This window"): the text as kept (each request hides in it what its model may not read).
 */
const ImageWindowTextEvent = z.object({
  type: z.literal('image_window_text'),
  attachmentId: z.string(),
  text: z.string(),
});
/** A vision helper described a user's image for a blind chat model: this text is all that model gets of it. */
const ImageDescribedEvent = z.object({
  type: z.literal('image_described'),
  attachmentId: z.string(),
  /** The helper model that looked at it. */
  model: z.string(),
  text: z.string(),
});
const ImageDeliveredEvent = z.object({
  type: z.literal('image_delivered'),
  attachmentIds: z.array(z.string()),
  origin: z.string(),
});
const ImageRetractedEvent = z.object({
  type: z.literal('image_retracted'),
  attachmentIds: z.array(z.string()),
});
/** What the user (or a policy, or a CLI flag) said about running a tool that can change things. */
export const ToolApprovalDecision = z.enum(['pending', 'once', 'chat', 'always', 'deny']);
export type ToolApprovalDecision = z.infer<typeof ToolApprovalDecision>;
/**
 * A tool call that needs consent (architecture §5): first `pending` (the UI shows the approval card
 * with the call's arguments from its `tool_call`), then the decision. `by` says who decided:
 * the user, a policy (Settings, the MCP config's alwaysAllow), a CLI flag, or no one (nobody
 * could be asked: not run). `reason` says why in plain words when it was not run.
 */
const ToolApprovalEvent = z.object({
  type: z.literal('tool_approval'),
  id: z.string(),
  name: z.string(),
  decision: ToolApprovalDecision,
  by: z.enum(['user', 'policy', 'flag', 'no-one']).optional(),
  reason: z.string().optional(),
  /** What the server claims (readOnlyHint) about a tool it is not trusted for: shown, never obeyed. */
  claim: z.literal('read-only').optional(),
});
/**
 * Tool servers (MCP) whose tools this answer goes without, said when a step's tools are chosen:
 * still `starting`, `asking` (waiting for the person's answer to a question, shown in its own
 * card), or `failed`. Sent again when the list changes during the turn (a server joined: it is
 * then left out of `servers`). `text` says it in plain words, for the UI and the CLI.
 */
const ToolServersEvent = z.object({
  type: z.literal('tool_servers'),
  servers: z.array(z.object({ name: z.string(), state: z.enum(['starting', 'asking', 'failed']), message: z.string().optional() })),
  /** Servers that became ready since the last such event of this turn: their tools are offered from this step on. */
  joined: z.array(z.string()).optional(),
  text: z.string(),
});
const ErrorEvent = z.object({ type: z.literal('error'), code: z.string(), message: z.string() });
/**
 * The turn is over. `text` is the final answer as it streamed; a stored conversation's replay
 * (`conversations:get`) leaves it out, since the turn's text events already carry every word
 * and it would double the payload.
 */
const DoneEvent = z.object({ type: z.literal('done'), conversationId: z.string(), text: z.string().optional() });

export const ChatEvent = z.discriminatedUnion('type', [
  TextEvent,
  ThinkingEvent,
  ToolCallEvent,
  ToolProgressEvent,
  ToolResultEvent,
  ToolApprovalEvent,
  ToolServersEvent,
  ImageAttachedEvent,
  ImageRedactedEvent,
  ImageRefusedEvent,
  ImageTranscribedEvent,
  ImageWindowTextEvent,
  ImageDescribedEvent,
  ImageDeliveredEvent,
  ImageRetractedEvent,
  ErrorEvent,
  DoneEvent,
]);
export type ChatEvent = z.infer<typeof ChatEvent>;
