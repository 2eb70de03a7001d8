// The draft store: drafts per conversation in one file, an empty draft forgotten, and a file that
// cannot be read kept aside (never lost) rather than overwritten.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DraftStore } from '../../main/chat/draftStore.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('DraftStore', () => {
  it('keeps drafts per key across instances, forgets an empty one, and holds no image bytes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'glance-drafts-'));
    const store = new DraftStore(dir);
    await Promise.all([
      store.set('new', { text: 'half a thought', images: [{ id: '0123456789abcdef', name: 'a.png', origin: 'user' }] }),
      store.set('c1', { text: 'for c1', images: [] }),
      store.set('c2', { text: 'for c2', images: [] }),
    ]);
    await store.set('c2', { text: '  ', images: [] });
    const again = new DraftStore(dir);
    expect(await again.list()).toEqual({ new: { text: 'half a thought', images: [{ id: '0123456789abcdef', name: 'a.png', origin: 'user' }] }, c1: { text: 'for c1', images: [] } });
    expect(await again.attachmentIds()).toEqual(['0123456789abcdef']);
    expect(await readFile(join(dir, 'drafts.json'), 'utf8')).not.toMatch(/[A-Za-z0-9+/]{200,}/);
  });

  it('a damaged file is kept aside and the drafts start empty', async () => {
    dir = await mkdtemp(join(tmpdir(), 'glance-drafts-'));
    await writeFile(join(dir, 'drafts.json'), '{"version":1,"drafts":{"new":{"text":');
    const store = new DraftStore(dir);
    expect(await store.list()).toEqual({});
    await store.set('new', { text: 'fresh', images: [] });
    const names = await readdir(dir);
    const aside = names.find((n) => n.startsWith('drafts.json.bad-'));
    expect(aside).toBeDefined();
    expect(await readFile(join(dir, aside!), 'utf8')).toBe('{"version":1,"drafts":{"new":{"text":');
    expect(await new DraftStore(dir).list()).toEqual({ new: { text: 'fresh', images: [] } });
  });
});
