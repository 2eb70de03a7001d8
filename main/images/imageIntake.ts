// The one chokepoint every image passes (architecture §3):
// resolve → ingest cap → sniff → allowlist → decode guard → normalise → gate → store.
// Bad input never throws: it comes back as { ok:false, code, message } in plain words.
// A caller's abort rejects with the signal's reason; a failing disk (store.put) throws.
import { createHash } from 'node:crypto';
import { imageExtension, type ImageRefusal } from '../../common/images.ts';
import { displayName } from '../../common/fileNames.ts';
import { heicAsPng } from './heic.ts';
import { describeFit } from './imageRule.ts';
import { normaliseImage } from './normalise.ts';
import { resolveSource } from './resolveSource.ts';
import { sniffImage } from './sniff.ts';
import type { AttachResult, AttachmentStore, ImageInput, ImageProfile, ImageTarget, IntakeConfig, PrepareResult } from './types.ts';

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

export class ImageIntake {
  readonly #config: IntakeConfig;
  readonly #store: AttachmentStore;

  constructor(deps: { config: IntakeConfig; store: AttachmentStore }) {
    this.#config = deps.config;
    this.#store = deps.store;
  }

  /** Resolve, sniff, guard and normalise to `profile`; stores nothing (check-image, previews). */
  async prepare(input: ImageInput, profile: ImageProfile, options: { signal?: AbortSignal } = {}): Promise<PrepareResult> {
    const { signal } = options;
    const resolved = await resolveSource(input, this.#config, { signal });
    if (!resolved.ok) return resolved;
    const sniffed = await sniffImage(resolved.data);
    if (!sniffed.ok) return sniffed;
    signal?.throwIfAborted();
    // HEIC/HEIF: sharp has no HEVC decoder, libheif-js does (header size checked against the cap first).
    const pixels = sniffed.kind === 'heic' ? await heicAsPng(resolved.data, this.#config.limits, signal) : resolved.data;
    if (!(pixels instanceof Uint8Array)) return pixels;
    const normalised = await normaliseImage(pixels, sniffed.kind === 'heic' ? { kind: 'png', mime: sniffed.mime } : sniffed, profile, this.#config.limits, { signal });
    if (!normalised.ok) return normalised;
    const name = displayName(input.name ?? resolved.name ?? '');
    const image = { ...normalised.image, source: { ...normalised.image.source, bytes: resolved.data.byteLength, ...(input.pixelRatio ? { pixelRatio: input.pixelRatio } : {}) } };
    const fit = describeFit(image.source, image, profile, input.pixelRatio);
    return {
      ok: true,
      image: {
        ...image,
        ...fit,
        name: name === 'image' ? `image.${imageExtension(image.mime) ?? 'png'}` : name,
        // Kept as they came (architecture §3 "Originals"): the model gets the derived copy above.
        original: { data: resolved.data, mime: sniffed.mime },
      },
    };
  }

  /** THE gate: capability first (nothing is read for a model that cannot see), then prepare, then store. */
  async tryAttachImage(input: ImageInput, target: ImageTarget, options: { signal?: AbortSignal } = {}): Promise<AttachResult> {
    const refusal = visionRefusal(target);
    if (refusal) return refusal;
    const prepared = await this.prepare(input, target.profile, options);
    if (!prepared.ok) return prepared;
    options.signal?.throwIfAborted();
    const attachment = await this.#store.put(prepared.image, input.origin);
    // Gated once per image and target: a send to the same model reuses this payload (refit).
    if (attachment.original) await this.#store.rememberDerived(targetKey(target), attachment);
    return { ok: true, attachment };
  }

  /**
   * A stored image fitted for `target`, made from its original (not from a copy fitted for
   * another model); the copy is made once per target and remembered. Through the gate, as
   * every image: the model may have changed since the image was attached.
   */
  async refit(id: string, target: ImageTarget, options: { signal?: AbortSignal } = {}): Promise<AttachResult> {
    const refusal = visionRefusal(target);
    if (refusal) return refusal;
    const info = await this.#store.info(id);
    const gone: ImageRefusal = { ok: false, code: 'source-unreachable', message: `The attachment ${id} is no longer stored. Attach the image again.` };
    if (!info) return gone;
    const key = targetKey(target);
    const original = await this.#store.original(info);
    if (original) {
      const cached = await this.#store.derived(original.sha256, key);
      if (cached && (await this.#store.get(cached.id))) return { ok: true, attachment: { ...cached, name: info.name, origin: info.origin } };
    }
    const source = original?.data ?? (await this.#store.get(id))?.data;
    if (!source) return gone;
    // The capture's pixel ratio travels with it: text on a Retina capture is drawn twice as large.
    const pixelRatio = info.source.pixelRatio;
    const prepared = await this.prepare({ source, name: info.name, origin: info.origin, requestedBy: 'user', ...(pixelRatio ? { pixelRatio } : {}) }, target.profile, options);
    if (!prepared.ok) return prepared;
    options.signal?.throwIfAborted();
    const attachment = await this.#store.put(prepared.image, info.origin);
    if (attachment.original) await this.#store.rememberDerived(key, attachment);
    return { ok: true, attachment };
  }
}

/** Names a target's image rules (not its vision verdict): equal keys get the same derived copy. */
export function targetKey(target: ImageTarget): string {
  const { vision: _vision, visionSource: _source, ...rules } = target;
  return createHash('sha256').update(JSON.stringify(rules)).digest('hex').slice(0, 24);
}
