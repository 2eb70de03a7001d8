import { SETTINGS_SECTIONS, SETTINGS_VERSION, SecretName, Settings } from '../../common/settings.ts';
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
  | { ok: true; settings: Settings; warnings: string[]; extractedSecrets: ExtractedSecret[]; migratedFrom?: number }
  | { ok: false; message: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseSettings(raw: unknown, migrations: Readonly<Record<number, Migration>> = MIGRATIONS): ParsedSettings {
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
  if (!parsed.success) return { ok: false, message: formatZodIssues(parsed.error) };
  // A bad MCP entry stays in the file (the hub reports it when it starts); the user hears now.
  for (const problem of mcpServerProblems(parsed.data.mcpServers)) warnings.push(`MCP ${problem}`);
  return {
    ok: true,
    settings: parsed.data,
    warnings,
    extractedSecrets: extracted,
    ...(declared !== SETTINGS_VERSION ? { migratedFrom: declared } : {}),
  };
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

