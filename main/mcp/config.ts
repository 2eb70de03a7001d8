// Reading an `mcpServers` file from disk; the schema and per-server checks live in common/.
import { readFile } from 'node:fs/promises';
import { parseMcpConfig, type McpConfig } from '../../common/mcpConfig.ts';

export {
  parseMcpConfig,
  formatConfigError,
  type CaptureRule,
  type McpConfig,
  type McpConfigError,
  type McpServerConfig,
  type StdioServerConfig,
  type HttpServerConfig,
} from '../../common/mcpConfig.ts';

/** Reads and validates a config file. A missing or unparsable file is an error in the result. */
export async function loadMcpConfig(file: string): Promise<McpConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    return { servers: new Map(), errors: [{ server: undefined, field: '', message: `cannot read ${file}: ${reason}` }] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { servers: new Map(), errors: [{ server: undefined, field: '', message: `${file} is not valid JSON: ${(error as Error).message}` }] };
  }
  return parseMcpConfig(json);
}
