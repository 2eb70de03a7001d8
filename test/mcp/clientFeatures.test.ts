// What a stdio server gets from Glance as a client: its environment, `${input:…}` answers,
// roots, elicitation, logging; and what the person and the model learn when a server does not
// start. The fixture server runs as a real child process.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ElicitationRequest } from '../../main/mcp/clientFeatures.ts';
import { parseMcpConfig } from '../../main/mcp/config.ts';
import { McpHub, type McpHubOptions } from '../../main/mcp/mcpHub.ts';
import { captureFor, fixtureEntry, tempDataDir } from '../support/mcpSetup.ts';

let data: Awaited<ReturnType<typeof tempDataDir>>;
const hubs: McpHub[] = [];
beforeEach(async () => {
  data = await tempDataDir();
});
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
  await data.remove();
});
const hubFor = (servers: Record<string, unknown>, options: Partial<McpHubOptions> = {}, env: Record<string, string> = {}) => {
  const hub = new McpHub({ config: parseMcpConfig({ mcpServers: servers }, { env }), capture: captureFor(data.dir).capture, ...options });
  hubs.push(hub);
  return hub;
};
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('the environment of a stdio server', () => {
  it("the SDK's safe variables, the proxy and CA variables, envFile, then env; nothing else of Glance's", async () => {
    await writeFile(join(data.dir, 'server.env'), '# a comment\nexport FROM_FILE="file value"\nBOTH=file\n');
    const parentEnv = { ...process.env, HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: 'localhost', NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem', GLANCE_SECRET: 'do-not-leak' };
    const hub = hubFor({ fx: fixtureEntry({ envFile: join(data.dir, 'server.env'), env: { BOTH: 'env', OWN: '1' } }) }, { parentEnv });
    const outcome = await hub.callServerTool('fx', 'env_vars', { names: ['HTTPS_PROXY', 'NO_PROXY', 'NODE_EXTRA_CA_CERTS', 'FROM_FILE', 'BOTH', 'OWN', 'GLANCE_SECRET', 'PATH'] });
    const seen = json(outcome.text);
    expect(seen).toMatchObject({ HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: 'localhost', NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem', FROM_FILE: 'file value', BOTH: 'env', OWN: '1', GLANCE_SECRET: null });
    expect(seen.PATH).toBe(process.env.PATH);
  });

  it('an envFile that cannot be read fails the start in plain words', async () => {
    const hub = hubFor({ fx: fixtureEntry({ envFile: join(data.dir, 'missing.env') }) });
    await hub.listTools();
    expect(hub.status()[0]?.message).toMatch(/could not start: its envFile .*missing\.env cannot be read \(no such file\)/);
  });

  it('a server that never answers initialize says so, with the tail of its stderr', async () => {
    // It reads its stdin and never answers, and goes when stdin ends: a test worker that is killed
    // (no 'exit' event, so no SIGTERM from createStdioTransport) must not leave it running.
    const silent = { command: process.execPath, args: ['-e', "process.stderr.write('waiting for a licence key on stdin\\n'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0))"] };
    const hub = hubFor({ silent }, { startTimeoutMs: 1500 });
    await hub.listTools();
    expect(hub.status()[0]).toMatchObject({ state: 'failed' });
    expect(hub.status()[0]?.message).toMatch(/did not answer the initialize request in time — server stderr: waiting for a licence key on stdin/);
  });
});

describe('${input:…}', () => {
  it('is answered once per start by the entry, and reaches the server', async () => {
    const asked: string[] = [];
    const hub = hubFor({ fx: fixtureEntry({ env: { WHO: '${input:who}' } }) }, { resolveInput: async (r) => (asked.push(`${r.server}:${r.id}`), 'ada') });
    expect(json((await hub.callServerTool('fx', 'env_vars', { names: ['WHO'] })).text)).toEqual({ WHO: 'ada' });
    await hub.callServerTool('fx', 'echo', { text: 'again' });
    expect(asked).toEqual(['fx:who']);
  });

  it('unanswered: the server does not start, and the message says how to answer', async () => {
    const hub = hubFor({ fx: fixtureEntry({ env: { WHO: '${input:who}' } }) }, { resolveInput: async () => undefined, inputHint: (id) => `set GLANCE_INPUT_${id.toUpperCase()}` });
    await hub.listTools();
    expect(hub.status()[0]?.message).toBe('MCP server "fx" could not start: it needs a value for ${input:who} (set GLANCE_INPUT_WHO)');
  });
});

describe('client capabilities', () => {
  it('roots: the allowed roots as file: URIs', async () => {
    const hub = hubFor({ fx: fixtureEntry() }, { features: { roots: () => [data.dir, '/srv/shared'] } });
    const outcome = await hub.callServerTool('fx', 'list_roots', {});
    expect(outcome.text.split('\n')).toEqual([pathToFileURL(data.dir).href, 'file:///srv/shared']);
  });

  it('elicitation (form): the entry is asked, defaults fill what the person left out', async () => {
    const asked: ElicitationRequest[] = [];
    const hub = hubFor({ fx: fixtureEntry() }, { features: { elicit: async (request) => (asked.push(request), { action: 'accept', content: { name: 'Ada' } }) } });
    const outcome = await hub.callServerTool('fx', 'ask_user', {});
    expect(asked[0]).toMatchObject({ server: 'fx', mode: 'form', message: 'Who are you?', required: ['name'], secret: [], fields: { name: { type: 'string' }, age: { type: 'integer', default: 30 } } });
    const [reply, note] = outcome.text.split('\n');
    expect(json(reply!)).toEqual({ action: 'accept', content: { name: 'Ada', age: 30 } });
    // What the conversation keeps of the question: its fields and that it was answered.
    expect(note).toBe('[MCP server "fx" asked the person to fill in a form (name, age): answered]');
  });

  it('elicitation where no one can be asked: the capability is not declared, the server gets an error it can report', async () => {
    const hub = hubFor({ fx: fixtureEntry() });
    const outcome = await hub.callServerTool('fx', 'ask_user', {});
    expect(outcome.ok).toBe(false);
    expect(outcome.text).toMatch(/elicitation/i);
  });

  it('logging: notifications/message lines go to a per-server log file', async () => {
    const logDir = join(data.dir, 'logs', 'mcp');
    const hub = hubFor({ 'my server': fixtureEntry() }, { features: { logDir } });
    await hub.callServerTool('my server', 'log_line', { text: 'hello from the fixture' });
    const file = hub.status()[0]?.logFile as string;
    expect(file).toBe(join(logDir, 'my_server.log'));
    await expect.poll(async () => readFile(file, 'utf8').catch(() => '')).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z info fixture: hello from the fixture\n$/);
  });
});

describe('a server that does not start', () => {
  it('is reported to the model by name and reason, not only "no tool named …"', async () => {
    const hub = hubFor({ good: fixtureEntry(), broken: { command: '/nonexistent/glance-test-server' } });
    const tools = await hub.listTools();
    expect(tools.some((t) => t.server === 'good')).toBe(true);
    const outcome = await hub.callTool('broken__search', {});
    expect(outcome).toMatchObject({ ok: false, failure: 'unknown-tool' });
    expect(outcome.text).toMatch(/^There is no MCP tool named "broken__search": its server "broken" is failed — MCP server "broken" could not start: the command was not found/);
    expect(hub.promptNotes()).toMatch(/These MCP servers are unavailable, so their tools are not offered: "broken" \(failed: MCP server "broken" could not start/);
    expect(hub.unavailable().map((s) => s.name)).toEqual(['broken']);
  });

  it('disabledTools are not offered and are listed as hidden', async () => {
    const hub = hubFor({ fx: fixtureEntry({ disabledTools: ['crash', 'hang'] }) });
    const names = (await hub.listTools()).map((t) => t.tool);
    expect(names).toContain('echo');
    expect(names).not.toContain('crash');
    expect(hub.status()[0]?.hiddenTools?.map((h) => h.tool)).toEqual(['hang', 'crash']);
    expect((await hub.callServerTool('fx', 'crash', {})).text).toMatch(/disabled in the configuration/);
  });
});
