import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sweepAtomicTemps, writeFileAtomic, type OnDamaged } from '../fsAtomic.ts';
import { writeProblem } from './writeProblem.ts';
import type { ConversationSummary } from '../../common/ipc.ts';
import { Conversation, CONVERSATION_VERSION } from './conversation.ts';
import { switchVersion } from './versions.ts';
import { acquireLock, type ConversationLock, type LockOptions } from './conversationLock.ts';
import { ConversationSearch, type ConversationMatch } from './conversationSearch.ts';

const ID = /^[a-zA-Z0-9_-]{1,64}$/;
/** A temp file this old was left by a killed save, not by one in progress. */
const STALE_TEMP_MS = 60_000;

export function newConversationId(now = new Date().toISOString()): string {
  return `${now.slice(0, 10).replaceAll('-', '')}-${randomBytes(6).toString('hex')}`;
}

/** Conversations as JSON files in `<dataDir>/conversations`, each written atomically. */
export class ConversationStore {
  readonly dir: string;
  readonly #search: ConversationSearch;

  readonly #onDamaged: OnDamaged | undefined;
  /** Files already said to be damaged, with the mtime they had (a repaired then re-damaged file is said again). */
  readonly #reported = new Map<string, number>();

  constructor(dataDir: string, options: { onDamaged?: OnDamaged } = {}) {
    this.dir = join(dataDir, 'conversations');
    this.#search = new ConversationSearch(this.dir);
    this.#onDamaged = options.onDamaged;
  }

  /** Conversations whose title or message text holds every word of `query`. */
  search(query: string): Promise<ConversationMatch[]> {
    return this.#search.search(query);
  }

  /** A new, unsaved conversation; `id` lets a caller name it before the first turn runs. */
  create(title = 'New chat', id?: string): Conversation {
    const now = new Date().toISOString();
    if (id !== undefined && !ID.test(id)) throw new Error(`invalid conversation id ${JSON.stringify(id)}`);
    id ??= newConversationId(now);
    return { version: CONVERSATION_VERSION, id, title, createdAt: now, updatedAt: now, messages: [] };
  }

  async get(id: string): Promise<Conversation | undefined> {
    if (!ID.test(id)) return undefined;
    let text: string;
    try {
      text = await readFile(this.fileOf(id), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return Conversation.parse(JSON.parse(text));
    } catch {
      // Left as it is (nothing is overwritten): a person may still recover it by hand.
      throw new StorageError(`Conversation ${id} cannot be read: its file is damaged (${this.fileOf(id)}). It was left untouched; start a new conversation, or repair or remove that file.`);
    }
  }

  /** `touch: false` keeps `updatedAt` (the list's order): a rename or a tools switch is not activity. */
  async save(conversation: Conversation, { touch = true }: { touch?: boolean } = {}): Promise<void> {
    const valid = Conversation.parse(conversation);
    if (touch) valid.updatedAt = new Date().toISOString();
    conversation.updatedAt = valid.updatedAt;
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFileAtomic(this.fileOf(valid.id), JSON.stringify(valid, null, 1));
    } catch (error) {
      const problem = await writeProblem(error, this.dir);
      if (problem) throw new NotStoredError(`Conversation ${valid.id} could not be stored: ${problem}. Glance needs a data folder it may write.`);
      throw error;
    }
  }

  async list(): Promise<ConversationSummary[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const out: ConversationSummary[] = [];
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      try {
        const c = await this.get(name.slice(0, -5));
        if (c) out.push({ id: c.id, title: c.title, createdAt: c.createdAt, updatedAt: c.updatedAt, messageCount: c.messages.length });
      } catch (error) {
        // An unreadable file is skipped in listings, never deleted: the user may recover it. It is said, once.
        await this.#damaged(name.slice(0, -5), error);
      }
    }
    return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  /** Temp files a save killed before its rename left (a minute's grace: a save takes milliseconds); run as the store starts. */
  sweepTemps(): Promise<number> {
    return sweepAtomicTemps(this.dir, { graceMs: STALE_TEMP_MS });
  }

  async #damaged(id: string, error: unknown): Promise<void> {
    if (!this.#onDamaged || !(error instanceof StorageError) || !ID.test(id)) return;
    const mtime = await stat(this.fileOf(id)).then((s) => s.mtimeMs, () => 0);
    if (this.#reported.get(id) === mtime) return;
    this.#reported.set(id, mtime);
    this.#onDamaged({
      code: `damaged-conversation-${id}`,
      message: `Conversation ${id} cannot be read: its file is damaged (${this.fileOf(id)}). It is not listed; the file was left untouched, so it can be repaired by hand or removed.`,
    });
  }

  /**
   * The conversation's write lock, across processes: a turn holds it from its first read to
   * its last save, so a concurrent turn waits (or fails as busy) instead of overwriting it.
   */
  async lock(id: string, options?: LockOptions): Promise<ConversationLock> {
    try {
      return await acquireLock(join(this.dir, `${id}.lock`), id, { ...this.lockOptions, ...options });
    } catch (error) {
      const problem = await writeProblem(error, this.dir);
      if (problem) throw new NotStoredError(`Conversation ${id} could not be stored: ${problem}. Glance needs a data folder it may write.`);
      throw error;
    }
  }

  /** Defaults for lock(); tests shorten the wait. */
  lockOptions: LockOptions = {};

  rename(id: string, title: string): Promise<boolean> {
    return this.#change(id, (c) => (c.title = title));
  }

  /** The servers and tools switched off for this conversation. */
  setTools(id: string, tools: NonNullable<Conversation['tools']>): Promise<boolean> {
    return this.#change(id, (c) => (c.tools = tools));
  }

  /** Makes a kept version of a turn the active branch (chat/versions.ts); false when there is no such turn or version. */
  async switchVersion(id: string, turnId: string, index: number): Promise<boolean> {
    let found = false;
    const stored = await this.#change(id, (c) => (found = switchVersion(c, turnId, index)));
    return stored && found;
  }

  /** Reads, changes and saves a stored conversation under its lock; false when there is none. */
  async #change(id: string, change: (c: Conversation) => void): Promise<boolean> {
    if (!ID.test(id)) return false;
    const lock = await this.lock(id);
    try {
      const c = await this.get(id);
      if (!c) return false;
      change(c);
      await this.save(c, { touch: false });
      return true;
    } finally {
      await lock.release();
    }
  }

  async delete(id: string): Promise<boolean> {
    if (!ID.test(id)) return false;
    const lock = await this.lock(id);
    try {
      await rm(this.fileOf(id));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    } finally {
      await lock.release();
    }
  }

  fileOf(id: string): string {
    if (!ID.test(id)) throw new Error(`invalid conversation id ${JSON.stringify(id)}`);
    return join(this.dir, `${id}.json`);
  }
}

/** The data directory or a stored file cannot be used; a person can act on the message (the CLI exits 5). */
export class StorageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StorageError';
  }
}

/** A save that failed because the data directory cannot be written (read-only, no permission, full). */
export class NotStoredError extends StorageError {
  readonly code = 'not-stored';
}
