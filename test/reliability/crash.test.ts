// Issue 12 item 6 and the crash-consistency check: `glance ask` processes are SIGKILLed in the
// middle of turns (while the tool runs, right after a screenshot-like delivery, mid-answer, at a
// random moment), then every conversation must load, and continue: the next turn succeeds (the
// dead process's lock is broken), carries no image from the dead turn's delivery, and the file
// holds a result for every tool call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ChatEvent } from '../../common/events.ts';
import { ConversationStore } from '../../main/chat/conversationStore.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { fixtureEntry } from '../support/mcpSetup.ts';

const REPO = resolve(import.meta.dirname, '../..');
/** When each crashing turn is killed: on an event of this type, or after a random delay. */
const KILL_POINTS = ['tool_call', 'image_delivered', 'text', 'random', 'image_delivered', 'random'] as const;
let server: ModelServer;
let dir: string;
let config: string;

beforeAll(async () => {
  server = await createModelServer();
  dir = await mkdtemp(join(tmpdir(), 'glance-crash-'));
  config = join(dir, 'mcp.json');
  await writeFile(config, JSON.stringify({ mcpServers: { fx: fixtureEntry() } }));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

type Run = { code: number | null; signal: NodeJS.Signals | null; events: ChatEvent[] };

/** Runs `glance ask`; `killOn` SIGKILLs it at that event (or after a random 0.2–3 s). */
function ask(text: string, args: string[], killOn?: (typeof KILL_POINTS)[number]): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(REPO, 'main/cli/main.ts'), 'ask', text, '--model', 'llava-seer', '--data-dir', join(dir, 'data'), '--mcp-config', config, '--json', ...args], {
      env: { ...process.env, OLLAMA_HOST: server.url },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const events: ChatEvent[] = [];
    let buffer = '';
    const kill = () => child.kill('SIGKILL');
    if (killOn === 'random') setTimeout(kill, 200 + Math.random() * 2800);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const event = ChatEvent.parse(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
        events.push(event);
        if (killOn && event.type === killOn) kill();
      }
    });
    child.on('close', (code, signal) => done({ code, signal, events }));
  });
}

describe('SIGKILL during turns', () => {
  it(`${KILL_POINTS.length} turns killed at different points: every conversation loads and continues`, { timeout: 600_000 }, async () => {
    const store = new ConversationStore(join(dir, 'data'));
    let killed = 0;
    let resent = 0;
    let continued = 0;
    for (const point of KILL_POINTS) {
      server.reset();
      const first = await ask('hello', []);
      expect(first.code).toBe(0);
      const id = (first.events.at(-1) as { conversationId: string }).conversationId;

      server.reset();
      // The crashing turn: a capture the model is shown, then a slow answer.
      server.script({ toolCalls: [{ name: 'fx__chart_image', arguments: {} }] }, { text: 'The chart shows three bars. '.repeat(40), chunkDelayMs: 60 });
      const crashed = await ask('look at the chart', ['--conversation', id], point);
      if (crashed.signal === 'SIGKILL') killed++;

      // Loads: the file parses against the schema, whatever moment the process died.
      const loaded = await store.get(id);
      expect(loaded).toBeDefined();

      server.reset();
      const next = await ask('and now?', ['--conversation', id]);
      expect(next.code).toBe(0);
      continued++;
      const request = server.requests.at(-1)!;
      if (request.images.length > 0) resent++;
      expect(request.images).toHaveLength(0);

      const after = (await store.get(id))!;
      expect(after.messages.filter((m) => m.role === 'delivery').every((m) => m.role === 'delivery' && m.retracted)).toBe(true);
      const results = new Set(after.messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
      for (const m of after.messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) expect(results.has(c.id)).toBe(true);
      expect(after.messages.filter((m) => m.role === 'user').at(-1)).toMatchObject({ text: 'and now?' });
    }
    expect(killed).toBeGreaterThanOrEqual(KILL_POINTS.length - 2);
    console.log(`[reliability] crash: ${KILL_POINTS.length} turns, ${killed} SIGKILLed mid-turn, ${continued} conversations loaded and continued, ${resent} re-sent a dead turn's image`);
  });
});
