// The door's redact stage (architecture §3 "Redact"): before a target's copy is encoded,
// secrets in the image are found on this device and filled (main/privacy), when the policy says
// so for that target — `remote` (the default) for a model whose server is not on this machine,
// `always`, `never`; per conversation or command over the settings. The original is stored as it
// came; only the copy a model gets is masked. Detection of one image is shared: the attach, the
// send that follows and a refit for another model all wait on the same run, which starts the
// moment the image enters the door. When OCR fails or runs out of time nothing is known about the
// image, and the copy is refused (`redaction-failed`) rather than sent as it is.
import { createHash } from 'node:crypto';
import { abortable } from '../abortable.ts';
import type { ImageRefusal } from '../../common/images.ts';
import type { Limits } from '../../common/limits.ts';
import type { PrivacySettings, RedactPolicy, Redaction } from '../../common/privacy.ts';
import { sameRegion } from '../../common/sameRegion.ts';
import { findSecrets, redactText, windowRegions } from '../privacy/detect.ts';
import { DETECTOR_VERSION } from '../privacy/detectorVersion.ts';
import { maskImage } from '../privacy/maskImage.ts';
import { redactImage, type ReadWords, type RedactedImage } from '../privacy/redactImage.ts';
import { decodedInput } from './decodeInput.ts';
import type { AdmitTarget, AttachmentStore, ImageInput, PixelStage, StageImage, StageRun, TextTarget } from './types.ts';

/** Detection results kept for reuse (a send after the attach, a refit for another model). */
const REMEMBERED = 32;
/** Images waiting to be read ahead; past this, the oldest waits for its first remote copy instead. */
const READ_AHEAD_QUEUE = 4;

type RedactStageDeps = {
  /** Local OCR words in the image's upright pixels (composed from main/ocr). */
  readWords: ReadWords;
  /** The current privacy settings (read on every image: a change applies to the next one). */
  privacy: () => PrivacySettings;
  limits: Pick<Limits, 'maxInputPixels'>;
  /**
   * Whether an image whose copy is not redacted (a model on this computer) is read for secrets
   * anyway as it enters, in the background: a model off this computer may get it later.
   */
  readAhead?: () => boolean;
  /** Where what was found is kept beside the original (the attachment store), so another process or a later send finds it without reading again. */
  kept?: Pick<AttachmentStore, 'hiddenRegions' | 'keepHiddenRegions'>;
};

/** Names the detector whose findings are kept with an original: a hash of its code (main/privacy/detectorVersion.ts). */
export { DETECTOR_VERSION };

/** The policy in force for `target`: its own (conversation, command) over the settings'. */
export function policyFor(target: Pick<AdmitTarget, 'redact'>, settings: Pick<PrivacySettings, 'redact'>): RedactPolicy {
  return target.redact ?? settings.redact;
}

/**
 * Whether the copy for `target` is redacted. `remote` redacts unless the server is known to be on
 * this machine; a named model whose server is unknown counts as remote. A copy fitted to a profile
 * alone (no model yet: an MCP capture from the CLI) goes to no model, so only `always` or a known
 * remote redacts it — it is redacted again when a model is given it.
 */
export function hidesFor(target: TextTarget, settings: Pick<PrivacySettings, 'redact'>): boolean {
  const policy = policyFor(target, settings);
  if (policy !== 'remote') return policy === 'always';
  return target.vision === undefined ? target.remote === true : target.remote !== false;
}

export class RedactStage implements PixelStage {
  readonly #deps: RedactStageDeps;
  readonly #runs = new Map<string, Promise<RedactedImage>>();
  /** Read-ahead: one image at a time, after what the person is waiting for. */
  readonly #ahead: (() => Promise<unknown>)[] = [];
  #reading = false;

  constructor(deps: RedactStageDeps) {
    this.#deps = deps;
  }

  begin(image: StageImage, target: AdmitTarget, signal?: AbortSignal): StageRun {
    const settings = this.#deps.privacy();
    if (!hidesFor(target, settings)) {
      // Detection belongs to the original (architecture §3b "Regions belong to the original"): read
      // now, off the path to this model, so a later remote copy finds what it hides already kept.
      if (policyFor(target, settings) !== 'never' && this.#deps.readAhead?.()) this.#readAhead(image, settings);
      return { settle: async () => undefined };
    }
    // A frame's PNG is made only here, when its pixels are to be read (OCR takes seconds; the PNG tens of ms).
    const given = image.data;
    const bytes = typeof given === 'function' ? given() : Promise.resolve(given);
    const run = bytes.then((data) => this.#detect({ ...image, data }, settings));
    // Started now; a rejection is observed by settle (or dropped with the image).
    run.catch(() => undefined);
    const asked = target.shown ?? [];
    return {
      settle: async () => {
        const out = await abortable(run, signal);
        // Unchecked: refused, unless the person chose "Send anyway" for this image (recorded on the copy).
        if (!out.ok) return target.sendAnyway ? { unchecked: true } : refusal(out.message);
        const skipped = out.skipped.length ? { skipped: out.skipped } : {};
        if (!out.png) return out.skipped.length ? { skipped: out.skipped } : undefined;
        // "Show anyway" (this send only): the regions the person named stay visible, the rest are
        // filled again from the original, and the copy records which were shown on request.
        const shown = out.regions.filter((r) => asked.some((a) => sameRegion(a, r)));
        if (!shown.length) return { data: out.png, redactions: out.regions, ms: out.ms, ...skipped };
        const hidden = out.regions.filter((r) => !shown.includes(r));
        const decoded = await decodedInput(await bytes, image.mime, this.#deps.limits);
        if (!decoded.ok) return refusal(decoded.message);
        return { data: await maskImage(decoded.image(), hidden), redactions: hidden, shown, ms: out.ms, ...skipped };
      },
    };
  }

  /** Queues `image` to be read in the background; findings land where every later view looks (#detect's memo and the store). */
  #readAhead(image: StageImage, settings: PrivacySettings): void {
    this.#ahead.push(async () => {
      const data = typeof image.data === 'function' ? await image.data() : image.data;
      await this.#detect({ data, mime: image.mime, ...(image.windows ? { windows: image.windows } : {}) }, settings);
    });
    if (this.#ahead.length > READ_AHEAD_QUEUE) this.#ahead.shift();
    void this.#drain();
  }

  async #drain(): Promise<void> {
    if (this.#reading) return;
    this.#reading = true;
    try {
      for (let job = this.#ahead.shift(); job; job = this.#ahead.shift()) {
        // A failure is only a missed head start: the first remote copy reads again, and fails closed.
        await job().catch(() => undefined);
      }
    } finally {
      this.#reading = false;
    }
  }

  async text(text: string, target: TextTarget): Promise<{ text: string; hidden: number }> {
    const settings = this.#deps.privacy();
    if (!hidesFor(target, settings)) return { text, hidden: 0 };
    const out = await redactText(text, settings);
    return { text: out.text, hidden: out.hidden.length };
  }

  async secretsIn(text: string): Promise<Array<{ start: number; end: number; kind: string; rule: string }>> {
    return (await findSecrets(text, this.#deps.privacy())).findings;
  }

  async readable(image: { data: Uint8Array; mime: string; windows?: ImageInput['windows'] }, target: TextTarget): Promise<{ data: Uint8Array; mime: string }> {
    const settings = this.#deps.privacy();
    const same = { data: image.data, mime: image.mime };
    if (!image.windows?.length || !hidesFor(target, settings)) return same;
    const decoded = await decodedInput(image.data, image.mime, this.#deps.limits);
    // Undecodable: OCR fails on it too, and says so.
    if (!decoded.ok) return same;
    const filled = windowRegions(image.windows, settings.excludedApps, decoded.size);
    if (!filled.length) return same;
    return { data: await maskImage(decoded.image(), filled), mime: 'image/png' };
  }

  async hiddenIn(image: { data: Uint8Array; mime: string; windows?: ImageInput['windows'] }, target: TextTarget, signal?: AbortSignal): Promise<{ ok: true; regions: Redaction[] } | { ok: false; message: string }> {
    const settings = this.#deps.privacy();
    if (!hidesFor(target, settings)) return { ok: true, regions: [] };
    const out = await abortable(this.#detect(image, settings), signal);
    if (!out.ok) return { ok: false, message: refusal(out.message).message };
    return { ok: true, regions: out.regions };
  }

  keyFor(target: AdmitTarget): string {
    const settings = this.#deps.privacy();
    if (!hidesFor(target, settings)) return 'plain';
    return `redacted:${fingerprint(settings)}${target.shown?.length ? `:shown-${shownKey(target.shown)}` : ''}${target.sendAnyway ? ':send-anyway' : ''}`;
  }

  #detect(image: { data: Uint8Array; mime: string; windows?: ImageInput['windows'] }, settings: PrivacySettings): Promise<RedactedImage> {
    const sha256 = createHash('sha256').update(image.data).digest('hex');
    // What detection depends on: the detector, the settings' rules and the capture's windows.
    const depends = `${DETECTOR_VERSION}-${createHash('sha256').update(fingerprint(settings)).update(JSON.stringify(image.windows ?? [])).digest('hex').slice(0, 24)}`;
    const key = `${sha256}:${depends}`;
    const known = this.#runs.get(key);
    if (known) {
      this.#runs.delete(key);
      this.#runs.set(key, known);
      return known;
    }
    const kept = this.#deps.kept;
    const run = (async (): Promise<RedactedImage> => {
      const decoded = await decodedInput(image.data, image.mime, this.#deps.limits);
      if (!decoded.ok) return { ok: false, code: 'ocr-failed', message: decoded.message, ms: 0 };
      // Found before (this process or another) and kept with the original: filled again, not read again.
      const known = await kept?.hiddenRegions?.(sha256, depends);
      if (known) return { ok: true, regions: known, skipped: [], ms: 0, ...(known.length ? { png: await maskImage(decoded.image(), known) } : {}) };
      const found = await redactImage({ data: image.data, mime: image.mime }, { readWords: this.#deps.readWords, pixels: () => decoded.image() }, {
        categories: settings.categories,
        patterns: settings.patterns,
        excludedApps: settings.excludedApps,
        ...(image.windows ? { windows: image.windows } : {}),
      });
      // Only a whole reading is kept (a skipped own pattern may find more next time).
      if (found.ok && !found.skipped.length) await kept?.keepHiddenRegions?.(sha256, depends, found.regions).catch(() => undefined);
      return found;
    })();
    this.#runs.set(key, run);
    // A failure is not remembered: the next image (or a retry) reads again.
    void run.then((r) => !r.ok && this.#runs.get(key) === run && this.#runs.delete(key), () => this.#runs.delete(key));
    for (const oldest of this.#runs.keys()) {
      if (this.#runs.size <= REMEMBERED) break;
      this.#runs.delete(oldest);
    }
    return run;
  }
}

function fingerprint(settings: PrivacySettings): string {
  const { categories, patterns, excludedApps } = settings;
  return createHash('sha256').update(JSON.stringify({ categories, patterns, excludedApps })).digest('hex').slice(0, 16);
}

function shownKey(regions: readonly Redaction[]): string {
  return createHash('sha256').update(JSON.stringify(regions.map((r) => [r.x, r.y, r.width, r.height, r.kind, r.rule]))).digest('hex').slice(0, 12);
}

function refusal(message: string): ImageRefusal {
  return {
    ok: false,
    code: 'redaction-failed',
    message: `${message} Send it to a model on this machine, or turn redaction off for this conversation if you are sure it holds nothing secret.`,
  };
}
