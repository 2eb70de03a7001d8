import type { z } from 'zod';
import { SETTINGS_SECTIONS, SETTINGS_VERSION, SecretName, Settings, defaultSettings } from '../../common/settings.ts';
import { formatConfigError, parseMcpConfig } from '../../common/mcpConfig.ts';
import { formatZodIssues } from '../../common/zodIssues.ts';

/**
 * Reading a settings file: version check, migrations, validation. The zod schema itself is
 * `Settings` in common/settings.ts (the IPC contract carries it); this is the file side.
 */

/** Turns a file of version N into version N+1. */
export type Migration = (raw: Record<string, unknown>) => Record<string, unknown>;

/**
 * Keyed by the version they upgrade from. Version 0 is a file without a `version` field:
 * one written by hand, or a bare `{ "mcpServers": … }` file copied in. It reads as version 1.
 */
export const MIGRATIONS: Readonly<Record<number, Migration>> = Object.freeze({
  0: (raw) => ({ ...raw, version: 1 }),
});

/** A plain-text key found in the file, to move into the secret store. */
type ExtractedSecret = { name: string; value: string; endpoint: string };

type ParsedSettings =
  | {
      ok: true;
      settings: Settings;
      warnings: string[];
      extractedSecrets: ExtractedSecret[];
      migratedFrom?: number;
      /** Fields that could not be read, each kept at its value in `base` (the last good settings, else the defaults). */
      salvaged?: string[];
    }
  | { ok: false; message: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseSettings(raw: unknown, migrations: Readonly<Record<number, Migration>> = MIGRATIONS, base?: Settings): ParsedSettings {
  if (!isRecord(raw)) return { ok: false, message: 'the file does not hold a JSON object' };
  const declared = raw.version ?? 0;
  if (typeof declared !== 'number' || !Number.isInteger(declared) || declared < 0) {
    return { ok: false, message: `"version" must be a whole number, found ${JSON.stringify(declared)}` };
  }
  if (declared > SETTINGS_VERSION) {
    return { ok: false, message: `written by a newer Glance (settings version ${declared}; this one reads up to ${SETTINGS_VERSION})` };
  }
  let current: Record<string, unknown> = raw;
  for (let v = declared; v < SETTINGS_VERSION; v++) {
    const step = migrations[v];
    if (!step) return { ok: false, message: `no migration from settings version ${v}` };
    current = step(current);
  }

  const warnings: string[] = [];
  const known = new Set<string>(['version', ...SETTINGS_SECTIONS]);
  for (const key of Object.keys(current)) {
    if (!known.has(key)) warnings.push(`ignored unknown setting "${key}"`);
  }
  const { value: withoutKeys, extracted } = extractPlainTextKeys(current);
  for (const s of extracted) {
    warnings.push(`moved the API key of endpoint "${s.endpoint}" out of settings.json into the secret store (as "${s.name}")`);
  }

  const parsed = Settings.safeParse(withoutKeys);
  // One bad field never costs the others (architecture §3b "Fail closed"): a typo in the hotkey
  // must not drop `privacy.redact: "always"` or a tool's deny rule. Each field that cannot be read
  // keeps its value in `base` — the last good settings, else the defaults — and is named.
  const salvage = parsed.success ? undefined : salvageSettings(withoutKeys, base ?? defaultSettings(), base ? 'the value it had' : 'its default');
  const settings = parsed.success ? parsed.data : salvage!.settings;
  for (const problem of salvage?.problems ?? []) warnings.push(problem.message);
  // A bad MCP entry stays in the file (the hub reports it when it starts); the user hears now.
  for (const problem of mcpServerProblems(settings.mcpServers)) warnings.push(`MCP ${problem}`);
  return {
    ok: true,
    settings,
    warnings,
    extractedSecrets: extracted,
    ...(declared !== SETTINGS_VERSION ? { migratedFrom: declared } : {}),
    ...(salvage ? { salvaged: salvage.problems.map((p) => p.field) } : {}),
  };
}

/**
 * The file's readable fields over `base`, a section's good fields kept when another of its fields is bad.
 * Each unreadable field is named with what is wrong and the value kept instead.
 */
function salvageSettings(raw: Record<string, unknown>, base: Settings, kept: string): { settings: Settings; problems: { field: string; message: string }[] } {
  let current: Settings = structuredClone(base);
  const problems: { field: string; message: string }[] = [];
  const keep = (field: string, error: z.ZodError) =>
    problems.push({ field, message: `"${field}" could not be read (${formatZodIssues(error)}): it keeps ${kept}, and the rest of the file applies` });
  const known = new Set<string>(SETTINGS_SECTIONS);
  for (const [key, value] of Object.entries(raw)) {
    if (!known.has(key)) continue;
    const whole = Settings.safeParse({ ...current, [key]: value });
    if (whole.success) {
      current = whole.data;
      continue;
    }
    const section = (current as Record<string, unknown>)[key];
    if (!isRecord(value) || !isRecord(section)) {
      keep(key, whole.error);
      continue;
    }
    let good: Record<string, unknown> = { ...section };
    for (const [sub, v] of Object.entries(value)) {
      const tried = Settings.safeParse({ ...current, [key]: { ...good, [sub]: v } });
      if (tried.success) good = (tried.data as Record<string, unknown>)[key] as Record<string, unknown>;
      else keep(`${key}.${sub}`, tried.error);
    }
    current = Settings.parse({ ...current, [key]: good });
  }
  return { settings: current, problems };
}

/**
 * A key typed into the file by hand (`"apiKey": "sk-…"` on an endpoint) must not stay there:
 * take it out, name it with `apiKeyRef`, and hand it to the caller for the secret store.
 */
function extractPlainTextKeys(raw: Record<string, unknown>): { value: Record<string, unknown>; extracted: ExtractedSecret[] } {
  const providers = raw.providers;
  if (!isRecord(providers) || !Array.isArray(providers.openai)) return { value: raw, extracted: [] };
  const extracted: ExtractedSecret[] = [];
  const openai = providers.openai.map((endpoint: unknown) => {
    if (!isRecord(endpoint) || !('apiKey' in endpoint)) return endpoint;
    const { apiKey, ...rest } = endpoint;
    const name = typeof endpoint.name === 'string' ? endpoint.name : 'endpoint';
    if (typeof apiKey === 'string' && apiKey !== '') {
      const ref = SecretName.safeParse(rest.apiKeyRef).success ? (rest.apiKeyRef as string) : secretNameFor(name);
      extracted.push({ name: ref, value: apiKey, endpoint: name });
      return { ...rest, apiKeyRef: ref };
    }
    return rest;
  });
  return { value: { ...raw, providers: { ...providers, openai } }, extracted };
}

/** "Open Router" → "open-router-api-key". */
function secretNameFor(endpointName: string): string {
  const slug = endpointName.toLowerCase().replace(/[^a-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50) || 'endpoint';
  return `${slug}-api-key`;
}

/** What main/mcp/config.ts (the authoritative check) finds wrong, one line per problem. */
export function mcpServerProblems(servers: Record<string, unknown>): string[] {
  return parseMcpConfig({ mcpServers: servers }).errors.map(formatConfigError);
}

