// Why a write under the data directory failed, in words a person can act on.
// Node's recursive mkdir reports ENOENT, not EROFS, when the folder to create sits on a
// read-only file system (measured: Node 24, a tmpfs remounted ro), so an ENOENT from mkdir is
// checked against the nearest folder that exists.
import { access, constants } from 'node:fs/promises';
import { dirname } from 'node:path';

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
  const words = e?.code ? WORDS[e.code] : undefined;
  if (words) return `cannot write ${e?.path ?? path} (${words})`;
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
