import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';

/**
 * Write a file so that a crash at any point leaves either the old or the new content:
 * write a temp file in the same folder, fsync it, rename it over the target.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options?: { mode?: number }): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'w', options?.mode ?? 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** writeFileAtomic's temp name: `.<file>.<pid>.<8 hex>.tmp`. */
const TEMP_FILE = /^\.(.+)\.\d+\.[a-f0-9]{8}\.tmp$/;

/** Whether `name` is a temp file writeFileAtomic made (for `file` only, when given). */
export function isAtomicTemp(name: string, file?: string): boolean {
  const match = TEMP_FILE.exec(name);
  return match !== null && (file === undefined || match[1] === file);
}

/**
 * Removes the temp files writeFileAtomic left in `dir` — a process killed between the write and
 * the rename — for `file` only when given. Only those older than `graceMs` go: a younger one may
 * be another process's save in flight. One sweep for every store (settings, drafts,
 * conversations, attachments), run as each starts; answers how many went.
 */
export async function sweepAtomicTemps(dir: string, options: { graceMs: number; file?: string; now?: number }): Promise<number> {
  const cutoff = (options.now ?? Date.now()) - options.graceMs;
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!isAtomicTemp(name, options.file)) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile() || info.mtimeMs >= cutoff) continue;
    await rm(path, { force: true });
    removed++;
  }
  return removed;
}

/**
 * A stored file found damaged and set aside or left out, in words that say what and where (the
 * CLI prints it on stderr, the app and the harness show it as a notice). `code` is one per file,
 * so two damaged files are two notices.
 */
export type Damage = { code: string; message: string };
export type OnDamaged = (damage: Damage) => void;
