// THE door every image passes (architecture §3): whoever brings an image — attach, paste, drop,
// the hotkey, a tool, an MCP result, `check-image` — calls `admit`, and only `admit` stores it.
// resolve → ingest cap → sniff → allowlist → decode guard → [pixel stage: redact] → normalise →
// gate → store → the target's copy. Bad input never throws: it comes back as
// { ok:false, code, message } in plain words. A caller's abort rejects with the signal's reason;
// a failing disk (store.put) throws.
import { createHash } from 'node:crypto';
import { capturedWindowName, imageExtension, type AttachmentInfo, type ImageRefusal } from '../../common/images.ts';
import { displayName } from '../../common/fileNames.ts';
import { errorText } from '../errors.ts';
import type { Redaction } from '../../common/privacy.ts';
import { maskImage } from '../privacy/maskImage.ts';
import { asText } from './blindText.ts';
import { decodedInput } from './decodeInput.ts';
import { cropAttachment, recordWindows, type Crop, type Region } from './cropImage.ts';
import { heicAsPng } from './heic.ts';
import { describeFit } from './imageRule.ts';
import { framePng, normaliseFrame } from './fitFrame.ts';
import { normaliseImage, type NormalisedImage } from './normalise.ts';
import { resolveSource } from './resolveSource.ts';
import { sniffImage, type SniffedKind } from './sniff.ts';
import type {
  AdmitPurpose,
  AdmitTarget,
  Admitted,
  AttachmentStore,
  FrameInput,
  ImageInput,
  ImageTarget,
  ImageTextReader,
  IntakeConfig,
  PixelStage,
  StageRun,
  PreparedImage,
  PrepareResult,
  StoredImageRef,
  TextTarget,
} from './types.ts';

const VISION_EXAMPLE: Record<ImageTarget['provider'], string> = { ollama: 'gemma3', openai: 'gpt-4o' };

/** The capability gate alone: a refusal unless the target can see. Nothing is read for a blind model. */
export function visionRefusal(target: Pick<ImageTarget, 'provider' | 'model' | 'vision' | 'visionSource'>): ImageRefusal | undefined {
  const model = target.model.trim() || 'This model';
  if (target.vision === 'yes') return undefined;
  if (target.vision === 'no') {
    const declared =
      target.visionSource === 'flag' ? ' (declared with --vision no)' : target.visionSource === 'settings' ? ' (its Vision setting is off)' : '';
    return {
      ok: false,
      code: 'model-blind',
      message: `${model} cannot see images${declared}. Pick a vision model such as ${VISION_EXAMPLE[target.provider]}, or set a vision helper model in Settings.`,
    };
  }
  return {
    ok: false,
    code: 'capability-unknown',
    message:
      `Glance cannot tell whether ${model} can see images: the server does not say. ` +
      `If it can, declare it: --vision yes on the command line, or turn on the model's Vision setting in Settings.`,
  };
}

type AdmitOptions = { signal?: AbortSignal };
/** What `read` hands local OCR: the kept original (or a region cut from it), never a fitted copy. */
export type ReadPixels = {
  ok: true;
  attachment: AttachmentInfo;
  pixels: { data: Uint8Array; mime: string };
  crop?: Crop;
  /** What the original hides for the reader's target and was filled before these pixels were made (in the original's pixels; for a crop, those that reach into it). */
  hidden?: Redaction[];
};
type Refused = ImageRefusal | { ok: false; code: string; message: string };

export type ImageIntakeDeps = {
  config: IntakeConfig;
  store: AttachmentStore;
  /** Local OCR for a blind target (composed from main/ocr): a person's text-bearing image is sent as its text. */
  readText?: ImageTextReader;
  /** Runs on every image's pixels before a target's copy is encoded: the slot redaction (main/privacy) plugs into. */
  pixelStage?: PixelStage;
};

export class ImageIntake {
  readonly #config: IntakeConfig;
  readonly #store: AttachmentStore;
  readonly #readText: ImageTextReader | undefined;
  readonly #stage: PixelStage | undefined;
  /** Refits under way, shared by callers without a signal of their own (see #refit). */
  readonly #refitting = new Map<string, Promise<Admitted | ImageRefusal>>();

  constructor(deps: ImageIntakeDeps) {
    this.#config = deps.config;
    this.#store = deps.store;
    this.#readText = deps.readText;
    this.#stage = deps.pixelStage;
  }

  /**
   * The one door. `purpose` says who brings the image and so what the door does:
   * - `user` (attach, paste, drop, the picker, the hotkey's capture, a crop, a turn's images):
   *   gate, prepare, store, remember the target's copy. A blind target gets the text of a
   *   text-bearing image instead (local OCR, `transcript`), when a reader is composed in.
   * - `tool` (screenshot_desktop, zoom_image, analyze_image): the same, without the OCR fallback
   *   (image tools are not offered to a model that cannot see).
   * - `capture` (MCP results): no capability gate — what a server returned is kept whatever the
   *   model; a blind model gets the descriptor alone.
   * - `check` (`glance check-image`): gate (when a model is named) and prepare; nothing stored.
   * - `read` (read_text): a stored image's original, or a region of it, for local OCR.
   * A stored image (`{ attachmentId }`) is fitted anew for the target from its original, once per target.
   */
  admit(input: ImageInput, target: AdmitTarget, purpose: 'check', options?: AdmitOptions): Promise<PrepareResult>;
  admit(input: StoredImageRef, target: AdmitTarget | TextTarget | undefined, purpose: 'read', options?: AdmitOptions & { region?: Region }): Promise<ReadPixels | Refused>;
  admit(input: ImageInput | FrameInput | StoredImageRef, target: AdmitTarget, purpose: 'user' | 'tool' | 'capture', options?: AdmitOptions): Promise<Admitted | ImageRefusal>;
  async admit(
    input: ImageInput | FrameInput | StoredImageRef,
    target: AdmitTarget | TextTarget | undefined,
    purpose: AdmitPurpose,
    options: AdmitOptions & { region?: Region } = {},
  ): Promise<Admitted | PrepareResult | ReadPixels | Refused> {
    if (purpose === 'read') return this.#read(input, target, options);
    if (!target || !('profile' in target)) throw new Error(`admit(${purpose}) needs a target`);
    return this.#tryAttachImage(input, target, purpose, options.signal);
  }

  /**
   * THE gate, `tryAttachImage` (architecture §3 "Gate"): capability first, then resolve, sniff, guard, the pixel stage,
   * fit and encode, then the store. Every refusal is a value in plain words.
   */
  async #tryAttachImage(
    given: ImageInput | FrameInput | StoredImageRef,
    target: AdmitTarget,
    purpose: Exclude<AdmitPurpose, 'read'>,
    signal: AbortSignal | undefined,
  ): Promise<Admitted | PrepareResult | Refused> {
    // The gate first: nothing is read for a model that cannot see. MCP results are kept regardless.
    const refusal = purpose !== 'capture' && isModel(target) ? visionRefusal(target) : undefined;
    if ('frame' in given && !refusal && purpose !== 'capture' && purpose !== 'check' && isModel(target)) return this.#admitFrame(given, target, signal);
    // Anywhere else a frame is what its PNG would be (a blind model's OCR, an MCP capture).
    const input = 'frame' in given ? await asPngInput(given) : given;
    if (refusal) {
      // The one place that decides to read an image as text for a blind model (architecture §5).
      if (purpose === 'user' && refusal.code === 'model-blind' && this.#readText && isModel(target)) {
        const deps = { store: this.#store, readText: this.#readText, prepare: this.#prepare.bind(this), readable: this.#readable.bind(this) };
        const read = await asText(input, refusal, target, deps, signal);
        // The text a blind model gets is made from the image: it is redacted as the image would be.
        if (!read.ok || !read.transcript) return read;
        const text = await this.redactText(read.transcript.text, target);
        return { ...read, transcript: { ...read.transcript, text: text.text } };
      }
      return refusal;
    }
    if ('attachmentId' in input) {
      if (purpose === 'check') throw new Error('check-image takes a source, not a stored image');
      return this.#refit(input.attachmentId, target, signal);
    }
    const prepared = await this.#prepare(input, target, signal);
    if (!prepared.ok || purpose === 'check') return prepared;
    signal?.throwIfAborted();
    const attachment = await this.#store.put(prepared.image, input.origin);
    // Gated once per image and target: a send to the same model reuses this payload (refit).
    if (attachment.original && isModel(target)) await this.#store.rememberDerived(this.#key(target), attachment);
    return { ok: true, attachment, payload: prepared.image.data };
  }

  /**
   * Text made from an image (read_text, a blind model's transcription) as `target` may get it:
   * with secrets replaced by `[hidden: kind]` when its images would be redacted.
   */
  async redactText(text: string, target: TextTarget | undefined): Promise<{ text: string; hidden: number }> {
    if (!this.#stage?.text) return { text, hidden: 0 };
    // No target named: the text may go anywhere, so it is treated as going to a remote model.
    return this.#stage.text(text, target ?? { vision: 'unknown' });
  }

  /** The secrets in a text as character ranges, by the rules set (none without a redact stage). */
  async secretsIn(text: string): Promise<Array<{ start: number; end: number; kind: string; rule: string }>> {
    return (await this.#stage?.secretsIn?.(text)) ?? [];
  }

  /** A target's copy is remembered under its image rules and what the pixel stage does for it. */
  #key(target: ImageTarget): string {
    const stage = this.#stage?.keyFor?.(target);
    return stage && stage !== 'plain' ? `${targetKey(target)}-${stage}` : targetKey(target);
  }

  /** Resolve, sniff, guard, the pixel stage, normalise to the target's profile. Stores nothing. */
  async #prepare(input: ImageInput, target: AdmitTarget, signal: AbortSignal | undefined): Promise<PrepareResult> {
    const { profile } = target;
    const resolved = await resolveSource(input, this.#config, { signal });
    if (!resolved.ok) return resolved;
    const sniffed = await sniffImage(resolved.data);
    if (!sniffed.ok) return sniffed;
    signal?.throwIfAborted();
    // The stage starts as the image enters (detection may run while the image is decoded); the
    // target's copy waits for it below and is never made without it.
    const run = this.#stage?.begin({ data: resolved.data, mime: sniffed.mime, origin: input.origin, ...(input.windows ? { windows: input.windows } : {}) }, target, signal);
    // HEIC/HEIF: sharp has no HEVC decoder, libheif-js does (header size checked against the cap first).
    const decoded = sniffed.kind === 'heic' ? await heicAsPng(resolved.data, this.#config.limits, signal) : resolved.data;
    if (!(decoded instanceof Uint8Array)) return decoded;
    const settled = await run?.settle();
    signal?.throwIfAborted();
    // Redaction could not check the image: no copy is made, so nothing unchecked is sent.
    if (settled && 'ok' in settled) return settled;
    const unchecked = settled !== undefined && 'unchecked' in settled;
    const staged = settled && 'data' in settled ? settled : undefined;
    const skipped = settled && 'skipped' in settled ? settled.skipped : undefined;
    const pixels = staged?.data ?? decoded;
    const kind: { kind: SniffedKind; mime: string } = staged ? { kind: 'png', mime: 'image/png' } : sniffed.kind === 'heic' ? { kind: 'png', mime: sniffed.mime } : sniffed;
    const normalised = await normaliseImage(pixels, kind, profile, this.#config.limits, { signal });
    if (!normalised.ok) return normalised;
    // Kept as they came (architecture §3 "Store"): the model gets the derived copy.
    const image = describedCopy(normalised.image, input, profile, staged, unchecked, input.name ?? resolved.name, resolved.data.byteLength);
    return { ok: true, image: { ...image, ...(skipped?.length ? { patternsSkipped: skipped } : {}), original: { data: resolved.data, mime: sniffed.mime } } };
  }

  /**
   * A capture's raw pixels (the hotkey): the pixel stage, then the model's copy fitted from the
   * pixels themselves and stored; the lossless original (PNG) is encoded and kept after, while the
   * request goes out. A stage that reads the pixels (redaction) gets the PNG first, as for any image.
   */
  async #admitFrame(input: FrameInput, target: ImageTarget, signal: AbortSignal | undefined): Promise<Admitted | ImageRefusal> {
    const { frame } = input;
    let png: Promise<Uint8Array> | undefined;
    const original = () => (png ??= framePng(frame));
    const run = this.#stage?.begin({ data: original, mime: 'image/png', origin: input.origin, ...(input.windows ? { windows: input.windows } : {}) }, target, signal);
    const settled = await run?.settle();
    signal?.throwIfAborted();
    if (settled && 'ok' in settled) return settled;
    const unchecked = settled !== undefined && 'unchecked' in settled;
    const staged = settled && 'data' in settled ? settled : undefined;
    const skipped = settled && 'skipped' in settled ? settled.skipped : undefined;
    const normalised = staged
      ? await normaliseImage(staged.data, { kind: 'png', mime: 'image/png' }, target.profile, this.#config.limits, { signal })
      : await normaliseFrame(frame, target.profile, this.#config.limits);
    if (!normalised.ok) return normalised;
    signal?.throwIfAborted();
    const image = { ...describedCopy(normalised.image, input, target.profile, staged, unchecked, input.name, frame.data.byteLength), ...(skipped?.length ? { patternsSkipped: skipped } : {}) };
    const attachment = await this.#store.put(image, input.origin);
    // Not awaited: the caller sends now. A failed write is reported by the caller; the bytes stay in memory.
    const originalKept = this.#store.keepOriginal(attachment.id, original().then((data) => ({ data, mime: 'image/png' })), this.#key(target)).then(
      () => ({ ok: true as const }),
      (error: unknown) => ({ ok: false as const, message: `The full-resolution original of ${attachment.name} could not be saved (${errorText(error)}); it is kept in memory until Glance quits.` }),
    );
    return { ok: true, attachment, payload: image.data, originalKept };
  }

  /**
   * A stored image fitted for `target`, made from its original (not from a copy fitted for
   * another model); the copy is made once per target and remembered.
   */
  #refit(id: string, target: AdmitTarget, signal: AbortSignal | undefined): Promise<Admitted | ImageRefusal> {
    // A model switch asks for the same copy twice at once (the thumbnail's preview, the Context
    // meter's estimate): one fit serves both. Keyed by the id and the target, so nothing else is shared.
    const key = JSON.stringify([id, isModel(target) ? this.#key(target) : target.profile, target.shown ?? [], target.sendAnyway ?? false, target.redact ?? null]);
    const running = this.#refitting.get(key);
    if (running && !signal) return running;
    const fit = this.#refitOnce(id, target, signal).finally(() => this.#refitting.delete(key));
    if (!signal) this.#refitting.set(key, fit);
    return fit;
  }

  async #refitOnce(id: string, target: AdmitTarget, signal: AbortSignal | undefined): Promise<Admitted | ImageRefusal> {
    const info = await this.#store.info(id);
    const gone: ImageRefusal = { ok: false, code: 'source-unreachable', message: `The attachment ${id} is no longer stored. Attach the image again.` };
    if (!info) return gone;
    const key = isModel(target) ? this.#key(target) : undefined;
    const kept = await this.#store.source(info);
    if (kept?.sha256 && key) {
      const cached = await this.#store.derived(kept.sha256, key);
      const made = cached && (await this.#store.get(cached.id));
      if (cached && made) return { ok: true, attachment: { ...cached, name: info.name, origin: info.origin, ...(info.window ? { window: info.window } : {}) }, payload: made.data };
    }
    if (!kept) return gone;
    // The capture's pixel ratio travels with it: text on a Retina capture is drawn twice as large.
    const pixelRatio = info.source.pixelRatio;
    const windows = recordWindows(info, kept.fromOriginal);
    const prepared = await this.#prepare(
      // A capture's windows come along: an excluded app's window is filled in every copy, not only the first.
      { source: kept.data, name: info.name, origin: info.origin, requestedBy: 'user', ...(pixelRatio ? { pixelRatio } : {}), ...(info.window ? { window: info.window } : {}), ...(windows?.length ? { windows } : {}) },
      target,
      signal,
    );
    if (!prepared.ok) return prepared;
    signal?.throwIfAborted();
    const attachment = await this.#store.put(prepared.image, info.origin);
    if (attachment.original && key) await this.#store.rememberDerived(key, attachment);
    return { ok: true, attachment, payload: prepared.image.data };
  }

  /**
   * read_text's and zoom_image's pixels: the original (or a region cut from it at native
   * resolution) with what the original hides for `target` filled first (architecture §3b): a piece
   * of a secret — the second half of a token, a key id without its prefix — is no secret to a
   * detector that sees only the piece, so the piece is cut from the filled original.
   */
  async #read(input: ImageInput | FrameInput | StoredImageRef, target: AdmitTarget | TextTarget | undefined, options: AdmitOptions & { region?: Region }): Promise<ReadPixels | Refused> {
    if (!('attachmentId' in input)) throw new Error('read takes a stored image');
    const info = await this.#store.info(input.attachmentId);
    const gone = (id: string) => ({ ok: false as const, code: 'not-found', message: `Image ${id} is no longer stored (it expired under the retention setting).` });
    if (!info) return gone(input.attachmentId);
    // The text read goes where the target's images go: excluded apps' windows are filled first.
    const textTarget = target ?? { vision: 'unknown' as const };
    const source = await this.#store.source(info);
    if (!source) return gone(info.id);
    const { data, mime } = source;
    const windows = recordWindows(info, source.fromOriginal);
    const hidden = this.#stage?.hiddenIn ? await this.#stage.hiddenIn({ data, mime, ...(windows?.length ? { windows } : {}) }, textTarget, options.signal) : { ok: true as const, regions: [] };
    if (!hidden.ok) return { ok: false, code: 'redaction-failed', message: hidden.message };
    if (options.region) {
      const signal = options.signal ? { signal: options.signal } : {};
      const crop = await cropAttachment(this.#store, info, options.region, this.#config.limits, { ...signal, fill: hidden.regions });
      if (!crop.ok) return crop;
      const pixels = await this.#readable({ data: crop.png, mime: 'image/png' }, crop.windows, textTarget);
      const inCrop = hidden.regions.filter((r) => overlaps(r, crop.source));
      return { ok: true, attachment: info, pixels, crop, ...(inCrop.length ? { hidden: inCrop } : {}) };
    }
    const filled = hidden.regions.length ? await filledOriginal(data, mime, hidden.regions, this.#config.limits) : { data, mime };
    if (!filled) return { ok: false, code: 'corrupt', message: `Image ${info.id} could not be read.` };
    const pixels = await this.#readable(filled, windows, textTarget);
    return { ok: true, attachment: info, pixels, ...(hidden.regions.length ? { hidden: hidden.regions } : {}) };
  }

  /** Pixels for local OCR whose text goes to `target`: the pixel stage fills excluded apps' windows (windows in these pixels). */
  async #readable(
    image: { data: Uint8Array; mime: string },
    windows: ImageInput['windows'],
    target: TextTarget,
  ): Promise<{ data: Uint8Array; mime: string }> {
    if (!windows?.length || !this.#stage?.readable) return image;
    return this.#stage.readable({ ...image, windows }, target);
  }
}

/** The target's copy as the door describes it: its name, the fit, what was hidden, the window. */
function describedCopy(
  normalised: NormalisedImage,
  input: Pick<ImageInput, 'name' | 'pixelRatio' | 'window' | 'windows'>,
  profile: ImageTarget['profile'],
  staged: Extract<Awaited<ReturnType<StageRun['settle']>>, { data: Uint8Array }> | undefined,
  unchecked: boolean,
  givenName: string | undefined,
  sourceBytes: number,
): PreparedImage {
  const name = displayName(givenName ?? '');
  const image = { ...normalised, source: { ...normalised.source, bytes: sourceBytes, ...(input.pixelRatio ? { pixelRatio: input.pixelRatio } : {}) } };
  const fit = describeFit(image.source, image, profile, input.pixelRatio);
  return {
    ...image,
    ...fit,
    ...(staged?.redactions?.length || staged?.shown?.length ? { redactions: staged.redactions ?? [], ...(staged.ms !== undefined ? { redactionMs: staged.ms } : {}) } : {}),
    ...(staged?.shown?.length ? { shownOnRequest: staged.shown } : {}),
    ...(unchecked ? { uncheckedOnRequest: true as const } : {}),
    name: name === 'image' ? `image.${imageExtension(image.mime) ?? 'png'}` : name,
    ...(input.window ? { window: capturedWindowName(input.window) } : {}),
    // A password field and a secret found in a window's words stay marked: every later copy fills them too.
    ...(input.windows?.length
      ? {
          windows: input.windows
            .map((w) => ({
              app: w.app.slice(0, 500),
              title: w.title.slice(0, 1000),
              x: Math.round(w.x),
              y: Math.round(w.y),
              width: Math.max(1, Math.round(w.width)),
              height: Math.max(1, Math.round(w.height)),
              ...(w.password ? { password: true as const } : {}),
              ...(w.secret ? { secret: { kind: w.secret.kind.slice(0, 100), rule: w.secret.rule.slice(0, 300) } } : {}),
            }))
            .slice(0, 500),
        }
      : {}),
  };
}

function overlaps(a: Region, b: Region): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The original's upright pixels with `regions` filled, as PNG (undefined when it cannot be decoded). */
async function filledOriginal(data: Uint8Array, mime: string, regions: readonly Redaction[], limits: IntakeConfig['limits']): Promise<{ data: Uint8Array; mime: string } | undefined> {
  const decoded = await decodedInput(data, mime, limits);
  if (!decoded.ok) return undefined;
  return { data: await maskImage(decoded.image(), regions), mime: 'image/png' };
}

/** A frame as the PNG a capture would have handed over. */
async function asPngInput(input: FrameInput): Promise<ImageInput> {
  const { frame, ...rest } = input;
  return { ...rest, source: await framePng(frame) };
}

/** A named model (gated, its copy remembered), not just a profile to fit to. */
function isModel(target: AdmitTarget): target is ImageTarget {
  return 'vision' in target;
}

/** Names a target's image rules (not its vision verdict): equal keys get the same derived copy. */
export function targetKey(target: ImageTarget): string {
  // Where the server runs and the redaction asked for are the pixel stage's part of the key (#key).
  const { vision: _vision, visionSource: _source, remote: _remote, redact: _redact, shown: _shown, sendAnyway: _anyway, ...rules } = target;
  return createHash('sha256').update(JSON.stringify(rules)).digest('hex').slice(0, 24);
}
