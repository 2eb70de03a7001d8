// The one chokepoint every image passes (DESIGN §3):
// resolve → ingest cap → sniff → allowlist → decode guard → normalise → gate → store.
// Bad input never throws: it comes back as { ok:false, code, message } in plain words.
// A caller's abort rejects with the signal's reason; a failing disk (store.put) throws.
import type { ImageMime, ImageRefusal } from '../../common/images.ts';
import { displayName } from './attachmentStore.ts';
import { normaliseImage } from './normalise.ts';
import { resolveSource } from './resolveSource.ts';
import { sniffImage } from './sniff.ts';
import type { AttachResult, AttachmentStore, ImageInput, ImageProfile, ImageTarget, IntakeConfig, PrepareResult } from './types.ts';

const EXTENSIONS: Record<ImageMime, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

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
    const normalised = await normaliseImage(resolved.data, sniffed, profile, this.#config.limits, { signal });
    if (!normalised.ok) return normalised;
    const name = displayName(input.name ?? resolved.name ?? '');
    return {
      ok: true,
      image: { ...normalised.image, name: name === 'image' ? `image.${EXTENSIONS[normalised.image.mime]}` : name },
    };
  }

  /** THE gate: capability first (nothing is read for a model that cannot see), then prepare, then store. */
  async tryAttachImage(input: ImageInput, target: ImageTarget, options: { signal?: AbortSignal } = {}): Promise<AttachResult> {
    const refusal = visionRefusal(target);
    if (refusal) return refusal;
    const prepared = await this.prepare(input, target.profile, options);
    if (!prepared.ok) return prepared;
    options.signal?.throwIfAborted();
    return { ok: true, attachment: await this.#store.put(prepared.image, input.origin) };
  }
}
