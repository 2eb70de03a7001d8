// The content-addressed attachment store (architecture §3 "Store"): the only place image bytes live on disk.
// <dataDir>/attachments/<id>.<ext> holds the payload, <id>.json its AttachmentInfo. The id is
// the first 16 hex digits of the payload's sha256 (longer only on a prefix collision). Writes
// are temp file + rename, payload before metadata, so a reader never sees half a record.
// <dataDir>/attachments/originals/<sha256>.<ext> holds the bytes as they entered (named after
// their sniffed type), shared by every payload derived from them; <sha256>.derived.json maps a
// target (model + rules) to the payload made for it, so re-fitting for a model is done once.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AttachmentInfo, imageExtension } from '../../common/images.ts';
import { Redaction } from '../../common/privacy.ts';
import { isAtomicTemp, writeFileAtomic, type OnDamaged } from '../fsAtomic.ts';
import { displayName } from '../../common/fileNames.ts';
import type { AttachmentStore, PreparedImage, StoredOriginal } from './types.ts';

const ID = /^[a-f0-9]{16,64}$/;
const ID_LENGTHS = [16, 24, 32, 64];
const SHA256 = /^[a-f0-9]{64}$/;
const DERIVED_KEY = /^[a-z0-9-]{1,80}$/;

/** A directory changed less than this long ago may change again within its mtime's tick: its records are read from disk. */
const RECORDS_SETTLED_MS = 1000;
/** A file with no record younger than this may be another process's put in flight. */
const ORPHAN_GRACE_MS = 10 * 60_000;
/** Records kept in memory at most (about 1 KB each); the oldest read goes first. */
const RECORDS_KEPT = 4096;
/** Originals kept in memory after their write failed (a 4K capture's PNG is 3–10 MB). */
const UNWRITTEN_KEPT = 4;

export class FileAttachmentStore implements AttachmentStore {
  readonly directory: string;
  readonly originalsDirectory: string;
  readonly #now: () => Date;
  readonly #settledMs: number;
  readonly #kept: number;
  readonly #onDamaged: OnDamaged | undefined;
  /** Images already said to be damaged (once per process). */
  readonly #reported = new Set<string>();
  /**
   * Records already read, while the directory is unchanged: every put and remove (from this
   * process or another, such as the CLI) renames a file into it or deletes one, which moves its
   * mtime. Opening a conversation reads one record per image; these make the second time free.
   */
  readonly #records = new Map<string, AttachmentInfo>();
  /** Originals still being made or written for a stored payload (keepOriginal): original() waits for them. */
  readonly #pending = new Map<string, Promise<AttachmentInfo>>();
  /** Originals whose write failed, kept in memory (at most UNWRITTEN_KEPT): original() serves them and writes them again. */
  readonly #unwritten = new Map<string, { data: Uint8Array; mime: string }>();
  #recordsStamp = Number.NaN;
  #stamping: Promise<number> | undefined;

  constructor(dataDir: string, options: { now?: () => Date; recordsSettledMs?: number; recordsKept?: number; onDamaged?: OnDamaged } = {}) {
    this.directory = join(dataDir, 'attachments');
    this.originalsDirectory = join(this.directory, 'originals');
    this.#onDamaged = options.onDamaged;
    this.#now = options.now ?? (() => new Date());
    this.#settledMs = options.recordsSettledMs ?? RECORDS_SETTLED_MS;
    this.#kept = options.recordsKept ?? RECORDS_KEPT;
  }

  /**
   * Stores the payload. Putting the same bytes again writes nothing and returns the stored record
   * (same id, sha256, createdAt) with this put's name, origin, source description and model
   * estimates (modelInput, tokens, legibility), which belong to this use of the bytes (two different files can normalise to the same payload); `info(id)`
   * keeps the first ones.
   */
  async put(image: PreparedImage, origin: string): Promise<AttachmentInfo> {
    const sha256 = createHash('sha256').update(image.data).digest('hex');
    if (sha256 !== image.sha256) throw new Error('PreparedImage.sha256 does not match its data');
    await mkdir(this.directory, { recursive: true });
    // The original first: a record never names an original that is not on disk.
    const original = image.original ? await this.#putOriginal(image.original) : undefined;
    for (const length of ID_LENGTHS) {
      const id = sha256.slice(0, length);
      const existing = await this.info(id);
      if (existing?.sha256 === sha256 && (await this.#payloadIntact(existing))) {
        const learnsOriginal = original && !existing.original;
        const learnsWindow = image.window && !existing.window;
        if (learnsOriginal || learnsWindow) {
          // Stored before its original was kept (or by a capture that did not know the window): the record learns it.
          if (learnsOriginal) existing.original = original;
          if (learnsWindow) existing.window = image.window;
          await writeFileAtomic(this.#metaPath(id), JSON.stringify(existing, null, 2) + '\n', { mode: 0o600 });
        }
        return { ...existing, name: displayName(image.name), origin, source: image.source, ...forModel(image), ...(image.window ? { window: image.window } : {}), ...(image.windows?.length ? { windows: [...image.windows] } : {}) };
      }
      if (existing && existing.sha256 !== sha256) continue; // another payload owns this prefix
      const info = AttachmentInfo.parse({
        id,
        sha256,
        mime: image.mime,
        width: image.width,
        height: image.height,
        bytes: image.data.byteLength,
        name: displayName(image.name),
        origin,
        source: image.source,
        ...(original ? { original } : {}),
        createdAt: this.#now().toISOString(),
        ...forModel(image),
        ...(image.window ? { window: image.window } : {}),
        ...(image.windows?.length ? { windows: image.windows } : {}),
      });
      await writeFileAtomic(this.pathOf(info), image.data, { mode: 0o600 });
      await writeFileAtomic(this.#metaPath(id), JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
      return info;
    }
    throw new Error(`sha256 ${sha256} collides with every stored id prefix`);
  }

  async get(id: string): Promise<{ info: AttachmentInfo; data: Uint8Array } | undefined> {
    const info = await this.info(id);
    if (!info) return undefined;
    let data: Buffer;
    try {
      data = await readFile(this.pathOf(info));
    } catch {
      await this.#lostBytes(info, `its stored bytes are missing (${this.pathOf(info)})`);
      return undefined;
    }
    // A damaged or replaced payload is not the attachment the id names.
    if (createHash('sha256').update(data).digest('hex') !== info.sha256) {
      await this.#lostBytes(info, `its stored bytes are damaged (${this.pathOf(info)} no longer matches its record)`);
      return undefined;
    }
    return { info, data };
  }

  /**
   * A payload that cannot be read is said only when its original cannot be read either: with the
   * original intact the door makes the copy again from it (the egress does, for every request).
   */
  async #lostBytes(info: AttachmentInfo, what: string): Promise<void> {
    const kept = info.original;
    const path = kept ? this.#originalPath(kept.sha256, kept.mime) : undefined;
    const data = path ? await readFile(path).catch(() => undefined) : undefined;
    if (kept && data && createHash('sha256').update(data).digest('hex') === kept.sha256) return;
    this.#damaged(info.id, `${what}, and ${kept ? `its original (${path ?? kept.sha256}) is missing or damaged too` : 'no original was kept'}`);
  }

  /** Said once per image and process: what is wrong with it and where, and that it was left out. */
  #damaged(id: string, what: string): void {
    if (!this.#onDamaged || this.#reported.has(id)) return;
    this.#reported.add(id);
    this.#onDamaged({ code: `damaged-image-${id}`, message: `Image ${id}: ${what}. It was left out (the model is told it is no longer available); the file was left as it is. Attach the image again to use it.` });
  }

  info(id: string): Promise<AttachmentInfo | undefined> {
    return this.#info(id, true);
  }

  /** `report`: a damaged record is said (onDamaged); not while sweeping every record (list). */
  async #info(id: string, report: boolean): Promise<AttachmentInfo | undefined> {
    if (!ID.test(id)) return undefined; // validated before the id touches a path
    const stamp = await this.#directoryStamp();
    if (stamp !== this.#recordsStamp) {
      this.#records.clear();
      this.#recordsStamp = stamp;
    }
    const known = this.#records.get(id);
    if (known) return structuredClone(known); // callers may change their copy
    const info = await this.#readInfo(id, report);
    // Kept only when the directory had settled before it was read (NaN: changed too recently).
    if (info && stamp === this.#recordsStamp && !Number.isNaN(stamp)) {
      if (this.#records.size >= this.#kept) this.#records.delete(this.#records.keys().next().value!);
      this.#records.set(id, structuredClone(info));
    }
    return info;
  }

  /** The directory's mtime, one stat for all the reads that start together; NaN when it is missing or changed too recently to trust. */
  #directoryStamp(): Promise<number> {
    this.#stamping ??= stat(this.directory).then(
      (s) => {
        this.#stamping = undefined;
        return Date.now() - s.mtimeMs >= this.#settledMs ? s.mtimeMs : Number.NaN;
      },
      () => {
        this.#stamping = undefined;
        return Number.NaN;
      },
    );
    return this.#stamping;
  }

  async #readInfo(id: string, report: boolean): Promise<AttachmentInfo | undefined> {
    let text: string;
    try {
      text = await readFile(this.#metaPath(id), 'utf8');
    } catch {
      return undefined;
    }
    let parsed: ReturnType<typeof AttachmentInfo.safeParse> | undefined;
    try {
      parsed = AttachmentInfo.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success && parsed.data.id === id) return parsed.data;
    if (report) this.#damaged(id, `its record is damaged (${this.#metaPath(id)} cannot be read)`);
    return undefined;
  }

  /** Every stored record (for retention sweeps). */
  async list(): Promise<AttachmentInfo[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch {
      return [];
    }
    const out: AttachmentInfo[] = [];
    for (const name of names) {
      const id = name.endsWith('.json') ? name.slice(0, -5) : '';
      const info = ID.test(id) ? await this.#info(id, false) : undefined;
      if (info) out.push(info);
    }
    return out;
  }

  /** Deletes a record and its payload; true when something was removed. */
  async remove(id: string): Promise<boolean> {
    const info = await this.info(id);
    if (!info) return false;
    await rm(this.pathOf(info), { force: true });
    await rm(this.#metaPath(id), { force: true });
    return true;
  }

  pathOf(info: AttachmentInfo): string {
    if (!ID.test(info.id)) throw new Error(`invalid attachment id ${JSON.stringify(info.id)}`);
    const ext = imageExtension(info.mime);
    if (!ext) throw new Error(`invalid attachment mime ${JSON.stringify(info.mime)}`);
    return join(this.directory, `${info.id}.${ext}`);
  }

  /**
   * Keeps `original` as the original of the stored payload `id` once its bytes are ready (a
   * capture's PNG, encoded after the model's copy went out) and, with `derivedKey`, remembers the
   * payload as that target's copy. original() waits for it meanwhile. Resolves with the record
   * that names it; rejects when it could not be written, and then the bytes stay in memory
   * (original() serves them and tries the write again), so nothing is lost while Glance runs.
   */
  keepOriginal(id: string, original: Promise<{ data: Uint8Array; mime: string }>, derivedKey?: string): Promise<AttachmentInfo> {
    const run = original.then((bytes) => this.#writeOriginal(id, bytes, derivedKey));
    this.#pending.set(id, run);
    const settle = () => void (this.#pending.get(id) === run && this.#pending.delete(id));
    run.then(settle, settle);
    return run;
  }

  async #writeOriginal(id: string, bytes: { data: Uint8Array; mime: string }, derivedKey: string | undefined): Promise<AttachmentInfo> {
    try {
      const info = await this.info(id);
      if (!info) throw new Error(`the attachment ${id} is no longer stored`);
      const kept = await this.#putOriginal(bytes);
      if (!kept) throw new Error(`an original of type ${bytes.mime} cannot be kept`);
      if (info.original?.sha256 !== kept.sha256) {
        info.original = kept;
        await writeFileAtomic(this.#metaPath(id), JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
      }
      this.#unwritten.delete(id);
      if (derivedKey) await this.rememberDerived(derivedKey, info);
      return info;
    } catch (error) {
      this.#unwritten.delete(id);
      this.#unwritten.set(id, bytes);
      for (const oldest of this.#unwritten.keys()) {
        if (this.#unwritten.size <= UNWRITTEN_KEPT) break;
        this.#unwritten.delete(oldest);
      }
      throw error;
    }
  }

  /**
   * The bytes this attachment was made from, exactly as they entered; undefined when none was
   * kept (records from before originals) or it is gone or damaged (a retention sweep, a disk).
   * One still being kept (keepOriginal) is waited for.
   */
  async original(info: AttachmentInfo): Promise<StoredOriginal | undefined> {
    const pending = this.#pending.get(info.id);
    const kept = pending ? await pending.catch(() => undefined) : undefined;
    const unwritten = this.#unwritten.get(info.id);
    if (unwritten) {
      const sha256 = createHash('sha256').update(unwritten.data).digest('hex');
      // Written again now if the disk lets us; served from memory either way.
      await this.#writeOriginal(info.id, unwritten, undefined).catch(() => undefined);
      return { data: unwritten.data, mime: unwritten.mime, sha256 };
    }
    // A record taken before its original was kept (the hotkey's, returned at once) names none; the
    // stored record does once the write is done, and the write may already have finished.
    const original = info.original ?? kept?.original ?? (await this.info(info.id))?.original;
    if (!original) return undefined;
    if (original.sha256 === info.sha256) {
      const got = await this.get(info.id);
      return got ? { data: got.data, mime: original.mime, sha256: original.sha256 } : undefined;
    }
    const path = this.#originalPath(original.sha256, original.mime);
    if (!path) return undefined;
    const data = await readFile(path).catch(() => undefined);
    if (!data || createHash('sha256').update(data).digest('hex') !== original.sha256) return undefined;
    return { data, mime: original.mime, sha256: original.sha256 };
  }

  async source(info: AttachmentInfo): Promise<{ data: Uint8Array; mime: string; fromOriginal: boolean; sha256?: string } | undefined> {
    const original = await this.original(info);
    if (original) return { data: original.data, mime: original.mime, fromOriginal: true, sha256: original.sha256 };
    const payload = await this.get(info.id);
    return payload ? { data: payload.data, mime: info.mime, fromOriginal: false } : undefined;
  }

  /** The payload made earlier from `originalSha256` for the target named `key`, if it is still stored. */
  async derived(originalSha256: string, key: string): Promise<AttachmentInfo | undefined> {
    const id = (await this.#derivedMap(originalSha256))[key];
    return typeof id === 'string' ? this.info(id) : undefined;
  }

  /** Remembers that `info` is the payload for target `key` made from its original. */
  async rememberDerived(key: string, info: AttachmentInfo): Promise<void> {
    const sha = info.original?.sha256;
    if (!sha || !SHA256.test(sha) || !DERIVED_KEY.test(key)) return;
    const map = { ...(await this.#derivedMap(sha)), [key]: info.id };
    await mkdir(this.originalsDirectory, { recursive: true });
    await writeFileAtomic(join(this.originalsDirectory, `${sha}.derived.json`), JSON.stringify(map) + '\n', { mode: 0o600 });
  }

  /**
   * What detection found in an original (architecture §3b "Regions belong to the original"), under
   * `key` (the detector and the settings it ran with): kept beside the original, gone with it.
   */
  async hiddenRegions(sha256: string, key: string): Promise<Redaction[] | undefined> {
    if (!SHA256.test(sha256)) return undefined;
    try {
      const parsed: unknown = JSON.parse(await readFile(join(this.originalsDirectory, `${sha256}.hidden.json`), 'utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
      const found = Redaction.array().safeParse((parsed as Record<string, unknown>)[key]);
      return found.success ? found.data : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Keeps what detection found beside the original `sha256` (detection runs as the image enters,
   * before the original is written). One that is never stored is swept with the originals no record
   * names (sweepOriginals).
   */
  async keepHiddenRegions(sha256: string, key: string, regions: readonly Redaction[]): Promise<void> {
    if (!SHA256.test(sha256) || !DERIVED_KEY.test(key)) return;
    await mkdir(this.originalsDirectory, { recursive: true });
    let map: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(await readFile(join(this.originalsDirectory, `${sha256}.hidden.json`), 'utf8'));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) map = parsed as Record<string, unknown>;
    } catch {
      // none yet, or damaged: written anew
    }
    await writeFileAtomic(join(this.originalsDirectory, `${sha256}.hidden.json`), JSON.stringify({ ...map, [key]: regions }) + '\n', { mode: 0o600 });
  }

  /** Deletes every kept original (and its derived map) whose sha256 is not in `keep`; answers how many went. */
  async sweepOriginals(keep: ReadonlySet<string>): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.originalsDirectory);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const sha = name.slice(0, 64);
      if (!SHA256.test(sha) || keep.has(sha)) continue;
      await rm(join(this.originalsDirectory, name), { force: true });
      if (!name.endsWith('.json')) removed++;
    }
    return removed;
  }

  /**
   * A kill while storing leaves bytes with no record: a payload written before its `.json`, a
   * writer's temp file, an original no record names. Run as the store starts (createCore); only
   * files older than `graceMs` go, so another process's put in flight is left alone. Answers how
   * many files went.
   */
  async sweepOrphans(graceMs = ORPHAN_GRACE_MS): Promise<number> {
    const names = await readdir(this.directory).catch(() => [] as string[]);
    const records = new Set(names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)));
    const cutoff = this.#now().getTime() - graceMs;
    const old = async (path: string) => {
      const s = await stat(path).catch(() => undefined);
      return s?.isFile() === true && s.mtimeMs < cutoff;
    };
    let removed = 0;
    const drop = async (path: string) => {
      if (!(await old(path))) return;
      await rm(path, { force: true });
      removed++;
    };
    for (const name of names) {
      const payload = /^([a-f0-9]{16,64})\.([a-z]+)$/.exec(name);
      if ((payload && payload[2] !== 'json' && !records.has(payload[1]!)) || isAtomicTemp(name)) await drop(join(this.directory, name));
    }
    const originals = await readdir(this.originalsDirectory).catch(() => [] as string[]);
    if (originals.length) {
      const named = new Set((await this.list()).flatMap((info) => (info.original ? [info.original.sha256] : [])));
      for (const name of originals) {
        const sha = name.slice(0, 64);
        if (isAtomicTemp(name) || (SHA256.test(sha) && !named.has(sha))) await drop(join(this.originalsDirectory, name));
      }
    }
    return removed;
  }

  /**
   * One rule for where originals live: every original is under originals/, also one
   * stored unchanged as the payload (its bytes then sit on disk twice, so every reader, crop and
   * retention sweep finds originals in one place).
   */
  async #putOriginal(original: { data: Uint8Array; mime: string }): Promise<{ sha256: string; mime: string } | undefined> {
    const sha256 = createHash('sha256').update(original.data).digest('hex');
    const path = this.#originalPath(sha256, original.mime);
    if (!path) return undefined; // a type with no file name here is not kept rather than misnamed
    const existing = await readFile(path).catch(() => undefined);
    if (!existing || createHash('sha256').update(existing).digest('hex') !== sha256) {
      await mkdir(this.originalsDirectory, { recursive: true });
      await writeFileAtomic(path, original.data, { mode: 0o600 });
    }
    return { sha256, mime: original.mime };
  }

  #originalPath(sha256: string, mime: string): string | undefined {
    const ext = imageExtension(mime);
    return ext && SHA256.test(sha256) ? join(this.originalsDirectory, `${sha256}.${ext}`) : undefined;
  }

  async #derivedMap(sha256: string): Promise<Record<string, unknown>> {
    if (!SHA256.test(sha256)) return {};
    try {
      const parsed: unknown = JSON.parse(await readFile(join(this.originalsDirectory, `${sha256}.derived.json`), 'utf8'));
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }

  #metaPath(id: string): string {
    return join(this.directory, `${id}.json`);
  }

  async #payloadIntact(info: AttachmentInfo): Promise<boolean> {
    try {
      const data = await readFile(this.pathOf(info));
      return createHash('sha256').update(data).digest('hex') === info.sha256;
    } catch {
      return false;
    }
  }
}

/** The fields that describe the bytes for the model they were prepared for (absent on old PreparedImage-likes). */
function forModel(image: Partial<Pick<PreparedImage, 'modelInput' | 'tokens' | 'legibility' | 'redactions' | 'redactionMs' | 'shownOnRequest' | 'uncheckedOnRequest' | 'patternsSkipped'>>) {
  const out: Partial<Pick<AttachmentInfo, 'modelInput' | 'tokens' | 'legibility' | 'redactions' | 'redactionMs' | 'shownOnRequest' | 'uncheckedOnRequest' | 'patternsSkipped'>> = {};
  if (image.modelInput !== undefined) out.modelInput = image.modelInput;
  if (image.tokens !== undefined) out.tokens = image.tokens;
  if (image.legibility !== undefined) out.legibility = image.legibility;
  // What was hidden travels with the copy it was hidden in (the label and the UI say so).
  if (image.redactions?.length) out.redactions = image.redactions;
  if ((image.redactions?.length || image.shownOnRequest?.length) && image.redactionMs !== undefined) out.redactionMs = image.redactionMs;
  if (image.shownOnRequest?.length) out.shownOnRequest = image.shownOnRequest;
  if (image.uncheckedOnRequest) out.uncheckedOnRequest = true;
  if (image.patternsSkipped?.length) out.patternsSkipped = image.patternsSkipped;
  return out;
}

/** A store for callers that only prepare (check-image, benches): reads find nothing, writes are a bug. */
export function storesNothing(who: string): AttachmentStore {
  const refuse = () => Promise.reject(new Error(`${who} stores nothing`));
  return {
    put: refuse,
    get: async () => undefined,
    info: async () => undefined,
    original: async () => undefined,
    source: async () => undefined,
    derived: async () => undefined,
    rememberDerived: refuse,
    keepOriginal: refuse,
    pathOf: () => {
      throw new Error(`${who} stores nothing`);
    },
  };
}
