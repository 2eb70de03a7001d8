// Importing an `mcpServers` file in Settings. Apart from the MCP slice because it needs the
// zod schemas (common/mcpConfig.ts, common/settings.ts): only the Settings chunk loads them,
// which keeps zod out of the script the first screen waits for.
import { formatConfigError, parseMcpConfig } from '../../common/mcpConfig.ts';
import { McpServers, type Settings } from '../../common/settings.ts';
import { firstJsonMistake } from './jsonSpot.ts';
import { errorMessage } from '../../common/errors.ts';

/**
 * Reads a Claude-desktop-style file (`{ "mcpServers": { … } }`, or the bare map) and merges
 * it over the current servers. Answers the merged map, or why the file is not usable.
 */
export function importMcpServers(
  current: Settings['mcpServers'],
  fileText: string,
  /** Where the text came from, for the words: an imported file, or the Servers box. */
  from: 'file' | 'box' = 'file',
): { ok: true; servers: Settings['mcpServers']; added: string[]; warnings: string[] } | { ok: false; message: string; where?: JsonSpot } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fileText);
  } catch (error) {
    const at = jsonErrorAt(fileText, error);
    return { ok: false, message: `${from === 'file' ? 'The file is' : 'The servers are'} not JSON: ${at.message}`, ...(at.where ? { where: at.where } : {}) };
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

/** Where in the text a JSON mistake is: 1-based line and column, and the offset to put the caret at. */
type JsonSpot = { line: number; column: number; offset: number };

/**
 * A JSON mistake in a person's words, pointing at the line: "Line 4, column 5: expected a comma
 * or }. Line 4 reads: "args": []" instead of "Unexpected token ',', … is not valid JSON".
 */
export function jsonErrorAt(text: string, error: unknown): { message: string; where?: JsonSpot } {
  const mistake = firstJsonMistake(text);
  if (!mistake) return { message: `${errorMessage(error)}.` };
  const { offset } = mistake;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  const shown = (text.split('\n')[line - 1] ?? '').trim();
  const found = offset >= text.length ? 'the text ends' : `found ${JSON.stringify(text[offset])}`;
  const quoted = shown ? ` Line ${line} reads: ${shown.length > 80 ? `${shown.slice(0, 77)}…` : shown}` : '';
  return { message: `Line ${line}, column ${column}: expected ${mistake.expected}, ${found}.${quoted}`, where: { line, column, offset } };
}
