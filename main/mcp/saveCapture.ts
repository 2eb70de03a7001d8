// Safe file names for captured bytes and the atomic, collision-free save under <dataDir>/captures.
import mimeTypes from 'mime-types';
import { safeFileName } from '../../common/fileNames.ts';
import { imageExtension } from '../../common/images.ts';
import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** Where the general table's first choice is not what people expect to see. */
const PREFERRED: Readonly<Record<string, string>> = Object.freeze({ 'audio/mpeg': 'mp3', 'audio/ogg': 'ogg', 'audio/opus': 'opus', 'audio/vnd.wave': 'wav' });

/** A captured file's extension: images from common's table, everything else from mime-types. */
export function extensionFor(mime: string): string | undefined {
  const type = mime.toLowerCase().split(';')[0]?.trim() ?? '';
  return imageExtension(type) ?? PREFERRED[type] ?? (mimeTypes.extension(type) || undefined);
}


/**
 * Writes bytes under `dir` as `name`, or `name-1`, `name-2`, … when taken. The bytes go to a
 * temp file first and are hard-linked into place, so a name is claimed atomically and a reader
 * never sees half a file. Returns the absolute path.
 */
export async function saveCapture(dir: string, name: string, bytes: Uint8Array): Promise<string> {
  const root = resolve(dir);
  const safe = safeFileName(name, 'capture');
  await mkdir(root, { recursive: true });
  const temp = join(root, `.capture-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temp, bytes, { flag: 'wx' });
  try {
    const dot = safe.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
    for (let n = 0; n < 10_000; n++) {
      const candidate = join(root, n === 0 ? safe : `${stem}-${n}${ext}`);
      if (dirname(candidate) !== root) throw new Error(`refusing to write outside ${root}: ${candidate}`);
      try {
        await link(temp, candidate);
        return candidate;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    // Ten thousand collisions: fall back to a name that cannot collide.
    const unique = join(root, `${stem}-${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}-${randomBytes(4).toString('hex')}${ext}`);
    await link(temp, unique);
    return unique;
  } finally {
    await rm(temp, { force: true });
  }
}
