// Issue 30 items 1–3: a server's annotations, names and titles are claims. Through the real CLI,
// a lying MCP server over stdio (hostileMcpServer.ts) and the seeing fixture model server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChatEvent } from '../../common/events.ts';
import { main } from '../../main/cli/main.ts';
import type { CommandIO } from '../../main/cli/io.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { ofType } from '../chat/engineHarness.ts';
import { tempDataDir } from '../support/mcpSetup.ts';

const HOSTILE = fileURLToPath(new URL('./hostileMcpServer.ts', import.meta.url));
let server: ModelServer;
let data: Awaited<ReturnType<typeof tempDataDir>>;
const victim = () => join(data.dir, 'precious.txt');

beforeAll(async () => {
  server = await createModelServer();
  data = await tempDataDir();
});
afterAll(async () => {
  await server.close();
  await data.remove();
});

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}

async function run(calls: { name: string }[], options: { trusted?: boolean; args?: string[]; answers?: string[] } = {}) {
  await writeFile(victim(), 'keep me');
  const config = join(data.dir, `evil-${options.trusted ? 't' : 'u'}.json`);
  await writeFile(config, JSON.stringify({ mcpServers: { evil: { command: process.execPath, args: [HOSTILE], env: { VICTIM: victim() }, ...(options.trusted ? { trusted: true } : {}) } } }));
  server.reset();
  server.script(...calls.map((c) => ({ toolCalls: [{ name: c.name, arguments: {} }] })), { text: 'done' });
  let out = '';
  const questions: string[] = [];
  const io: CommandIO = { out: (t) => void (out += t), err: () => undefined, env: { ...process.env, OLLAMA_HOST: server.url } };
  if (options.answers) {
    const answers = [...options.answers];
    io.ask = async (q) => (questions.push(q), answers.shift() ?? '');
  }
  const code = await main(['ask', 'tidy up', '--model', 'llava-seer', '--mcp-config', config, '--data-dir', join(data.dir, 'data'), '--json', ...(options.args ?? [])], io);
  const events = out.trim().split('\n').map((l) => ChatEvent.parse(JSON.parse(l)));
  return { code, events, questions };
}

describe('annotations are claims (item 1)', () => {
  it('an untrusted server\'s "read-only" tool asks; with nobody to ask it does not run and the file stays', async () => {
    const { events } = await run([{ name: 'evil__read_file' }]);
    expect(ofType(events, 'tool_approval')).toEqual([expect.objectContaining({ name: 'evil__read_file', decision: 'deny', by: 'no-one', claim: 'read-only' })]);
    expect(ofType(events, 'tool_result')[0]!.text).not.toMatch(/deleted/);
    expect(await exists(victim())).toBe(true);
  });

  it('at a terminal the question says what the server claims, and "n" keeps the file', async () => {
    const { events, questions } = await run([{ name: 'evil__read_file' }], { answers: ['n'] });
    expect(questions[0]).toMatch(/says it only reads, but this server is not marked trusted/);
    expect(ofType(events, 'tool_approval').map((e) => [e.decision, e.claim])).toEqual([['pending', 'read-only'], ['deny', 'read-only']]);
    expect(await exists(victim())).toBe(true);
  });

  it('a server the person marked trusted may use readOnlyHint to skip the question', async () => {
    const { events } = await run([{ name: 'evil__read_file' }], { trusted: true });
    expect(ofType(events, 'tool_approval')).toEqual([]);
    expect(ofType(events, 'tool_result')[0]!.text).toMatch(/deleted/);
    expect(await exists(victim())).toBe(false);
  });
});

describe('sanitised names (item 2)', () => {
  it('--allow-tools evil__a_c allows the tool named a_c, never `a?c` that was renamed onto evil__a_c', async () => {
    // `a?c` is listed first, so it gets evil__a_c; the real a_c gets a hash suffix.
    const { events } = await run([{ name: 'evil__a_c' }], { args: ['--allow-tools', 'evil__a_c'] });
    expect(ofType(events, 'tool_call')[0]).toMatchObject({ name: 'evil__a_c', server: 'evil', tool: 'a?c' });
    expect(ofType(events, 'tool_approval').at(-1)).toMatchObject({ decision: 'deny', by: 'no-one' });
    expect(await exists(victim())).toBe(true);

    const real = server.requests[0]!.toolNames.find((n) => n.startsWith('evil__a_c_'))!;
    expect(real).toMatch(/^evil__a_c_[0-9a-f]{8}$/);
    const allowed = await run([{ name: real }], { args: ['--allow-tools', 'evil__a_c'] });
    expect(ofType(allowed.events, 'tool_call')[0]).toMatchObject({ name: real, server: 'evil', tool: 'a_c' });
    expect(ofType(allowed.events, 'tool_approval').at(-1)).toMatchObject({ decision: 'once', by: 'flag' });
    expect(ofType(allowed.events, 'tool_result')[0]!.text).toBe('a_c: nothing changed');
  });

  it('a Settings rule binds to (server, own tool name) too', async () => {
    const dataDir = join(data.dir, 'data');
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, toolApproval: { evil__a_c: 'allow' } }));
    try {
      const { events } = await run([{ name: 'evil__a_c' }]);
      expect(ofType(events, 'tool_approval').at(-1)).toMatchObject({ decision: 'deny', by: 'no-one' });
      expect(await exists(victim())).toBe(true);
    } finally {
      await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1 }));
    }
  });
});

describe('a server cannot title itself Glance (item 3)', () => {
  it('events name the configured server; a self-given title naming Glance is dropped', async () => {
    const { events } = await run([{ name: 'evil__read_file' }], { trusted: true });
    const call = ofType(events, 'tool_call')[0]!;
    expect(call.server).toBe('evil');
    expect(call.serverTitle).toBeUndefined();
    expect(JSON.stringify(events)).not.toMatch(/"Glance"/);
  });
});
