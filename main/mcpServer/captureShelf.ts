// The captures `glance mcp serve` keeps (architecture §14): every capture and zoom is an
// attachment in the app's one store (images/attachmentStore.ts), its original kept as it came,
// so retention (chat/retention.ts) and the store's limits apply exactly as to the app's own
// captures. The original's sha256 names it to callers: glance://captures/<sha256>. Nothing is
// held here but a short memory of what this process made; the store is the truth, so a capture
// made by another `glance mcp serve` (stdio runs one per client) is found too.
import { readdir } from 'node:fs/promises';
import type { AttachmentInfo } from '../../common/images.ts';
import type { FileAttachmentStore } from '../images/attachmentStore.ts';

export const CAPTURE_SCHEME = 'glance://captures/';
/** What `origin` the server's images carry: "glance-mcp:capture_screen", "glance-mcp:zoom"… */
export const ORIGIN_PREFIX = 'glance-mcp:';
/** resources/list names at most this many, newest first. */
const LISTED_CAPTURES = 50;

const SHA = /^[a-f0-9]{64}$/;

/** How much the server's captures may hold in the store: bytes (payloads and originals) and age. */
export type CaptureBudget = { maxBytes: number; maxAgeMs: number };
/** A 4K original is ~23 MB as kept: about 40 of them, with their fitted copies. */
export const DEFAULT_CAPTURE_BUDGET: CaptureBudget = { maxBytes: 1024 * 1024 * 1024, maxAgeMs: 24 * 3_600_000 };
const ID = /^[a-f0-9]{16,63}$/;

export function captureUri(info: Pick<AttachmentInfo, 'sha256' | 'original'>): string {
  return `${CAPTURE_SCHEME}${info.original?.sha256 ?? info.sha256}`;
}

/**
 * An image a caller names: the id of an image the server returned (coordinates are then in that
 * image as it was shown), or a capture's URI or sha256 (coordinates in the original's pixels).
 */
export type NamedImage = { info: AttachmentInfo; space: 'shown' | 'original'; size: { width: number; height: number } };

export class CaptureShelf {
  readonly #store: FileAttachmentStore;
  /** Original sha256 → the newest attachment made from it here. */
  readonly #recent = new Map<string, AttachmentInfo>();
  #last: AttachmentInfo | undefined;

  readonly #budget: CaptureBudget;
  readonly #log: (line: string) => void;
  #trimming: Promise<void> | undefined;
  #trimAgain = false;

  constructor(store: FileAttachmentStore, options: { budget?: CaptureBudget; log?: (line: string) => void } = {}) {
    this.#store = store;
    this.#budget = options.budget ?? DEFAULT_CAPTURE_BUDGET;
    this.#log = options.log ?? (() => undefined);
  }

  /** Trims to the budget after a capture, one trim at a time (captures that come during one get one more after it). */
  trimSoon(): Promise<void> {
    if (this.#trimming) {
      this.#trimAgain = true;
      return this.#trimming;
    }
    this.#trimming = (async () => {
      do {
        this.#trimAgain = false;
        try {
          const { removed, bytes } = await this.trim(this.#budget);
          if (removed) this.#log(`mcp serve: ${removed} old capture${removed === 1 ? '' : 's'} removed; the captures now hold ${Math.round(bytes / 1048576)} MB (cap ${Math.round(this.#budget.maxBytes / 1048576)} MB).`);
        } catch (error) {
          this.#log(`mcp serve: trimming captures failed: ${(error as Error).message}`);
        }
      } while (this.#trimAgain);
    })().finally(() => (this.#trimming = undefined));
    return this.#trimming;
  }

  /** Notes an image this process returned (the newest is what "image" defaults to). */
  remember(info: AttachmentInfo): void {
    const key = info.original?.sha256 ?? info.sha256;
    this.#recent.delete(key);
    this.#recent.set(key, info);
    while (this.#recent.size > LISTED_CAPTURES) this.#recent.delete(this.#recent.keys().next().value!);
    this.#last = info;
    void this.trimSoon();
  }

  /** The newest image this process returned, if it is still stored. */
  async latest(): Promise<AttachmentInfo | undefined> {
    return this.#last && (await this.#store.info(this.#last.id));
  }

  /** Captures the server made (any process), one per original, newest first. */
  async list(): Promise<AttachmentInfo[]> {
    const byOriginal = new Map<string, AttachmentInfo>();
    for (const info of await this.#store.list()) {
      if (!info.origin.startsWith(ORIGIN_PREFIX) || !info.original) continue;
      const seen = byOriginal.get(info.original.sha256);
      if (!seen || seen.createdAt < info.createdAt) byOriginal.set(info.original.sha256, info);
    }
    return [...byOriginal.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1)).slice(0, LISTED_CAPTURES);
  }

  /** The attachment kept for a capture's original sha256. */
  async byOriginal(sha256: string): Promise<AttachmentInfo | undefined> {
    const remembered = this.#recent.get(sha256);
    if (remembered && (await this.#store.info(remembered.id))) return remembered;
    return (await this.list()).find((info) => info.original?.sha256 === sha256);
  }

  /**
   * Keeps the server's captures (any process's) within `budget`: newest first, each counted with its
   * payload and, once, its original; what is past the byte cap or older than the age goes, and its
   * original with it when nothing else was made from it. The newest capture always stays (it was just
   * returned). The app's own images are not touched.
   */
  async trim(budget: CaptureBudget, now = Date.now()): Promise<{ removed: number; bytes: number }> {
    const all = await this.#store.list();
    const mine = all.filter((info) => info.origin.startsWith(ORIGIN_PREFIX)).sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
    const counted = new Set<string>();
    const drop = new Set<string>();
    let bytes = 0;
    for (const [i, info] of mine.entries()) {
      const original = info.original && info.original.sha256 !== info.sha256 && !counted.has(info.original.sha256) ? info.source.bytes : 0;
      if (i > 0 && (now - Date.parse(info.createdAt) > budget.maxAgeMs || bytes + info.bytes + original > budget.maxBytes)) {
        drop.add(info.id);
        continue;
      }
      if (info.original) counted.add(info.original.sha256);
      bytes += info.bytes + original;
    }
    let removed = 0;
    for (const id of drop) if (await this.#store.remove(id)) removed++;
    if (drop.size) {
      // Only the originals of what went, and only when no record left names them: another process's
      // capture being written now has an original no record names yet, and must stay.
      const gone = new Set(mine.filter((info) => drop.has(info.id) && info.original).map((info) => info.original!.sha256));
      for (const info of all) if (!drop.has(info.id) && info.original) gone.delete(info.original.sha256);
      const onDisk = await readdir(this.#store.originalsDirectory).catch(() => [] as string[]);
      await this.#store.sweepOriginals(new Set(onDisk.map((name) => name.slice(0, 64)).filter((sha) => !gone.has(sha))));
      for (const [sha, info] of this.#recent) if (drop.has(info.id)) this.#recent.delete(sha);
    }
    return { removed, bytes };
  }

  /** What "image" names, or a refusal in words. */
  async resolve(ref: string): Promise<NamedImage | { ok: false; message: string }> {
    const value = ref.trim().toLowerCase();
    const sha = value.startsWith(CAPTURE_SCHEME) ? value.slice(CAPTURE_SCHEME.length) : value;
    if (SHA.test(sha)) {
      const info = await this.byOriginal(sha);
      if (info) return { info, space: 'original', size: { width: info.source.width, height: info.source.height } };
      // A 64-digit id of a shown image is looked up as one below.
    } else if (!ID.test(sha)) {
      return { ok: false, message: `"image" must be an image id from capture_screen or zoom (16 hex digits) or a capture's URI ${CAPTURE_SCHEME}<sha256>; got ${JSON.stringify(ref).slice(0, 80)}.` };
    }
    const info = await this.#store.info(sha);
    if (!info || !info.origin.startsWith(ORIGIN_PREFIX)) {
      return { ok: false, message: `No capture "${ref.slice(0, 80)}" is kept: call capture_screen first, or use an id or URI it returned (old captures expire under the retention setting).` };
    }
    return { info, space: 'shown', size: { width: info.width, height: info.height } };
  }
}
