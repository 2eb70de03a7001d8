import { mkdir, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { Draft } from '../../common/ipcPayloads.ts';
import { sweepAtomicTemps, writeFileAtomic, type OnDamaged } from '../fsAtomic.ts';

/** A temp file this old was left by a killed save, not by one in progress. */
const STALE_TEMP_MS = 60_000;

const DraftFile = z.object({ version: z.literal(1), drafts: z.record(z.string(), Draft) });

/**
 * What the message box held, per conversation (and the new chat's), in `<dataDir>/drafts.json`:
 * kept across a reload and a restart. Like conversations it holds attachment ids, never image
 * bytes. Writes are queued, each atomic; a file that cannot be read is kept aside, never lost.
 */
export class DraftStore {
  readonly path: string;
  #drafts: Promise<Record<string, Draft>> | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  readonly #onDamaged: OnDamaged | undefined;

  constructor(dataDir: string, options: { onDamaged?: OnDamaged } = {}) {
    this.path = join(dataDir, 'drafts.json');
    this.#onDamaged = options.onDamaged;
  }

  async list(): Promise<Record<string, Draft>> {
    return { ...(await this.#load()) };
  }

  /** Keeps `draft` under `key`; an empty one (no text, no images) is forgotten. */
  set(key: string, draft: Draft): Promise<void> {
    const write = this.#queue.then(async () => {
      const drafts = await this.#load();
      if (draft.text.trim() === '' && !draft.images.length) {
        if (!(key in drafts)) return;
        delete drafts[key];
      } else drafts[key] = { text: draft.text, images: draft.images };
      await mkdir(join(this.path, '..'), { recursive: true });
      await writeFileAtomic(this.path, JSON.stringify({ version: 1, drafts }));
    });
    this.#queue = write.catch(() => undefined);
    return write;
  }

  /** Temp files a save killed before its rename left (each is the whole file, 50 KB with a few drafts); run as the store starts. */
  sweepTemps(): Promise<number> {
    return sweepAtomicTemps(dirname(this.path), { graceMs: STALE_TEMP_MS, file: basename(this.path) });
  }

  /** The images drafts refer to (retention keeps them). */
  async attachmentIds(): Promise<string[]> {
    return Object.values(await this.#load()).flatMap((d) => d.images.map((i) => i.id));
  }

  #load(): Promise<Record<string, Draft>> {
    this.#drafts ??= readFile(this.path, 'utf8').then(
      async (text) => {
        try {
          return DraftFile.parse(JSON.parse(text)).drafts;
        } catch {
          const aside = `${this.path}.bad-${Date.now()}`;
          const kept = await rename(this.path, aside).then(() => true, () => false);
          this.#onDamaged?.({
            code: 'damaged-drafts',
            message: kept
              ? `The unsent messages could not be read: ${this.path} is damaged. It was set aside as ${aside}, and the message boxes start empty.`
              : `The unsent messages could not be read: ${this.path} is damaged (and could not be set aside). The message boxes start empty.`,
          });
          return {};
        }
      },
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return {};
        throw error;
      },
    );
    return this.#drafts;
  }
}
