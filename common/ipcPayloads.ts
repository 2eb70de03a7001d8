// The payloads the IPC channels carry (architecture §8): conversations, models, MCP servers
// and their questions, notices, secrets, attachments, the context estimate. common/ipc.ts
// builds the channel table from these and re-exports them.
import { z } from 'zod';
import { ChatEvent } from './events.ts';
import { AttachmentInfo, CapturedWindowName } from './images.ts';
import { MarksById } from './marks.ts';
import { ModelInfo } from './models.ts';
import { ModelSelection, SecretName } from './settings.ts';

export const Id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'an id of letters, digits, "_" or "-"');
export const AttachmentId = AttachmentInfo.shape.id;
const Bytes = z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'must be bytes (a Uint8Array)');
export const Empty = z.strictObject({});

export const ConversationSummary = z.object({
  id: Id,
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

/** A conversation a search found: in its title, or in a message (the text around the first word found). */
export const ConversationMatch = z.object({ id: Id, inTitle: z.boolean(), snippet: z.string().optional() });
export type ConversationMatch = z.infer<typeof ConversationMatch>;

/**
 * A stored conversation as the renderer replays it: each user turn with the `ChatEvent`s it
 * produced, so history and live streaming go through the same reducer.
 */
/** MCP servers (config names) and tools (`server__tool`) switched off for one conversation. */
export const ToolSwitches = z.object({
  offServers: z.array(z.string().min(1).max(64)).max(256).default([]),
  offTools: z.array(z.string().min(1).max(128)).max(2048).default([]),
});
export type ToolSwitches = z.infer<typeof ToolSwitches>;

/** An MCP server and its tools as the per-conversation switches list them. */
export const McpToolSource = z.object({
  server: z.string(),
  /** serverInfo.title, once it has started. */
  title: z.string().optional(),
  state: z.enum(['idle', 'starting', 'ready', 'failed', 'stopped']),
  /** Glance's own tools (screenshot_desktop, zoom_image…): switched per tool, never as a server. */
  builtIn: z.boolean().optional(),
  /** `name`: what the model sees (`server__tool`); `tool`: the server's own name. */
  tools: z.array(z.object({ name: z.string(), tool: z.string(), title: z.string().optional() })),
});
export type McpToolSource = z.infer<typeof McpToolSource>;

/** The end of one server's log: at most the last 64 KB, whole lines. */
export const McpServerLog = z.object({
  text: z.string(),
  /** The whole file's size; more than `text` when it was cut. */
  bytes: z.number().int().nonnegative(),
  truncated: z.boolean(),
});
export type McpServerLog = z.infer<typeof McpServerLog>;

export const ConversationView = z.object({
  id: Id,
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  model: ModelSelection.optional(),
  /** Servers and tools switched off in this conversation. */
  tools: ToolSwitches.optional(),
  turns: z.array(
    z.object({
      id: z.string(),
      text: z.string(),
      attachmentIds: z.array(AttachmentId),
      createdAt: z.string(),
      events: z.array(ChatEvent),
      /** The model that answered it, when stored. */
      model: ModelSelection.optional(),
      /** Marks the person drew on its images, by attachment id (in each original's pixels). */
      marks: MarksById.optional(),
      /** This turn is version `index` (from 0) of `count`: Regenerate, Edit and Retry keep the ones they replaced. */
      versions: z.object({ index: z.number().int().nonnegative(), count: z.number().int().min(2) }).optional(),
      /** Still running: `events` is what streamed so far and more follow on `chat:event` under this id. */
      live: z.boolean().optional(),
    }),
  ),
  /** Turns before `turns`, left out (a request for the `last` ones). */
  earlier: z.number().int().min(0).optional(),
});
export type ConversationView = z.infer<typeof ConversationView>;

/** An image waiting in a draft (what its thumbnail needs; the image itself stays in the attachment store). */
export const DraftImage = z.object({
  id: AttachmentId,
  name: z.string().max(1000),
  origin: z.string().max(200),
  mime: z.string().max(100).optional(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  bytes: z.number().int().nonnegative().optional(),
  tokens: z.number().nonnegative().nullable().optional(),
});
/** What the message box held for one conversation (or a new chat, key "new"), kept across a reload and a restart. */
export const Draft = z.object({ text: z.string().max(200_000), images: z.array(DraftImage).max(64).default([]) });
export type Draft = z.infer<typeof Draft>;

/** A model from one endpoint ("ollama" or an OpenAI-compatible endpoint's name). */
export const ListedModel = ModelInfo.extend({
  endpoint: z.string(),
  /** Its server is on this computer (loopback): under the default privacy policy its images are not redacted. */
  local: z.literal(true).optional(),
});
export type ListedModel = z.infer<typeof ListedModel>;

export const McpServerStatus = z.object({
  name: z.string(),
  /** The server's display name (its serverInfo.title), once it has started. */
  title: z.string().optional(),
  transport: z.enum(['stdio', 'http', 'sse']),
  state: z.enum(['idle', 'starting', 'ready', 'failed', 'stopped']),
  tools: z.array(z.string()),
  /** Tool name → its display title (MCP tool.title / annotations.title), for the tools that have one. */
  toolTitles: z.record(z.string(), z.string()).optional(),
  /** Why it failed, in plain words. */
  message: z.string().optional(),
  /** Config keys Glance does not use (never dropped silently), and the like. */
  warnings: z.array(z.string()).optional(),
  /** The server's own log (`notifications/message`), for "Open log". */
  logFile: z.string().optional(),
});
export type McpServerStatus = z.infer<typeof McpServerStatus>;

/** One field of a question (the MCP elicitation schema: flat, primitive). */
export const McpQuestionField = z.looseObject({
  type: z.string().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  default: z.unknown().optional(),
  enum: z.array(z.unknown()).optional(),
  oneOf: z.array(z.looseObject({ const: z.string(), title: z.string().optional() })).optional(),
  format: z.string().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
});
export type McpQuestionField = z.infer<typeof McpQuestionField>;

/**
 * Something an MCP server (or its config) needs from the person, shown as a dialog: a form
 * (elicitation), a URL to open with consent (URL elicitation), or a VS Code `${input:id}`
 * value (asked once, kept in the secret store). `withdrawn`: the server no longer waits.
 */
export const McpQuestion = z.object({
  id: z.string(),
  server: z.string(),
  kind: z.enum(['form', 'url', 'input']),
  message: z.string(),
  fields: z.record(z.string(), McpQuestionField).default({}),
  required: z.array(z.string()).default([]),
  url: z.string().optional(),
  /** The URL's host, shown before the person agrees (only https:, or http: on loopback, get this far). */
  host: z.string().optional(),
  /** An input to type without echo (a token). */
  password: z.boolean().optional(),
  /** Form fields typed without echo and never kept (`format: "password"`, names like token or secret). */
  secret: z.array(z.string()).optional(),
  withdrawn: z.boolean().optional(),
});
export type McpQuestion = z.infer<typeof McpQuestion>;

export const McpAnswer = z.strictObject({
  id: z.string().min(1).max(64),
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
});
export type McpAnswer = z.infer<typeof McpAnswer>;

export const Notice = z.object({
  id: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  /** e.g. "hotkey-unavailable", "secrets-insecure", "settings-recovered". */
  code: z.string(),
  message: z.string(),
});
export type Notice = z.infer<typeof Notice>;

export const SecretBackendInfo = z.object({
  /** "keychain", "dpapi", "gnome_libsecret", "kwallet5", "basic_text", "env", "unavailable"… */
  name: z.string(),
  /** Survives a restart. */
  persistent: z.boolean(),
  /** Encrypted by the OS (false for basic_text and when no backend is available). */
  secure: z.boolean(),
  warning: z.string().optional(),
});
export type SecretBackendInfo = z.infer<typeof SecretBackendInfo>;

/** What the renderer may know about a key: its name and whether it is set. Never the value. */
export const SecretStatus = z.object({ name: SecretName, set: z.boolean() });
export type SecretStatus = z.infer<typeof SecretStatus>;

export const Region = z.strictObject({
  x: z.number().int().nonnegative(),
  y: z.number().int().nonnegative(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});

/** The window under the pointer when a display was captured, where it lies in that capture (its pixels). */
export const UnderPointerWindow = CapturedWindowName.extend({ region: Region });
export type UnderPointerWindow = z.infer<typeof UnderPointerWindow>;

/**
 * A region or window cut from an attachment (`attachments:crop`), with what it says of the window's
 * own words: how much of them go with it (read from accessibility, architecture §7), or, for "This
 * window", the one line saying why there are none (the model then reads the image).
 */
export const CropAttachment = AttachmentInfo.extend({
  windowText: z
    .union([
      z.object({ app: z.string().max(500), elements: z.number().int().nonnegative(), chars: z.number().int().nonnegative() }),
      z.object({ unavailable: z.string().max(1000) }),
    ])
    .optional(),
});
export type CropAttachment = z.infer<typeof CropAttachment>;

/** A display capture as attached, with the window that was under the pointer (the ask window's "This window"). */
export const CaptureAttachment = AttachmentInfo.extend({ underPointer: UnderPointerWindow.optional() });
/**
 * An attachment as one model will get it (`attachments:preview`): the copy fitted for it, and
 * whether that model gets the image itself, the text local OCR read from it (a blind model
 * without a helper), or a vision helper's description of it (`describedBy`: the helper).
 */
export const PreviewAttachment = AttachmentInfo.extend({
  asText: z.object({ chars: z.number().int().nonnegative(), engine: z.string().max(200) }).optional(),
  describedBy: z.string().max(500).optional(),
});
export type PreviewAttachment = z.infer<typeof PreviewAttachment>;

/**
 * Main's verdict on how a chat's images go (`models:route`), as the send decides it: `pixels` (the
 * chat model sees them), `described` (a vision helper, `seer`, describes them to it), `text` (it is
 * blind: a text-bearing image goes as the text local OCR reads, any other is refused), `unknown`
 * (nobody says whether it sees: images are refused until declared). `hides`: the copy is redacted
 * under `policy` (the conversation's own, else the settings').
 */
export const ImageRouteView = z.object({
  chat: z.string().max(500),
  way: z.enum(['pixels', 'described', 'text', 'unknown']),
  seer: z.string().max(500).optional(),
  policy: z.enum(['always', 'remote', 'never']),
  hides: z.boolean(),
  remote: z.boolean(),
});
export type ImageRouteView = z.infer<typeof ImageRouteView>;
export type CaptureAttachment = z.infer<typeof CaptureAttachment>;

const WindowTarget = z.enum(['ask', 'main']);

/**
 * An image that reached a window from outside it (the hotkey capture into the ask window, a
 * drop on the tray/dock icon into the chat window), accepted or refused.
 */
export const IncomingAttachment = z.object({
  id: z.string(),
  target: WindowTarget,
  result: z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), attachment: CaptureAttachment }),
    z.object({ ok: z.literal(false), origin: z.string(), code: z.string(), message: z.string() }),
  ]),
});
export type IncomingAttachment = z.infer<typeof IncomingAttachment>;

export const AttachmentSource = z.discriminatedUnion('kind', [
  /** From `glance.pathForFile(file)` (drops and the file picker). */
  z.strictObject({ kind: z.literal('path'), path: z.string().min(1).max(4096) }),
  /** A paste, or a drop whose file has no path. */
  z.strictObject({ kind: z.literal('bytes'), name: z.string().min(1).max(255), bytes: Bytes }),
]);

/**
 * The "Context" meter (architecture §11): the next request's estimated tokens (stored history, the
 * draft and its attachments, fitted as a turn would be) against the model's context window.
 */
export const ContextEstimate = z.object({
  /** The whole request as it would be sent: the parts below add up to it. */
  estimatedTokens: z.number().int().nonnegative(),
  /** The system prompt with what rides on it (MCP server instructions, the stub for left-out turns). */
  systemTokens: z.number().int().nonnegative(),
  /** Earlier turns as they would be sent (after the history budget), without their images. */
  historyTokens: z.number().int().nonnegative(),
  /** The draft's text with its image labels (and a blind model's readings), without the images. */
  draftTokens: z.number().int().nonnegative(),
  /** Every image riding in the request, by its model's rule. */
  imageTokens: z.number().int().nonnegative(),
  /** The window Glance fits requests to (meter maximum); null when nobody says. */
  contextWindow: z.number().int().positive().nullable(),
  /** What a request may use of it, the room for the answer kept; null when the window is unknown. */
  budget: z.number().int().nonnegative().nullable(),
  /** Even with older turns left out, the request does not fit the budget (it would be sent anyway). */
  overBudget: z.boolean(),
  /** The model's own maximum (Ollama context_length, a known remote window). */
  maxContext: z.number().int().positive().nullable(),
  source: z.enum(['ollama-model-info', 'ollama-default', 'server-metadata', 'known-model', 'none']),
  /** Older turns that would be left out (with a stub) to fit. */
  droppedTurns: z.number().int().nonnegative(),
  /** Ollama: the num_ctx the request would ask for. */
  numCtx: z.number().int().positive().nullable(),
  /**
   * The tool schemas the request carries (part of estimatedTokens): built-ins and the MCP
   * servers already running, per source ("built-in" or the server's name), biggest first.
   */
  tools: z
    .object({
      tokens: z.number().int().nonnegative(),
      bytes: z.number().int().nonnegative(),
      bySource: z.array(z.object({ source: z.string(), tools: z.number().int().nonnegative(), bytes: z.number().int().nonnegative(), tokens: z.number().int().nonnegative() })),
      /** The descriptions were shortened to fit a small context: what they were before. */
      fullTokens: z.number().int().nonnegative().optional(),
    })
    .optional(),
});
export type ContextEstimate = z.infer<typeof ContextEstimate>;

