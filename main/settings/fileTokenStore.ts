// The CLI's MCP sign-ins (OAuth tokens, client registrations), kept between runs the way `gh`
// keeps its token: one JSON file in the config dir, `mcp-tokens.json`, readable by the user
// only (0600, its folder 0700), written atomically. Never in settings.json and never printed:
// every token read or written is known to scrubSecrets(). The app keeps them in its safeStorage
// secret store instead (encrypted by the OS keyring).
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../fsAtomic.ts';

export const TOKEN_FILE = 'mcp-tokens.json';
/** Keys whose values are secrets inside a stored sign-in (tokens, a client secret). */
const SECRET_KEYS = new Set(['access_token', 'refresh_token', 'id_token', 'client_secret']);

/** Fits the MCP sign-in's TokenStore (main/mcp/mcpOAuth.ts) by shape: settings does not import mcp. */
export class FileTokenStore {
  readonly path: string;
  readonly #known = new Set<string>();
  readonly #warn: (message: string) => void;
  /** Writes one after another: a sign-in saves tokens and registration close together. */
  #writing: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string, options: { warn?: (message: string) => void } = {}) {
    this.path = join(dataDir, TOKEN_FILE);
    this.#warn = options.warn ?? (() => undefined);
  }

  async get(name: string): Promise<string | undefined> {
    const value = (await this.#read())[name];
    if (value !== undefined) this.#remember(value);
    return value;
  }

  set(name: string, value: string): Promise<void> {
    this.#remember(value);
    return this.#update((all) => void (all[name] = value));
  }

  delete(name: string): Promise<void> {
    return this.#update((all) => void delete all[name]);
  }

  /** Tokens this process has read or written, for scrubSecrets(). */
  knownValues(): readonly string[] {
    return [...this.#known];
  }

  #update(change: (all: Record<string, string>) => void): Promise<void> {
    const run = this.#writing.then(async () => {
      const all = await this.#read();
      change(all);
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      await writeFileAtomic(this.path, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
      await chmod(this.path, 0o600); // whatever the umask did
    });
    this.#writing = run.catch(() => undefined);
    return run;
  }

  async #read(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
      }
    } catch {
      // falls through
    }
    this.#warn(`${this.path} is not a JSON object of sign-ins; MCP servers will ask to sign in again (it is replaced on the next sign-in).`);
    return {};
  }

  #remember(value: string): void {
    this.#known.add(value);
    try {
      collectSecrets(JSON.parse(value) as unknown, this.#known);
    } catch {
      // a plain value: known as a whole
    }
  }
}

function collectSecrets(value: unknown, into: Set<string>): void {
  if (!value || typeof value !== 'object') return;
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string' && SECRET_KEYS.has(key) && v.length >= 8) into.add(v);
    else collectSecrets(v, into);
  }
}
