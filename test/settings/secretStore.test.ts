import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BASIC_TEXT_WARNING, EnvSecretStore, SafeStorageSecretStore } from '../../main/settings/secretStore.ts';
import { fakeSafeStorage } from './safeStorageFixture.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-secrets-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const KEY = 'sk-proj-' + 'Q7x9'.repeat(12);

async function everyFileText(root: string): Promise<string> {
  const names = await readdir(root);
  return (await Promise.all(names.map((n) => readFile(join(root, n), 'utf8')))).join('\n');
}

describe('SafeStorageSecretStore', () => {
  it('keeps only ciphertext on disk (mode 0600) and reads it back in a new process-like instance', async () => {
    const safeStorage = fakeSafeStorage();
    const warnings: string[] = [];
    const store = new SafeStorageSecretStore({ dataDir: dir, safeStorage, platform: 'linux', warn: (m) => warnings.push(m) });
    expect(await store.set('openrouter', KEY)).toEqual({ ok: true });
    expect(await store.has('openrouter')).toBe(true);

    const disk = await everyFileText(dir);
    expect(disk).not.toContain(KEY);
    expect(disk).not.toContain(Buffer.from(KEY).toString('base64'));
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);

    const again = new SafeStorageSecretStore({ dataDir: dir, safeStorage, platform: 'linux', warn: (m) => warnings.push(m) });
    expect(await again.get('openrouter')).toBe(KEY);
    expect(await again.names()).toEqual(['openrouter']);
    expect(again.knownValues()).toEqual([KEY]);
    expect(await again.delete('openrouter')).toBe(true);
    expect(await again.delete('openrouter')).toBe(false);
    expect(await again.get('openrouter')).toBeUndefined();
    expect(warnings).toEqual([]);
    expect(await again.backend()).toEqual({ name: 'gnome_libsecret', persistent: true, secure: true });
  });

  it('on Linux, warns (once) when the backend is basic_text and reports it as not secure', async () => {
    const warnings: string[] = [];
    const store = new SafeStorageSecretStore({ dataDir: dir, safeStorage: fakeSafeStorage({ backend: 'basic_text' }), platform: 'linux', warn: (m) => warnings.push(m) });
    await store.set('a', 'value-one');
    await store.set('b', 'value-two');
    expect(await store.get('a')).toBe('value-one');
    expect(warnings).toEqual([BASIC_TEXT_WARNING]);
    expect(await store.backend()).toMatchObject({ name: 'basic_text', secure: false, warning: BASIC_TEXT_WARNING });
  });

  it('names the OS store on macOS and Windows (no Linux backend call there)', async () => {
    const mac = new SafeStorageSecretStore({ dataDir: dir, safeStorage: fakeSafeStorage({ backend: 'basic_text' }), platform: 'darwin', warn: () => undefined });
    expect(await mac.backend()).toEqual({ name: 'keychain', persistent: true, secure: true });
    const win = new SafeStorageSecretStore({ dataDir: dir, safeStorage: fakeSafeStorage(), platform: 'win32', warn: () => undefined });
    expect((await win.backend()).name).toBe('dpapi');
  });

  it('refuses to store when no encryption is available, and writes nothing', async () => {
    const warnings: string[] = [];
    const store = new SafeStorageSecretStore({ dataDir: dir, safeStorage: fakeSafeStorage({ available: false }), platform: 'linux', warn: (m) => warnings.push(m) });
    const result = await store.set('openrouter', KEY);
    expect(result).toMatchObject({ ok: false, code: 'secrets-unavailable' });
    expect(await readdir(dir)).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(await store.set('bad name', 'x')).toMatchObject({ ok: false, code: 'bad-name' });
  });

  it('re-encrypts a value the OS asks to re-encrypt (key rotation)', async () => {
    const safeStorage = fakeSafeStorage();
    const store = new SafeStorageSecretStore({ dataDir: dir, safeStorage, platform: 'linux', warn: () => undefined });
    await store.set('k', KEY);
    const before = await readFile(store.path, 'utf8');
    safeStorage.rotate();
    expect(await store.get('k')).toBe(KEY);
    const after = await readFile(store.path, 'utf8');
    expect(after).not.toBe(before);
    // The new ciphertext decrypts with the new key alone.
    const fresh = new SafeStorageSecretStore({ dataDir: dir, safeStorage, platform: 'linux', warn: () => undefined });
    expect(await fresh.get('k')).toBe(KEY);
  });

  it('quick successive sets all land', async () => {
    const store = new SafeStorageSecretStore({ dataDir: dir, safeStorage: fakeSafeStorage(), platform: 'linux', warn: () => undefined });
    await Promise.all(['a', 'b', 'c', 'd'].map((n) => store.set(n, `value-${n}`)));
    expect(await store.names()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps a damaged secrets file aside instead of losing it', async () => {
    await writeFile(join(dir, 'secrets.json'), '{"version":1,"secrets":{"a":');
    const warnings: string[] = [];
    const store = new SafeStorageSecretStore({ dataDir: dir, safeStorage: fakeSafeStorage(), platform: 'linux', warn: (m) => warnings.push(m), now: () => new Date('2025-01-02T03:04:05Z') });
    expect(await store.names()).toEqual([]);
    expect(warnings[0]).toContain('secrets.json.bad-20250102T030405Z');
    expect(await readFile(join(dir, 'secrets.json.bad-20250102T030405Z'), 'utf8')).toContain('"secrets"');
  });
});

describe('EnvSecretStore (CLI and harness)', () => {
  it('reads keys from environment variables, by alias or by name, and keeps sets in memory only', async () => {
    const store = new EnvSecretStore({ OPENROUTER_API_KEY: KEY, other: 'x-value' }, { openrouter: 'OPENROUTER_API_KEY' });
    expect(await store.get('openrouter')).toBe(KEY);
    expect(await store.get('other')).toBe('x-value');
    expect(await store.has('missing')).toBe(false);
    expect(await store.set('session', 'typed-in-value')).toEqual({ ok: true });
    expect(await store.get('session')).toBe('typed-in-value');
    expect(await store.names()).toEqual(['openrouter', 'session']);
    expect(await store.backend()).toEqual({ name: 'env', persistent: false, secure: true });
    expect([...store.knownValues()].sort()).toEqual([KEY, 'typed-in-value', 'x-value'].sort());
  });
});
