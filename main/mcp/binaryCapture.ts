// Binary capture on every MCP tool result (DESIGN §6, seed 000). Bytes never reach the model's
// text: typed image/audio blocks and embedded blobs are decoded, images go through the intake
// chokepoint into the attachment store, other binaries become files under <dataDir>/captures,
// and each is replaced by a one-line descriptor. Declared rules do the same for base64 inside
// JSON text. Capture is an optimisation on a result that is already complete, so it never
// fails the call: anything unexpected is logged and the original passes through, size-capped.
import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { AttachmentInfo } from '../../common/images.ts';
import { DEFAULT_PROFILES } from '../images/profiles.ts';
import type { AttachmentStore, ImageInput, ImageProfile, ImageTarget, PrepareResult } from '../images/types.ts';
import type { CaptureRule } from './config.ts';

/** What a tool call gives the engine (DESIGN §5: images go to the delivery queue, text to the tool message). */
export type McpToolOutcome = {
  ok: boolean;
  /** What the model's tool message gets: text only, never base64. */
  text: string;
  /** Images captured into the attachment store, for the engine's delivery queue. */
  images: AttachmentInfo[];
  /** Audio and other binaries saved under <dataDir>/captures. */
  files: CapturedFile[];
  /** What capture did or could not do (cuts, drops, refusals), for logs and the UI. */
  notes: string[];
  /** Why a failed call failed, when it was not the tool's own isError. */
  failure?: McpFailureCode;
};

export type McpFailureCode = 'unknown-tool' | 'server-unavailable' | 'server-crashed' | 'timeout' | 'aborted' | 'protocol' | 'closed';

export type CapturedFile = { path: string; name: string; mime: string; bytes: number };

/** The part of the image intake (ImageIntake) capture needs: bytes in, a model-ready image out. */
export type CaptureIntake = {
  prepare(input: ImageInput, profile: ImageProfile, options?: { signal?: AbortSignal }): Promise<PrepareResult>;
};

export type BinaryCaptureDeps = {
  intake: CaptureIntake;
  store: AttachmentStore;
  /** Where non-image binaries go: <dataDir>/captures. */
  capturesDir: string;
  log?: (message: string) => void;
  /** Cap on the server's own text in one result (characters). Default 100,000. */
  maxTextChars?: number;
};

export type CaptureContext = {
  server: string;
  /** The tool's name on its server (rules match this). */
  tool: string;
  /** The namespaced name the model called ("server__tool"): the images' origin. */
  origin: string;
  rules: readonly CaptureRule[];
  /**
   * The model that will look at captured images; the intake fits them to its profile. Without
   * one (the CLI), the OpenAI-compatible default profile: the most generous of the defaults.
   */
  imageTarget?: ImageTarget;
  signal?: AbortSignal;
};

/** A tool result as it came off the wire; validated loosely so capture, not the SDK, judges blocks. */
export type RawToolResult = { content?: unknown; isError?: unknown; structuredContent?: unknown };

export const DEFAULT_MAX_TEXT_CHARS = 100_000;
/** Binary decoded as text: at least this many U+FFFD in at least MANGLED_MIN_CHARS (seed 000). */
const MANGLED_MIN_REPLACEMENTS = 8;
const MANGLED_MIN_CHARS = 1024;
/** Shorter rule fields are left alone: "test" is valid base64 too, and tiny values cost nothing. */
const MIN_RULE_BASE64_CHARS = 24;

// A part of the model's text: the server's own words (capped) or our descriptor (always kept).
type Part = { kind: 'server' | 'ours'; text: string };

export class BinaryCapture {
  readonly #deps: BinaryCaptureDeps;
  readonly #maxText: number;

  constructor(deps: BinaryCaptureDeps) {
    this.#deps = deps;
    this.#maxText = deps.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS;
  }

  /** Turns a tool result into the model's text plus captured images and files. Never throws. */
  async process(result: RawToolResult, ctx: CaptureContext): Promise<McpToolOutcome> {
    const ok = result.isError !== true;
    const images: AttachmentInfo[] = [];
    const files: CapturedFile[] = [];
    const notes: string[] = [];
    const parts: Part[] = [];
    const job: Job = { ctx, images, files, notes, parts, counter: 0 };
    try {
      const blocks = Array.isArray(result.content) ? (result.content as unknown[]) : [];
      for (const block of blocks) {
        try {
          await this.#block(block, job);
        } catch (error) {
          this.#note(job, `a ${blockType(block)} block could not be processed (${errorText(error)}); it was left out`);
          parts.push({ kind: 'ours', text: `[${blockType(block)} content left out: it could not be processed]` });
        }
      }
      if (blocks.length === 0 && result.structuredContent !== undefined) {
        await this.#text(JSON.stringify(result.structuredContent), job);
      }
    } catch (error) {
      this.#note(job, `capture failed (${errorText(error)}); passing the result through`);
      parts.length = 0;
      parts.push(...passThrough(result));
    }
    return { ok, text: this.#assemble(parts, notes), images, files, notes };
  }

  async #block(block: unknown, job: Job): Promise<void> {
    if (typeof block !== 'object' || block === null) return;
    const b = block as Record<string, unknown>;
    switch (b.type) {
      case 'text':
        await this.#text(typeof b.text === 'string' ? b.text : '', job);
        return;
      case 'image':
      case 'audio': {
        const mime = typeof b.mimeType === 'string' ? b.mimeType : undefined;
        const payload = readBinaryPayload(b.data);
        if (!payload.ok) {
          this.#note(job, `${b.type} block dropped: ${payload.reason}`);
          job.parts.push({ kind: 'ours', text: `[${b.type} from ${job.ctx.origin} left out: ${payload.reason}]` });
          return;
        }
        const name = `${job.ctx.tool}-${++job.counter}`;
        job.parts.push({ kind: 'ours', text: await this.#binary(payload.bytes, { name, mime, typedImage: b.type === 'image' }, job) });
        return;
      }
      case 'resource':
        await this.#resource(b.resource, job);
        return;
      case 'resource_link': {
        const mime = typeof b.mimeType === 'string' ? `, ${b.mimeType}` : '';
        job.parts.push({ kind: 'server', text: `[resource link: ${String(b.name ?? '')} ${String(b.uri ?? '')}${mime}]` });
        return;
      }
      default:
        job.parts.push({ kind: 'server', text: JSON.stringify(block, elideLongStrings) });
    }
  }

  async #resource(resource: unknown, job: Job): Promise<void> {
    if (typeof resource !== 'object' || resource === null) return;
    const r = resource as Record<string, unknown>;
    const uri = typeof r.uri === 'string' ? r.uri : '';
    const mime = typeof r.mimeType === 'string' ? r.mimeType : undefined;
    if (typeof r.text === 'string') {
      job.parts.push({ kind: 'ours', text: `[resource ${uri}${mime ? ` (${mime})` : ''}]` }, { kind: 'server', text: r.text });
      return;
    }
    if (r.blob === undefined) {
      job.parts.push({ kind: 'ours', text: `[resource ${uri}: no content]` });
      return;
    }
    const payload = readBinaryPayload(r.blob);
    if (!payload.ok) {
      this.#note(job, `resource ${uri} dropped: ${payload.reason}`);
      job.parts.push({ kind: 'ours', text: `[resource ${uri} left out: ${payload.reason}]` });
      return;
    }
    const name = nameFromUri(uri) ?? `${job.ctx.tool}-${++job.counter}`;
    if ((await classifyContent(payload.bytes, { name, mime })) === 'text') {
      // A text resource someone sent as a blob: the model can simply read it.
      job.parts.push({ kind: 'ours', text: `[resource ${uri}${mime ? ` (${mime})` : ''}]` }, { kind: 'server', text: utf8(payload.bytes) });
      return;
    }
    job.parts.push({ kind: 'ours', text: await this.#binary(payload.bytes, { name, mime, typedImage: false }, job) });
  }

  /** A text block: declared rules may capture base64 inside its JSON; otherwise it stays as is. */
  async #text(text: string, job: Job): Promise<void> {
    const rules = job.ctx.rules.filter((rule) => rule.tools.includes(job.ctx.tool) || rule.tools.includes('*'));
    if (rules.length === 0) {
      job.parts.push({ kind: 'server', text });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      job.parts.push({ kind: 'server', text });
      return;
    }
    const targets = Array.isArray(json) ? json : [json];
    let changed = false;
    try {
      for (const target of targets) {
        if (typeof target !== 'object' || target === null || Array.isArray(target)) continue;
        for (const rule of rules) changed = (await this.#applyRule(target as Record<string, unknown>, rule, job)) || changed;
      }
    } catch (error) {
      // A store that cannot be written, a rule that does not fit: the original goes through.
      this.#note(job, `capture rule for ${job.ctx.origin} failed (${errorText(error)}); passing the original result through`);
      job.parts.push({ kind: 'server', text });
      return;
    }
    job.parts.push(changed ? { kind: 'server', text: JSON.stringify(json) } : { kind: 'server', text });
  }

  /** Returns whether the object changed. Throws only for a failed save (the caller passes through). */
  async #applyRule(target: Record<string, unknown>, rule: CaptureRule, job: Job): Promise<boolean> {
    const field = target[rule.contentField];
    if (typeof field !== 'string') return false;
    const name = rule.nameField && typeof target[rule.nameField] === 'string' ? (target[rule.nameField] as string) : undefined;
    const mime = rule.mimeField && typeof target[rule.mimeField] === 'string' ? (target[rule.mimeField] as string) : undefined;
    const encoding = rule.encodingField ? target[rule.encodingField] : undefined;
    if (typeof encoding === 'string' && encoding.toLowerCase() !== 'base64') return false; // declared plain text
    const bytes = field.length >= MIN_RULE_BASE64_CHARS ? decodeBase64Strict(field) : undefined;
    if (!bytes) {
      const mangled = mangledBinary(field);
      if (mangled) {
        target[rule.contentField] =
          `[content dropped: the server returned binary data decoded as text (${mangled.chars} characters, ${mangled.replacements} U+FFFD); ` +
          'the bytes are unrecoverable — fetch the file another way, e.g. its download URL]';
        this.#note(job, `${job.ctx.origin} returned binary as text in "${rule.contentField}"${name ? ` (${name})` : ''}: ${mangled.chars} characters dropped`);
        return true;
      }
      if (encoding !== undefined) this.#note(job, `"${rule.contentField}" claimed base64 but is not; left as the server sent it`);
      return false;
    }
    if ((await classifyContent(bytes, { name, mime })) === 'text') {
      // A README through the same field: give the model the text, not its base64.
      target[rule.contentField] = utf8(bytes);
      if (rule.encodingField && encoding !== undefined) target[rule.encodingField] = 'utf-8';
      return true;
    }
    const descriptor = await this.#binary(bytes, { name: name ?? `${job.ctx.tool}-${++job.counter}`, mime, typedImage: false, strict: true }, job);
    target[rule.contentField] = descriptor;
    if (rule.encodingField && encoding !== undefined) target[rule.encodingField] = 'captured';
    return true;
  }

  /**
   * Captures bytes: an image through the intake into the store, anything else into a file.
   * Returns the descriptor. With `strict`, a failed save throws (a rule then passes the
   * original through); otherwise the descriptor says what went wrong.
   */
  async #binary(bytes: Uint8Array, what: { name: string; mime: string | undefined; typedImage: boolean; strict?: boolean }, job: Job): Promise<string> {
    const sniffed = await fileTypeFromBuffer(bytes).catch(() => undefined);
    const mime = what.mime ?? sniffed?.mime ?? 'application/octet-stream';
    const claimsImage = (mime.startsWith('image/') && mime !== 'image/svg+xml') || IMAGE_NAME.test(what.name);
    const isImage = what.typedImage || (sniffed?.mime.startsWith('image/') ?? false) || claimsImage;
    const { origin } = job.ctx;
    if (isImage) {
      const name = withExtension(safeCaptureName(what.name, `${job.ctx.tool}-image`), sniffed?.ext ?? extensionFor(mime));
      const prepared = await this.#deps.intake.prepare({ source: bytes, name, origin, requestedBy: 'model' }, job.ctx.imageTarget?.profile ?? DEFAULT_PROFILES.openai, {
        ...(job.ctx.signal ? { signal: job.ctx.signal } : {}),
      });
      if (!prepared.ok) {
        if (what.strict) throw new Error(`not the image it claimed to be (${prepared.code}: ${prepared.message})`);
        this.#note(job, `image ${name} from ${origin} refused by the intake (${prepared.code}): ${prepared.message}`);
        return `[image from ${origin} not kept: ${name}, ${mime}, ${bytes.length} bytes — ${prepared.code}: ${prepared.message}]`;
      }
      let info: AttachmentInfo;
      try {
        info = await this.#deps.store.put(prepared.image, origin);
      } catch (error) {
        if (what.strict) throw error;
        this.#note(job, `image ${name} from ${origin} could not be stored: ${errorText(error)}`);
        return `[image from ${origin} not kept: ${name}, ${mime}, ${bytes.length} bytes — the attachment store failed: ${errorText(error)}]`;
      }
      job.images.push(info);
      const source = info.source.width !== info.width || info.source.bytes !== info.bytes ? ` (received ${info.source.width}×${info.source.height}, ${info.source.bytes} bytes)` : '';
      return `[image captured from ${origin}: ${info.name}, ${info.mime}, ${info.width}×${info.height}, ${info.bytes} bytes${source}, attachment id ${info.id}]`;
    }
    const kind = mime.startsWith('audio/') ? 'audio' : mime.startsWith('video/') ? 'video' : 'file';
    const name = withExtension(safeCaptureName(what.name, `${job.ctx.tool}-${kind}`), extensionFor(mime) ?? sniffed?.ext);
    let path: string;
    try {
      path = await saveCapture(this.#deps.capturesDir, name, bytes);
    } catch (error) {
      if (what.strict) throw error;
      this.#note(job, `${kind} ${name} from ${origin} could not be saved: ${errorText(error)}`);
      return `[${kind} from ${origin} not kept: ${name}, ${mime}, ${bytes.length} bytes — saving failed: ${errorText(error)}]`;
    }
    const saved = { path, name: path.slice(dirname(path).length + 1), mime, bytes: bytes.length };
    job.files.push(saved);
    return `[${kind} captured from ${origin}: ${saved.name}, ${mime}, ${bytes.length} bytes, saved as ${path}]`;
  }

  #note(job: Job, note: string): void {
    job.notes.push(note);
    this.#deps.log?.(`mcp capture: ${note}`);
  }

  /** Joins parts; the server's text shares one budget, our descriptors are always kept. */
  #assemble(parts: Part[], notes: string[]): string {
    let budget = this.#maxText;
    let total = 0;
    let cut = false;
    const out: string[] = [];
    for (const part of parts) {
      if (part.kind === 'ours') {
        out.push(part.text);
        continue;
      }
      total += part.text.length;
      if (part.text.length <= budget) {
        out.push(part.text);
        budget -= part.text.length;
      } else {
        if (budget > 0) out.push(part.text.slice(0, budget));
        budget = 0;
        cut = true;
      }
    }
    if (cut) {
      const shown = this.#maxText;
      out.push(`[… result cut: ${total} characters of text, only the first ${shown} shown]`);
      notes.push(`text cut from ${total} to ${shown} characters`);
    }
    return out.join('\n');
  }
}

type Job = { ctx: CaptureContext; images: AttachmentInfo[]; files: CapturedFile[]; notes: string[]; parts: Part[]; counter: number };

/** When capture itself broke: keep the server's text blocks, describe the rest without bytes. */
function passThrough(result: RawToolResult): Part[] {
  const blocks = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  return blocks.map((block) => {
    const b = (typeof block === 'object' && block !== null ? block : {}) as Record<string, unknown>;
    return b.type === 'text' && typeof b.text === 'string' ? { kind: 'server', text: b.text } : { kind: 'ours', text: `[${blockType(block)} content left out]` };
  });
}

// ---------------------------------------------------------------------------------------------
// Payloads

export type PayloadResult = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

/**
 * Reads a block's payload whichever way it came: base64 text (the wire format, optionally as a
 * data: URL), raw bytes, a serialised Node Buffer, or — seed 000's SDK bug — base64 text handed
 * over as bytes. Raw bytes that are all base64 characters and do not sniff as a file are that bug.
 */
export function readBinaryPayload(value: unknown): PayloadResult {
  if (typeof value === 'string') {
    const body = value.startsWith('data:') ? value.slice(value.indexOf(',') + 1) : value;
    const bytes = decodeBase64Strict(body);
    return bytes ? { ok: true, bytes } : { ok: false, reason: `the payload is not valid base64 (${value.length} characters)` };
  }
  let raw: Uint8Array | undefined;
  if (value instanceof Uint8Array) raw = value;
  else if (value instanceof ArrayBuffer) raw = new Uint8Array(value);
  else if (Array.isArray(value) && value.every(isByte)) raw = Uint8Array.from(value as number[]);
  else if (typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Buffer' && Array.isArray((value as { data?: unknown }).data)) {
    const data = (value as { data: unknown[] }).data;
    if (data.every(isByte)) raw = Uint8Array.from(data as number[]);
  }
  if (!raw) return { ok: false, reason: 'the payload is neither base64 text nor bytes' };
  if (raw.length === 0) return { ok: false, reason: 'the payload is empty' };
  if (raw.length >= 4 && raw.every(isBase64Byte) && !hasKnownMagic(raw)) {
    const decoded = decodeBase64Strict(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('latin1'));
    if (decoded) return { ok: true, bytes: decoded };
  }
  return { ok: true, bytes: raw };
}

/** Standard or URL-safe base64, line breaks allowed, anything else refused. */
export function decodeBase64Strict(text: string): Uint8Array | undefined {
  const compact = text.includes('\n') || text.includes('\r') ? text.replace(/[\r\n]/g, '') : text;
  if (compact.length === 0 || compact.length % 4 === 1) return undefined;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) && !/^[A-Za-z0-9_-]*={0,2}$/.test(compact)) return undefined;
  if (compact.includes('=') && compact.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
  return bytes.length > 0 ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : undefined;
}

function isByte(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 255;
}

function isBase64Byte(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f || c === 0x3d || c === 0x2d || c === 0x5f || c === 0x0a || c === 0x0d;
}

function hasKnownMagic(b: Uint8Array): boolean {
  const ascii = (at: number, s: string) => [...s].every((ch, i) => b[at + i] === ch.charCodeAt(0));
  return ascii(0, 'RIFF') || ascii(0, 'GIF8') || ascii(4, 'ftyp') || ascii(0, 'ID3') || ascii(0, 'OggS') || ascii(0, 'fLaC') || ascii(0, '%PDF') || ascii(0, 'BM');
}

// ---------------------------------------------------------------------------------------------
// Binary or text

const TEXT_EXTENSIONS = new Set(
  ('md markdown txt text rst adoc org json jsonc json5 ndjson yaml yml toml ini cfg conf properties env xml html htm xhtml css scss sass less ' +
    'js mjs cjs ts mts cts tsx jsx vue svelte py pyi rb go rs java kt kts scala groovy c h cc cpp cxx hpp hh cs fs swift m mm php pl pm lua r jl dart ' +
    'sh bash zsh fish ps1 psm1 bat cmd sql csv tsv svg log tex bib proto graphql gql gradle cmake mk makefile dockerfile gitignore gitattributes ' +
    'editorconfig lock patch diff ipynb erb haml ex exs erl hs elm clj cljs lisp el vim nix tf hcl')
    .split(' '),
);
const BINARY_EXTENSIONS = new Set(
  ('png jpg jpeg jpe gif webp bmp tif tiff ico icns avif heic heif jxl psd pdf zip gz tgz bz2 xz zst 7z rar tar jar war apk ipa dmg iso ' +
    'wasm exe dll so dylib bin dat o a lib class pyc whl deb rpm msi wav mp3 ogg oga opus flac m4a aac wma mid midi mp4 m4v mov webm mkv avi wmv flv ' +
    'woff woff2 ttf otf eot sqlite sqlite3 db docx xlsx pptx odt ods odp doc xls ppt epub mobi parquet npy npz pkl pt onnx')
    .split(' '),
);

function mimeVerdict(mime: string): 'text' | 'binary' | undefined {
  const m = mime.toLowerCase().split(';')[0]?.trim() ?? '';
  if (m === 'image/svg+xml' || m.startsWith('text/') || m.endsWith('+json') || m.endsWith('+xml')) return 'text';
  if (/^application\/(json|xml|javascript|ecmascript|x-javascript|typescript|x-sh|x-shellscript|yaml|x-yaml|toml|sql|graphql|x-httpd-php|x-python|x-ndjson)$/.test(m)) return 'text';
  if (/^(image|audio|video|font)\//.test(m)) return 'binary';
  if (/^application\/(octet-stream|pdf|zip|gzip|x-gzip|x-tar|x-7z-compressed|x-rar-compressed|vnd\.|msword|wasm|java-archive|x-bzip2|x-xz|zstd)/.test(m)) return 'binary';
  return undefined;
}

function extensionVerdict(name: string): 'text' | 'binary' | undefined {
  const base = (name.split(/[\\/]/).pop() ?? '').toLowerCase();
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1) : base; // "Makefile", "Dockerfile": the whole name
  if (TEXT_EXTENSIONS.has(ext)) return 'text';
  if (BINARY_EXTENSIONS.has(ext)) return 'binary';
  return undefined;
}

/**
 * Binary or text: the MIME or the name decides when it says something (SVG is text), else the
 * bytes do — a NUL byte or a strict UTF-8 failure means binary.
 */
export async function classifyContent(bytes: Uint8Array, hint: { name?: string | undefined; mime?: string | undefined }): Promise<'text' | 'binary'> {
  const byMime = hint.mime ? mimeVerdict(hint.mime) : undefined;
  if (byMime) return byMime;
  const byName = hint.name ? extensionVerdict(hint.name) : undefined;
  if (byName) return byName;
  return bytesLookBinary(bytes) ? 'binary' : 'text';
}

export function bytesLookBinary(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/** The signature of binary a server decoded as UTF-8: many U+FFFD in a long field. */
export function mangledBinary(text: string): { chars: number; replacements: number } | undefined {
  if (text.length < MANGLED_MIN_CHARS) return undefined;
  let replacements = 0;
  for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) replacements++;
  return replacements >= MANGLED_MIN_REPLACEMENTS ? { chars: text.length, replacements } : undefined;
}

function utf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

// ---------------------------------------------------------------------------------------------
// Safe names and saving

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
  'image/avif': 'avif',
  'image/heic': 'heic',
  'image/bmp': 'bmp',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/flac': 'flac',
  'audio/aac': 'aac',
  'audio/mp4': 'm4a',
  'audio/webm': 'webm',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/gzip': 'gz',
  'application/octet-stream': 'bin',
};

function extensionFor(mime: string): string | undefined {
  return EXTENSIONS[mime.toLowerCase().split(';')[0]?.trim() ?? ''];
}

/** Adds an extension when the name has none (a name's own extension is kept). */
function withExtension(name: string, ext: string | undefined): string {
  return ext && !/\.[A-Za-z0-9]{1,10}$/.test(name) ? `${name}.${ext}` : name;
}

/** The last segment of a URI's path, percent-decoded ("fixture://blobs/a%20b.png" → "a b.png"). */
function nameFromUri(uri: string): string | undefined {
  const path = uri.replace(/[?#].*$/, '');
  const segment = path.slice(path.lastIndexOf('/') + 1);
  return segment || undefined;
}

const IMAGE_NAME = /\.(png|jpe?g|gif|webp|bmp|tiff?|avif|hei[cf])$/i;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/**
 * A file name that is safe to create inside a folder: only its last path segment (after
 * percent-decoding), ASCII letters, digits, "._-", no leading dots, no reserved device names,
 * at most 120 characters with the extension kept. Nothing usable left → `fallback`.
 */
export function safeCaptureName(raw: string | undefined, fallback: string): string {
  let name = raw ?? '';
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(name); i++) {
    try {
      name = decodeURIComponent(name);
    } catch {
      break;
    }
  }
  name = name.split(/[\\/]/).pop() ?? '';
  name = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // "café" → "cafe"
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[._\s-]+/, '') // no hidden files, no "..", no option-looking names
    .replace(/[.\s]+$/, '');
  if (WINDOWS_RESERVED.test(name)) name = `_${name}`;
  if (name.length > 120) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 11 ? name.slice(dot) : '';
    name = name.slice(0, 120 - ext.length) + ext;
  }
  if (!/[A-Za-z0-9]/.test(name)) return fallback === raw ? 'capture' : safeCaptureName(fallback, 'capture');
  return name;
}

/**
 * Writes bytes under `dir` as `name`, or `name-1`, `name-2`, … when taken. The bytes go to a
 * temp file first and are hard-linked into place, so a name is claimed atomically and a reader
 * never sees half a file. Returns the absolute path.
 */
export async function saveCapture(dir: string, name: string, bytes: Uint8Array): Promise<string> {
  const root = resolve(dir);
  const safe = safeCaptureName(name, 'capture');
  await mkdir(root, { recursive: true });
  const temp = join(root, `.capture-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temp, bytes, { flag: 'wx' });
  try {
    const dot = safe.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
    for (let n = 0; n < 10_000; n++) {
      const candidate = join(root, n === 0 ? safe : `${stem}-${n}${ext}`);
      if (dirname(candidate) !== root) throw new Error(`refusing to write outside ${root}: ${candidate}`);
      try {
        await link(temp, candidate);
        return candidate;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    // Ten thousand collisions: fall back to a name that cannot collide.
    const unique = join(root, `${stem}-${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}-${randomBytes(4).toString('hex')}${ext}`);
    await link(temp, unique);
    return unique;
  } finally {
    await rm(temp, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------

function blockType(block: unknown): string {
  const type = typeof block === 'object' && block !== null ? (block as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type.replace(/[^a-z_]/gi, '').slice(0, 32) || 'unknown' : 'unknown';
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** JSON.stringify replacer for unknown blocks: long strings (likely payloads) are elided. */
function elideLongStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.length > 512 ? `[${value.length} characters elided]` : value;
}
