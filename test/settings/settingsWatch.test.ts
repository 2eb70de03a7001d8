// A hand edit of settings.json while Glance runs (architecture §13): applied as a save from
// Settings is, so every listener — the MCP hub, the limits, the renderer — follows it; an edit
// that cannot be read is said in words and changes nothing, the file left as it was written.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../common/settings.ts';
import { EnvSecretStore } from '../../main/settings/secretStore.ts';
import { SettingsStore } from '../../main/settings/settingsStore.ts';

let dir: string;
let stop: (() => void) | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-settings-watch-'));
});
afterEach(async () => {
  stop?.();
  await rm(dir, { recursive: true, force: true });
});

/** The next settings a listener hears. */
const nextChange = (store: SettingsStore) =>
  new Promise<Settings>((resolve) => {
    const off = store.onChange((s) => (off(), resolve(s)));
  });

describe('SettingsStore.watch', () => {
  it('applies a hand edit (JSONC, as an editor may leave it) and every listener hears it', async () => {
    const store = new SettingsStore({ dataDir: dir });
    await store.load();
    await store.update({ hotkey: 'Alt+Shift+G' });
    const problems: string[] = [];
    stop = store.watch({ onProblem: (m) => problems.push(m) });
    const changed = nextChange(store);
    const edited = JSON.parse(await readFile(store.path, 'utf8')) as Record<string, unknown>;
    const text = JSON.stringify({ ...edited, hotkey: 'Control+Alt+K', mcpServers: { fx: { command: 'node', args: ['server.js'] } } }, null, 2);
    await writeFile(store.path, `// edited by hand\n${text.replace(/\n}$/, ',\n}')}`);
    const seen = await changed;
    expect(seen.hotkey).toBe('Control+Alt+K');
    expect(seen.mcpServers).toEqual({ fx: { command: 'node', args: ['server.js'] } });
    expect(store.current()).toBe(seen);
    expect(problems).toEqual([]);
  });

  it('an edit that cannot be read is named, the settings in use stay and the file is left as written', async () => {
    const store = new SettingsStore({ dataDir: dir });
    await store.load();
    await store.update({ hotkey: 'Alt+Shift+G' });
    const said = new Promise<string>((resolve) => {
      stop = store.watch({ onProblem: resolve });
    });
    await writeFile(store.path, '{ "version": 1, "hotkey": ');
    expect(await said).toMatch(/^Your edit of .*settings\.json was not applied — it is not valid JSON .*Glance keeps the settings it has; fix the file and save it again\.$/);
    expect(store.current().hotkey).toBe('Alt+Shift+G');
    expect(await readFile(store.path, 'utf8')).toBe('{ "version": 1, "hotkey": ');
    // Fixed, it applies.
    const changed = nextChange(store);
    await writeFile(store.path, JSON.stringify({ version: 1, hotkey: 'Alt+F1' }));
    expect((await changed).hotkey).toBe('Alt+F1');
  });

  it('an API key typed into the file by hand goes to the secret store, and the file is written back without it', async () => {
    const secrets = new EnvSecretStore({});
    const store = new SettingsStore({ dataDir: dir, secrets });
    await store.load();
    stop = store.watch({ onProblem: () => undefined });
    const changed = nextChange(store);
    await writeFile(store.path, JSON.stringify({ version: 1, providers: { openai: [{ name: 'router', baseUrl: 'https://openrouter.ai/api/v1', apiKey: 'sk-or-typed-by-hand-1234567890' }] } }));
    const seen = await changed;
    expect(seen.providers.openai[0]).toMatchObject({ name: 'router', apiKeyRef: expect.any(String) });
    expect(await secrets.get(seen.providers.openai[0]!.apiKeyRef!)).toBe('sk-or-typed-by-hand-1234567890');
    expect(await readFile(store.path, 'utf8')).not.toContain('sk-or-typed-by-hand');
  });
});
