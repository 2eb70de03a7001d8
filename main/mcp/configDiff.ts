// What reconfigure() compares: one server's config against the running one's, and the
// servers a config names but could not parse.
import type { McpConfig } from './config.ts';
import type { McpServerHealth } from './hubTypes.ts';

export function invalidServers(config: McpConfig): McpServerHealth[] {
  const out: McpServerHealth[] = [];
  for (const error of config.errors) {
    if (error.server === undefined || out.some((s) => s.name === error.server)) continue;
    out.push({ name: error.server, transport: undefined, state: 'invalid', message: `${error.field ? `field "${error.field}": ` : ''}${error.message}`, tools: 0, restarts: 0 });
  }
  return out;
}

/** Same server config, whatever the key order (settings written by hand or by another client). */
export function sameConfig(a: unknown, b: unknown): boolean {
  return stableJson(a) === stableJson(b);
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) : v,
  );
}
