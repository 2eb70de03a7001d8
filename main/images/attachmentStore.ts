// The content-addressed attachment store (DESIGN §5.6): the only place image bytes live on disk.
// <dataDir>/attachments/<id>.<ext> holds the payload, <id>.json its AttachmentInfo. The id is
// the first 16 hex digits of the payload's sha256 (longer only on a prefix collision). Writes
// are temp file + rename, payload before metadata, so a reader never sees half a record.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AttachmentInfo, type ImageMime } from '../../common/images.ts';
import { writeFileAtomic } from '../fsAtomic.ts';
import type { AttachmentStore, PreparedImage } from './types.ts';

const ID = /^[a-f0-9]{16,64}$/;
const ID_LENGTHS = [16, 24, 32, 64];

const EXTENSIONS: Record<ImageMime, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

export class FileAttachmentStore implements AttachmentStore {
  readonly directory: string;
  readonly #now: () => Date;

  constructor(dataDir: string, options: { now?: () => Date } = {}) {
    this.directory = join(dataDir, 'attachments');
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * Stores the payload. Putting the same bytes again writes nothing and returns the stored record
   * (same id, sha256, createdAt) with this put's name, origin and source description, which belong
   * to this use of the bytes (two different files can normalise to the same payload); `info(id)`
   * keeps the first ones.
   */
  async put(image: PreparedImage, origin: string): Promise<AttachmentInfo> {
    const sha256 = createHash('sha256').update(image.data).digest('hex');
    if (sha256 !== image.sha256) throw new Error('PreparedImage.sha256 does not match its data');
    await mkdir(this.directory, { recursive: true });
    for (const length of ID_LENGTHS) {
      const id = sha256.slice(0, length);
      const existing = await this.info(id);
      if (existing?.sha256 === sha256 && (await this.#payloadIntact(existing))) {
        return { ...existing, name: displayName(image.name), origin, source: image.source };
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
        createdAt: this.#now().toISOString(),
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
      return undefined;
    }
    // A damaged or replaced payload is not the attachment the id names.
    if (createHash('sha256').update(data).digest('hex') !== info.sha256) return undefined;
    return { info, data };
  }

  async info(id: string): Promise<AttachmentInfo | undefined> {
    if (!ID.test(id)) return undefined; // validated before the id touches a path
    let text: string;
    try {
      text = await readFile(this.#metaPath(id), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const parsed = AttachmentInfo.safeParse(JSON.parse(text));
      return parsed.success && parsed.data.id === id ? parsed.data : undefined;
    } catch {
      return undefined;
    }
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
      const info = ID.test(id) ? await this.info(id) : undefined;
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
    const ext = EXTENSIONS[info.mime];
    if (!ext) throw new Error(`invalid attachment mime ${JSON.stringify(info.mime)}`);
    return join(this.directory, `${info.id}.${ext}`);
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

/** A file name for display only: no folders, no control characters, bounded length. */
export function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return clean || 'image';
}
