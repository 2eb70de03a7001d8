// Every image `glance mcp serve` hands out enters here, and from here only through the image
// door (ImageIntake.admit, architecture §3: sniff, guard, fit to the caller's rule, encode,
// store); the pixels zoom and read_text cut from an original come out of it too. One seam
// for the server's redaction policy too: the caller's model is unknown, so the default is
// "always" (architecture §14); what was hidden is said in every result.
import type { AttachmentInfo, ImageRefusal } from '../../common/images.ts';
import type { Egress } from '../egress/egress.ts';
import type { Region } from '../images/cropImage.ts';
import type { ImageIntake, ReadPixels } from '../images/imageIntake.ts';
import type { ImageInput, ImageTarget } from '../images/types.ts';
import { MAX_BASE64_CHARS } from './callerTarget.ts';

export type RedactPolicy = 'always' | 'remote' | 'never';
export const REDACT_POLICIES: readonly RedactPolicy[] = ['always', 'remote', 'never'];

/** A rectangle hidden before the image left Glance, in the original's pixels. */
type HiddenRegion = { x: number; y: number; width: number; height: number; kind: string };

export type ServedImage = {
  ok: true;
  info: AttachmentInfo;
  /** The payload the caller gets, base64 (≤ MAX_BASE64_CHARS). */
  base64: string;
  hidden: HiddenRegion[];
};

export type ImageGate = {
  policy: RedactPolicy;
  /** A new image (a capture, a zoom's crop) in, fitted for the caller's model. */
  admit(input: Omit<ImageInput, 'requestedBy'>, target: ImageTarget, signal?: AbortSignal): Promise<ServedImage | ImageRefusal>;
  /** A kept image's original pixels, or a region of it in `info`'s own coordinates (zoom, read_text). */
  read(info: AttachmentInfo, region: Region | undefined, signal: AbortSignal): Promise<ReadPixels | { ok: false; code: string; message: string }>;
  /** Text made from an image (read_text, describe's answer) as the caller may get it: secrets replaced under the server's policy. */
  text(text: string): Promise<{ text: string; hidden: number }>;
  /** Window titles and app names as the caller may get them (list_windows, a window capture's line). */
  windowFacts<W extends { app: string; title: string }>(windows: readonly W[]): Promise<W[]>;
  /** A capture's whole original for a resource read: its hidden regions filled, or as kept with --serve-originals. */
  original(info: AttachmentInfo, signal?: AbortSignal): Promise<{ ok: true; data: Uint8Array; mime: string } | { ok: false; message: string }>;
  /** The clear original is served (--serve-originals): the capture's line says so. */
  servesOriginals: boolean;
};

export function imageGate(deps: { intake: ImageIntake; egress: Egress; policy: RedactPolicy; serveOriginals?: boolean }): ImageGate {
  // No model named: under "remote" what leaves counts as going to a remote model.
  const caller = { redact: deps.policy, vision: 'unknown' } as const;
  return {
    policy: deps.policy,
    servesOriginals: deps.serveOriginals === true,
    async admit(input, target, signal) {
      // The screen is the person's own: what enters is theirs ('user'), never a path a model named.
      // The server's policy is this copy's: the door's redact stage hides what it finds (architecture §3 "Redact").
      const attached = await deps.intake.admit({ ...input, requestedBy: 'user' }, { ...target, redact: deps.policy }, 'tool', { ...(signal ? { signal } : {}) });
      if (!attached.ok) return attached;
      // Out through the egress: the copy the door just made for this caller, as made.
      const payload = await deps.egress.made(attached, { ...target, redact: deps.policy });
      if (!payload.ok) return { ok: false, code: 'source-unreachable', message: `The prepared image could not be read back from the attachment store (${payload.message}).` };
      const base64 = Buffer.from(payload.data).toString('base64');
      // The profile caps the bytes; this is the invariant callers rely on, checked where it is kept.
      if (base64.length > MAX_BASE64_CHARS) return { ok: false, code: 'too-large', message: `The prepared image is ${base64.length} characters of base64, over the 1 MB a result may carry.` };
      const hidden = (attached.attachment.redactions ?? []).map(({ x, y, width, height, kind }) => ({ x, y, width, height, kind }));
      return { ok: true, info: attached.attachment, base64, hidden };
    },
    read(info, region, signal) {
      // Cut from the original with what it hides filled first (and excluded apps' windows).
      return deps.intake.admit({ attachmentId: info.id }, caller, 'read', { signal, ...(region ? { region } : {}) });
    },
    text(text) {
      return deps.egress.text(text, caller);
    },
    async windowFacts(windows) {
      return (await deps.egress.windowFacts(windows, caller)).windows;
    },
    original(info, signal) {
      return deps.egress.original(info.id, caller, { clear: deps.serveOriginals === true, ...(signal ? { signal } : {}) });
    },
  };
}

/** "Hidden: …" for the result's text line: what redaction did, in words. */
export function describeHidden(policy: RedactPolicy, hidden: readonly HiddenRegion[]): string {
  if (policy === 'never') return 'Hidden: nothing (redaction is off: --redact never).';
  if (hidden.length === 0) return `Hidden: nothing (redaction "${policy}" found no secret on this device).`;
  const kinds = [...new Set(hidden.map((h) => h.kind))].join(', ');
  return `Hidden: ${hidden.length} region${hidden.length === 1 ? '' : 's'} (${kinds}).`;
}
