// A stored conversation whose file is damaged: `glance ask --conversation ID` (a real process)
// says so in a line and exits 5, leaving the file as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConversationStore } from '../../main/chat/conversationStore.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';

const REPO = resolve(import.meta.dirname, '../..');
let server: ModelServer;
let dir: string;

beforeAll(async () => {
  server = await createModelServer();
  dir = await mkdtemp(join(tmpdir(), 'glance-storage-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function ask(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(REPO, 'main/cli/main.ts'), 'ask', ...args, '--model', 'llava-seer', '--data-dir', join(dir, 'data')], { env: { ...process.env, OLLAMA_HOST: server.url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => void (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => void (err += c.toString('utf8')));
    child.on('close', (code) => done({ code, out, err }));
  });
}

describe('crash paths print a line, not a stack (issue 30 item 9)', () => {
  it('continuing a conversation whose file is corrupt JSON: exit 5, a plain message, the file untouched', { timeout: 60_000 }, async () => {
    server.script({ text: 'first answer' });
    const first = await ask(['hello', '--json']);
    expect(first.code).toBe(0);
    const id = (JSON.parse(first.out.trim().split('\n').at(-1)!) as { conversationId: string }).conversationId;
    const file = new ConversationStore(join(dir, 'data')).fileOf(id);
    const damaged = (await readFile(file, 'utf8')).slice(0, 100);
    await writeFile(file, damaged);
    const { code, err } = await ask(['and now?', '--conversation', id]);
    expect(code).toBe(5);
    expect(err).toMatch(new RegExp(`Conversation ${id} cannot be read: its file is damaged`));
    expect(err).not.toMatch(/^\s+at /m);
    expect(await readFile(file, 'utf8')).toBe(damaged);
  });
});
