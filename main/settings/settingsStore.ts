import { watch as watchFolder } from 'node:fs';
import { copyFile, mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { parseJsonc } from '../../common/jsonc.ts';
import { Settings, SettingsPatch, defaultSettings } from '../../common/settings.ts';
import { formatZodIssues } from '../../common/zodIssues.ts';
import { sweepAtomicTemps, writeFileAtomic } from '../fsAtomic.ts';
import type { SecretStore } from './secretStore.ts';
import { MIGRATIONS, mcpServerProblems, parseSettings, type Migration } from './settingsSchema.ts';
import { stamp } from './secretStore.ts';

const FILE_NAME = 'settings.json';
/** A temp file this old was left by a crash, not by a save in progress. */
const STALE_TEMP_MS = 60_000;

type SettingsLoad = {
  settings: Settings;
  /** Things a person should be told (recovered file, moved keys, ignored keys). */
  warnings: string[];
  /** Where an unreadable file was kept. */
  keptAs?: string;
};

type SettingsStoreOptions = {
  dataDir: string;
  /** Where plain-text keys found in the file are moved to. */
  secrets?: SecretStore;
  now?: () => Date;
  migrations?: Readonly<Record<number, Migration>>;
};

/**
 * `<dataDir>/settings.json`: versioned, zod-validated, written atomically. A file that cannot
 * be read as settings is never silently lost: it is kept as `settings.json.bad-<time>` and
 * the defaults are used, with a warning saying where it went.
 */
export class SettingsStore {
  readonly path: string;
  readonly #options: SettingsStoreOptions;
  #settings: Settings = defaultSettings();
  #queue: Promise<unknown> = Promise.resolve();
  readonly #listeners = new Set<(settings: Settings) => void>();
  /** The file's text as Glance last read or wrote it: a watch event that finds it unchanged is our own write. */
  #onDisk: string | undefined;

  constructor(options: SettingsStoreOptions) {
    this.#options = options;
    this.path = join(options.dataDir, FILE_NAME);
  }

  /** The settings last loaded or saved (defaults before `load`). */
  current(): Settings {
    return this.#settings;
  }

  async load(): Promise<SettingsLoad> {
    await mkdir(this.#options.dataDir, { recursive: true });
    await sweepAtomicTemps(this.#options.dataDir, { graceMs: STALE_TEMP_MS, file: FILE_NAME, now: this.#now().getTime() });
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.#settings = defaultSettings();
      return { settings: this.#settings, warnings: [] };
    }
    this.#onDisk = text;
    const parsed = this.#parse(text);
    if (!parsed.ok) {
      const reason = parsed.message;
      const keptAs = `${this.path}.bad-${stamp(this.#now())}`;
      await rename(this.path, keptAs);
      this.#settings = defaultSettings();
      return {
        settings: this.#settings,
        warnings: [`Settings could not be read — ${reason}. Glance is using the defaults; your file was kept as ${keptAs}.`],
        keptAs,
      };
    }

    const warnings = [...parsed.warnings];
    if (parsed.salvaged?.length) {
      // Read field by field: what could be read applies (privacy and tool approval included), the
      // rest keeps its defaults; the file is copied aside as written and not rewritten now.
      const keptAs = `${this.path}.bad-${stamp(this.#now())}`;
      await copyFile(this.path, keptAs);
      this.#settings = parsed.settings;
      warnings.push(`Settings: ${parsed.salvaged.map((f) => `"${f}"`).join(', ')} could not be read and use ${parsed.salvaged.length === 1 ? 'its default' : 'their defaults'}; everything else in the file applies. Your file was copied to ${keptAs}.`);
      return { settings: this.#settings, warnings, keptAs };
    }
    let rewrite = parsed.migratedFrom !== undefined;
    if (parsed.extractedSecrets.length > 0) {
      const secrets = this.#options.secrets;
      if (!secrets) throw new Error('settings.json holds an API key but no secret store was given to move it to');
      for (const s of parsed.extractedSecrets) {
        const stored = await secrets.set(s.name, s.value);
        if (!stored.ok) {
          // Keep the file as it is rather than lose the key; the user sees why.
          warnings.push(`could not move the API key of endpoint "${s.endpoint}" into the secret store: ${stored.message}`);
          this.#settings = parsed.settings;
          return { settings: this.#settings, warnings };
        }
      }
      rewrite = true;
    }
    this.#settings = parsed.settings;
    if (rewrite) await this.#write(parsed.settings);
    return { settings: this.#settings, warnings };
  }

  /**
   * Applies hand edits of the file while Glance runs: a readable edit becomes the settings
   * (every listener hears it, as after a save from the UI); one that cannot be read is left in
   * the file as it is, the settings in use stay, and `onProblem` says why. Answers a stop.
   */
  watch(options: { onProblem: (message: string) => void; onApplied?: (warnings: string[]) => void }): () => void {
    // The folder, not the file: a save (ours or an editor's) replaces the file by a rename.
    let pending: ReturnType<typeof setTimeout> | undefined;
    const watcher = watchFolder(this.#options.dataDir, (_event, name) => {
      if (name !== null && name !== FILE_NAME) return;
      // An editor writes in steps (truncate, write, rename): read once they have settled.
      clearTimeout(pending);
      pending = setTimeout(() => void this.#enqueue(() => this.#reread(options)), 50);
    });
    watcher.on('error', (error) => options.onProblem(`Glance stopped following edits of ${this.path}: ${error.message}. Restart Glance to apply an edit.`));
    return () => {
      clearTimeout(pending);
      watcher.close();
    };
  }

  async #reread(options: { onProblem: (message: string) => void; onApplied?: (warnings: string[]) => void }): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      // Gone (mid-rename, or deleted): the next write brings it back; nothing to apply.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      options.onProblem(`${this.path} was changed but cannot be read: ${(error as Error).message}. Glance keeps the settings it has.`);
      return;
    }
    if (text === this.#onDisk) return;
    this.#onDisk = text;
    const parsed = this.#parse(text, this.#settings);
    if (!parsed.ok) {
      options.onProblem(`Your edit of ${this.path} was not applied — ${parsed.message}. Glance keeps the settings it has; fix the file and save it again.`);
      return;
    }
    const warnings = [...parsed.warnings];
    for (const s of parsed.extractedSecrets) {
      const stored = await this.#options.secrets?.set(s.name, s.value);
      if (!stored?.ok) {
        options.onProblem(`Your edit of ${this.path} was not applied: the API key of endpoint "${s.endpoint}" could not be moved into the secret store${stored ? ` (${stored.message})` : ''}.`);
        return;
      }
    }
    // A key typed into the file, or an older version: written back at once in the current form.
    if (parsed.extractedSecrets.length > 0 || parsed.migratedFrom !== undefined) await this.#write(parsed.settings);
    else this.#apply(parsed.settings);
    options.onApplied?.(warnings);
  }

  /** The file's text as settings (JSONC: a hand edit may carry comments and trailing commas). */
  #parse(text: string, lastGood?: Settings): ReturnType<typeof parseSettings> {
    let raw: unknown;
    try {
      raw = parseJsonc(text);
    } catch (error) {
      return { ok: false, message: `it is not valid JSON (${(error as Error).message})` };
    }
    return parseSettings(raw, this.#options.migrations ?? MIGRATIONS, lastGood);
  }

  async save(settings: Settings): Promise<Settings> {
    const checked = Settings.parse(settings);
    await this.#enqueue(() => this.#write(checked));
    return checked;
  }

  /** Replace the sections a patch names; the result is validated as a whole before it is written. */
  async update(patch: SettingsPatch): Promise<{ ok: true; settings: Settings } | { ok: false; code: 'invalid'; message: string }> {
    const checkedPatch = SettingsPatch.safeParse(patch);
    if (!checkedPatch.success) return { ok: false, code: 'invalid', message: formatZodIssues(checkedPatch.error) };
    // Servers typed in the UI get the MCP hub's own check now, not when they fail to start.
    const problems = checkedPatch.data.mcpServers ? mcpServerProblems(checkedPatch.data.mcpServers) : [];
    if (problems.length > 0) return { ok: false, code: 'invalid', message: problems.join('; ') };
    return this.#enqueue(async () => {
      const next = Settings.safeParse({ ...this.#settings, ...definedOnly(checkedPatch.data) });
      if (!next.success) return { ok: false as const, code: 'invalid' as const, message: formatZodIssues(next.error) };
      await this.#write(next.data);
      return { ok: true as const, settings: next.data };
    });
  }


  onChange(listener: (settings: Settings) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async #write(settings: Settings): Promise<void> {
    await mkdir(this.#options.dataDir, { recursive: true });
    const text = JSON.stringify(settings, null, 2) + '\n';
    this.#onDisk = text;
    await writeFileAtomic(this.path, text, { mode: 0o600 });
    this.#apply(settings);
  }

  #apply(settings: Settings): void {
    this.#settings = settings;
    for (const listener of this.#listeners) listener(settings);
  }

  /** Writes run one at a time: an update reads the settings the previous one wrote. */
  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(task, task);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #now(): Date {
    return this.#options.now?.() ?? new Date();
  }
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}
