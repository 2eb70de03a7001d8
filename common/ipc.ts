import { z } from 'zod';
import { ChatEvent, ToolApprovalDecision } from './events.ts';
import { CapturedWindowName, ImageMime } from './images.ts';
import { MarksById } from './marks.ts';
import { Redaction } from './privacy.ts';
import { formatZodIssues } from './zodIssues.ts';
import {
  AttachmentId,
  CaptureAttachment,
  CropAttachment,
  AttachmentSource,
  ContextEstimate,
  ConversationMatch,
  ConversationSummary,
  ConversationView,
  Draft,
  Empty,
  Id,
  IncomingAttachment,
  ListedModel,
  McpAnswer,
  McpQuestion,
  McpServerLog,
  McpServerStatus,
  McpToolSource,
  Notice,
  PreviewAttachment,
  ImageRouteView,
  Region,
  SecretBackendInfo,
  SecretStatus,
  ToolSwitches,
} from './ipcPayloads.ts';
import { ModelSelection, SecretName, Settings, SettingsPatch } from './settings.ts';
import {
  EVENT_CHANNELS,
  INVOKE_CHANNELS,
  type EventChannel,
  type EventMethodName,
  type InvokeChannel,
  type InvokeMethodName,
} from './ipcChannels.ts';

/**
 * The IPC contract between the renderer and main (architecture §8): one zod schema per request,
 * response and push event; main validates every request with it and the types below are
 * derived from it. The preload exposes `GlanceApi` as `window.glance`; the harness adapter
 * implements the same type over a WebSocket.
 *
 * Every call answers `{ ok: true, value } | { ok: false, code, message }` and never rejects.
 */

// ---------------------------------------------------------------------------- shared pieces

/** Names a capture main holds after it could not be checked for secrets (chosen by the window that asked). */
const HeldKey = z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'a held capture key is 8–64 letters, digits or dashes');

/** `{ ok:false, code, message }`: a refusal or failure a person can act on. */
type IpcFailure = { ok: false; code: string; message: string };
export type IpcResult<T> = { ok: true; value: T } | IpcFailure;

/** Codes the IPC layer itself answers with (handlers add their own: image refusals, provider errors…). */
export const IPC_ERROR = Object.freeze({
  badRequest: 'bad-request',
  forbiddenSender: 'forbidden-sender',
  internal: 'internal',
  notFound: 'not-found',
  unavailable: 'unavailable',
  ipcFailed: 'ipc-failed',
});

export * from './ipcPayloads.ts';

// ---------------------------------------------------------------------------- the channels

const channel = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({ request, response });

export const IPC = {
  /** Start a user turn; its `ChatEvent`s arrive on `chat:event` tagged with `turnId`. Resolves once accepted. */
  'chat:send': channel(
    z
      .strictObject({
        /** Chosen by the renderer so it can match events that arrive before this call resolves. */
        turnId: Id,
        /** Absent: a new conversation. */
        conversationId: Id.optional(),
        text: z.string().max(200_000),
        attachmentIds: z.array(AttachmentId).max(64).default([]),
        /** Marks drawn on those images, by attachment id, in each original's pixels (stored with the message). */
        marks: MarksById.optional(),
        /**
         * The name each image has in the draft, by attachment id: a name belongs to the attachment
         * in its message, not to the bytes (the same bytes pasted twice are stored once).
         */
        names: z.record(AttachmentId, z.string().min(1).max(1000)).optional(),
        /** Absent: the default model from settings. */
        model: ModelSelection.optional(),
        /** Retry: this message replaces the conversation's last user turn (and what followed it). */
        replaceLastTurn: z.boolean().default(false),
        /** Edit / Regenerate: the stored user turn with this id and everything after it are replaced by this one. */
        replaceFrom: Id.optional(),
        /** Servers and tools switched off: stored with the conversation (a new one, too) before the turn. */
        tools: ToolSwitches.optional(),
        /** "Show anyway": by attachment id, regions found in it to send as they are, this send only (main's door re-checks them). */
        shown: z.record(AttachmentId, z.array(Redaction).max(200)).optional(),
        /** "Send anyway" after redaction-failed: these images go even if local OCR cannot check them (the person chose it, each is recorded). */
        sendAnyway: z.array(AttachmentId).max(64).optional(),
      })
      .refine((r) => r.text.trim() !== '' || r.attachmentIds.length > 0, { message: 'a message needs text or an image', path: ['text'] }),
    z.object({ conversationId: Id, turnId: Id }),
  ),
  /** The approval card's answer for a tool call awaiting consent (`tool_approval` pending). */
  'chat:approveTool': channel(
    z.strictObject({ turnId: Id, callId: z.string().min(1).max(200), decision: ToolApprovalDecision.exclude(['pending']) }),
    z.object({ answered: z.boolean() }),
  ),
  /** Abort the model request and running tools of a turn. */
  'chat:cancel': channel(z.strictObject({ turnId: Id }), z.object({ cancelled: z.boolean() })),
  /** The "Context" meter: what the next request (history + draft) would use of the model's window. */
  'chat:context': channel(
    z.strictObject({
      conversationId: Id.optional(),
      text: z.string().max(200_000).default(''),
      attachmentIds: z.array(AttachmentId).max(64).default([]),
      model: ModelSelection.optional(),
      /** Absent: the stored conversation's switches. */
      tools: ToolSwitches.optional(),
    }),
    ContextEstimate,
  ),

  /** Check, normalise and store an image for `model` (the gate refuses with an image refusal code). */
  'attachments:add': channel(
    z.strictObject({
      source: AttachmentSource,
      model: ModelSelection.optional(),
      /** The conversation it is attached in: its own redaction (Settings → privacy.conversations) applies to the copy, as at send. */
      conversationId: Id.optional(),
      /** "Send anyway" after redaction-failed, for this image. */
      sendAnyway: z.literal(true).optional(),
    }),
    PreviewAttachment,
  ),
  'attachments:thumbnail': channel(
    z.strictObject({ id: AttachmentId, maxEdge: z.number().int().min(16).max(1024).default(256) }),
    z.object({
      dataUrl: z.string().regex(/^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]*={0,2}$/),
      mime: ImageMime,
      width: z.number().int().positive(),
      height: z.number().int().positive(),
    }),
  ),
  /**
   * The image as it entered, at full resolution, for the viewer (zoom, pan, copy, save): the kept
   * original's bytes when a browser shows them (PNG, JPEG, WebP, GIF), else a lossless PNG of it
   * (HEIC, TIFF, AVIF). `fromOriginal` false: no original was kept (older records), the stored copy.
   */
  'attachments:original': channel(
    z.strictObject({ id: AttachmentId }),
    z.object({
      dataUrl: z.string().regex(/^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]*={0,2}$/),
      mime: ImageMime,
      width: z.number().int().positive(),
      height: z.number().int().positive(),
      bytes: z.number().int().positive(),
      name: z.string(),
      /** The original's own type and size (what a "Save original" writes). */
      original: z.object({ mime: z.string(), bytes: z.number().int().positive() }),
      fromOriginal: z.boolean(),
    }),
  ),
  /** A region of an attachment (pixels of the stored image) as a new attachment: sharper text than the whole. */
  /** `window`: the cut is that window of the capture (the ask window's "This window"), so its label names it. */
  /**
   * "What the model gets" with regions shown anyway: a stored image's copy for `model` made again by
   * the door with those regions left visible (this send only; `chat:send` names them again).
   */
  /** A stored image fitted anew for `model` through the door: what a send to it would carry (a model switch, "Show anyway"). */
  'attachments:preview': channel(
    z.strictObject({ id: AttachmentId, model: ModelSelection.optional(), conversationId: Id.optional(), shown: z.array(Redaction).max(200).default([]), sendAnyway: z.literal(true).optional() }),
    PreviewAttachment,
  ),
  'attachments:crop': channel(
    z.strictObject({ id: AttachmentId, region: Region, model: ModelSelection.optional(), window: CapturedWindowName.optional() }),
    CropAttachment,
  ),

  'conversations:list': channel(Empty, z.array(ConversationSummary)),
  /** `last`: only the last turns (the view's `earlier` says how many came before), for a first screen. */
  'conversations:get': channel(z.strictObject({ id: Id, last: z.number().int().min(1).max(10_000).optional() }), ConversationView),
  'conversations:rename': channel(z.strictObject({ id: Id, title: z.string().trim().min(1).max(200) }), ConversationSummary),
  'conversations:delete': channel(z.strictObject({ id: Id }), z.object({ id: Id })),
  /** Conversations whose title or message text holds every word of `query` (case-insensitive). */
  'conversations:search': channel(z.strictObject({ query: z.string().max(200) }), z.array(ConversationMatch)),
  /** Switch servers and tools off (or on again) for one stored conversation. */
  'conversations:setTools': channel(z.strictObject({ id: Id, tools: ToolSwitches }), z.object({ id: Id, tools: ToolSwitches })),
  /** Show version `index` (from 0) of the turn whose user message is `turnId`: that branch becomes the one sent from now on. */
  'conversations:switchVersion': channel(z.strictObject({ id: Id, turnId: Id, index: z.number().int().nonnegative().max(10_000) }), ConversationView),

  /** The drafts kept, by conversation id ("new": the new chat's). */
  'drafts:list': channel(Empty, z.record(Id, Draft)),
  /** Keep (or, empty, forget) the draft of one conversation. */
  'drafts:set': channel(z.strictObject({ key: Id, text: Draft.shape.text, images: Draft.shape.images }), z.object({ key: Id })),

  /** Every endpoint's models; an endpoint that fails is listed in `errors`, the others still answer. */
  'models:list': channel(
    z.strictObject({ refresh: z.boolean().default(false) }),
    z.object({
      models: z.array(ListedModel),
      errors: z.array(z.object({ endpoint: z.string(), code: z.string(), message: z.string() })),
    }),
  ),
  /** Pull an Ollama model; progress arrives on `models:pullProgress`; resolves when done. */
  'models:pull': channel(z.strictObject({ name: z.string().min(1).max(256) }), z.object({ name: z.string() })),
  'models:cancelPull': channel(z.strictObject({ name: z.string().min(1).max(256) }), z.object({ cancelled: z.boolean() })),
  /** How images go for `model` (else the default) in `conversationId`, as main decides at send: what the window says before a drop. */
  'models:route': channel(z.strictObject({ model: ModelSelection.optional(), conversationId: Id.optional() }), ImageRouteView),

  /** Settings as the renderer sees them (secret-looking MCP env/header values masked). */
  'settings:get': channel(Empty, Settings),
  /** The sections given replace the current ones; answers the new settings. */
  'settings:set': channel(z.strictObject({ patch: SettingsPatch }), Settings),

  /** Store (or, with `value: null`, delete) a key. The value only ever travels renderer → main. */
  'secrets:set': channel(z.strictObject({ name: SecretName, value: z.string().min(1).max(16_384).nullable() }), SecretStatus),
  /** Which keys are set (those endpoints refer to and those stored) and how they are kept. */
  'secrets:status': channel(Empty, z.object({ backend: SecretBackendInfo, secrets: z.array(SecretStatus) })),

  'mcp:status': channel(Empty, z.array(McpServerStatus)),
  'mcp:restart': channel(z.strictObject({ name: z.string().min(1).max(64) }), McpServerStatus),
  /** The person's answer to an `mcp:question`; `answered: false` when nothing waits for it any more. */
  'mcp:answer': channel(McpAnswer, z.object({ answered: z.boolean() })),
  /** Each MCP server and the tools it offers now, for the per-conversation switches (starts nothing). */
  'mcp:tools': channel(Empty, z.array(McpToolSource)),
  /** The end of a server's own log (its `notifications/message` lines), for "Show log". */
  'mcp:log': channel(z.strictObject({ name: z.string().min(1).max(64) }), McpServerLog),

  /** Capture a display (Glance's windows hidden first) and attach it for `model`. */
  'capture:screenshot': channel(
    z.strictObject({
      display: z
        .union([z.enum(['under-cursor', 'all']), z.strictObject({ id: z.string().min(1) })], {
          error: 'must be "under-cursor", "all" or { id: <display id> }',
        })
        .default('under-cursor'),
      model: ModelSelection.optional(),
      /**
       * If this capture cannot be checked for secrets (redaction-failed), main keeps it in memory
       * under this key for a while, so "Send anyway" sends exactly what was captured.
       */
      hold: HeldKey.optional(),
      /** "Send anyway": no new capture; the one held under this key goes, unchecked, recorded on its copy. */
      sendHeld: HeldKey.optional(),
    }),
    CaptureAttachment,
  ),

  /** From the ask window: show the main window, optionally on a conversation. */
  'app:openMain': channel(z.strictObject({ conversationId: Id.optional() }), z.object({})),
  /**
   * The page has subscribed to main's pushes: what main sent this window before (a hotkey's capture,
   * a conversation to open, settings changes) was held for it and is delivered now.
   */
  'app:listening': channel(Empty, z.object({})),
  /** Version, platform, the hotkey's state and pending notices (so a late window still sees them). */
  'app:info': channel(
    Empty,
    z.object({
      version: z.string(),
      platform: z.string(),
      hotkey: z.object({ accelerator: z.string(), registered: z.boolean(), message: z.string().optional() }),
      notices: z.array(Notice),
    }),
  ),
} as const satisfies Record<InvokeChannel, { request: z.ZodType; response: z.ZodType }>;

export const IPC_EVENTS = {
  /** `seq`: the event's index within its turn, so a view resumed from a live turn skips what it holds and sees a gap. */
  'chat:event': z.object({ conversationId: Id, turnId: Id, seq: z.number().int().nonnegative().optional(), event: ChatEvent }),
  'models:pullProgress': z.object({
    name: z.string(),
    status: z.string(),
    completed: z.number().nonnegative().optional(),
    total: z.number().nonnegative().optional(),
  }),
  /** An image that reached a window from outside it: the hotkey capture, a drop on the tray/dock icon. */
  'attachments:incoming': IncomingAttachment,
  'settings:changed': Settings,
  'mcp:changed': z.array(McpServerStatus),
  'mcp:question': McpQuestion,
  'app:notice': Notice,
  /** The chat window should show this conversation (after "open in Glance" from the ask window). */
  'app:showConversation': z.object({ conversationId: Id }),
} as const satisfies Record<EventChannel, z.ZodType>;

// Compile-time check: the schemas cover exactly the channel lists the preload uses.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _invokeCovered: Exactly<keyof typeof IPC, InvokeChannel> = true;
const _eventsCovered: Exactly<keyof typeof IPC_EVENTS, EventChannel> = true;
void _invokeCovered;
void _eventsCovered;

export { INVOKE_CHANNELS, EVENT_CHANNELS, type InvokeChannel, type EventChannel };

// ---------------------------------------------------------------------------- derived types

/** What a caller sends (defaults not yet applied). */
export type IpcRequestInput<C extends InvokeChannel> = z.input<(typeof IPC)[C]['request']>;
/** What a handler receives (validated, defaults applied). */
export type IpcRequest<C extends InvokeChannel> = z.output<(typeof IPC)[C]['request']>;
export type IpcValue<C extends InvokeChannel> = z.output<(typeof IPC)[C]['response']>;
export type IpcEventPayload<E extends EventChannel> = z.output<(typeof IPC_EVENTS)[E]>;

/** A dropped file, structurally (common/ has no DOM types; a DOM `File` fits). */
type DroppedFile = { readonly name: string; readonly size: number; readonly type: string };

type InvokeMethods = {
  [C in InvokeChannel as InvokeMethodName<C>]: Record<never, never> extends IpcRequestInput<C>
    ? (request?: IpcRequestInput<C>) => Promise<IpcResult<IpcValue<C>>>
    : (request: IpcRequestInput<C>) => Promise<IpcResult<IpcValue<C>>>;
};
type EventMethods = {
  [E in EventChannel as EventMethodName<E>]: (listener: (payload: IpcEventPayload<E>) => void) => () => void;
};

/**
 * `window.glance`: one method per invoke channel (`chat:send` → `chatSend`), one
 * subscription per push channel (`chat:event` → `onChatEvent`, returning an unsubscribe),
 * and `pathForFile` for drops (returns "" when the file has no path: send its bytes instead).
 */
export type GlanceApi = InvokeMethods &
  EventMethods & {
    pathForFile(file: DroppedFile): string;
  };

/** Names the request's offending field: "chat:send: text: Invalid input: expected string, received number". */
export function describeIssues(channelName: string, error: z.ZodError): string {
  return `${channelName}: ${formatZodIssues(error).replaceAll('(value)', '(request)')}`;
}
