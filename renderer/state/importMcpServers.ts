// Importing an `mcpServers` file in Settings. Apart from the MCP slice because it needs the
// zod schemas (common/mcpConfig.ts, common/settings.ts): only the Settings chunk loads them,
// which keeps zod out of the script the first screen waits for.
import { formatConfigError, parseMcpConfig } from '../../common/mcpConfig.ts';
import { McpServers, type Settings } from '../../common/settings.ts';

/**
 * Reads a Claude-desktop-style file (`{ "mcpServers": { … } }`, or the bare map) and merges
 * it over the current servers. Answers the merged map, or why the file is not usable.
 */
export function importMcpServers(
  current: Settings['mcpServers'],
  fileText: string,
): { ok: true; servers: Settings['mcpServers']; added: string[]; warnings: string[] } | { ok: false; message: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fileText);
  } catch (error) {
    return { ok: false, message: `The file is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  // Claude Desktop / Cursor / Windsurf / Cline: `mcpServers`; VS Code: `servers`; or the bare map.
  const root = parsed !== null && typeof parsed === 'object' ? (parsed as { mcpServers?: unknown; servers?: unknown }) : undefined;
  const map = root?.mcpServers ?? root?.servers ?? parsed;
  // The same per-server check the MCP hub applies, so what the UI accepts will start.
  const strict = parseMcpConfig({ mcpServers: map });
  const problem = strict.errors[0];
  if (problem) {
    const where = [problem.server, problem.field].filter(Boolean).join('.');
    return { ok: false, message: `Not an mcpServers file: ${where ? `${where}: ` : ''}${problem.message}` };
  }
  const checked = McpServers.safeParse(map);
  if (!checked.success) return { ok: false, message: 'Not an mcpServers file: it must be an object of named servers' };
  // Keys Glance does not use are kept in the entry and named, never dropped silently.
  return { ok: true, servers: { ...current, ...checked.data }, added: Object.keys(checked.data), warnings: strict.warnings.map(formatConfigError) };
}
