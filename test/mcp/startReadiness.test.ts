// What a chat turn waits for (architecture §6): a server that never answers `initialize` and a
// server whose config asks the person a question never hold up a turn. The turn goes on with the
// tools of the servers that are ready, the event stream says which are not and why, the question
// waits on its own, and the server joins once it is answered.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { IpcEventPayload } from '../../common/ipc.ts';
import { McpQuestions } from '../../main/api/mcpQuestions.ts';
import { mcpToolProvider } from '../../main/core/mcpTools.ts';
import { BinaryCapture } from '../../main/mcp/binaryCapture.ts';
import { parseMcpConfig } from '../../main/mcp/config.ts';
import { McpHub, type McpHubOptions } from '../../main/mcp/mcpHub.ts';
import { EnvSecretStore } from '../../main/settings/secretStore.ts';
import { engineSuite, ofType, type Harness } from '../chat/engineHarness.ts';
import { ASKED_INPUT, askingEntry, silentEntry } from '../fixtures/mcpStartFaults.ts';
import { fixtureEntry } from '../support/mcpSetup.ts';

const suite = engineSuite();
const server = suite.server;
let h: Harness;
let hub: McpHub | undefined;

afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

/** A hub over `servers` as the engine's tool source; a silent server stays "starting" for the whole test. */
async function withHub(servers: Record<string, unknown>, options: Partial<McpHubOptions> = {}): Promise<McpHub> {
  h = await suite.harness();
  const capture = new BinaryCapture({ intake: h.core.intake, capturesDir: join(h.dataDir, 'captures') });
  hub = new McpHub({ config: parseMcpConfig({ mcpServers: servers }), capture, startTimeoutMs: 600_000, ...options });
  h.core.tools.addProvider(mcpToolProvider(hub));
  return hub;
}

/** Resolves once `name` is in `state` (the hub announces every change). */
function until(hub: McpHub, name: string, state: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (hub.status().find((s) => s.name === name)?.state !== state) return;
      off();
      resolve();
    };
    const off = hub.onChange(check);
    check();
  });
}

describe('a chat turn never waits for a server that does not answer', () => {
  it('the model request goes out with the ready server\'s tools while the silent one is still starting, and the turn says so', async () => {
    const hub = await withHub({ fx: fixtureEntry(), silent: silentEntry() }, { turnWaitMs: 0 });
    void hub.listTools().catch(() => undefined); // starts every server; the test waits on states, not on this
    await until(hub, 'fx', 'ready');
    server().script({ text: 'Answered without it.' });
    const { outcome, events } = await h.turn({ model: 'llava-seer', text: 'Hello.' });
    expect(outcome.status).toBe('done');
    // The turn is over and the silent server has still not answered initialize: the request did not wait for it.
    expect(hub.status().find((s) => s.name === 'silent')?.state).toBe('starting');
    const request = server().requests[0]!;
    expect(request.toolNames).toContain('fx__echo');
    expect(request.toolNames.some((n) => n.startsWith('silent__'))).toBe(false);
    const said = ofType(events, 'tool_servers');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ servers: [{ name: 'silent', state: 'starting' }] });
    expect(said[0]!.text).toBe('Not in this answer yet: the tools of "silent" (still starting); they join once the server is ready.');
    // The event comes before the answer, and the model is told too.
    expect(events.indexOf(said[0]!)).toBeLessThan(events.findIndex((e) => e.type === 'text'));
    expect(request.messages.find((m) => m.role === 'system')?.text).toContain('These MCP servers are not ready yet, so their tools are not offered in this answer (they may be later): "silent" (still starting).');
  });

  it('a server that starts within the wait joins the first turn (the wait counts from its own start)', async () => {
    await withHub({ fx: fixtureEntry() }, { turnWaitMs: 600_000 });
    server().script({ text: 'ok' });
    const { events } = await h.turn({ model: 'llava-seer', text: 'Hello.' });
    expect(server().requests[0]!.toolNames).toContain('fx__echo');
    expect(ofType(events, 'tool_servers')).toEqual([]);
  });
});

describe('an unanswered ${input:…} question never holds up a turn', () => {
  it('the turn goes on without that server; the question waits in its own card; once answered the server joins the next turn', async () => {
    const questions = new McpQuestions();
    const asked: IpcEventPayload<'mcp:question'>[] = [];
    questions.connect((channel, payload) => {
      if (channel === 'mcp:question') asked.push(payload as IpcEventPayload<'mcp:question'>);
    });
    const interaction = questions.interaction({ secrets: new EnvSecretStore({}) });
    const hub = await withHub({ fx: fixtureEntry(), asker: askingEntry(fixtureEntry()) }, { resolveInput: interaction.resolveInput, ...(interaction.inputHint ? { inputHint: interaction.inputHint } : {}) });
    server().script({ text: 'First answer.' });
    const first = await h.turn({ model: 'llava-seer', text: 'Hello.' });
    expect(first.outcome.status).toBe('done');
    // The question is still open after the turn ended: the turn did not wait for it.
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ server: 'asker', kind: 'input', fields: { value: { title: ASKED_INPUT } } });
    expect(asked[0]!.withdrawn).toBeUndefined();
    expect(hub.status().find((s) => s.name === 'asker')?.state).toBe('starting');
    expect(server().requests[0]!.toolNames).toContain('fx__echo');
    expect(server().requests[0]!.toolNames.some((n) => n.startsWith('asker__'))).toBe(false);
    expect(ofType(first.events, 'tool_servers')[0]).toMatchObject({
      servers: [{ name: 'asker', state: 'asking' }],
      text: 'Not in this answer yet: the tools of "asker" (waiting for your answer to its question); they join once the server is ready.',
    });

    expect(questions.answer({ id: asked[0]!.id, action: 'accept', content: { value: 'fixture-secret' } })).toBe(true);
    await until(hub, 'asker', 'ready');
    server().script({ toolCalls: [{ name: 'asker__env_vars', arguments: { names: ['FIXTURE_TOKEN'] } }] }, { text: 'Second answer.' });
    const second = await h.turn({ model: 'llava-seer', text: 'Again.' });
    expect(second.outcome.status).toBe('done');
    expect(server().requests[1]!.toolNames).toContain('asker__env_vars');
    expect(ofType(second.events, 'tool_servers')).toEqual([]);
    // The server got the answer (the ledger hides it from results: it was typed as a secret value).
    expect(ofType(second.events, 'tool_result')[0]).toMatchObject({ ok: true });
  });

  it('closing the hub withdraws the question and ends the start: nothing waits on the person', async () => {
    const questions = new McpQuestions();
    const asked: IpcEventPayload<'mcp:question'>[] = [];
    questions.connect((channel, payload) => {
      if (channel === 'mcp:question') asked.push(payload as IpcEventPayload<'mcp:question'>);
    });
    const interaction = questions.interaction({ secrets: new EnvSecretStore({}) });
    const hub = await withHub({ asker: askingEntry(fixtureEntry()) }, { resolveInput: interaction.resolveInput });
    void hub.listTools().catch(() => undefined); // starts every server; the test waits on states, not on this
    await new Promise<void>((resolve) => {
      const off = hub.onChange(() => asked.length > 0 && (off(), resolve()));
    });
    await hub.close();
    expect(asked.map((q) => q.withdrawn ?? false)).toEqual([false, true]);
    expect(hub.status()[0]).toMatchObject({ name: 'asker', state: 'closed' });
  });
});
