import { z } from 'zod';
import { describeMarks, type Mark } from './marks.ts';
import { hiddenPhrase, Redaction } from './privacy.ts';

/** Every way an image can be refused (architecture §3). Refusals are values, never exceptions. */
export const ImageRefusalCode = z.enum([
  'model-blind',
  'capability-unknown',
  'not-an-image',
  'unsupported-format',
  'too-large',
  'too-many-pixels',
  'corrupt',
  'source-unreachable',
  'source-forbidden',
  'limit-reached',
  /** Redaction could not check the image (local OCR failed or ran out of time): it is not sent to a remote model as it is. */
  'redaction-failed',
  /** The data folder could not be written (read-only, full, a file in the way): the image was not kept, so not sent. */
  'not-stored',
]);
export type ImageRefusalCode = z.infer<typeof ImageRefusalCode>;

export type ImageRefusal = { ok: false; code: ImageRefusalCode; message: string };

/** Formats a model may receive. */
export const ImageMime = z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
export type ImageMime = z.infer<typeof ImageMime>;

/**
 * Pixels before any encoding: 8-bit sRGB, three channels, rows packed (a screen capture straight
 * from the grab). The door fits a model's copy from them and encodes the lossless original after.
 */
export type RawFrame = { data: Uint8Array; width: number; height: number; channels: 3 };

/** What an image was before normalisation. */
const SourceImageInfo = z.object({
  mime: z.string(),
  width: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** A screen capture's device pixels per CSS pixel (2 on Retina): how large its text is drawn. */
  pixelRatio: z.number().positive().optional(),
});
type SourceImageInfo = z.infer<typeof SourceImageInfo>;

/** Size of ~14 px screen text once the model's server has resized the image (architecture §4a). */
export const ImageLegibility = z.object({
  textPx: z.number().nonnegative(),
  /** Below ~9 px: small screen text is likely unreadable to the model at this size. */
  smallText: z.boolean(),
});
export type ImageLegibility = z.infer<typeof ImageLegibility>;

/** What the model's encoder processes (after the server's own resize); null when Glance cannot tell. */
export const ModelInputSize = z.object({ width: z.number().int().positive(), height: z.number().int().positive() });

/** The app and title of a captured window, bounded (a title is whatever the window's owner set). */
export const CapturedWindowName = z.object({ app: z.string().max(200), title: z.string().max(500) });
export type CapturedWindowName = z.infer<typeof CapturedWindowName>;

/** Bounds a window's app and title for storing: control characters out, each at most its schema's length. */
export function capturedWindowName(w: { app: string; title: string }): CapturedWindowName {
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  const clean = (t: string, max: number) => t.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim().slice(0, max);
  return { app: clean(w.app, 200), title: clean(w.title, 500) };
}

/**
 * An image as it is stored and sent: normalised, metadata-free, fitted to a model's
 * profile. `id` names it in the attachment store, in stubs and in events.
 */
export const AttachmentInfo = z.object({
  id: z.string().regex(/^[a-f0-9]{16,64}$/),
  sha256: z.string().regex(/^[a-f0-9]{64}$/),
  mime: ImageMime,
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().positive(),
  /** A display name (file name for drops, "screenshot-….png" for captures). Never a path. */
  name: z.string(),
  /** Where it came from: "user", "hotkey", a tool name such as "screenshot_desktop" or "server__tool". */
  origin: z.string(),
  source: SourceImageInfo,
  /**
   * The bytes that entered, kept as they were (a capture's PNG, a drop's HEIC, an MCP server's
   * exact payload) in the store's originals; zoom, OCR, the viewer and re-fitting for another
   * model work from them. Absent for records stored before originals were kept.
   */
  original: z.object({ sha256: z.string().regex(/^[a-f0-9]{64}$/), mime: z.string() }).optional(),
  createdAt: z.string(),
  /**
   * For the model it was prepared for: the size its encoder processes and its token estimate
   * (null when unknown), and how legible screen text is then. Absent on records stored before.
   */
  modelInput: ModelInputSize.nullable().optional(),
  tokens: z.number().int().nonnegative().nullable().optional(),
  legibility: ImageLegibility.optional(),
  /** A window capture: the window's app and title, as its owner wrote them (untrusted text). */
  window: CapturedWindowName.optional(),
  /**
   * What was hidden on this device before the model got this copy (architecture §3 "Redact"), in
   * the original's pixels; absent when nothing was hidden (or the copy was not redacted).
   */
  redactions: z.array(Redaction).optional(),
  /** How long finding them took. */
  redactionMs: z.number().nonnegative().optional(),
  /**
   * A screen capture: the windows on it when it was taken, in the original's pixels (app and title
   * are untrusted text). Kept so every copy made later from the original fills excluded apps' windows too.
   */
  windows: z
    .array(z.object({ app: z.string().max(500), title: z.string().max(1000), x: z.number().int(), y: z.number().int(), width: z.number().int().positive(), height: z.number().int().positive(), password: z.literal(true).optional(), secret: z.object({ kind: z.string().max(100), rule: z.string().max(300) }).optional() }))
    .max(500)
    .optional(),
  /** The person's own patterns that did not finish within the image's time budget (so were not applied): named, never silent. */
  patternsSkipped: z.array(z.string().max(300)).max(100).optional(),
  /** Local OCR could not check this copy for secrets, and the person chose "Send anyway" for it. */
  uncheckedOnRequest: z.literal(true).optional(),
  /** Regions found but left visible in this copy because the person chose "Show anyway" for one send (the durable record of that choice). */
  shownOnRequest: z.array(Redaction).optional(),
});
export type AttachmentInfo = z.infer<typeof AttachmentInfo>;

/** A durable one-line text stub that stands in for an image the model no longer sees. */
export function attachmentStub(a: Pick<AttachmentInfo, 'id' | 'origin' | 'width' | 'height' | 'bytes' | 'sha256' | 'mime' | 'name'>): string {
  return `[image ${a.id} from ${a.origin}: ${a.name}, ${a.mime}, ${a.width}×${a.height}, ${a.bytes} bytes, sha256 ${a.sha256.slice(0, 16)}… — no longer shown; call show_attachment("${a.id}") to see it again]`;
}

/** One-line descriptor for an image in a tool message or delivery text: no bytes, ever. */
export function describeAttachment(a: Pick<AttachmentInfo, 'id' | 'name' | 'mime' | 'width' | 'height' | 'bytes'>): string {
  return `[image ${a.id}: ${a.name}, ${a.mime}, ${a.width}×${a.height}, ${a.bytes} bytes]`;
}

/**
 * THE label an image carries in the text of the message that shows it to a model (architecture §5):
 * `[image <id>: <name>, shown as W×H …]`, for user attachments and tool deliveries alike. It
 * says what the model's encoder processes and, when the server's resize leaves screen text
 * too small to read, that it should zoom in rather than guess.
 */
export function imageLabel(
  a: Pick<AttachmentInfo, 'id' | 'name' | 'width' | 'height'> & Partial<Pick<AttachmentInfo, 'modelInput' | 'tokens' | 'legibility' | 'window' | 'redactions'>>,
  options: { zoomTool?: string; marks?: readonly Mark[]; marksDrawn?: boolean } = {},
): string {
  const parts = [`shown as ${a.width}×${a.height}`];
  if (a.window) parts.unshift(windowPhrase(a.window));
  const input = a.modelInput;
  if (input && (input.width !== a.width || input.height !== a.height)) parts.push(`your encoder sees ${input.width}×${input.height}`);
  if (typeof a.tokens === 'number') parts.push(`≈${a.tokens} tokens`);
  if (a.legibility?.smallText) {
    const how = options.zoomTool ? `call ${options.zoomTool} on a region to read it` : 'ask for a closer view of a region to read it';
    parts.push(`small text is likely unreadable at this size (≈${a.legibility.textPx} px): ${how} instead of guessing`);
  }
  // The person's marks, numbered as drawn, in this image's pixels (architecture §5).
  if (options.marks?.length) parts.push(options.marksDrawn === false ? `${describeMarks(options.marks)} (could not be drawn in)` : describeMarks(options.marks));
  // Said, never silent: the model knows the boxes are hidden secrets, not something to guess at.
  if (a.redactions?.length) parts.push(hiddenPhrase(a.redactions));
  return `[image ${a.id}: ${a.name}, ${parts.join(', ')}]`;
}

/**
 * `window "Title" of app "App"`: quoted as JSON strings and cut short, so a title (which a web page
 * or any program writes) stays one quoted value inside the label and cannot end it or add lines.
 */
export function windowPhrase(w: CapturedWindowName): string {
  const quote = (t: string, max: number) => JSON.stringify(t.length > max ? `${t.slice(0, max - 1)}…` : t).replace(/[[\]]/g, (c) => (c === '[' ? '\\u005b' : '\\u005d'));
  return `window ${quote(w.title || '(untitled)', 120)} of app ${quote(w.app || 'unknown', 60)}`;
}

// The display formatters live apart, without zod, so the renderer's first script stays small.
export { formatBytes, formatImageSize, formatTokens } from './imageFormat.ts';

/**
 * The one table of image file extensions: a stored file is named after what its bytes are
 * (the sniffed MIME), never after a name someone gave it — a file named .png holds PNG.
 * Other types (audio, documents) are named from the general table (mime-types, in main/).
 */
const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = Object.freeze({
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/tiff': 'tif',
  'image/avif': 'avif',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'image/bmp': 'bmp',
});

/** The extension (no dot) for an image MIME type, or undefined for one Glance does not store. */
export function imageExtension(mime: string): string | undefined {
  return IMAGE_EXTENSIONS[mime.toLowerCase().split(';')[0]?.trim() ?? ''];
}
