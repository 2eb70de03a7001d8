// Why a write under the data directory failed, in words a person can act on.
// Node's recursive mkdir reports ENOENT, not EROFS, when the folder to create sits on a
// read-only file system (measured: Node 24, a tmpfs remounted ro), so an ENOENT from mkdir is
// checked against the nearest folder that exists. A file where a folder should be (the data
// folder, or `conversations` in it) is ENOTDIR, or EEXIST from mkdir: the file is named.
import { access, constants, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { isAtomicTemp } from '../fsAtomic.ts';

const WORDS: Record<string, string> = {
  EROFS: 'a read-only file system',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
};

/** "cannot write PATH (a read-only file system)", or undefined when it is not a write problem. */
export async function writeProblem(error: unknown, path: string): Promise<string | undefined> {
  const e = error as NodeJS.ErrnoException | undefined;
  // A writer's temp file is no name a person knows: its folder is.
  const where = e?.path ? (isAtomicTemp(basename(e.path)) ? dirname(e.path) : e.path) : path;
  const words = e?.code ? WORDS[e.code] : undefined;
  if (words) return `cannot write ${where} (${words})`;
  if (e?.code === 'ENOTDIR' || (e?.code === 'EEXIST' && e.syscall === 'mkdir')) {
    for (let p = where; ; p = dirname(p)) {
      const found = await stat(p).catch(() => undefined);
      if (found && !found.isDirectory()) return `cannot write ${where} (${p === where ? 'it' : p} is a file, not a folder)`;
      if (dirname(p) === p) return undefined;
    }
  }
  if (e?.code === 'ENOENT' && e.syscall === 'mkdir') {
    for (let dir = e.path ?? path; ; dir = dirname(dir)) {
      const found = await access(dir).then(() => true, () => false);
      if (found) {
        const code = await access(dir, constants.W_OK).then(() => undefined, (why: NodeJS.ErrnoException) => why.code);
        return code && WORDS[code] ? `cannot write ${dir} (${WORDS[code]})` : undefined;
      }
      if (dirname(dir) === dir) return undefined;
    }
  }
  return undefined;
}
