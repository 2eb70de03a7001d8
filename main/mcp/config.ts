// Reading an MCP config file from disk; the schema and per-server checks live in common/.
import { readFile } from 'node:fs/promises';
import { parseMcpConfig, type McpConfig, type ParseOptions } from '../../common/mcpConfig.ts';

export {
  parseMcpConfig,
  formatConfigError,
  type CaptureRule,
  type McpConfig,
  type McpConfigError,
  type McpInput,
  type McpServerConfig,
  type StdioServerConfig,
  type RemoteServerConfig,
  type ParseOptions,
} from '../../common/mcpConfig.ts';

/** An empty config (no file): nothing configured, nothing wrong. */
export function emptyMcpConfig(): McpConfig {
  return { servers: new Map(), errors: [], warnings: [], inputs: new Map() };
}

/** Reads and validates a config file. A missing or unparsable file is an error in the result. */
export async function loadMcpConfig(file: string, options: ParseOptions = {}): Promise<McpConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    return { ...emptyMcpConfig(), errors: [{ server: undefined, field: '', message: `cannot read ${file}: ${reason}` }] };
  }
  let json: unknown;
  try {
    // VS Code's mcp.json allows comments and trailing commas (JSONC).
    json = JSON.parse(stripJsonComments(text));
  } catch (error) {
    return { ...emptyMcpConfig(), errors: [{ server: undefined, field: '', message: `${file} is not valid JSON: ${(error as Error).message}` }] };
  }
  return parseMcpConfig(json, options);
}

/** Removes // and /* *\/ comments and trailing commas outside strings (VS Code writes JSONC). */
function stripJsonComments(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (c === ',' && /^\s*[}\]]/.test(text.slice(i + 1, i + 200))) {
      // a trailing comma: dropped
    } else out += c;
  }
  return out;
}
