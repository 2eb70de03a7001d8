import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { SecretBackendInfo } from '../../common/ipc.ts';
import { SecretName } from '../../common/settings.ts';
import { writeFileAtomic } from '../fsAtomic.ts';

/**
 * API keys (architecture §8): never in settings.json, never logged, never sent to the renderer
 * (which sees only `{ name, set }`). The app keeps them encrypted with Electron's
 * `safeStorage`; the CLI and the harness read them from environment variables only.
 */
type SecretResult = { ok: true } | { ok: false; code: 'secrets-unavailable' | 'bad-name' | 'write-failed'; message: string };

export interface SecretStore {
  set(name: string, value: string): Promise<SecretResult>;
  get(name: string): Promise<string | undefined>;
  has(name: string): Promise<boolean>;
  /** True when something was deleted. */
  delete(name: string): Promise<boolean>;
  /** Names of the stored keys (never values). */
  names(): Promise<string[]>;
  backend(): Promise<SecretBackendInfo>;
  /** Values this process has read or written, for `scrubSecrets()`. */
  knownValues(): readonly string[];
}

/**
 * The part of Electron's `safeStorage` this uses (its async API, Electron ≥ 39). Declared
 * structurally so this module runs under plain Node; Electron's object fits it.
 */
export type SafeStorageLike = {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Uint8Array>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  /** Linux only. */
  getSelectedStorageBackend?(): string;
};

const SecretsFile = z.object({
  version: z.literal(1),
  /** name → base64 of safeStorage ciphertext. */
  secrets: z.record(SecretName, z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/)),
});
type SecretsFile = z.infer<typeof SecretsFile>;

const FILE_NAME = 'secrets.json';

export const BASIC_TEXT_WARNING =
  'API keys are stored with the "basic_text" backend: no keyring (GNOME Keyring/KWallet) was found, so they are only ' +
  'obfuscated on disk, not encrypted. Install or unlock a keyring, or start Glance with --password-store=gnome-libsecret.';

type SafeStorageSecretStoreOptions = {
  dataDir: string;
  safeStorage: SafeStorageLike;
  platform: NodeJS.Platform;
  /** Told once about an insecure or unavailable backend, and about a damaged secrets file. */
  warn: (message: string) => void;
  now?: () => Date;
};

/** Ciphertext from `safeStorage` in `<dataDir>/secrets.json` (mode 0600), written atomically. */
export class SafeStorageSecretStore implements SecretStore {
  readonly path: string;
  readonly #options: SafeStorageSecretStoreOptions;
  #file: SecretsFile | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #known = new Set<string>();
  #warned = false;

  constructor(options: SafeStorageSecretStoreOptions) {
    this.#options = options;
    this.path = join(options.dataDir, FILE_NAME);
  }

  async backend(): Promise<SecretBackendInfo> {
    const available = await this.#options.safeStorage.isAsyncEncryptionAvailable();
    if (!available) {
      return { name: 'unavailable', persistent: false, secure: false, warning: 'No OS encryption is available: API keys cannot be saved. Use an environment variable instead.' };
    }
    switch (this.#options.platform) {
      case 'darwin':
        return { name: 'keychain', persistent: true, secure: true };
      case 'win32':
        return { name: 'dpapi', persistent: true, secure: true };
      default: {
        const name = this.#options.safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
        if (name === 'basic_text') return { name, persistent: true, secure: false, warning: BASIC_TEXT_WARNING };
        return { name, persistent: true, secure: name !== 'unknown' };
      }
    }
  }

  async set(name: string, value: string): Promise<SecretResult> {
    if (!SecretName.safeParse(name).success) return { ok: false, code: 'bad-name', message: `"${name}" is not a valid key name` };
    const info = await this.#checkedBackend();
    if (info.name === 'unavailable') return { ok: false, code: 'secrets-unavailable', message: info.warning ?? 'no encryption available' };
    const cipher = await this.#options.safeStorage.encryptStringAsync(value);
    this.#known.add(value);
    return this.#mutate((file) => {
      file.secrets[name] = Buffer.from(cipher).toString('base64');
    });
  }

  async get(name: string): Promise<string | undefined> {
    const file = await this.#load();
    const stored = file.secrets[name];
    if (stored === undefined) return undefined;
    const info = await this.#checkedBackend();
    if (info.name === 'unavailable') return undefined;
    const { result, shouldReEncrypt } = await this.#options.safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'));
    this.#known.add(result);
    // The OS key rotated or got stronger: store the value under the new key.
    if (shouldReEncrypt) await this.set(name, result);
    return result;
  }

  async has(name: string): Promise<boolean> {
    return (await this.#load()).secrets[name] !== undefined;
  }

  async delete(name: string): Promise<boolean> {
    if (!(await this.has(name))) return false;
    const result = await this.#mutate((file) => {
      delete file.secrets[name];
    });
    return result.ok;
  }

  async names(): Promise<string[]> {
    return Object.keys((await this.#load()).secrets).sort();
  }

  knownValues(): readonly string[] {
    return [...this.#known];
  }

  async #checkedBackend(): Promise<SecretBackendInfo> {
    const info = await this.backend();
    if (info.warning && !this.#warned) {
      this.#warned = true;
      this.#options.warn(info.warning);
    }
    return info;
  }

  async #load(): Promise<SecretsFile> {
    if (this.#file) return this.#file;
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return (this.#file = { version: 1, secrets: {} });
      throw error;
    }
    let parsed: SecretsFile | undefined;
    try {
      const result = SecretsFile.safeParse(JSON.parse(text));
      if (result.success) parsed = result.data;
    } catch {
      parsed = undefined;
    }
    if (!parsed) {
      // Never lose the file silently: keep it aside (it may still decrypt) and start empty.
      const aside = `${this.path}.bad-${stamp(this.#options.now?.() ?? new Date())}`;
      await rename(this.path, aside);
      this.#options.warn(`The secrets file was damaged; it was kept as ${aside} and API keys must be entered again.`);
      parsed = { version: 1, secrets: {} };
    }
    return (this.#file = parsed);
  }

  /** Changes run one at a time so two quick `set`s cannot lose one another. */
  #mutate(change: (file: SecretsFile) => void): Promise<SecretResult> {
    const run = async (): Promise<SecretResult> => {
      const file = structuredClone(await this.#load());
      change(file);
      try {
        await writeFileAtomic(this.path, JSON.stringify(file, null, 2) + '\n', { mode: 0o600 });
      } catch (error) {
        return { ok: false, code: 'write-failed', message: `could not write ${this.path}: ${(error as Error).message}` };
      }
      this.#file = file;
      return { ok: true };
    };
    const next = this.#queue.then(run, run);
    this.#queue = next;
    return next;
  }
}

/**
 * For the CLI and the harness: keys come from environment variables (a key named
 * "openrouter" is read from `aliases.openrouter`, else from the variable of the same name).
 * `set` keeps a value in memory for this process only: nothing reaches the disk.
 */
export class EnvSecretStore implements SecretStore {
  readonly #env: NodeJS.ProcessEnv;
  readonly #aliases: Readonly<Record<string, string>>;
  readonly #memory = new Map<string, string>();
  readonly #known = new Set<string>();

  constructor(env: NodeJS.ProcessEnv, aliases: Readonly<Record<string, string>> = {}) {
    this.#env = env;
    this.#aliases = aliases;
  }

  async set(name: string, value: string): Promise<SecretResult> {
    if (!SecretName.safeParse(name).success) return { ok: false, code: 'bad-name', message: `"${name}" is not a valid key name` };
    this.#memory.set(name, value);
    this.#known.add(value);
    return { ok: true };
  }

  async get(name: string): Promise<string | undefined> {
    const value = this.#memory.get(name) ?? this.#env[this.#aliases[name] ?? name];
    if (value === undefined || value === '') return undefined;
    this.#known.add(value);
    return value;
  }

  async has(name: string): Promise<boolean> {
    return (await this.get(name)) !== undefined;
  }

  async delete(name: string): Promise<boolean> {
    return this.#memory.delete(name);
  }

  async names(): Promise<string[]> {
    const fromEnv = Object.keys(this.#aliases).filter((n) => this.#env[this.#aliases[n] ?? ''] !== undefined);
    return [...new Set([...this.#memory.keys(), ...fromEnv])].sort();
  }

  async backend(): Promise<SecretBackendInfo> {
    return { name: 'env', persistent: false, secure: true };
  }

  knownValues(): readonly string[] {
    return [...this.#known];
  }
}

/** "2025-03-01T12:00:00.000Z" → "20250301T120000Z" (safe in a Windows file name). */
export function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}
