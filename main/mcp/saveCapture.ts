// Safe file names for captured bytes and the atomic, collision-free save under <dataDir>/captures.
import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
  'image/avif': 'avif',
  'image/heic': 'heic',
  'image/bmp': 'bmp',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/flac': 'flac',
  'audio/aac': 'aac',
  'audio/mp4': 'm4a',
  'audio/webm': 'webm',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/gzip': 'gz',
  'application/octet-stream': 'bin',
};

export function extensionFor(mime: string): string | undefined {
  return EXTENSIONS[mime.toLowerCase().split(';')[0]?.trim() ?? ''];
}

/** Adds an extension when the name has none (a name's own extension is kept). */
export function withExtension(name: string, ext: string | undefined): string {
  return ext && !/\.[A-Za-z0-9]{1,10}$/.test(name) ? `${name}.${ext}` : name;
}

/** The last segment of a URI's path, percent-decoded ("fixture://blobs/a%20b.png" → "a b.png"). */
export function nameFromUri(uri: string): string | undefined {
  const path = uri.replace(/[?#].*$/, '');
  const segment = path.slice(path.lastIndexOf('/') + 1);
  return segment || undefined;
}

export const IMAGE_NAME = /\.(png|jpe?g|gif|webp|bmp|tiff?|avif|hei[cf])$/i;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/**
 * A file name that is safe to create inside a folder: only its last path segment (after
 * percent-decoding), ASCII letters, digits, "._-", no leading dots, no reserved device names,
 * at most 120 characters with the extension kept. Nothing usable left → `fallback`.
 */
export function safeCaptureName(raw: string | undefined, fallback: string): string {
  let name = raw ?? '';
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(name); i++) {
    try {
      name = decodeURIComponent(name);
    } catch {
      break;
    }
  }
  name = name.split(/[\\/]/).pop() ?? '';
  name = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // "café" → "cafe"
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[._\s-]+/, '') // no hidden files, no "..", no option-looking names
    .replace(/[.\s]+$/, '');
  if (WINDOWS_RESERVED.test(name)) name = `_${name}`;
  if (name.length > 120) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 11 ? name.slice(dot) : '';
    name = name.slice(0, 120 - ext.length) + ext;
  }
  if (!/[A-Za-z0-9]/.test(name)) return fallback === raw ? 'capture' : safeCaptureName(fallback, 'capture');
  return name;
}

/**
 * Writes bytes under `dir` as `name`, or `name-1`, `name-2`, … when taken. The bytes go to a
 * temp file first and are hard-linked into place, so a name is claimed atomically and a reader
 * never sees half a file. Returns the absolute path.
 */
export async function saveCapture(dir: string, name: string, bytes: Uint8Array): Promise<string> {
  const root = resolve(dir);
  const safe = safeCaptureName(name, 'capture');
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
