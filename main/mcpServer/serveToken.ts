// The bearer token of `glance mcp serve --http` (architecture §14): made once, kept in the data dir as
// `mcp-serve-token` readable by the user only (0600), so a client's config keeps working across
// runs. Printed only when it is made; afterwards the server says where it is kept.
// What sits at the token's path is looked at, never followed: a symlink (its target would be read
// and chmod'ed), a FIFO (a read would block before the server listens) or a folder there is
// refused in words, and so is a data dir that is not a folder.
import { constants } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fsAtomic.ts';

export const SERVE_TOKEN_FILE = 'mcp-serve-token';
const TOKEN = /^[A-Za-z0-9_-]{32,}$/;
/** A token file is one line; anything longer is not one. */
const MAX_TOKEN_FILE = 4096;

/** A token path or data dir that cannot be used, said in words (the CLI prints it without a stack). */
export class ServeTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServeTokenError';
  }
}

function kindOf(stats: { isSymbolicLink(): boolean; isFIFO(): boolean; isDirectory(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string | undefined {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return undefined;
}

/** Undefined when `dataDir` is a folder or does not exist yet; else why it cannot hold Glance's data. */
export async function dataDirRefusal(dataDir: string): Promise<string | undefined> {
  const stats = await lstat(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    if (error.code === 'ENOTDIR') return 'not-dir' as const;
    throw error;
  });
  if (stats === undefined) return undefined;
  if (stats === 'not-dir') return `The data dir ${dataDir} cannot be made: a part of its path is a file, not a folder. Give --data-dir a folder.`;
  if (stats.isDirectory()) return undefined;
  // A symlink to a folder is how people move data to another disk: allowed when it leads to one.
  if (stats.isSymbolicLink()) {
    const target = await stat(dataDir).catch(() => undefined);
    if (target?.isDirectory()) return undefined;
  }
  return `The data dir ${dataDir} is ${kindOf(stats) ?? 'a file'}, not a folder. Give --data-dir a folder (or move that file away).`;
}

export async function serveToken(dataDir: string): Promise<{ token: string; path: string; created: boolean }> {
  const refusal = await dataDirRefusal(dataDir);
  if (refusal) throw new ServeTokenError(refusal);
  const path = join(dataDir, SERVE_TOKEN_FILE);
  const kept = await readKept(path);
  if (kept !== undefined) return { token: kept, path, created: false };
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  await writeFileAtomic(path, `${token}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
  return { token, path, created: true };
}

/** The kept token, read without following a link or waiting on a pipe; undefined when there is none (or it is not a token). */
async function readKept(path: string): Promise<string | undefined> {
  const before = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!before) return undefined;
  const refuse = (kind: string) =>
    new ServeTokenError(`The token path ${path} is ${kind}, not a file: Glance does not follow or replace it. Remove it (Glance then makes a new token there), or give another --data-dir.`);
  const kind = kindOf(before);
  if (kind) throw refuse(kind);
  // O_NOFOLLOW and O_NONBLOCK: if the file was swapped for a link or a pipe since lstat, the open fails or returns at once.
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP') throw refuse('a symbolic link');
    throw error;
  });
  try {
    const stats = await handle.stat();
    const now = kindOf(stats);
    if (now) throw refuse(now);
    if (stats.size > MAX_TOKEN_FILE) return undefined;
    const token = (await handle.readFile('utf8')).trim();
    if (!TOKEN.test(token)) return undefined;
    // Someone loosened it (a copy, a restore): only the user may read a key to their screen. Through
    // the open file, so it is this file that is tightened and never a link's target.
    if ((stats.mode & 0o077) !== 0) await handle.chmod(0o600);
    return token;
  } finally {
    await handle.close();
  }
}
