import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationStore } from './conversationStore.ts';

let dataDir: string;
let store: ConversationStore;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'glance-search-'));
  store = new ConversationStore(dataDir);
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

async function saved(title: string, ...texts: string[]) {
  const c = store.create(title);
  texts.forEach((text, i) => c.messages.push(i % 2 ? { role: 'assistant', id: `a${i}`, text, createdAt: c.createdAt } : { role: 'user', id: `u${i}`, text, attachmentIds: [], createdAt: c.createdAt }));
  await store.save(c);
  return c;
}

describe('ConversationStore.search', () => {
  it('finds every word in the title or the messages, case-insensitively, with the text around it', async () => {
    const trip = await saved('Holiday photos', 'Which beach is this?', `It looks like ${'a long sentence about sand and sea, '.repeat(4)}the Praia da Marinha in the Algarve, near Lagoa.`);
    const money = await saved('Quarterly revenue', 'What was the total?', 'The total is 99.50 EUR.');
    expect(await store.search('revenue')).toEqual([{ id: money.id, inTitle: true }]);
    const [found, ...rest] = await store.search('ALGARVE marinha');
    expect(rest).toEqual([]);
    expect(found).toMatchObject({ id: trip.id, inTitle: false });
    // Around the first word not in the title, cut at word boundaries, marked where it was cut.
    expect(found!.snippet).toMatch(/^….*the Praia da Marinha in the Algarve, near Lagoa\.$/);
    expect(found!.snippet!.length).toBeLessThan(120);
    // Title and text together: every word somewhere.
    expect((await store.search('holiday beach')).map((m) => m.id)).toEqual([trip.id]);
    expect(await store.search('holiday revenue')).toEqual([]);
    expect(await store.search('   ')).toEqual([]);
  });

  it('follows saves, renames and deletes, and skips a damaged file', async () => {
    const c = await saved('Notes', 'nothing yet');
    expect(await store.search('zebra')).toEqual([]);
    c.messages.push({ role: 'user', id: 'u9', text: 'a zebra crossing', attachmentIds: [], createdAt: c.createdAt });
    await store.save(c);
    expect((await store.search('zebra')).map((m) => m.id)).toEqual([c.id]);
    await store.rename(c.id, 'Zebra notes');
    expect(await store.search('zebra')).toEqual([{ id: c.id, inTitle: true }]);
    await writeFile(join(store.dir, 'broken-1.json'), '{ not json');
    await store.delete(c.id);
    expect(await store.search('zebra')).toEqual([]);
  });

  it('does not search tool results or image stubs, only what the person and the model wrote', async () => {
    const c = store.create('Tools');
    c.messages.push({ role: 'tool', id: 't1', toolCallId: 'x', name: 'fetch', ok: true, text: 'secret-looking tool output', createdAt: c.createdAt });
    await store.save(c);
    expect(await store.search('tool output')).toEqual([]);
  });
});

describe('ConversationStore.rename', () => {
  it('keeps the conversation where it is in the list (a rename is not activity)', async () => {
    const older = await saved('Older', 'one');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await saved('Newer', 'two');
    await store.rename(older.id, 'Older, renamed');
    const listed = await store.list();
    expect(listed.map((c) => c.title)).toEqual(['Newer', 'Older, renamed']);
    expect(listed[1]!.updatedAt).toBe(older.updatedAt);
  });
});
