// Issue 12 item 8: tools that can change things run only with consent — through the real CLI,
// the MCP fixture server over stdio and the seeing fixture model server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatEvent } from '../../common/events.ts';
import { main } from '../../main/cli/main.ts';
import type { CommandIO } from '../../main/cli/io.ts';
import { globMatch, policyFor } from '../../common/toolPolicy.ts';
import { resolveModel } from '../../main/core/modelResolver.ts';
import type { Tool } from '../../main/tools/tool.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { fixtureEntry, tempDataDir } from '../support/mcpSetup.ts';
import { makeHarness, ofType } from '../chat/engineHarness.ts';

let server: ModelServer;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let config: string;
let preApproved: string;

beforeAll(async () => {
  server = await createModelServer();
  data = await tempDataDir();
  config = join(data.dir, 'servers.json');
  await writeFile(config, JSON.stringify({ mcpServers: { fx: fixtureEntry() } }));
  preApproved = join(data.dir, 'cline.json');
  await writeFile(preApproved, JSON.stringify({ mcpServers: { fx: fixtureEntry({ alwaysAllow: ['write_note'] }) } }));
});
afterAll(async () => {
  await server.close();
  await data.remove();
});

async function ask(args: string[], options: { answers?: string[]; dataDir?: string; mcp?: string } = {}) {
  let out = '';
  let err = '';
  const questions: string[] = [];
  const io: CommandIO = { out: (t) => void (out += t), err: (t) => void (err += t), env: { ...process.env, OLLAMA_HOST: server.url } };
  if (options.answers) {
    const answers = [...options.answers];
    io.ask = async (question) => {
      questions.push(question);
      return answers.shift() ?? '';
    };
  }
  const code = await main(['ask', 'do it', '--model', 'llava-seer', '--mcp-config', options.mcp ?? config, '--data-dir', options.dataDir ?? join(data.dir, 'data'), '--json', ...args], io);
  const events = out.trim().split('\n').map((l) => ChatEvent.parse(JSON.parse(l)));
  return { code, events, err, questions };
}

const writeCall = { name: 'fx__write_note', arguments: { text: 'remember the milk' } };

describe('glance ask: consent for tools that change things', () => {
  it('without a terminal or a flag, write_note (no readOnlyHint) is not run and the model is told why', async () => {
    server.script({ toolCalls: [writeCall] }, { text: 'I could not store it.' });
    const { code, events } = await ask([]);
    expect(code).toBe(0);
    expect(ofType(events, 'tool_approval')).toEqual([expect.objectContaining({ name: 'fx__write_note', decision: 'deny', by: 'no-one' })]);
    const result = ofType(events, 'tool_result')[0]!;
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(/needs the user's consent/);
    expect(result.text).toMatch(/--allow-tools fx__write_note/);
    expect(result.text).not.toMatch(/stored note/);
    // What the model read in its next step.
    expect(server.requests.at(-1)!.messages.find((m) => m.role === 'tool')!.text).toMatch(/Not run/);
  });

  it('--allow-tools with a glob runs it', async () => {
    server.script({ toolCalls: [writeCall] }, { text: 'Stored.' });
    const { events } = await ask(['--allow-tools', 'fx__write*,other']);
    expect(ofType(events, 'tool_approval')[0]).toMatchObject({ decision: 'once', by: 'flag' });
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ ok: true });
    expect(ofType(events, 'tool_result')[0]!.text).toMatch(/stored note/);
  });

  it('--yes runs a destructive tool', async () => {
    server.script({ toolCalls: [{ name: 'fx__delete_notes', arguments: {} }] }, { text: 'Deleted.' });
    const { events } = await ask(['--yes']);
    expect(ofType(events, 'tool_result')[0]!.text).toMatch(/deleted \d+ notes/);
  });

  it('at a terminal the user is asked, with the arguments shown; "n" declines, "o" allows once', async () => {
    server.script({ toolCalls: [writeCall] }, { text: 'ok' });
    const declined = await ask([], { answers: ['n'] });
    expect(declined.questions[0]).toContain('fx__write_note');
    expect(declined.questions[0]).toContain('remember the milk');
    expect(ofType(declined.events, 'tool_approval').map((e) => e.decision)).toEqual(['pending', 'deny']);
    expect(ofType(declined.events, 'tool_result')[0]!.text).toMatch(/the user declined/);

    server.script({ toolCalls: [writeCall] }, { text: 'ok' });
    const allowed = await ask([], { answers: ['o'] });
    expect(ofType(allowed.events, 'tool_approval').map((e) => e.decision)).toEqual(['pending', 'once']);
    expect(ofType(allowed.events, 'tool_result')[0]!.text).toMatch(/stored note/);
  });

  it('read-only tools run without asking; alwaysAllow in the config pre-approves', async () => {
    server.script({ toolCalls: [{ name: 'fx__echo', arguments: { text: 'hi' } }] }, { text: 'ok' });
    const echo = await ask([]);
    expect(ofType(echo.events, 'tool_approval')).toEqual([]);
    expect(ofType(echo.events, 'tool_result')[0]).toMatchObject({ ok: true, text: 'hi' });

    server.script({ toolCalls: [writeCall] }, { text: 'ok' });
    const cline = await ask([], { mcp: preApproved });
    expect(ofType(cline.events, 'tool_approval')).toEqual([]);
    expect(ofType(cline.events, 'tool_result')[0]!.text).toMatch(/stored note/);
  });

  it("the app's Settings policy applies: deny beats --yes", async () => {
    const dataDir = join(data.dir, 'policy');
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, toolApproval: { 'fx__*': 'deny' } }));
    server.script({ toolCalls: [writeCall] }, { text: 'ok' });
    const { events } = await ask(['--yes'], { dataDir });
    expect(ofType(events, 'tool_approval')[0]).toMatchObject({ decision: 'deny', by: 'policy' });
    expect(ofType(events, 'tool_result')[0]!.text).toMatch(/blocked by the user's settings/);
  });
});

describe('screenshot_desktop and a remote model', () => {
  it('a model off this machine needs consent for a capture; a local one does not', async () => {
    const h = await makeHarness({ ollama: server.url, openai: server.openaiBaseUrl });
    let captures = 0;
    const capture: Tool = {
      needsVision: true,
      consent: 'remote-model',
      spec: { name: 'screenshot_desktop', description: 'Captures the screen.', parameters: { type: 'object', properties: {} } },
      async run() {
        captures++;
        return { ok: true, text: 'captured' };
      },
    };
    h.core.tools.add(capture);
    try {
      const local = await resolveModel({ kind: 'ollama', model: 'llava-seer', baseUrl: server.url });
      expect(local.remote).toBe(false);
      server.script({ toolCalls: [{ name: 'screenshot_desktop', arguments: {} }] }, { text: 'ok' });
      await h.core.engine.runTurn({ text: 'look', chat: local }, () => undefined);
      expect(captures).toBe(1);

      const remote = { ...local, remote: true };
      const events: ChatEvent[] = [];
      server.script({ toolCalls: [{ name: 'screenshot_desktop', arguments: {} }] }, { text: 'ok' });
      await h.core.engine.runTurn({ text: 'look', chat: remote }, (e) => events.push(e));
      expect(captures).toBe(1);
      expect(ofType(events, 'tool_approval')[0]).toMatchObject({ name: 'screenshot_desktop', decision: 'deny', by: 'no-one' });
    } finally {
      await h.close();
    }
  });

  it.each([
    ['http://10.0.0.5:11434', true],
    ['https://api.openai.com/v1', true],
    ['http://localhost:11434', false],
    ['http://[::1]:8080/v1', false],
    ['http://127.0.0.1:1234/v1', false],
  ])('%s is remote: %s', async (baseUrl, remote) => {
    const choice = await resolveModel({ kind: 'openai', model: 'x', baseUrl, detect: false });
    expect(choice.remote).toBe(remote);
  });
});

describe('policy lookup', () => {
  it('an exact name wins over globs, the longer glob over the shorter', () => {
    const policy = { 'fx__*': 'deny', 'fx__write_*': 'ask', fx__write_note: 'allow' } as const;
    expect(policyFor(policy, 'fx__write_note')).toBe('allow');
    expect(policyFor(policy, 'fx__write_other')).toBe('ask');
    expect(policyFor(policy, 'fx__read')).toBe('deny');
    expect(policyFor(policy, 'gh__read')).toBeUndefined();
    expect(globMatch('files__?ead', 'files__read')).toBe(true);
    expect(globMatch('files.*', 'filesXread')).toBe(false);
  });
});
