// Reads a local image file (architecture §3, resolve): paths a model asks for are confined to the
// allowed roots (lexically, then by real path, then O_NOFOLLOW); only regular files are opened,
// so a FIFO or a device cannot hang a turn; the ingest cap is checked from the size first.
import { constants as fsConstants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ImageRefusal } from '../../common/images.ts';
import { refuse, tooLarge, type ResolveResult } from './resolveSource.ts';
import type { ImageInput, IntakeConfig } from './types.ts';

/**
 * The folders a model may read by default: the attachment store and the user's picture,
 * desktop and download folders. Not the temp folder: it holds other programs' (and users')
 * files, sockets and pipes.
 */
export function defaultAllowedRoots(dataDir: string): string[] {
  const home = homedir();
  return [join(dataDir, 'attachments'), join(home, 'Pictures'), join(home, 'Desktop'), join(home, 'Downloads')];
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

async function realRoots(roots: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const root of roots) {
    try {
      out.push(await realpath(resolve(root)));
    } catch {
      // A root that does not exist confines to nothing.
    }
  }
  return out;
}

function notRegular(path: string): ImageRefusal {
  return refuse('source-unreachable', `${path} is not a regular file (a device, pipe or socket), so Glance will not read it.`);
}

function fsRefusal(path: string, error: unknown, requestedBy: ImageInput['requestedBy']): ImageRefusal {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return refuse('source-unreachable', `There is no file at ${path}. Check the path and try again.`);
    case 'EACCES':
    case 'EPERM':
      return refuse('source-unreachable', `Glance is not allowed to read ${path} (permission denied).`);
    case 'EISDIR':
      return refuse('source-unreachable', `${path} is a folder, not an image file.`);
    case 'ELOOP':
      return requestedBy === 'model'
        ? refuse('source-forbidden', `${path} is a symbolic link; the model may only read files inside the allowed folders.`)
        : refuse('source-unreachable', `${path} is a loop of symbolic links.`);
    default:
      // Plain words: an errno name means nothing to the person (or model) reading this.
      return refuse('source-unreachable', `Glance could not read ${path}: the disk or file system reported an error.`);
  }
}

export async function readLocalFile(
  rawPath: string,
  requestedBy: ImageInput['requestedBy'],
  config: IntakeConfig,
  signal: AbortSignal | undefined,
): Promise<ResolveResult> {
  const cap = config.limits.ingestBytes;
  let path = resolve(rawPath);
  if (requestedBy === 'model') {
    // Never lists the roots: the model learns no paths (the data directory least of all).
    const forbidden = refuse(
      'source-forbidden',
      `${path} is outside the folders the model may read. The user can add its folder to the allowed folders in Settings, or attach the file.`,
    );
    // Lexical check first, so nothing outside the roots is even looked at.
    const real = await realRoots(config.allowedRoots);
    const lexical = [...config.allowedRoots.map((r) => resolve(r)), ...real];
    if (!lexical.some((root) => isInside(root, path))) return forbidden;
    try {
      path = await realpath(path);
    } catch (error) {
      return fsRefusal(path, error, requestedBy);
    }
    // A symbolic link inside a root may point outside it: the real path decides.
    if (!real.some((root) => isInside(root, path))) return forbidden;
  }
  signal?.throwIfAborted();
  // Only regular files are opened: opening a FIFO blocks until a writer comes (forever), and
  // a device may never end. stat first; O_NONBLOCK in case one is swapped in after the stat.
  try {
    const kind = await stat(path);
    if (kind.isDirectory()) return refuse('source-unreachable', `${path} is a folder, not an image file.`);
    if (!kind.isFile()) return notRegular(path);
  } catch (error) {
    return fsRefusal(path, error, requestedBy);
  }
  // O_NOFOLLOW on the real path: a link swapped in after realpath is refused, not followed.
  const flags = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (requestedBy === 'model' ? (fsConstants.O_NOFOLLOW ?? 0) : 0);
  let handle;
  try {
    handle = await open(path, flags);
  } catch (error) {
    return fsRefusal(path, error, requestedBy);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return refuse('source-unreachable', `${path} is a folder, not an image file.`);
    if (!info.isFile()) return notRegular(path);
    if (info.size > cap) return tooLarge(basename(path), info.size, cap);
    const data = Buffer.allocUnsafe(info.size);
    let filled = 0;
    while (filled < data.length) {
      signal?.throwIfAborted();
      const { bytesRead } = await handle.read(data, filled, data.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { ok: true, data: data.subarray(0, filled), name: basename(path) };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    return fsRefusal(path, error, requestedBy);
  } finally {
    await handle.close();
  }
}
