import type { AttachmentInfo, CapturedWindowName, ImageLegibility, ImageMime, ImageRefusal, RawFrame } from '../../common/images.ts';
import type { Limits } from '../../common/limits.ts';
import type { ProviderKind, Tristate, VisionSource } from '../../common/models.ts';
import type { RedactPolicy, Redaction } from '../../common/privacy.ts';
import type { ImageRule, Size } from './imageRule.ts';

/**
 * Where an image comes from. Bytes arrive from a capture, a drop, a paste or a tool;
 * a source string is an absolute path, a file:// URL, a data: URL or an http(s) URL.
 */
export type ImageInput = {
  /** Raw bytes, or a source string to resolve. */
  source: Uint8Array | string;
  /** Display name (a drop's file name). Never trusted for the type: the bytes decide. */
  name?: string;
  /** "user", "hotkey", "screenshot_desktop", "server__tool", … (ends up in events and stubs). */
  origin: string;
  /** A model-requested path is confined to the allowed roots; a user's is not. */
  requestedBy: 'user' | 'model';
  /** Device pixels per logical pixel of a screen capture (Retina 2×): screen text is that much bigger. Default 1. */
  pixelRatio?: number;
  /** A window capture: the window's app and title (the label names them). */
  window?: CapturedWindowName;
  /**
   * A screen capture: the windows on it, in its pixels (excluded apps' windows are filled whole).
   * `password`: a password field the window's accessibility marked (architecture §7 "A window's own
   * words"), filled whenever the image's secrets are; `secret`: a secret found in the window's words,
   * at its own box, filled likewise.
   */
  windows?: ReadonlyArray<{ app: string; title: string; x: number; y: number; width: number; height: number; password?: true; secret?: { kind: string; rule: string } }>;
};

/** What a model accepts: fit the image to this before sending it. */
export type ImageProfile = {
  /** Longest edge in pixels. */
  maxLongEdge: number;
  /** Width × height after fitting. */
  maxPixels: number;
  /** Encodings the provider accepts, in no particular order. */
  formats: readonly ImageMime[];
  /** Largest encoded payload the provider accepts (bytes). */
  maxBytes: number;
  /**
   * The model's own image rule (architecture §4a), when Glance knows its family: images are fitted to
   * it (the largest the server keeps) instead of maxLongEdge/maxPixels, and `modelInput`/`tokens`
   * are computed from it.
   */
  rule?: ImageRule;
  /** A person set maxLongEdge/maxPixels for this model: their numbers size the image, the rule only estimates. */
  sizeOverridden?: boolean;
};

/** The model an image is meant for. */
export type ImageTarget = {
  provider: ProviderKind;
  model: string;
  vision: Tristate;
  visionSource: VisionSource;
  profile: ImageProfile;
  /** The model's server is not on this machine (architecture §3 "Redact": policy `remote`). Unknown counts as remote. */
  remote?: boolean;
  /** Redaction chosen for this conversation or command, over the settings' policy. */
  redact?: RedactPolicy;
  /** Regions of this one image the person chose to show for this send ("Show anyway"): found, left visible, recorded. */
  shown?: readonly Redaction[];
  /**
   * "Send anyway" after a `redaction-failed` refusal: the person chose to send this one image even
   * if local OCR cannot check it. Detection still runs; only its failure no longer stops the image,
   * and the copy records `uncheckedOnRequest`.
   */
  sendAnyway?: true;
};

/**
 * A screen capture's raw pixels (the hotkey): the model's copy is fitted from them at once and the
 * lossless original (PNG) is encoded and kept after it, off the path to the model.
 */
export type FrameInput = Omit<ImageInput, 'source'> & { frame: RawFrame };

/** A stored image, by id: the door fits it anew for a target from its original. */
export type StoredImageRef = { attachmentId: string };

/** Who brings an image to the door, and so what the door does with it (ImageIntake.admit). */
export type AdmitPurpose = 'user' | 'tool' | 'capture' | 'check' | 'read';

/** A named model (gated, its copy remembered), or only a profile to fit to (no model named: check-image, a CLI MCP capture). */
/** Where text made from an image goes, as far as redaction asks: a model's server (remote or not) and the policy in force. */
export type TextTarget = Pick<ImageTarget, 'remote' | 'redact'> & { vision?: unknown };

export type AdmitTarget = ImageTarget | { profile: ImageProfile; remote?: boolean; redact?: RedactPolicy; shown?: readonly Redaction[]; sendAnyway?: true };

/** What the door let in: the stored attachment and, for a blind target, the text the model gets instead. */
export type Admitted = {
  ok: true;
  attachment: AttachmentInfo;
  /** The bytes of the copy the door made (or found made) for the target; absent when the model gets the image's text instead. */
  payload?: Uint8Array;
  transcript?: { text: string; engine: string };
  /** A frame's original, kept after the payload (FrameInput): settles when it is on disk, or says why not. Never rejects. */
  originalKept?: Promise<{ ok: true } | { ok: false; message: string }>;
};

/** Local OCR as the door needs it (composed from main/ocr, which sits above images). */
export type ImageTextReader = (
  image: { data: Uint8Array; mime: string },
  signal: AbortSignal,
) => Promise<{ ok: true; text: string; engine: string; hasText: boolean } | { ok: false; message: string }>;

/**
 * A stage the door runs on every image before a target's copy is encoded (architecture §3) —
 * where redaction (main/privacy) plugs in. `begin` is called as the image enters, so work such as
 * detection starts at once; the target's copy awaits `settle` and is never made without it.
 * The original is stored as it came either way.
 */
export interface PixelStage {
  /** `data` may be made on demand (a frame's PNG): a stage that leaves the image as it is never asks for it. */
  begin(image: StageImage, target: AdmitTarget, signal?: AbortSignal): StageRun;
  /** Text made from an image (read_text, a blind model's transcription), as the target may get it. */
  text?(text: string, target: TextTarget): Promise<{ text: string; hidden: number }>;
  /** The secrets in a text, as character ranges, by the rules set (a window's own words: each gets its own box). */
  secretsIn?(text: string): Promise<Array<{ start: number; end: number; kind: string; rule: string }>>;
  /**
   * The pixels local OCR reads for text that goes to `target` (read_text, a blind model's
   * transcription), with the windows of excluded apps filled as in the target's copy: text
   * redaction alone cannot know that a line came from a password manager. `windows` are in `image`'s pixels.
   */
  readable?(image: { data: Uint8Array; mime: string; windows?: ImageInput['windows'] }, target: TextTarget): Promise<{ data: Uint8Array; mime: string }>;
  /**
   * What is hidden in an original for `target` (architecture §3b): the regions found on the
   * original at full resolution (memoised per original and settings), in its upright pixels; none
   * when the policy leaves the target's copies as they are. A failure means nothing is known, and
   * no view of the image may go to that target.
   */
  hiddenIn?(image: { data: Uint8Array; mime: string; windows?: ImageInput['windows'] }, target: TextTarget, signal?: AbortSignal): Promise<{ ok: true; regions: Redaction[] } | { ok: false; message: string }>;
  /** Names what the stage does for `target` (policy and settings): copies made under other settings are not reused. */
  keyFor?(target: AdmitTarget): string;
}
export type StageImage = { data: Uint8Array | (() => Promise<Uint8Array>); mime: string; origin: string; windows?: ImageInput['windows'] };
export interface StageRun {
  /**
   * PNG pixels to make the target's copy from (oriented as shown), with what was hidden in them, or
   * undefined to use the image unchanged; a refusal stops the image here (it could not be checked for secrets).
   */
  settle(): Promise<{ data: Uint8Array; redactions?: Redaction[]; shown?: Redaction[]; ms?: number; skipped?: string[] } | { skipped: string[] } | { unchecked: true } | ImageRefusal | undefined>;
}

/** Dependencies of the chokepoint, made once in a composition root. */
export type IntakeConfig = {
  limits: Limits;
  /** Roots a model-requested local path must stay under (realpath-checked). */
  allowedRoots: readonly string[];
  /** Test-only: let http(s) sources reach loopback so the happy path can be exercised. */
  allowLoopbackFetch?: boolean;
  /**
   * Test-only, with allowLoopbackFetch: loopback is reachable only on these ports, so a test
   * can prove that a redirect from an allowed fixture server to another loopback port is refused.
   */
  loopbackFetchPorts?: readonly number[];
};

/** A normalised, model-ready image that is not (yet) stored. */
export type PreparedImage = {
  data: Uint8Array;
  mime: ImageMime;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  name: string;
  source: AttachmentInfo['source'];
  /** The bytes that entered and their sniffed type: the store keeps them as the original. */
  original?: { data: Uint8Array; mime: string };
  /** What the model's encoder processes; null when its rule is unknown. */
  modelInput: Size | null;
  tokens: number | null;
  legibility: ImageLegibility;
  window?: CapturedWindowName;
  /** What the pixel stage hid in this copy, in the original's pixels, and how long finding it took. */
  redactions?: Redaction[];
  redactionMs?: number;
  shownOnRequest?: Redaction[];
  uncheckedOnRequest?: true;
  /** Own patterns that ran out of the image's time budget. */
  patternsSkipped?: string[];
  /** A screen capture's windows (ImageInput.windows), kept on the record for later copies. */
  windows?: ImageInput['windows'];
};

/** An attachment's original bytes as the store kept them. */
export type StoredOriginal = { data: Uint8Array; mime: string; sha256: string };

export type PrepareResult = { ok: true; image: PreparedImage } | ImageRefusal;
export type AttachResult = { ok: true; attachment: AttachmentInfo } | ImageRefusal;

/** Content-addressed attachment store (architecture §3 "Store"): the only place image bytes live on disk. */
export interface AttachmentStore {
  put(image: PreparedImage, origin: string): Promise<AttachmentInfo>;
  get(id: string): Promise<{ info: AttachmentInfo; data: Uint8Array } | undefined>;
  info(id: string): Promise<AttachmentInfo | undefined>;
  /** The bytes an attachment was made from, as they entered (undefined when none was kept). */
  original(info: AttachmentInfo): Promise<StoredOriginal | undefined>;
  /**
   * What every view of an image is made from: its original, else (none kept, or unreadable) the
   * payload itself. `fromOriginal` says which; undefined when neither is stored any more.
   */
  source(info: AttachmentInfo): Promise<{ data: Uint8Array; mime: string; fromOriginal: boolean; sha256?: string } | undefined>;
  /** The payload already made from an original for a target, if any (derived copies are cached per target). */
  derived(originalSha256: string, key: string): Promise<AttachmentInfo | undefined>;
  rememberDerived(key: string, info: AttachmentInfo): Promise<void>;
  /**
   * The original of a payload already stored, kept when its bytes are ready (a capture's PNG is
   * encoded after the model's copy went out); original() waits for it. Rejects when it cannot be kept.
   */
  keepOriginal(id: string, original: Promise<{ data: Uint8Array; mime: string }>, derivedKey?: string): Promise<AttachmentInfo>;
  /** What detection found in an original, under the key of what it depended on (architecture §3b); undefined when not kept. */
  hiddenRegions?(sha256: string, key: string): Promise<Redaction[] | undefined>;
  /** Keeps what detection found beside a stored original. */
  keepHiddenRegions?(sha256: string, key: string, regions: readonly Redaction[]): Promise<void>;
  /** Absolute path of the stored payload (for thumbnails in the harness/app). */
  pathOf(info: AttachmentInfo): string;
}
