import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { DEFAULT_HOTKEY, SETTINGS_VERSION, defaultSettings, type Settings } from '../../common/settings.ts';
import { SafeStorageSecretStore } from '../../main/settings/secretStore.ts';
import { SettingsStore } from '../../main/settings/settingsStore.ts';
import { fakeSafeStorage } from './safeStorageFixture.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-settings-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
const FIXED_NOW = new Date('2025-03-01T12:34:56.789Z');

describe('SettingsStore', () => {
  it('starts from the defaults (limits from common/limits.ts) without writing a file', async () => {
    const store = new SettingsStore({ dataDir: dir });
    const { settings, warnings } = await store.load();
    expect(warnings).toEqual([]);
    expect(settings.version).toBe(SETTINGS_VERSION);
    expect(settings.hotkey).toBe(DEFAULT_HOTKEY);
    expect(settings.providers.ollama.host).toBe('http://127.0.0.1:11434');
    expect(settings.limits).toEqual({
      ingestBytes: DEFAULT_LIMITS.ingestBytes,
      maxInputPixels: DEFAULT_LIMITS.maxInputPixels,
      maxImageDeliveriesPerTurn: DEFAULT_LIMITS.maxImageDeliveriesPerTurn,
      maxImagesPerRequest: DEFAULT_LIMITS.maxImagesPerRequest,
      fetchTimeoutMs: DEFAULT_LIMITS.fetchTimeoutMs,
      maxStepsPerTurn: DEFAULT_LIMITS.maxStepsPerTurn,
      maxImagesPerToolResult: DEFAULT_LIMITS.maxImagesPerToolResult,
      maxAnswerChars: DEFAULT_LIMITS.maxAnswerChars,
      streamIdleMs: DEFAULT_LIMITS.streamIdleMs,
      maxAnswerMs: DEFAULT_LIMITS.maxAnswerMs,
      maxStoredImagesPerToolResult: DEFAULT_LIMITS.maxStoredImagesPerToolResult,
      maxStoredBytesPerToolResult: DEFAULT_LIMITS.maxStoredBytesPerToolResult,
      mcpTurnWaitMs: DEFAULT_LIMITS.mcpTurnWaitMs,
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('round-trips every section through settings.json', async () => {
    const store = new SettingsStore({ dataDir: dir });
    await store.load();
    const result = await store.update({
      providers: { ollama: { host: 'http://10.0.0.5:11434' }, openai: [{ name: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', apiKeyRef: 'openrouter' }] },
      defaultModel: { provider: 'openai', endpoint: 'OpenRouter', name: 'google/gemma-3-27b-it' },
      visionHelper: { provider: 'ollama', name: 'qwen2.5vl:7b' },
      vision: { ollama: { 'llama3.2': 'no' }, OpenRouter: { 'google/gemma-3-27b-it': 'yes' } },
      limits: { ingestBytes: 10 * 1024 * 1024, maxInputPixels: 40_000_000, maxImageDeliveriesPerTurn: 2, maxImagesPerRequest: 6, fetchTimeoutMs: 5000, maxStepsPerTurn: 10, maxImagesPerToolResult: 2, maxAnswerChars: 50_000, streamIdleMs: 30_000, maxAnswerMs: 120_000, maxStoredImagesPerToolResult: 10, maxStoredBytesPerToolResult: 1024 * 1024, mcpTurnWaitMs: 2000 },
      allowedRoots: ['/home/me/Pictures'],
      hotkey: 'Alt+Shift+G',
      mcpServers: {
        everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { DEBUG: '1' }, cwd: '/tmp' },
        remote: { url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'a' } },
      },
      attachments: { retentionDays: 7 },
    });
    expect(result.ok).toBe(true);
    const onDisk = await readJson(store.path);
    expect(onDisk.version).toBe(SETTINGS_VERSION);

    const again = new SettingsStore({ dataDir: dir });
    const { settings, warnings } = await again.load();
    expect(warnings).toEqual([]);
    expect(settings).toEqual(store.current());
    expect(settings.mcpServers.everything).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { DEBUG: '1' }, cwd: '/tmp' });
    expect(settings.defaultModel).toEqual({ provider: 'openai', endpoint: 'OpenRouter', name: 'google/gemma-3-27b-it' });
  });

  it('a patch replaces only the sections it names, and an invalid one changes nothing', async () => {
    const store = new SettingsStore({ dataDir: dir });
    await store.load();
    await store.update({ hotkey: 'Alt+G' });
    await store.update({ attachments: { retentionDays: null } });
    expect(store.current().hotkey).toBe('Alt+G');
    expect(store.current().attachments.retentionDays).toBeNull();

    const before = await readFile(store.path, 'utf8');
    const bad = await store.update({ providers: { ollama: { host: 'file:///etc/passwd' }, openai: [] } });
    expect(bad).toMatchObject({ ok: false, code: 'invalid' });
    expect(!bad.ok && bad.message).toContain('providers.ollama.host');
    expect(await readFile(store.path, 'utf8')).toBe(before);
  });

  it('privacy: redacts for remote models by default with password managers excluded; a bad own pattern is refused by name', async () => {
    const store = new SettingsStore({ dataDir: dir });
    const { settings } = await store.load();
    expect(settings.privacy).toMatchObject({ redact: 'remote', patterns: [], conversations: {} });
    expect(settings.privacy.categories).toEqual({ keys: true, cards: true, banking: true, passwords: true, highEntropy: true, contact: false });
    expect(settings.privacy.excludedApps).toEqual(expect.arrayContaining(['KeePassXC', '1Password', 'Bitwarden', 'Keychain Access']));
    const privacy = { ...settings.privacy, redact: 'always' as const, patterns: [{ name: 'employee id', pattern: 'EMP-\\d{6}' }], conversations: { c1: 'never' as const } };
    expect(await store.update({ privacy })).toMatchObject({ ok: true });
    expect((await new SettingsStore({ dataDir: dir }).load()).settings.privacy).toEqual(privacy);
    for (const [pattern, why] of [['EMP-(\\d+', /privacy\.patterns\.0\.pattern.*not a valid regular expression/], ['(a+)+$', /privacy\.patterns\.0\.pattern.*without end/]] as const) {
      const bad = await store.update({ privacy: { ...privacy, patterns: [{ name: 'mine', pattern }] } });
      expect(bad).toMatchObject({ ok: false, code: 'invalid' });
      expect(!bad.ok && bad.message).toMatch(why);
    }
    expect(store.current().privacy).toEqual(privacy);
  });

  it('concurrent updates are applied one after the other: neither is lost', async () => {
    const store = new SettingsStore({ dataDir: dir });
    await store.load();
    await Promise.all([
      store.update({ hotkey: 'Alt+H' }),
      store.update({ allowedRoots: ['/srv/images'] }),
      store.update({ vision: { ollama: { llava: 'yes' } } }),
    ]);
    const { settings } = await new SettingsStore({ dataDir: dir }).load();
    expect(settings.hotkey).toBe('Alt+H');
    expect(settings.allowedRoots).toEqual(['/srv/images']);
    expect(settings.vision).toEqual({ ollama: { llava: 'yes' } });
  });

  it('an unreadable file is kept as settings.json.bad-<time>, the defaults are used and the user is told', async () => {
    const path = join(dir, 'settings.json');
    const broken = '{ "version": 1, "hotkey": "Alt+G", ';
    await writeFile(path, broken);
    const store = new SettingsStore({ dataDir: dir, now: () => FIXED_NOW });
    const { settings, warnings, keptAs } = await store.load();
    expect(settings).toEqual(defaultSettings());
    expect(keptAs).toBe(join(dir, 'settings.json.bad-20250301T123456Z'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('not valid JSON');
    expect(warnings[0]).toContain(keptAs);
    expect(await readFile(keptAs!, 'utf8')).toBe(broken);

    // The next save writes a fresh file; the kept one stays.
    await store.update({ hotkey: 'Alt+K' });
    expect((await readJson(path)).hotkey).toBe('Alt+K');
    expect(await readFile(keptAs!, 'utf8')).toBe(broken);
  });

  it('a file that breaks the schema names the field, and is kept too', async () => {
    const path = join(dir, 'settings.json');
    const content = JSON.stringify({ version: 1, providers: { openai: [{ name: 'x', baseUrl: 'ftp://example.com' }] } });
    await writeFile(path, content);
    const { warnings, keptAs } = await new SettingsStore({ dataDir: dir, now: () => FIXED_NOW }).load();
    expect(warnings[0]).toContain('providers.openai.0.baseUrl');
    expect(await readFile(keptAs!, 'utf8')).toBe(content);
  });

  it('a file from a newer Glance is not overwritten in place', async () => {
    const path = join(dir, 'settings.json');
    await writeFile(path, JSON.stringify({ version: SETTINGS_VERSION + 1, hotkey: 'Alt+N' }));
    const { warnings, keptAs } = await new SettingsStore({ dataDir: dir, now: () => FIXED_NOW }).load();
    expect(warnings[0]).toContain('newer Glance');
    expect((JSON.parse(await readFile(keptAs!, 'utf8')) as Settings).hotkey).toBe('Alt+N');
  });

  it('a file without a version (hand-written) is migrated and rewritten with one; unknown keys are reported', async () => {
    const path = join(dir, 'settings.json');
    await writeFile(path, JSON.stringify({ hotkey: 'Alt+M', theme: 'dark', mcpServers: { fs: { command: 'mcp-fs' } } }));
    const { settings, warnings } = await new SettingsStore({ dataDir: dir }).load();
    expect(settings.hotkey).toBe('Alt+M');
    expect(settings.mcpServers.fs).toEqual({ command: 'mcp-fs' });
    expect(warnings).toEqual(['ignored unknown setting "theme"']);
    expect((await readJson(path)).version).toBe(SETTINGS_VERSION);
  });

  it('runs the migration hook from the file version up to the current one', async () => {
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ shortcut: 'Alt+Z' }));
    const store = new SettingsStore({
      dataDir: dir,
      // A version-0 file that called the hotkey "shortcut".
      migrations: { 0: ({ shortcut, ...rest }) => ({ ...rest, hotkey: shortcut, version: 1 }) },
    });
    const { settings, warnings } = await store.load();
    expect(warnings).toEqual([]);
    expect(settings.hotkey).toBe('Alt+Z');
  });

  it('a bad MCP entry in the file costs only that entry: it is kept, reported by server and field, and the rest loads', async () => {
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ version: 1, hotkey: 'Alt+Q', mcpServers: { ok: { command: 'a' }, nope: { url: 'ftp://x' } } }));
    const { settings, warnings } = await new SettingsStore({ dataDir: dir }).load();
    expect(settings.hotkey).toBe('Alt+Q');
    expect(settings.mcpServers.nope).toEqual({ url: 'ftp://x' });
    expect(warnings).toEqual(['MCP server "nope", field "url": must be an http(s) URL']);
  });

  it('refuses MCP servers typed in the UI that the MCP hub would refuse', async () => {
    const store = new SettingsStore({ dataDir: dir });
    await store.load();
    const result = await store.update({ mcpServers: { fine: { command: 'a' }, wrong: { args: ['x'] } } });
    expect(result).toMatchObject({ ok: false, code: 'invalid' });
    expect(!result.ok && result.message).toContain('server "wrong", field "command"');
    expect(store.current().mcpServers).toEqual({});
  });

  it('moves a plain-text apiKey out of settings.json into the secret store', async () => {
    const path = join(dir, 'settings.json');
    const key = 'sk-or-v1-' + 'a1b2c3d4'.repeat(8);
    await writeFile(path, JSON.stringify({ version: 1, providers: { openai: [{ name: 'Open Router', baseUrl: 'https://openrouter.ai/api/v1', apiKey: key }] } }));
    const secrets = new SafeStorageSecretStore({ dataDir: dir, safeStorage: fakeSafeStorage(), platform: 'linux', warn: () => undefined });
    const { settings, warnings } = await new SettingsStore({ dataDir: dir, secrets }).load();

    expect(settings.providers.openai[0]?.apiKeyRef).toBe('open-router-api-key');
    expect(warnings.join('\n')).toContain('moved the API key of endpoint "Open Router"');
    expect(warnings.join('\n')).not.toContain(key);
    expect(await secrets.get('open-router-api-key')).toBe(key);
    for (const file of await readdir(dir)) expect(await readFile(join(dir, file), 'utf8')).not.toContain(key);
  });

  it('removes temp files a crash left behind once they are stale, and leaves fresh ones (a save in progress)', async () => {
    const stale = join(dir, '.settings.json.123.abcd0123.tmp');
    const fresh = join(dir, '.settings.json.456.ef014567.tmp');
    await writeFile(stale, '{');
    await writeFile(fresh, '{');
    const old = new Date(Date.now() - 10 * 60_000);
    await utimes(stale, old, old);
    await new SettingsStore({ dataDir: dir }).load();
    expect((await readdir(dir)).sort()).toEqual(['.settings.json.456.ef014567.tmp']);
    await expect(stat(fresh)).resolves.toBeTruthy();
  });
});

describe('a crash mid-write', () => {
  const storeModule = fileURLToPath(new URL('../../main/settings/settingsStore.ts', import.meta.url));

  /**
   * A real process saves version A, then starts saving version B and is SIGKILLed at `stage`:
   * - "temp-half": half of B is in the temp file (a torn write);
   * - "before-rename": B is complete and fsynced in the temp file, not yet renamed.
   * The stall is put in place by patching Node's own fs in the child, so the kill lands
   * exactly there instead of wherever a timer happens to fall.
   */
  function crashingWriter(dataDir: string, stage: 'temp-half' | 'before-rename') {
    const code = `
      import { createRequire, syncBuiltinESMExports } from 'node:module';
      import { open } from 'node:fs/promises';
      const require = createRequire(import.meta.url);
      const fsp = require('node:fs/promises');
      // A timer keeps the stalled writer alive until it is killed: a pending promise alone does not,
      // and the process could end by itself (exit 13, no signal) before the parent's SIGKILL.
      const stall = () => { process.stdout.write('stalled\\n'); setInterval(() => {}, 60_000); return new Promise(() => {}); };
      let armed = false;
      if (${JSON.stringify(stage)} === 'before-rename') {
        const rename = fsp.rename;
        fsp.rename = (...args) => (armed ? stall() : rename(...args));
        syncBuiltinESMExports();
      } else {
        const probe = await open(${JSON.stringify(dataDir)} + '/.probe', 'w');
        const proto = Object.getPrototypeOf(probe);
        await probe.close();
        const writeFile = proto.writeFile;
        proto.writeFile = async function (data, ...rest) {
          if (!armed) return writeFile.call(this, data, ...rest);
          await writeFile.call(this, data.slice(0, Math.floor(data.length / 2)), ...rest);
          await this.sync();
          return stall();
        };
      }
      const { SettingsStore } = await import(${JSON.stringify(storeModule)});
      const store = new SettingsStore({ dataDir: ${JSON.stringify(dataDir)} });
      await store.load();
      const a = await store.update({ hotkey: 'Alt+A', allowedRoots: ['/a'] });
      if (!a.ok) throw new Error(a.message);
      process.stdout.write('saved A\\n');
      armed = true;
      await store.update({ hotkey: 'Alt+B', allowedRoots: ['/b'], mcpServers: { big: { command: 'x'.repeat(200000) } } });
      process.stdout.write('saved B (the stall did not happen)\\n');`;
    return spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
  }

  for (const stage of ['temp-half', 'before-rename'] as const) {
    it(`killed at ${stage}: settings.json still holds the previous complete version`, async () => {
      const child = crashingWriter(dir, stage);
      let out = '';
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_c, signal) => resolve(signal)));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('stalled')) resolve();
        });
        child.on('exit', () => reject(new Error(`writer exited before the crash point: ${out} ${err}`)));
      });
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      expect(out).toContain('saved A');

      // The crash left B's temp file behind: proof it died mid-write.
      const temps = (await readdir(dir)).filter((f) => f.startsWith('.settings.json.') && f.endsWith('.tmp'));
      expect(temps).toHaveLength(1);
      const tempSize = (await stat(join(dir, temps[0]!))).size;
      expect(tempSize).toBeGreaterThan(100_000);

      const { settings, warnings } = await new SettingsStore({ dataDir: dir }).load();
      expect(warnings).toEqual([]);
      expect(settings.hotkey).toBe('Alt+A');
      expect(settings.allowedRoots).toEqual(['/a']);
      expect(settings.mcpServers).toEqual({});

      // Once stale, the leftover is cleaned up.
      await new SettingsStore({ dataDir: dir, now: () => new Date(Date.now() + 5 * 60_000) }).load();
      expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    });
  }
});
