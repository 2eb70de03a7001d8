// The `mcpServers` config shape other desktop assistants already use (DESIGN §6), validated
// per server so one bad entry is reported by name and field while the others still load.
// Pure (no Node): the MCP hub, the settings loader and the renderer's import all use it.
import { z } from 'zod';

/** Base64 inside JSON text results, declared per tool and field (seed 000: Gitea's shape). */
export const CaptureRule = z.object({
  /** Tool names as the server spells them (not namespaced); "*" matches every tool. */
  tools: z.array(z.string().min(1)).min(1),
  /** Field holding the (usually base64) file content. */
  contentField: z.string().min(1),
  /** Field holding the file's name: its extension decides binary vs text when present. */
  nameField: z.string().min(1).optional(),
  /** Field naming the content's encoding ("base64"); any other value means plain text. */
  encodingField: z.string().min(1).optional(),
  /** Field holding a MIME type, when the server sends one. */
  mimeField: z.string().min(1).optional(),
});
export type CaptureRule = z.infer<typeof CaptureRule>;

const Common = {
  capture: z.object({ rules: z.array(CaptureRule).default([]) }).optional(),
  /** Per-call timeout for this server's tools (ms); a call may pass its own. */
  timeoutMs: z.number().int().positive().max(3_600_000).optional(),
  /** Other assistants' configs carry this; a disabled server is listed but never started. */
  disabled: z.boolean().optional(),
};

const StdioServer = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'must be a non-empty string'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
  ...Common,
});

const HttpServer = z.object({
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  headers: z.record(z.string(), z.string()).optional(),
  ...Common,
});

export type StdioServerConfig = z.infer<typeof StdioServer> & { kind: 'stdio' };
export type HttpServerConfig = z.infer<typeof HttpServer> & { kind: 'http' };
export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export type McpConfigError = {
  /** The server's key in `mcpServers`; undefined for a problem with the file as a whole. */
  server: string | undefined;
  /** Dotted path inside the server's entry ("args.1", "capture.rules.0.contentField"). */
  field: string;
  message: string;
};

export type McpConfig = {
  /** Valid servers, in the file's order. */
  servers: Map<string, McpServerConfig>;
  /** Invalid entries (and file-level problems), each naming the server and field. */
  errors: McpConfigError[];
};

/** Validates a parsed config object. Never throws: problems become `errors`. */
export function parseMcpConfig(value: unknown): McpConfig {
  const servers = new Map<string, McpServerConfig>();
  const errors: McpConfigError[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    errors.push({ server: undefined, field: '', message: 'the config must be a JSON object with an "mcpServers" object' });
    return { servers, errors };
  }
  const root = (value as Record<string, unknown>).mcpServers;
  if (root === undefined) return { servers, errors };
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    errors.push({ server: undefined, field: 'mcpServers', message: '"mcpServers" must be an object of named servers' });
    return { servers, errors };
  }
  for (const [name, entry] of Object.entries(root as Record<string, unknown>)) {
    const problem = (field: string, message: string) => errors.push({ server: name, field, message });
    if (name.trim() === '') {
      problem('', 'a server needs a non-empty name');
      continue;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problem('', 'must be an object with "command" (stdio) or "url" (streamable HTTP)');
      continue;
    }
    const record = entry as Record<string, unknown>;
    const hasCommand = 'command' in record;
    const hasUrl = 'url' in record;
    if (hasCommand === hasUrl) {
      problem(hasCommand ? 'url' : 'command', hasCommand ? 'give either "command" or "url", not both' : 'missing: give "command" (stdio) or "url" (streamable HTTP)');
      continue;
    }
    const parsed = hasCommand ? StdioServer.safeParse(record) : HttpServer.safeParse(record);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problem(issue.path.map(String).join('.'), issue.message);
      continue;
    }
    servers.set(name, { ...parsed.data, kind: hasCommand ? 'stdio' : 'http' } as McpServerConfig);
  }
  return { servers, errors };
}

/** `server "gitea", field "url": must be an http(s) URL` */
export function formatConfigError(error: McpConfigError): string {
  if (error.server === undefined) return error.field ? `${error.field}: ${error.message}` : error.message;
  return `server "${error.server}"${error.field ? `, field "${error.field}"` : ''}: ${error.message}`;
}
