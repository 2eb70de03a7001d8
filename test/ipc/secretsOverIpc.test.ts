// Settings and secrets through the real router, handlers and stores: a key typed in the UI
// reaches the secret store and nowhere else — not settings.json, not an IPC answer, not a log.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INVOKE_CHANNELS } from '../../common/ipc.ts';
import { createIpcRouter, createSenderCheck, fail, type IpcHandlers, type IpcRouter } from '../../main/api/ipcRouter.ts';
import { settingsHandlers } from '../../main/api/settingsHandlers.ts';
import { MASK, mcpSecretValues } from '../../main/settings/maskSettings.ts';
import { scrubSecrets } from '../../main/scrubSecrets.ts';
import { SafeStorageSecretStore } from '../../main/settings/secretStore.ts';
import { SettingsStore } from '../../main/settings/settingsStore.ts';
import { fakeSafeStorage } from '../settings/safeStorageFixture.ts';

const KEY = 'k3y-' + 'f00dfacade'.repeat(4);
const MCP_TOKEN = 'mcp-token-0123456789';
const APP = { url: 'app://glance/index.html', isMainFrame: true };

let dir: string;
let settings: SettingsStore;
let secrets: SafeStorageSecretStore;
let router: IpcRouter;
let logs: string[];
let answers: string[];

async function call(channel: string, payload: unknown) {
  const result = await router.handle(channel, APP, payload);
  answers.push(JSON.stringify(result));
  return result;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-ipc-secrets-'));
  logs = [];
  answers = [];
  settings = new SettingsStore({ dataDir: dir });
  secrets = new SafeStorageSecretStore({ dataDir: dir, safeStorage: fakeSafeStorage(), platform: 'linux', warn: (m) => logs.push(m) });
  await settings.load();
  // The engine's channels are not this test's subject: they fail as data if called.
  const rest = Object.fromEntries(INVOKE_CHANNELS.map((c) => [c, async () => fail('unavailable', `${c} is not wired in this test`)]));
  const handlers = { ...rest, ...settingsHandlers({ settings, secrets }) } as IpcHandlers;
  // A handler that echoes a provider error containing the key, as a careless SDK might.
  handlers['models:list'] = async () => {
    throw new Error(`401 Unauthorized: key ${await secrets.get('openrouter')} rejected`);
  };
  router = createIpcRouter({
    handlers,
    isTrustedSender: createSenderCheck({ appOrigin: 'app://glance' }),
    scrubSecrets: (text) => scrubSecrets(text, [...secrets.knownValues(), ...mcpSecretValues(settings.current())]),
    log: (line) => logs.push(line),
  });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('secrets over IPC', () => {
  it('a key set from the renderer is only ever "set: true" outside the secret store', async () => {
    const patch = { providers: { openai: [{ name: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', apiKeyRef: 'openrouter' }] } };
    expect(await call('settings:set', { patch })).toMatchObject({ ok: true });
    expect(await call('secrets:status', {})).toEqual({
      ok: true,
      value: { backend: { name: 'gnome_libsecret', persistent: true, secure: true }, secrets: [{ name: 'openrouter', set: false }] },
    });
    expect(await call('secrets:set', { name: 'openrouter', value: KEY })).toEqual({ ok: true, value: { name: 'openrouter', set: true } });
    expect(await call('secrets:status', {})).toMatchObject({ ok: true, value: { secrets: [{ name: 'openrouter', set: true }] } });
    await call('settings:get', {});

    const failed = await call('models:list', {});
    expect(failed).toMatchObject({ ok: false, code: 'internal' });
    expect(!failed.ok && failed.message).toContain('[redacted]');

    expect(await secrets.get('openrouter')).toBe(KEY);
    for (const file of await readdir(dir)) expect(await readFile(join(dir, file), 'utf8'), file).not.toContain(KEY);
    expect(answers.join('\n')).not.toContain(KEY);
    expect(logs.join('\n')).not.toContain(KEY);
    expect(logs.some((l) => l.includes('models:list failed'))).toBe(true);

    expect(await call('secrets:set', { name: 'openrouter', value: null })).toEqual({ ok: true, value: { name: 'openrouter', set: false } });
    expect(await secrets.has('openrouter')).toBe(false);
  });

  it('MCP tokens in env/headers reach the renderer masked, and a masked value sent back keeps the token', async () => {
    await settings.update({
      mcpServers: {
        github: { command: 'github-mcp', env: { GITHUB_TOKEN: MCP_TOKEN, LOG_LEVEL: 'debug' } },
        remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: `Bearer ${MCP_TOKEN}` } },
      },
    });
    const got = await call('settings:get', {});
    if (!got.ok) throw new Error(got.message);
    const view = got.value as { mcpServers: Record<string, { env?: Record<string, string>; headers?: Record<string, string> }> };
    expect(view.mcpServers.github?.env).toEqual({ GITHUB_TOKEN: MASK, LOG_LEVEL: 'debug' });
    expect(view.mcpServers.remote?.headers).toEqual({ Authorization: MASK });

    // The UI edits one thing and sends the servers back, masks included.
    view.mcpServers.github!.env!.LOG_LEVEL = 'info';
    expect(await call('settings:set', { patch: { mcpServers: view.mcpServers } })).toMatchObject({ ok: true });
    const stored = settings.current().mcpServers;
    expect(stored.github).toEqual({ command: 'github-mcp', env: { GITHUB_TOKEN: MCP_TOKEN, LOG_LEVEL: 'info' } });
    expect(stored.remote).toMatchObject({ headers: { Authorization: `Bearer ${MCP_TOKEN}` } });
    expect(answers.join('\n')).not.toContain(MCP_TOKEN);
  });

  it('an invalid settings patch is refused by the store with the field named, and nothing changes', async () => {
    const result = await call('settings:set', {
      patch: { providers: { openai: [{ name: 'A', baseUrl: 'https://a.example/v1' }, { name: 'A', baseUrl: 'https://b.example/v1' }] } },
    });
    expect(result).toMatchObject({ ok: false, code: 'bad-request' });
    expect(!result.ok && result.message).toContain('endpoint names must be unique');
    expect(settings.current().providers.openai).toEqual([]);
  });
});
