// MCP servers applied live: hub.reconfigure() diffs a new config against the running servers
// (the fixture server as real child processes over stdio, the web fixture over streamable
// HTTP), and composeServices applies a saved settings change through it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeServices, type Services } from '../../main/core/composeServices.ts';
import { parseMcpConfig } from '../../main/mcp/config.ts';
import { McpHub, type McpServerHealth } from '../../main/mcp/mcpHub.ts';
import { EnvSecretStore } from '../../main/settings/secretStore.ts';
import { SettingsStore } from '../../main/settings/settingsStore.ts';
import { startWebFixture, type WebFixture } from '../fixtures/mcpWebServers.ts';
import { captureFor, fixtureEntry, tempDataDir } from '../support/mcpSetup.ts';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once `server` reaches `state` (by the hub's own change announcements). */
function reaches(hub: McpHub, server: string, state: McpServerHealth['state']): Promise<McpServerHealth> {
  return new Promise((resolve) => {
    const check = () => {
      const found = hub.status().find((s) => s.name === server);
      if (found?.state !== state) return false;
      off();
      resolve(found);
      return true;
    };
    const off = hub.onChange(() => void check());
    check();
  });
}

describe('McpHub.reconfigure', () => {
  let data: Awaited<ReturnType<typeof tempDataDir>>;
  let web: WebFixture;
  let hub: McpHub;
  const states: string[] = [];

  beforeAll(async () => {
    data = await tempDataDir();
    web = await startWebFixture();
    const config = parseMcpConfig({ mcpServers: { a: fixtureEntry(), web: { type: 'http', url: `${web.base}/mcp` } } });
    hub = new McpHub({ config, capture: captureFor(data.dir).capture });
    hub.onChange(() => states.push(hub.status().map((s) => `${s.name}:${s.state}`).join(',')));
  });
  afterAll(async () => {
    await hub.close();
    await web.close();
    await data.remove();
  });

  it('startAll starts every server and announces starting, then ready', async () => {
    await hub.startAll();
    expect(hub.status().map((s) => [s.name, s.state])).toEqual([
      ['a', 'ready'],
      ['web', 'ready'],
    ]);
    expect(states.some((s) => s.includes('a:starting'))).toBe(true);
    expect(states.at(-1)).toBe('a:ready,web:ready');
  });

  it('keeps an unchanged server running, stops a removed one (HTTP session DELETE), starts a new one', async () => {
    const pidA = hub.status().find((s) => s.name === 'a')!.pid!;
    const deletesBefore = web.requests.filter((r) => r === 'DELETE /mcp').length;
    const config = parseMcpConfig({ mcpServers: { a: fixtureEntry(), b: fixtureEntry({ env: { WHO: 'bee' } }) } });
    const done = await hub.reconfigure(config);
    expect(done).toEqual({ added: ['b'], removed: ['web'], restarted: [], unchanged: ['a'] });
    expect(web.requests.filter((r) => r === 'DELETE /mcp').length).toBe(deletesBefore + 1);
    expect(hub.peekTools().some((t) => t.server === 'web')).toBe(false);
    expect((await hub.callTool('web__web_echo', { text: 'x' })).ok).toBe(false);

    const b = await reaches(hub, 'b', 'ready');
    expect(b.tools).toBeGreaterThan(0);
    expect(hub.status().map((s) => s.name)).toEqual(['a', 'b']);
    expect(hub.status().find((s) => s.name === 'a')).toMatchObject({ state: 'ready', pid: pidA, restarts: 0 });
    const who = await hub.callTool('b__env_vars', { names: ['WHO'] });
    expect(JSON.parse(who.text)).toEqual({ WHO: 'bee' });
  });

  it('restarts a server whose config changed (a new process with the new environment) and ends the old one', async () => {
    const oldPid = hub.status().find((s) => s.name === 'a')!.pid!;
    const pidB = hub.status().find((s) => s.name === 'b')!.pid!;
    // Same entry for b with its keys in another order: not a change.
    const config = parseMcpConfig({ mcpServers: { a: fixtureEntry({ env: { WHO: 'ay' } }), b: { env: { WHO: 'bee' }, ...fixtureEntry() } } });
    const done = await hub.reconfigure(config);
    expect(done).toEqual({ added: [], removed: [], restarted: ['a'], unchanged: ['b'] });
    await expect.poll(() => alive(oldPid)).toBe(false);
    const a = await reaches(hub, 'a', 'ready');
    expect(a.pid).not.toBe(oldPid);
    expect(JSON.parse((await hub.callTool('a__env_vars', { names: ['WHO'] })).text)).toEqual({ WHO: 'ay' });
    expect(hub.status().find((s) => s.name === 'b')!.pid).toBe(pidB);
  });

  it('removing every server ends their processes; an invalid entry shows as invalid', async () => {
    const pids = hub.status().map((s) => s.pid!);
    const done = await hub.reconfigure(parseMcpConfig({ mcpServers: { broken: { command: '' } } }));
    expect(done.removed).toEqual(['a', 'b']);
    for (const pid of pids) await expect.poll(() => alive(pid)).toBe(false);
    expect(hub.status()).toEqual([expect.objectContaining({ name: 'broken', state: 'invalid' })]);
    expect(hub.peekTools()).toEqual([]);
  });
});

describe('McpHub.startAll unattended (at launch)', () => {
  it('starts servers that need nothing from the person, and leaves one that would ask for first use', async () => {
    const data = await tempDataDir();
    const asked: string[] = [];
    const config = parseMcpConfig({ mcpServers: { plain: fixtureEntry(), asks: fixtureEntry({ env: { WHO: '${input:who}' } }) } });
    const hub = new McpHub({ config, capture: captureFor(data.dir).capture, resolveInput: async (request) => (asked.push(request.id), 'ada') });
    try {
      await hub.startAll({ unattended: true });
      expect(hub.status().map((s) => [s.name, s.state])).toEqual([
        ['plain', 'ready'],
        ['asks', 'idle'],
      ]);
      expect(asked).toEqual([]);
      // Attended (Settings opened, a turn): now it is asked and starts.
      await hub.startAll();
      expect(asked).toEqual(['who']);
      expect(hub.status().find((s) => s.name === 'asks')?.state).toBe('ready');
    } finally {
      await hub.close();
      await data.remove();
    }
  });
});

describe('composeServices with liveMcp', () => {
  it('starts the configured servers at launch, before anything asks for tools', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'glance-launch-mcp-'));
    const store = new SettingsStore({ dataDir: dir });
    await store.load();
    await store.update({ mcpServers: { early: fixtureEntry() } });
    const launched = composeServices({ dataDir: dir, settings: store, secrets: new EnvSecretStore({}), liveMcp: true, log: () => undefined });
    try {
      const early = await reaches(launched.hub!, 'early', 'ready');
      expect(early.pid).toBeGreaterThan(0);
    } finally {
      await launched.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  let dataDir: string;
  let services: Services;
  let settings: SettingsStore;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'glance-live-mcp-'));
    settings = new SettingsStore({ dataDir });
    await settings.load();
    services = composeServices({ dataDir, settings, secrets: new EnvSecretStore({}), liveMcp: true, log: () => undefined });
  });
  afterAll(async () => {
    await services?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('has a hub with no servers, and a saved server starts at once; removing it stops it', async () => {
    const hub = services.hub!;
    expect(hub.status()).toEqual([]);
    const saved = await settings.update({ mcpServers: { fx: fixtureEntry() } });
    expect(saved.ok).toBe(true);
    const fx = await reaches(hub, 'fx', 'ready');
    expect(fx.tools).toBeGreaterThan(0);
    expect((await services.tools.forTurn(true)).has('fx__echo')).toBe(true);

    await settings.update({ mcpServers: {} });
    await expect.poll(() => hub.status().length).toBe(0);
    await expect.poll(() => alive(fx.pid!)).toBe(false);
    expect((await services.tools.forTurn(true)).has('fx__echo')).toBe(false);
  });
});
