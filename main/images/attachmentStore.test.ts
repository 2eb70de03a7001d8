import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttachmentInfo } from '../../common/images.ts';
import { quadrantImage, solidPng } from '../../test/fixtures/images.ts';
import { FileAttachmentStore } from './attachmentStore.ts';
import type { PreparedImage } from './types.ts';

async function prepared(data: Buffer, name = 'shot.png'): Promise<PreparedImage> {
  return {
    data,
    mime: 'image/png',
    width: 64,
    height: 48,
    bytes: data.byteLength,
    sha256: createHash('sha256').update(data).digest('hex'),
    name,
    source: { mime: 'image/png', width: 64, height: 48, bytes: data.byteLength },
    modelInput: null,
    tokens: null,
    legibility: { textPx: 14, smallText: false },
  };
}

describe('FileAttachmentStore', () => {
  let dataDir: string;
  let store: FileAttachmentStore;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'glance-store-'));
    store = new FileAttachmentStore(dataDir, { now: () => new Date('2026-01-02T03:04:05Z') });
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('an original kept after the payload is found from the record put() returned, once its write is done', async () => {
    const info = await store.put(await prepared(await solidPng(64, 48, [0, 0, 0])), 'screenshot');
    expect(info.original).toBeUndefined();
    const source = await quadrantImage('png');
    await store.keepOriginal(info.id, Promise.resolve({ data: source, mime: 'image/png' }));
    // The write has finished: nothing is pending, and the record in hand names no original.
    const kept = await store.original(info);
    expect(kept && Buffer.compare(Buffer.from(kept.data), source)).toBe(0);
  });

  it('stores under <dataDir>/attachments, content-addressed, and round-trips', async () => {
    const image = await prepared(await quadrantImage('png'));
    const info = await store.put(image, 'user');
    expect(AttachmentInfo.parse(info)).toEqual(info);
    expect(info.id).toBe(image.sha256.slice(0, 16));
    expect(info).toMatchObject({ origin: 'user', name: 'shot.png', mime: 'image/png', bytes: image.bytes, createdAt: '2026-01-02T03:04:05.000Z' });
    expect(store.pathOf(info)).toBe(join(dataDir, 'attachments', `${info.id}.png`));
    expect((await readFile(store.pathOf(info))).equals(image.data as Buffer)).toBe(true);
    const got = await store.get(info.id);
    expect(got?.info).toEqual(info);
    expect(Buffer.from(got?.data ?? []).equals(image.data as Buffer)).toBe(true);
    expect(await store.info(info.id)).toEqual(info);
  });

  it('is idempotent: the same bytes give the same id and payload, and no extra files', async () => {
    const image = await prepared(await quadrantImage('png'));
    const first = await store.put(image, 'user');
    expect(await store.put(image, 'user')).toEqual(first);
    // Name and origin belong to this use of the bytes; the stored record keeps the first.
    const again = await store.put({ ...image, name: 'other.png' }, 'screenshot_desktop');
    expect(again).toEqual({ ...first, name: 'other.png', origin: 'screenshot_desktop' });
    expect(await store.info(first.id)).toEqual(first);
    const files = await readdir(join(dataDir, 'attachments'));
    expect(files.sort()).toEqual([`${first.id}.json`, `${first.id}.png`]);
  });

  it('concurrent puts of the same bytes agree and leave no temp files', async () => {
    const image = await prepared(await quadrantImage('png'));
    const infos = await Promise.all([1, 2, 3, 4].map(() => store.put(image, 'user')));
    expect(new Set(infos.map((i) => i.id)).size).toBe(1);
    const files = await readdir(join(dataDir, 'attachments'));
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('different bytes get different ids', async () => {
    const a = await store.put(await prepared(await solidPng(4, 4)), 'user');
    const b = await store.put(await prepared(await solidPng(5, 5)), 'user');
    expect(a.id).not.toBe(b.id);
  });

  it.each(['../../etc/passwd', '..', '', 'ABCDEF0123456789', '0123456789abcde', '0123456789abcdef/../x', '0123456789abcdef.json', `${'a'.repeat(65)}`])(
    'treats the unsafe id %j as unknown without touching the filesystem',
    async (id) => {
      expect(await store.get(id)).toBeUndefined();
      expect(await store.info(id)).toBeUndefined();
    },
  );

  it('refuses to build a path from a forged record', () => {
    expect(() => store.pathOf({ id: '../../x', mime: 'image/png' } as AttachmentInfo)).toThrow(/invalid attachment id/);
  });

  it('keeps display names free of folders and control characters', async () => {
    const info = await store.put(await prepared(await quadrantImage('png'), '../../etc/\u0007evil.png'), 'user');
    expect(info.name).toBe('evil.png');
  });

  it('does not return a payload whose bytes no longer match its sha256', async () => {
    const info = await store.put(await prepared(await quadrantImage('png')), 'user');
    await writeFile(store.pathOf(info), Buffer.from('tampered'));
    expect(await store.get(info.id)).toBeUndefined();
    // Putting the real bytes again repairs it.
    const repaired = await store.put(await prepared(await quadrantImage('png')), 'user');
    expect((await store.get(repaired.id))?.info.sha256).toBe(info.sha256);
  });

  it('rejects a PreparedImage whose sha256 does not match its data (a broken invariant throws)', async () => {
    const image = await prepared(await quadrantImage('png'));
    await expect(store.put({ ...image, sha256: 'f'.repeat(64) }, 'user')).rejects.toThrow(/sha256/);
  });

  describe('records read before', () => {
    // recordsSettledMs 0: the directory counts as settled at once (the app waits a second).
    const settled = () => new FileAttachmentStore(dataDir, { recordsSettledMs: 0 });
    const metaPath = (id: string) => join(dataDir, 'attachments', `${id}.json`);
    // A directory's mtime moves in ticks of the kernel's coarse clock (a few ms): writes a tick
    // apart are told apart (which is why the app trusts only a directory settled for a second).
    const nextTick = () => new Promise((resolve) => setTimeout(resolve, 25));

    it('come from memory while the directory is unchanged, each caller with its own copy', async () => {
      const info = await store.put(await prepared(await quadrantImage('png')), 'user');
      const reader = settled();
      expect(await reader.info(info.id)).toEqual(info);
      // An edit in place does not touch the directory: the record read before is answered.
      await writeFile(metaPath(info.id), JSON.stringify({ ...info, name: 'edited.png' }));
      const again = await reader.info(info.id);
      expect(again).toEqual(info);
      again!.name = 'changed by a caller';
      expect((await reader.info(info.id))!.name).toBe('shot.png');
      // A store whose directory changed too recently to trust reads the disk.
      expect((await new FileAttachmentStore(dataDir).info(info.id))!.name).toBe('edited.png');
    });

    it('are kept up to a bound, the oldest read leaving first', async () => {
      const a = await store.put(await prepared(await quadrantImage('png')), 'user');
      const b = await store.put(await prepared(await solidPng(8, 8, [0, 0, 255])), 'user');
      const reader = new FileAttachmentStore(dataDir, { recordsSettledMs: 0, recordsKept: 1 });
      await reader.info(a.id);
      await reader.info(b.id);
      await writeFile(metaPath(a.id), JSON.stringify({ ...a, name: 'edited.png' }));
      await writeFile(metaPath(b.id), JSON.stringify({ ...b, name: 'edited.png' }));
      expect((await reader.info(b.id))!.name).toBe('shot.png'); // still kept
      expect((await reader.info(a.id))!.name).toBe('edited.png'); // gone, read again
    });

    it('are read again once another process (another store) adds or removes a record', async () => {
      const first = await store.put(await prepared(await quadrantImage('png')), 'user');
      const reader = settled();
      expect(await reader.info(first.id)).toEqual(first);
      await writeFile(metaPath(first.id), JSON.stringify({ ...first, name: 'edited.png' }));
      // A put from elsewhere renames files into the directory: every record is read again.
      const other = new FileAttachmentStore(dataDir);
      await nextTick();
      const second = await other.put(await prepared(await solidPng(8, 8, [0, 0, 255])), 'user');
      expect((await reader.info(first.id))!.name).toBe('edited.png');
      expect(await reader.info(second.id)).toEqual(second);
      await nextTick();
      expect(await other.remove(second.id)).toBe(true);
      expect(await reader.info(second.id)).toBeUndefined();
    });
  });
});
