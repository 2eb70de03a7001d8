// Reading an MCP config file from disk; the schema and per-server checks live in common/.
import { readFile } from 'node:fs/promises';
import { parseJsonc } from '../../common/jsonc.ts';
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
    json = parseJsonc(text);
  } catch (error) {
    return { ...emptyMcpConfig(), errors: [{ server: undefined, field: '', message: `${file} is not valid JSON: ${(error as Error).message}` }] };
  }
  return parseMcpConfig(json, options);
}
