// Binary capture on every MCP tool result (architecture §6). Bytes never reach the model's
// text: typed image/audio blocks and embedded blobs are decoded, images go through the intake
// chokepoint into the attachment store, other binaries become files under <dataDir>/captures,
// and each is replaced by a one-line descriptor. Declared rules do the same for base64 inside
// JSON text. Capture is an optimisation on a result that is already complete, so it never
// fails the call: anything unexpected is logged and the original passes through, size-capped.
import { dirname } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { AttachmentInfo } from '../../common/images.ts';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { DEFAULT_PROFILES } from '../images/profiles.ts';
import type { ImageIntake } from '../images/imageIntake.ts';
import type { ImageTarget } from '../images/types.ts';
import { decodeBase64Strict } from '../base64.ts';
import { readBinaryPayload } from './binaryPayload.ts';
import { classifyContent, dropMangled, mangledBinary, mangledNotice, utf8 } from './classifyContent.ts';
import type { CaptureRule } from './config.ts';
import { IMAGE_NAME, nameFromUri, safeFileName, withExtension } from '../../common/fileNames.ts';
import { extensionFor, saveCapture } from './saveCapture.ts';
import { errorMessage } from '../errors.ts';
import { StoreBudget, type StoreLimits } from './storeBudget.ts';

/** What a tool call gives the engine (architecture §5: images go to the delivery queue, text to the tool message). */
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

type CapturedFile = { path: string; name: string; mime: string; bytes: number };

/** The image door (ImageIntake.admit) as capture uses it: bytes in, a stored image out. */
export type CaptureIntake = Pick<ImageIntake, 'admit'>;

type BinaryCaptureDeps = {
  intake: CaptureIntake;
  /** Where non-image binaries go: <dataDir>/captures. */
  capturesDir: string;
  log?: (message: string) => void;
  /** Cap on the server's own text in one result (characters). Default 100,000. */
  maxTextChars?: number;
  /** What one result may store (Settings → Limits), read at each result. Default DEFAULT_LIMITS'. */
  storeLimits?: () => StoreLimits;
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
  /**
   * `resources/read` on the same server, for resource_link blocks: their contents go through
   * capture like embedded resources. Without it a link stays a one-line reference.
   */
  readResource?: (uri: string, signal: AbortSignal | undefined) => Promise<unknown[]>;
};

/** Resource links read per result, and contents kept per link: a result cannot fan out unbounded. */
const MAX_LINKS_READ = 4;
const MAX_CONTENTS_PER_LINK = 8;

/** A tool result as it came off the wire; validated loosely so capture, not the SDK, judges blocks. */
export type RawToolResult = { content?: unknown; isError?: unknown; structuredContent?: unknown };

const DEFAULT_MAX_TEXT_CHARS = 100_000;
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
    const job: Job = { ctx, images, files, notes, parts, counter: 0, linksRead: 0, budget: new StoreBudget(this.#deps.storeLimits?.() ?? DEFAULT_LIMITS) };
    try {
      const blocks = Array.isArray(result.content) ? (result.content as unknown[]) : [];
      for (const block of blocks) {
        try {
          await this.#block(block, job);
        } catch (error) {
          this.#note(job, `a ${blockType(block)} block could not be processed (${errorMessage(error)}); it was left out`);
          parts.push({ kind: 'ours', text: `[${blockType(block)} content left out: it could not be processed]` });
        }
      }
      if (blocks.length === 0 && result.structuredContent !== undefined) {
        await this.#text(JSON.stringify(result.structuredContent), job);
      }
    } catch (error) {
      this.#note(job, `capture failed (${errorMessage(error)}); passing the result through`);
      parts.length = 0;
      parts.push(...passThrough(result));
    }
    const dropped = job.budget.summary(ctx.origin);
    if (dropped) {
      this.#note(job, dropped);
      parts.push({ kind: 'ours', text: `[${dropped}]` });
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
      case 'resource_link':
        await this.#resourceLink(b, job);
        return;
      default:
        job.parts.push({ kind: 'server', text: JSON.stringify(block, elideLongStrings) });
    }
  }

  async #resourceLink(b: Record<string, unknown>, job: Job): Promise<void> {
    const uri = typeof b.uri === 'string' ? b.uri : '';
    const mime = typeof b.mimeType === 'string' ? `, ${b.mimeType}` : '';
    const label = `[resource link: ${String(b.name ?? '')} ${uri}${mime}]`;
    const read = job.ctx.readResource;
    // A link the server marks as for the person only (annotations.audience without "assistant",
    // e.g. glance mcp serve's full-size original beside the fitted image) is not read into the model's turn.
    const audience = (b.annotations as { audience?: unknown } | undefined)?.audience;
    const forPersonOnly = Array.isArray(audience) && !audience.includes('assistant');
    if (!read || !uri || forPersonOnly || job.linksRead >= MAX_LINKS_READ) {
      job.parts.push({ kind: 'server', text: label });
      return;
    }
    job.linksRead++;
    let contents: unknown[];
    try {
      contents = await read(uri, job.ctx.signal);
    } catch (error) {
      this.#note(job, `resource link ${uri} could not be read (${errorMessage(error)})`);
      job.parts.push({ kind: 'server', text: `${label.slice(0, -1)} — it could not be read: ${errorMessage(error).slice(0, 200)}]` });
      return;
    }
    job.parts.push({ kind: 'ours', text: `${label.slice(0, -1)} — read, ${contents.length} content${contents.length === 1 ? '' : 's'}]` });
    for (const content of contents.slice(0, MAX_CONTENTS_PER_LINK)) await this.#resource(content, job);
    if (contents.length > MAX_CONTENTS_PER_LINK) job.parts.push({ kind: 'ours', text: `[${contents.length - MAX_CONTENTS_PER_LINK} more contents of ${uri} left out]` });
  }

  async #resource(resource: unknown, job: Job): Promise<void> {
    if (typeof resource !== 'object' || resource === null) return;
    const r = resource as Record<string, unknown>;
    const uri = typeof r.uri === 'string' ? r.uri : '';
    const mime = typeof r.mimeType === 'string' ? r.mimeType : undefined;
    if (typeof r.text === 'string') {
      job.parts.push({ kind: 'ours', text: `[resource ${uri}${mime ? ` (${mime})` : ''}]` });
      await this.#text(r.text, { ...job, ctx: { ...job.ctx, rules: [] } });
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

  /** A text block: declared rules first, then the mangled-binary guard on whatever is left. */
  async #text(text: string, job: Job): Promise<void> {
    const before = job.parts.length;
    await this.#rules(text, job);
    for (let i = before; i < job.parts.length; i++) {
      const part = job.parts[i] as Part;
      if (part.kind !== 'server') continue;
      const guarded = dropMangled(part.text);
      if (!guarded) continue;
      job.parts[i] = { kind: 'ours', text: guarded.text };
      for (const d of guarded.dropped) {
        this.#note(job, `${job.ctx.origin} returned binary as text${d.field ? ` in "${d.field}"` : ''}: ${d.chars} characters (${d.replacements} U+FFFD) dropped`);
      }
    }
  }

  /** Declared rules may capture base64 inside a text block's JSON; otherwise it stays as is. */
  async #rules(text: string, job: Job): Promise<void> {
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
      this.#note(job, `capture rule for ${job.ctx.origin} failed (${errorMessage(error)}); passing the original result through`);
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
    const bytes = field.length >= MIN_RULE_BASE64_CHARS ? decodeBase64Strict(field, { urlSafe: true }) : undefined;
    if (!bytes) {
      const mangled = mangledBinary(field);
      if (mangled) {
        target[rule.contentField] = mangledNotice(mangled);
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
    if (!job.budget.take(bytes.length, isImage)) {
      if (what.strict) throw new Error('over what one tool result may store');
      return job.budget.firstDrop ? `[more from ${origin} not stored: over what one tool result may keep]` : '';
    }
    if (isImage) {
      const name = withExtension(safeFileName(what.name, `${job.ctx.tool}-image`), sniffed?.ext ?? extensionFor(mime));
      // Through the door like every image: kept byte-exact as the original, fitted to the target.
      let admitted: Awaited<ReturnType<CaptureIntake['admit']>>;
      try {
        admitted = await this.#deps.intake.admit({ source: bytes, name, origin, requestedBy: 'model' }, job.ctx.imageTarget ?? { profile: DEFAULT_PROFILES.openai }, 'capture', {
          ...(job.ctx.signal ? { signal: job.ctx.signal } : {}),
        });
      } catch (error) {
        if (what.strict || job.ctx.signal?.aborted) throw error;
        this.#note(job, `image ${name} from ${origin} could not be stored: ${errorMessage(error)}`);
        return `[image from ${origin} not kept: ${name}, ${mime}, ${bytes.length} bytes — the attachment store failed: ${errorMessage(error)}]`;
      }
      if (!admitted.ok) {
        if (what.strict) throw new Error(`not the image it claimed to be (${admitted.code}: ${admitted.message})`);
        this.#note(job, `image ${name} from ${origin} refused by the intake (${admitted.code}): ${admitted.message}`);
        return `[image from ${origin} not kept: ${name}, ${mime}, ${bytes.length} bytes — ${admitted.code}: ${admitted.message}]`;
      }
      const info = admitted.attachment;
      job.images.push(info);
      const source = info.source.width !== info.width || info.source.bytes !== info.bytes ? ` (received ${info.source.width}×${info.source.height}, ${info.source.bytes} bytes)` : '';
      return `[image captured from ${origin}: ${info.name}, ${info.mime}, ${info.width}×${info.height}, ${info.bytes} bytes${source}, attachment id ${info.id}]`;
    }
    const kind = mime.startsWith('audio/') ? 'audio' : mime.startsWith('video/') ? 'video' : 'file';
    const name = withExtension(safeFileName(what.name, `${job.ctx.tool}-${kind}`), extensionFor(mime) ?? sniffed?.ext);
    let path: string;
    try {
      path = await saveCapture(this.#deps.capturesDir, name, bytes);
    } catch (error) {
      if (what.strict) throw error;
      this.#note(job, `${kind} ${name} from ${origin} could not be saved: ${errorMessage(error)}`);
      return `[${kind} from ${origin} not kept: ${name}, ${mime}, ${bytes.length} bytes — saving failed: ${errorMessage(error)}]`;
    }
    const saved = { path, name: path.slice(dirname(path).length + 1), mime, bytes: bytes.length };
    job.files.push(saved);
    // The file's name only: the model never learns where the data directory is (architecture §8).
    return `[${kind} captured from ${origin}: ${saved.name}, ${mime}, ${bytes.length} bytes, saved in Glance's captures folder]`;
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
        if (part.text) out.push(part.text);
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

type Job = { ctx: CaptureContext; images: AttachmentInfo[]; files: CapturedFile[]; notes: string[]; parts: Part[]; counter: number; linksRead: number; budget: StoreBudget };

/** When capture itself broke: keep the server's text blocks, describe the rest without bytes. */
function passThrough(result: RawToolResult): Part[] {
  const blocks = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  return blocks.map((block) => {
    const b = (typeof block === 'object' && block !== null ? block : {}) as Record<string, unknown>;
    return b.type === 'text' && typeof b.text === 'string' ? { kind: 'server', text: b.text } : { kind: 'ours', text: `[${blockType(block)} content left out]` };
  });
}


function blockType(block: unknown): string {
  const type = typeof block === 'object' && block !== null ? (block as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type.replace(/[^a-z_]/gi, '').slice(0, 32) || 'unknown' : 'unknown';
}

/** JSON.stringify replacer for unknown blocks: long strings (likely payloads) are elided. */
function elideLongStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.length > 512 ? `[${value.length} characters elided]` : value;
}
