import type { AttachmentInfo } from '../../common/images.ts';
import type { CaptureAttachment, CropAttachment, PreviewAttachment, UnderPointerWindow } from '../../common/ipcPayloads.ts';
import type { IpcEventPayload, IpcRequest, IpcResult, IpcValue } from '../../common/ipc.ts';
import type { AttachmentLike, ImageView } from './chatReducer.ts';
import type { Redaction } from '../../common/privacy.ts';
import { sameRegion } from '../../common/sameRegion.ts';
import { markKey } from './markupSlice.ts';
import type { SliceCreator } from './store.ts';

/** An image in the composer: being checked by main, or ready (normalised, stored, its final size known). */
export type PendingAttachment =
  | { key: string; name: string; status: 'checking' }
  | {
      key: string;
      name: string;
      status: 'ready';
      attachment: AttachmentLike;
      /** Accepted for a blind model without a helper: main's local OCR found text, which is what it gets. */
      asText?: boolean;
      /** Characters of that text, when main said (after a model switch). */
      asTextChars?: number;
      /** The chat model is blind: this vision helper describes the image, and the chat model gets its words. */
      describedBy?: string;
      /** The model picked since the image was attached will not take it: main's words, and the image stays here. */
      notSent?: { code: string; message: string };
      /** Being fitted anew for the model just picked. */
      refitting?: boolean;
      /** After a crop: the image it was cut from (to undo it) and where, in that image's pixels. */
      uncropped?: AttachmentLike;
      region?: CropRegion;
      /** A display capture: the window that was under the pointer, and where it lies in it. */
      underPointer?: UnderPointerWindow;
      /** "This window" is on: `attachment` is that window cut from this display capture. */
      windowOf?: AttachmentLike;
      /** The window's own words that go with a cut (read from accessibility), or why there are none. */
      windowText?: CropAttachment['windowText'];
    };

/** A refused image: shown as an alert with main's plain-words reason; nothing is sent. */
export type RefusalNotice = {
  key: string;
  name: string;
  code: string;
  message: string;
  /** Refused at send (the images are back in the box), not when attached. */
  fromSend?: boolean;
  /**
   * `redaction-failed` on attach: what was attached, so "Send anyway" can give it to main again with
   * the person's choice — a file's source, or the key main holds a screenshot under (it is not captured again).
   */
  retry?: IpcRequest<'attachments:add'>['source'] | { held: string };
};

type Thumbnail = { state: 'loading' } | { state: 'ready'; dataUrl: string; width: number; height: number } | { state: 'error'; message: string };

/** A dropped or pasted file, structurally (a DOM `File`). */
type FileLike = { name: string; size: number; type: string; arrayBuffer(): Promise<ArrayBuffer> };

export type CropRegion = { x: number; y: number; width: number; height: number };

export type AttachmentsSlice = {
  pending: PendingAttachment[];
  refusals: RefusalNotice[];
  thumbnails: Record<string, Thumbnail>;
  viewer: ImageView | null;
  addFiles(files: readonly FileLike[]): Promise<void>;
  captureScreenshot(): Promise<void>;
  /** Replaces a ready attachment by a region of it (pixels of the stored image). */
  cropPending(key: string, region: CropRegion): Promise<string | null>;
  uncrop(key: string): void;
  /** "This window": send the window that was under the pointer instead of the display, or the display again. */
  toggleWindow(key: string): Promise<string | null>;
  /** "Show again": a retracted image rides on the next message. */
  reattach(image: Pick<ImageView, 'id' | 'name' | 'origin' | 'mime' | 'width' | 'height' | 'bytes'>): void;
  /**
   * "Show anyway": one hidden region of a waiting image is sent as it is, this send only. Main's door
   * makes the copy (what the dialog then shows is what goes); null, or why it could not.
   */
  showAnyway(key: string, region: Redaction): Promise<string | null>;
  /** Undoes "Show anyway" for one region: the copy is made again with it hidden; null, or why it could not. */
  hideAgain(key: string, region: Redaction): Promise<string | null>;
  /** "Send anyway" on a `redaction-failed` refusal: the person's choice, for that image only (main records it on the copy). */
  sendAnyway(refusalKey: string): Promise<void>;
  /** The refused image again, for the model now selected (a model on this computer, which needs no check), without "Send anyway". */
  retryRefused(refusalKey: string): Promise<void>;
  /**
   * Fits every waiting image anew for the model now picked, through main's door (from its original),
   * so each says what this model will get: its size and tokens, its text, or why it will not go.
   */
  refitPending(): Promise<void>;
  removePending(key: string): void;
  dismissRefusal(key: string): void;
  /** `id`: the item's, under which main holds a hotkey capture that could not be checked. */
  receiveIncoming(result: IpcEventPayload<'attachments:incoming'>['result'], id?: string): void;
  loadThumbnail(id: string, maxEdge: number): void;
  openViewer(image: ImageView | null): void;
  /** The image at full resolution for the viewer (the last one asked is kept). */
  loadOriginal(id: string): Promise<IpcResult<IpcValue<'attachments:original'>>>;
};

/** Thumbnails kept in memory; older ones are dropped and fetched again if scrolled back to. */
const THUMBNAIL_CACHE = 300;

export const thumbnailKey = (id: string, maxEdge: number) => `${id}@${maxEdge}`;

/** "60 MB", "1.5 MB", "0.001 MB": enough digits to tell a limit from zero. */
function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${mb >= 10 ? Math.round(mb) : Number(mb.toPrecision(2))} MB`;
}

let keySeq = 0;
const newKey = () => `a${++keySeq}`;

function toLike(a: AttachmentInfo): AttachmentLike {
  return {
    id: a.id,
    name: a.name,
    origin: a.origin,
    mime: a.mime,
    width: a.width,
    height: a.height,
    bytes: a.bytes,
    ...(a.tokens === undefined ? {} : { tokens: a.tokens }),
    ...(a.source.width && a.source.height ? { source: { width: a.source.width, height: a.source.height } } : {}),
    ...(a.redactions?.length ? { redactions: a.redactions } : {}),
  };
}

/** A crop (or its undo) of a capture keeps what it knows about its window. */
function keepWindow(p: Extract<PendingAttachment, { status: 'ready' }>) {
  return { ...(p.underPointer ? { underPointer: p.underPointer } : {}), ...(p.windowOf ? { windowOf: p.windowOf } : {}) };
}

export const createAttachmentsSlice: SliceCreator<AttachmentsSlice> = (set, get, api) => {
  let lastOriginal: { id: string; result: IpcResult<IpcValue<'attachments:original'>> } | undefined;
  const settle = (key: string, name: string, result: IpcResult<PreviewAttachment | CaptureAttachment>, source?: RefusalNotice['retry'], sendAnyway = false) => {
    set((s) => {
      const pending = s.pending.filter((p) => p.key !== key);
      if (result.ok) {
        const under = 'underPointer' in result.value ? result.value.underPointer : undefined;
        // Main's verdict, not a guess: the text local OCR read for a blind model, or the helper that describes it.
        const asText = 'asText' in result.value ? result.value.asText : undefined;
        const describedBy = 'describedBy' in result.value ? result.value.describedBy : undefined;
        const ready: PendingAttachment = {
          key,
          name: result.value.name || name,
          status: 'ready',
          attachment: { ...toLike(result.value), ...(sendAnyway ? { sendAnyway: true } : {}) },
          ...(asText ? { asText: true, asTextChars: asText.chars } : {}),
          ...(describedBy ? { describedBy } : {}),
          ...(under ? { underPointer: under } : {}),
        };
        // Keep the order the user added them in.
        const index = s.pending.findIndex((p) => p.key === key);
        pending.splice(index < 0 ? pending.length : index, 0, ready);
        return { pending };
      }
      // Kept to try again: after "Send anyway", or once the person says the model can see.
      const retry = (result.code === 'redaction-failed' || result.code === 'capability-unknown') && source ? { retry: source } : {};
      return { pending, refusals: [...s.refusals, { key, name, code: result.code, message: result.message, ...retry }] };
    });
  };

  const model = () => get().selectedModel ?? undefined;
  /** The open conversation, so its own redaction applies to the copy made now (as it will at send). */
  const inConversation = () => {
    const id = get().chat.conversationId;
    return id ? { conversationId: id } : {};
  };

  /** Only the latest switch's copies count: an answer for a model no longer picked is dropped. */
  let refitSeq = 0;

  /** A refused image given to main again (its source, or the capture main holds): with the person's "Send anyway", or plainly for another model. */
  const retry = async (refusalKey: string, anyway: boolean) => {
    const refusal = get().refusals.find((r) => r.key === refusalKey);
    if (!refusal?.retry) return;
    const { retry: source, name } = refusal;
    const key = newKey();
    set((s) => ({ refusals: s.refusals.filter((r) => r.key !== refusalKey), pending: [...s.pending, { key, name, status: 'checking' }] }));
    const selected = model();
    // A held capture is handed over once; for a model on this computer the check does not apply, so the choice changes nothing there.
    const result =
      'held' in source
        ? await api.captureScreenshot({ sendHeld: source.held, ...(selected ? { model: selected } : {}) })
        : await api.attachmentsAdd({ source, ...(anyway ? { sendAnyway: true as const } : {}), ...(selected ? { model: selected } : {}), ...inConversation() });
    settle(key, name, result, undefined, anyway);
  };

  return {
    pending: [],
    refusals: [],
    thumbnails: {},
    viewer: null,

    async addFiles(files) {
      const cap = get().settings?.limits.ingestBytes;
      const jobs = files.map(async (file) => {
        const key = newKey();
        // Refused from its size at once: reading a huge file into the page first froze it for seconds.
        if (cap !== undefined && file.size > cap) {
          const message = `it is ${formatMegabytes(file.size)}, and the largest file Glance accepts is ${formatMegabytes(cap)} (Settings → Limits).`;
          set((s) => ({ refusals: [...s.refusals, { key, name: file.name || 'pasted image', code: 'too-large', message }] }));
          return;
        }
        set((s) => ({ pending: [...s.pending, { key, name: file.name || 'pasted image', status: 'checking' }] }));
        const path = (() => {
          try {
            return api.pathForFile(file);
          } catch {
            return '';
          }
        })();
        const selected = model();
        const source = path
          ? { kind: 'path' as const, path }
          : { kind: 'bytes' as const, name: file.name || 'pasted-image', bytes: new Uint8Array(await file.arrayBuffer()) };
        settle(key, file.name, await api.attachmentsAdd({ source, ...(selected ? { model: selected } : {}), ...inConversation() }), source);
      });
      await Promise.all(jobs);
    },

    async captureScreenshot() {
      const key = newKey();
      set((s) => ({ pending: [...s.pending, { key, name: 'screenshot', status: 'checking' }] }));
      const selected = model();
      // Held by main under this key if it cannot be checked for secrets, for "Send anyway".
      const held = crypto.randomUUID();
      settle(key, 'screenshot', await api.captureScreenshot({ display: 'under-cursor', hold: held, ...(selected ? { model: selected } : {}) }), { held });
    },

    async cropPending(key, region) {
      const item = get().pending.find((p) => p.key === key);
      if (!item || item.status !== 'ready') return 'Nothing to crop.';
      const original = item.uncropped ?? item.attachment;
      const selected = model();
      const result = await api.attachmentsCrop({ id: original.id, region, ...(selected ? { model: selected } : {}) });
      if (!result.ok) return result.message;
      set((s) => ({
        pending: s.pending.map((p) =>
          p.key === key && p.status === 'ready'
            ? { ...keepWindow(p), key, name: p.name, status: 'ready', attachment: toLike(result.value), uncropped: original, region, ...(result.value.windowText ? { windowText: result.value.windowText } : {}) }
            : p,
        ),
      }));
      return null;
    },

    async toggleWindow(key) {
      const item = get().pending.find((p) => p.key === key);
      if (!item || item.status !== 'ready' || !item.underPointer) return 'No window was under the pointer.';
      const { underPointer } = item;
      if (item.windowOf) {
        const display = item.windowOf;
        set((s) => ({ pending: s.pending.map((p) => (p.key === key ? { key, name: display.name, status: 'ready', attachment: display, underPointer } : p)) }));
        // The display was fitted for the model of its time: fitted again for the one picked now.
        void get().refitPending();
        return null;
      }
      // Cut by main from the display capture taken at the hotkey: nothing is captured again.
      const display = item.uncropped ?? item.attachment;
      const selected = model();
      const { region, app, title } = underPointer;
      const result = await api.attachmentsCrop({ id: display.id, region, window: { app, title }, ...(selected ? { model: selected } : {}) });
      if (!result.ok) return result.message;
      set((s) => ({
        pending: s.pending.map((p) =>
          p.key === key ? { key, name: result.value.name, status: 'ready', attachment: toLike(result.value), underPointer, windowOf: display, ...(result.value.windowText ? { windowText: result.value.windowText } : {}) } : p,
        ),
      }));
      return null;
    },

    uncrop(key) {
      set((s) => ({
        pending: s.pending.map((p) => (p.key === key && p.status === 'ready' && p.uncropped ? { ...keepWindow(p), key, name: p.name, status: 'ready', attachment: p.uncropped } : p)),
      }));
      void get().refitPending();
    },

    reattach(image) {
      if (get().pending.some((p) => p.status === 'ready' && p.attachment.id === image.id)) return;
      const { id, name, origin, mime, width, height, bytes } = image;
      set((s) => ({ pending: [...s.pending, { key: newKey(), name, status: 'ready', attachment: { id, name, origin, mime, width, height, bytes } }] }));
      // Shown again to the model picked now, fitted for it (it was retracted as another model's copy).
      void get().refitPending();
    },

    async showAnyway(key, region) {
      const item = get().pending.find((p) => p.key === key);
      if (!item || item.status !== 'ready') return 'That image is no longer waiting to be sent.';
      const shown = [...(item.attachment.shown ?? []).filter((r) => !sameRegion(r, region)), region];
      const selected = model();
      const result = await api.attachmentsPreview({ id: item.attachment.id, shown, ...(selected ? { model: selected } : {}), ...inConversation() });
      if (!result.ok) return result.message;
      const attachment: AttachmentLike = { ...toLike(result.value), shown };
      set((s) => ({ pending: s.pending.map((p) => (p.key === key && p.status === 'ready' ? { ...p, attachment } : p)) }));
      return null;
    },

    async hideAgain(key, region) {
      const item = get().pending.find((p) => p.key === key);
      if (!item || item.status !== 'ready') return 'That image is no longer waiting to be sent.';
      const shown = (item.attachment.shown ?? []).filter((r) => !sameRegion(r, region));
      const selected = model();
      const result = await api.attachmentsPreview({ id: item.attachment.id, shown, ...(selected ? { model: selected } : {}), ...inConversation() });
      if (!result.ok) return result.message;
      const attachment: AttachmentLike = { ...toLike(result.value), ...(shown.length ? { shown } : {}) };
      set((s) => ({ pending: s.pending.map((p) => (p.key === key && p.status === 'ready' ? { ...p, attachment } : p)) }));
      return null;
    },

    sendAnyway: (refusalKey) => retry(refusalKey, true),
    retryRefused: (refusalKey) => retry(refusalKey, false),

    async refitPending() {
      const seq = ++refitSeq;
      const selected = model();
      const items = get().pending.filter((p): p is Extract<PendingAttachment, { status: 'ready' }> => p.status === 'ready');
      if (!items.length) return;
      set((s) => ({ pending: s.pending.map((p) => (items.some((i) => i.key === p.key) && p.status === 'ready' ? { ...p, refitting: true } : p)) }));
      await Promise.all(
        items.map(async (item) => {
          const { shown, sendAnyway } = item.attachment;
          const result = await api.attachmentsPreview({ id: item.attachment.id, shown: shown ?? [], ...(sendAnyway ? { sendAnyway: true } : {}), ...(selected ? { model: selected } : {}), ...inConversation() });
          if (seq !== refitSeq) return;
          const old = item.attachment.id;
          set((s) => ({
            pending: s.pending.map((p) => {
              if (p.key !== item.key || p.status !== 'ready' || p.attachment.id !== old) return p;
              const { asText: _t, asTextChars: _c, describedBy: _d, notSent: _n, refitting: _r, ...rest } = p;
              if (!result.ok) return { ...rest, notSent: { code: result.code, message: result.message } };
              const fitted = result.value;
              const attachment: AttachmentLike = { ...toLike(fitted), ...(shown ? { shown } : {}), ...(sendAnyway ? { sendAnyway } : {}) };
              return {
                ...rest,
                attachment,
                ...(fitted.asText ? { asText: true, asTextChars: fitted.asText.chars } : {}),
                ...(fitted.describedBy ? { describedBy: fitted.describedBy } : {}),
              };
            }),
            // Marks are drawn in the original's pixels: they follow the image to its new copy.
            ...(result.ok && result.value.id !== old && s.markup[markKey(item.key, old)] ? { markup: { ...s.markup, [markKey(item.key, result.value.id)]: s.markup[markKey(item.key, old)]! } } : {}),
          }));
        }),
      );
    },

    removePending(key) {
      set((s) => ({ pending: s.pending.filter((p) => p.key !== key) }));
    },

    dismissRefusal(key) {
      set((s) => ({ refusals: s.refusals.filter((r) => r.key !== key) }));
    },

    receiveIncoming(result, id) {
      const key = newKey();
      if (result.ok) {
        const under = result.attachment.underPointer;
        set((s) => ({ pending: [...s.pending, { key, name: result.attachment.name, status: 'ready', attachment: toLike(result.attachment), ...(under ? { underPointer: under } : {}) }] }));
      } else {
        // The hotkey's capture is held in main under the item's id when it could not be checked.
        const retry = result.code === 'redaction-failed' && result.origin === 'hotkey' && id ? { retry: { held: id } } : {};
        set((s) => ({ refusals: [...s.refusals, { key, name: result.origin, code: result.code, message: result.message, ...retry }] }));
      }
    },

    loadThumbnail(id, maxEdge) {
      const key = thumbnailKey(id, maxEdge);
      const existing = get().thumbnails[key];
      if (existing && existing.state !== 'error') return;
      set((s) => ({ thumbnails: { ...s.thumbnails, [key]: { state: 'loading' } } }));
      void api.attachmentsThumbnail({ id, maxEdge }).then((result) => {
        set((s) => {
          const thumbnails = { ...s.thumbnails };
          delete thumbnails[key]; // re-insert: the newest last, so the oldest go first
          thumbnails[key] = result.ok
            ? { state: 'ready', dataUrl: result.value.dataUrl, width: result.value.width, height: result.value.height }
            : { state: 'error', message: result.message };
          const keys = Object.keys(thumbnails);
          for (const old of keys.slice(0, Math.max(0, keys.length - THUMBNAIL_CACHE))) delete thumbnails[old];
          return { thumbnails };
        });
      });
    },

    async loadOriginal(id) {
      if (lastOriginal?.id === id) return lastOriginal.result;
      const result = await api.attachmentsOriginal({ id });
      // One kept: full-resolution data URLs are large.
      if (result.ok) lastOriginal = { id, result };
      return result;
    },

    openViewer(image) {
      set({ viewer: image });
    },
  };
};
