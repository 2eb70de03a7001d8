// Conversations are written atomically: a process killed mid-write leaves the previous
// version intact and readable. The writer is a real child process killed with SIGKILL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Conversation } from '../../main/chat/conversation.ts';
import { ConversationStore } from '../../main/chat/conversationStore.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-persist-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const WRITER = `
import { ConversationStore } from ${JSON.stringify(new URL('../../main/chat/conversationStore.ts', import.meta.url).href)};
const store = new ConversationStore(process.argv[2]);
const c = await store.get('crash-test');
for (let i = 1; ; i++) {
  // ~2 MB of text per save, so a kill lands inside a write most of the time.
  c.messages.push({ role: 'user', id: 'u' + i, text: 'x'.repeat(2_000_000), attachmentIds: [], createdAt: new Date().toISOString() });
  c.messages = c.messages.slice(-1);
  c.title = 'version ' + i;
  await store.save(c);
  if (i === 1) process.stdout.write('ready\\n');
}
`;

describe('conversation files', () => {
  it('survive the writer being killed mid-write', async () => {
    const store = new ConversationStore(dir);
    const c = store.create('version 0', 'crash-test');
    await store.save(c);
    const script = join(dir, 'writer.mts');
    await writeFile(script, WRITER);
    for (let round = 0; round < 5; round++) {
      const child = spawn(process.execPath, [script, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await new Promise((r) => setTimeout(r, 20 + round * 37));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const text = await readFile(store.fileOf('crash-test'), 'utf8');
      const parsed = Conversation.parse(JSON.parse(text));
      expect(parsed.title).toMatch(/^version \d+$/);
    }
    // Temp files a crash leaves behind never pass for conversations.
    const listed = await store.list();
    expect(listed.map((x) => x.id)).toEqual(['crash-test']);
    const names = await readdir(join(dir, 'conversations'));
    expect(names.filter((n) => n.endsWith('.json'))).toEqual(['crash-test.json']);
  });

  it('refuse ids that could escape the folder', async () => {
    const store = new ConversationStore(dir);
    expect(await store.get('../settings')).toBeUndefined();
    expect(() => store.fileOf('../../etc/passwd')).toThrow(/invalid conversation id/);
    expect(await store.delete('..')).toBe(false);
  });
});
