import { isSecretEntry } from '../../common/mcpConfig.ts';
import type { McpServerEntry, Settings, SettingsPatch } from '../../common/settings.ts';

/**
 * MCP server configs often carry tokens in `env` or `headers` (the `mcpServers` format has
 * nowhere else for them). The renderer sees such values masked; a patch that sends the mask
 * back keeps the stored value, so editing one server never wipes another's token.
 */
export const MASK = '••••••••';
const FIELDS = ['env', 'headers'] as const;
type Field = (typeof FIELDS)[number];

function mapServer(config: McpServerEntry, f: (field: Field, key: string, value: string) => string | undefined): McpServerEntry {
  const out = { ...config };
  for (const field of FIELDS) {
    const values = config[field];
    if (!values) continue;
    const mapped: Record<string, string> = {};
    for (const [k, v] of Object.entries(values)) {
      const next = f(field, k, v);
      if (next !== undefined) mapped[k] = next;
    }
    out[field] = mapped;
  }
  return out;
}


export function maskSettings(settings: Settings): Settings {
  const mcpServers: Settings['mcpServers'] = {};
  for (const [name, config] of Object.entries(settings.mcpServers)) {
    mcpServers[name] = mapServer(config, (_field, k, v) => (isSecretEntry(k, v) ? MASK : v));
  }
  return { ...settings, mcpServers };
}

/** Put the stored values back where the patch still holds the mask; a mask with nothing behind it is dropped. */
export function unmaskPatch(patch: SettingsPatch, current: Settings): SettingsPatch {
  if (!patch.mcpServers) return patch;
  const mcpServers: Settings['mcpServers'] = {};
  for (const [name, config] of Object.entries(patch.mcpServers)) {
    const stored = current.mcpServers[name];
    mcpServers[name] = mapServer(config, (field, k, v) => (v === MASK ? stored?.[field]?.[k] : v));
  }
  return { ...patch, mcpServers };
}

/** Every value the mask hides, for `scrubSecrets()`. */
export function mcpSecretValues(settings: Settings): string[] {
  const out: string[] = [];
  for (const config of Object.values(settings.mcpServers)) {
    mapServer(config, (_field, k, v) => {
      if (isSecretEntry(k, v)) out.push(v);
      return v;
    });
  }
  return out;
}
