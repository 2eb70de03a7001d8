// Importing MCP servers in Settings: a pasted or imported file in the shapes people have —
// Claude Desktop's `mcpServers`, VS Code's mcp.json (`servers` + `inputs`, JSONC with comments
// and trailing commas), or the bare map. Apart from the MCP slice because it needs the zod
// schemas (common/mcpConfig.ts, common/settings.ts): only the Settings chunk loads them, which
// keeps zod out of the script the first screen waits for.
import { parseJsonc, stripJsonComments } from '../../common/jsonc.ts';
import { formatConfigError, parseMcpConfig } from '../../common/mcpConfig.ts';
import { McpInputEntry, McpServerEntry, type Settings } from '../../common/settings.ts';
import { firstJsonMistake } from './jsonSpot.ts';
import { errorMessage } from '../../common/errors.ts';

type Servers = Settings['mcpServers'];
type Inputs = Settings['mcpInputs'];

/** An entry that was not imported, and why, in words a person can act on. */
export type RejectedServer = { name: string; reason: string; entry: unknown };

type Imported = {
  ok: true;
  /** The current servers with the good entries of the text over them. */
  servers: Servers;
  /** The current inputs with the text's over them (by id). */
  inputs: Inputs;
  added: string[];
  rejected: RejectedServer[];
  warnings: string[];
};

/**
 * Reads the text and merges its good entries over the current servers (and its `inputs` over
 * the current ones). One bad entry costs only itself: it is named in `rejected`. Answers
 * `ok: false` only when the text cannot be read at all or holds no usable server.
 */
export function importMcpServers(
  current: Servers,
  fileText: string,
  /** Where the text came from, for the words: an imported file, or the Servers box. */
  from: 'file' | 'box' = 'file',
  currentInputs: Inputs = [],
): Imported | { ok: false; message: string; where?: JsonSpot; rejected?: RejectedServer[] } {
  let parsed: unknown;
  try {
    parsed = parseJsonc(fileText);
  } catch (error) {
    const at = jsonErrorAt(stripJsonComments(fileText), error, fileText);
    return { ok: false, message: `${from === 'file' ? 'The file is' : 'The servers are'} not JSON: ${at.message}`, ...(at.where ? { where: at.where } : {}) };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, message: 'Not an mcpServers file: it must be an object of named servers' };
  }
  // Claude Desktop / Cursor / Windsurf / Cline: `mcpServers`; VS Code: `servers` (+ `inputs`),
  // in mcp.json or under "mcp" in its settings.json; or the bare map.
  const outer = parsed as { mcp?: unknown };
  const root = (isObject(outer.mcp) && !('command' in outer.mcp) && !('url' in outer.mcp) ? outer.mcp : parsed) as { mcpServers?: unknown; servers?: unknown; inputs?: unknown };
  const wrapped = root.mcpServers !== undefined || root.servers !== undefined || (Array.isArray(root.inputs) && Object.keys(root).length === 1);
  const map = root.mcpServers ?? root.servers ?? (wrapped ? {} : root);
  if (!isObject(map)) {
    return { ok: false, message: `Not an mcpServers file: "${root.mcpServers !== undefined ? 'mcpServers' : 'servers'}" must be an object of named servers` };
  }
  const rawInputs = wrapped ? root.inputs : undefined;
  // The same per-server check the MCP hub applies, so what is imported will start.
  const strict = parseMcpConfig({ mcpServers: map, ...(rawInputs !== undefined ? { inputs: rawInputs } : {}) });
  const entries = map as Record<string, unknown>;
  const good: Servers = {};
  const rejected: RejectedServer[] = [];
  for (const [name, entry] of Object.entries(entries)) {
    const problems = strict.errors.filter((e) => e.server === name);
    const shape = McpServerEntry.safeParse(entry);
    if (problems.length === 0 && strict.servers.has(name) && shape.success) good[name] = shape.data;
    else rejected.push({ name, entry, reason: problems.length ? problems.map(plainProblem).join('; ') : 'not a server entry' });
  }
  const { inputs, notes } = readInputs(rawInputs);
  // An empty box is a choice (no servers); a file with nothing in it is a mistake.
  if (Object.keys(good).length === 0 && (rejected.length > 0 || (from === 'file' && inputs.length === 0))) {
    const why = rejected.length ? `nothing could be imported: ${describeRejected(rejected)}` : 'it names no servers';
    return { ok: false, message: `Not an mcpServers file: ${why}`, ...(rejected.length ? { rejected } : {}) };
  }
  const fileProblems = strict.errors.filter((e) => e.server === undefined).map(formatConfigError);
  return {
    ok: true,
    servers: { ...current, ...good },
    inputs: mergeInputs(currentInputs, inputs),
    added: Object.keys(good),
    rejected,
    // Keys Glance does not use are kept in the entry and named, never dropped silently.
    warnings: [...fileProblems, ...notes, ...strict.warnings.filter((w) => w.server === undefined || w.server in good).map(formatConfigError)],
  };
}

/** A problem in words: `"url" must be an http(s) URL`, or the message alone when it names what is missing. */
function plainProblem(problem: { field: string; message: string }): string {
  return problem.field && !problem.message.includes(`"${problem.field}"`) ? `"${problem.field}" ${problem.message}` : problem.message;
}

/** `"broken" (missing: give "command" …); "other" (…)` */
export function describeRejected(rejected: readonly RejectedServer[]): string {
  return rejected.map((r) => `"${r.name}" (${r.reason})`).join('; ');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The valid inputs (bad ones are named by parseMcpConfig). A password's default is not kept: it would sit in settings.json as plain text. */
function readInputs(raw: unknown): { inputs: Inputs; notes: string[] } {
  const notes: string[] = [];
  if (!Array.isArray(raw)) return { inputs: [], notes };
  const inputs = raw.flatMap((item) => {
    const checked = McpInputEntry.safeParse(item);
    if (!checked.success) return [];
    const { default: preset, ...input } = checked.data;
    if (input.password !== true || preset === undefined) return [checked.data];
    notes.push(`input "${input.id}": its default is a password, so it is not kept (you are asked for it instead)`);
    return [input];
  });
  return { inputs, notes };
}

function mergeInputs(current: Inputs, incoming: Inputs): Inputs {
  const byId = new Map(current.map((i) => [i.id, i]));
  for (const input of incoming) byId.set(input.id, input);
  return [...byId.values()];
}

/** Where in the text a JSON mistake is: 1-based line and column, and the offset to put the caret at. */
type JsonSpot = { line: number; column: number; offset: number };

/**
 * A JSON mistake in a person's words, pointing at the line: "Line 4, column 5: expected a comma
 * or }. Line 4 reads: "args": []" instead of "Unexpected token ',', … is not valid JSON".
 * `shown`: the text as written, when `text` is it with comments blanked (same offsets).
 */
export function jsonErrorAt(text: string, error: unknown, shown: string = text): { message: string; where?: JsonSpot } {
  const mistake = firstJsonMistake(text);
  if (!mistake) return { message: `${errorMessage(error)}.` };
  const { offset } = mistake;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  const quotedLine = (shown.split('\n')[line - 1] ?? '').trim();
  const found = offset >= text.length ? 'the text ends' : `found ${JSON.stringify(text[offset])}`;
  const quoted = quotedLine ? ` Line ${line} reads: ${quotedLine.length > 80 ? `${quotedLine.slice(0, 77)}…` : quotedLine}` : '';
  return { message: `Line ${line}, column ${column}: expected ${mistake.expected}, ${found}.${quoted}`, where: { line, column, offset } };
}
