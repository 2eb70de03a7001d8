// Issue 12 item 5: 20 `glance ask --conversation ID` processes at once on one conversation,
// against the fixture model server. Before the conversation lock, all 20 exited 0 and 2 turns
// were stored. Now every turn either lands or fails with a clear "busy" error: none vanishes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ChatEvent } from '../../common/events.ts';
import { ConversationStore } from '../../main/chat/conversationStore.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';

const REPO = resolve(import.meta.dirname, '../..');
const PROCESSES = 20;
let server: ModelServer;
let dir: string;

beforeAll(async () => {
  server = await createModelServer();
  dir = await mkdtemp(join(tmpdir(), 'glance-concurrency-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function ask(text: string, extra: string[] = []): Promise<{ code: number | null; events: ChatEvent[]; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [join(REPO, 'main/cli/main.ts'), 'ask', text, '--model', 'llava-seer', '--data-dir', dir, '--json', ...extra],
      // 20 Node processes at once on 2 cores: under a load of 30 (other work on the machine) they took over 120 s.
      { env: { ...process.env, OLLAMA_HOST: server.url }, timeout: 300_000 },
      (_error, stdout, stderr) => {
        const events = stdout.trim() ? stdout.trim().split('\n').map((l) => ChatEvent.parse(JSON.parse(l))) : [];
        done({ code: child.exitCode, events, stderr });
      },
    );
  });
}

describe(`${PROCESSES} concurrent glance ask on one conversation`, () => {
  it('every turn is stored or fails with a clear busy error (exit 4); none vanishes', { timeout: 600_000 }, async () => {
    const first = await ask('start');
    expect(first.code).toBe(0);
    const id = (first.events.at(-1) as { conversationId: string }).conversationId;

    const runs = await Promise.all(Array.from({ length: PROCESSES }, (_, i) => ask(`parallel ${i}`, ['--conversation', id])));
    const landed = runs.filter((r) => r.code === 0).length;
    const busy = runs.filter((r) => r.code === 4 && r.events.some((e) => e.type === 'error' && e.code === 'conversation-busy'));
    for (const r of busy) expect(r.stderr + JSON.stringify(r.events)).toMatch(/busy/);
    // Nothing else: no crash, no other failure.
    const other = runs.filter((r) => r.code !== 0 && !busy.includes(r)).map((r) => `exit ${r.code}: ${r.stderr.slice(-300)}`);
    expect(landed + busy.length, other.join('\n')).toBe(PROCESSES);

    const stored = await new ConversationStore(dir).get(id);
    const users = stored!.messages.filter((m) => m.role === 'user').map((m) => (m.role === 'user' ? m.text : ''));
    const answered = runs.map((r, i) => (r.code === 0 ? `parallel ${i}` : undefined)).filter((t) => t !== undefined);
    // Every turn that said "done" is in the file, exactly once; no busy turn left a trace.
    expect(users.slice(1).sort()).toEqual(answered.sort());
    expect(stored!.messages.filter((m) => m.role === 'assistant')).toHaveLength(1 + landed);
    // No lock left behind.
    expect((await readdir(join(dir, 'conversations'))).filter((f) => f.includes('.lock'))).toEqual([]);
    console.log(`[reliability] concurrency: ${PROCESSES} processes, ${landed} turns stored, ${busy.length} busy, ${PROCESSES - landed - busy.length} lost`);
  });
});
