// MCP server configs in the shapes users already have (architecture §6), validated per server so one
// bad entry is reported by name and field while the others still load:
//   - `mcpServers` (Claude Desktop, Claude Code, Cursor, Windsurf's `serverUrl`, Cline's
//     `disabled` / `timeout` in seconds / `alwaysAllow` / `disabledTools` / `envFile`),
//   - VS Code's `servers` + `inputs`, `type` stdio | http | sse.
// `${env:VAR}`, `${VAR}` and `${VAR:-default}` are substituted when an environment is given;
// `${input:id}` is left for the hub, which asks once at start (UI) or reads the environment (CLI).
// Keys we do not use are warnings, never dropped silently. Pure (no Node): the hub, the settings
// check and the renderer's import all use it.
import { z } from 'zod';
import { substituteVariables, withInputPlaceholders } from './mcpVariables.ts';
import { McpInputEntry } from './settings.ts';

export { substituteInputs, inputIdsIn, inputEnvName } from './mcpVariables.ts';

/** Base64 inside JSON text results, declared per tool and field (e.g. Gitea's get_file_contents: {content, encoding: "base64"}). */
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

/** A pre-registered OAuth client, or scopes to ask for (Claude Code's `oauth` block). */
const OAuthConfig = z.object({
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
  /** A client ID metadata document URL (the spec's CIMD), used as the client_id. */
  clientMetadataUrl: z.url({ protocol: /^https?$/ }).optional(),
  scopes: z.union([z.array(z.string().min(1)), z.string().min(1)]).optional(),
  /** Fixed loopback port for the redirect (some pre-registrations need an exact URI). */
  callbackPort: z.number().int().min(1).max(65535).optional(),
  /** `client_credentials`: machine-to-machine, no browser (clientId + clientSecret, or privateKey). */
  grantType: z.enum(['authorization_code', 'client_credentials']).optional(),
  /** PEM private key for private_key_jwt client authentication (client_credentials). */
  privateKey: z.string().min(1).optional(),
  signingAlgorithm: z.string().min(1).optional(),
});

const ToolNames = z.array(z.string().min(1));

const Common = {
  capture: z.object({ rules: z.array(CaptureRule).default([]) }).optional(),
  /** Per-call timeout for this server's tools (ms); a call may pass its own. Cline's `timeout` (s) lands here. */
  timeoutMs: z.number().int().positive().max(3_600_000).optional(),
  /** A disabled server is listed but never started. */
  disabled: z.boolean().optional(),
  /** Tools (the server's own names, "*" for all) that run without asking (Cline `alwaysAllow`). */
  alwaysAllow: ToolNames.default([]),
  /**
   * The person trusts this server's annotations (Settings → MCP servers): its tools that say they
   * only read (readOnlyHint) run without asking. Without it every tool of the server asks.
   */
  trusted: z.boolean().optional(),
  /** Tools (the server's own names) never offered to a model (Cline `disabledTools`). */
  disabledTools: ToolNames.default([]),
};

const StdioServer = z.object({
  command: z.string().min(1, 'must be a non-empty string'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).optional(),
  /** A dotenv file whose variables are added to `env` (`env` wins). */
  envFile: z.string().min(1).optional(),
  cwd: z.string().min(1).optional(),
  ...Common,
});

const RemoteServer = z.object({
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  headers: z.record(z.string(), z.string()).optional(),
  oauth: OAuthConfig.optional(),
  ...Common,
});

type Derived = {
  /** `${input:id}` references still to be answered before the server starts. */
  inputs: string[];
};
export type StdioServerConfig = z.infer<typeof StdioServer> & Derived & { kind: 'stdio' };
/** `http`: streamable HTTP, falling back to legacy SSE per the spec; `sse`: legacy HTTP+SSE as declared. */
export type RemoteServerConfig = z.infer<typeof RemoteServer> & Derived & { kind: 'http' | 'sse' };
/** A server entry after parsing: aliases resolved, units converted, variables substituted. */
export type McpServerConfig = StdioServerConfig | RemoteServerConfig;

/** `env` and `headers` keys whose values are secrets: masked for the renderer, scrubbed from every MCP error. */
const SECRET_KEY = /key|token|secret|passw|auth|cookie|credential|session/i;

export function isSecretEntry(key: string, value: string): boolean {
  return SECRET_KEY.test(key) && value !== '';
}

/** The secret values a server's config carries (its `env` and `headers` entries that {@link isSecretEntry} names). */
export function configSecretValues(config: { env?: Readonly<Record<string, string>> | undefined; headers?: Readonly<Record<string, string>> | undefined }): string[] {
  return [config.env, config.headers].flatMap((values) => Object.entries(values ?? {}).filter(([k, v]) => isSecretEntry(k, v)).map(([, v]) => v));
}

/** A VS Code `inputs` entry: what to ask the user for `${input:id}` (the schema Settings keeps them in). */
export const McpInput = McpInputEntry;
export type McpInput = z.infer<typeof McpInput>;

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
  /** Keys Glance does not use, and other things worth knowing; the server still loads. */
  warnings: McpConfigError[];
  /** VS Code `inputs` declarations by id. */
  inputs: Map<string, McpInput>;
};

export type ParseOptions = {
  /**
   * Values for `${VAR}`, `${env:VAR}`, `${VAR:-default}`. Without it (the renderer checking a
   * paste), variables are only checked for syntax and the result is for validation only.
   */
  env?: Readonly<Record<string, string | undefined>>;
};

/** Keys each entry may carry, with what they become; everything else is warned about. */
const KNOWN_KEYS = new Set([
  'type', 'transportType', 'transport', 'command', 'args', 'env', 'envFile', 'cwd', 'url', 'serverUrl', 'httpUrl', 'headers',
  'oauth', 'capture', 'timeout', 'timeoutMs', 'disabled', 'alwaysAllow', 'autoApprove', 'disabledTools', 'trusted',
]);
const ROOT_KEYS = new Set(['mcpServers', 'servers', 'inputs']);
const TYPES: Record<string, 'stdio' | 'http' | 'sse'> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  'streamable_http': 'http',
  sse: 'sse',
};

/** Validates a parsed config object. Never throws: problems become `errors` / `warnings`. */
export function parseMcpConfig(value: unknown, options: ParseOptions = {}): McpConfig {
  const config: McpConfig = { servers: new Map(), errors: [], warnings: [], inputs: new Map() };
  const fileProblem = (field: string, message: string) => config.errors.push({ server: undefined, field, message });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fileProblem('', 'the config must be a JSON object with an "mcpServers" (or VS Code "servers") object');
    return config;
  }
  const rootObject = value as Record<string, unknown>;
  const key = rootObject.mcpServers !== undefined ? 'mcpServers' : rootObject.servers !== undefined ? 'servers' : undefined;
  for (const other of Object.keys(rootObject)) {
    if (!ROOT_KEYS.has(other)) config.warnings.push({ server: undefined, field: other, message: 'not an MCP setting; ignored' });
  }
  if (rootObject.mcpServers !== undefined && rootObject.servers !== undefined) {
    config.warnings.push({ server: undefined, field: 'servers', message: 'both "mcpServers" and "servers" are present; "servers" was not read' });
  }
  readInputs(rootObject.inputs, config);
  if (key === undefined) return config;
  const root = rootObject[key];
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    fileProblem(key, `"${key}" must be an object of named servers`);
    return config;
  }
  for (const [name, entry] of Object.entries(root as Record<string, unknown>)) {
    const parsed = parseServer(name, entry, options, config);
    if (parsed) config.servers.set(name, parsed);
  }
  return config;
}

function readInputs(raw: unknown, config: McpConfig): void {
  if (raw === undefined) return;
  if (!Array.isArray(raw)) {
    config.errors.push({ server: undefined, field: 'inputs', message: '"inputs" must be a list of {id, description, password}' });
    return;
  }
  raw.forEach((item, i) => {
    const parsed = McpInput.safeParse(item);
    if (parsed.success) config.inputs.set(parsed.data.id, parsed.data);
    else config.errors.push({ server: undefined, field: `inputs.${i}`, message: parsed.error.issues[0]?.message ?? 'invalid input' });
  });
}

function parseServer(name: string, entry: unknown, options: ParseOptions, config: McpConfig): McpServerConfig | undefined {
  const errors: McpConfigError[] = [];
  const problem = (field: string, message: string) => errors.push({ server: name, field, message });
  const warn = (field: string, message: string) => config.warnings.push({ server: name, field, message });
  const done = () => {
    config.errors.push(...errors);
    return undefined;
  };
  if (name.trim() === '') return problem('', 'a server needs a non-empty name'), done();
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return problem('', 'must be an object with "command" (stdio) or "url" (HTTP or SSE)'), done();
  }
  const record = { ...(entry as Record<string, unknown>) };
  for (const k of Object.keys(record)) if (!KNOWN_KEYS.has(k)) warn(k, 'not a setting Glance uses; ignored');

  // Aliases other clients use.
  const declared = record.type ?? record.transportType ?? record.transport;
  const urlKey = (['url', 'serverUrl', 'httpUrl'] as const).filter((k) => record[k] !== undefined);
  if (urlKey.length > 1) return problem(urlKey[1] as string, `give one of "url", "serverUrl", "httpUrl", not ${urlKey.map((k) => `"${k}"`).join(' and ')}`), done();
  const url = urlKey[0] ? record[urlKey[0]] : undefined;
  const hasCommand = record.command !== undefined;
  if (hasCommand === (url !== undefined)) {
    return problem(hasCommand ? 'url' : 'command', hasCommand ? 'give either "command" or "url", not both' : 'missing: give "command" (stdio) or "url" (HTTP or SSE)'), done();
  }
  let kind: 'stdio' | 'http' | 'sse' = hasCommand ? 'stdio' : 'http';
  if (declared !== undefined) {
    const t = typeof declared === 'string' ? TYPES[declared] : undefined;
    if (!t) return problem('type', `unknown transport ${JSON.stringify(declared)}: use "stdio", "http" (streamable HTTP) or "sse" (legacy HTTP+SSE)`), done();
    if ((t === 'stdio') !== hasCommand) return problem('type', t === 'stdio' ? '"stdio" needs "command"' : `"${declared}" needs "url", not "command"`), done();
    kind = t;
  }
  const timeout = record.timeout;
  if (timeout !== undefined) {
    if (record.timeoutMs !== undefined) warn('timeout', '"timeoutMs" is also set and wins');
    else if (typeof timeout === 'number' && timeout > 0) record.timeoutMs = Math.round(timeout * 1000); // Cline: seconds
    else return problem('timeout', 'must be a positive number of seconds'), done();
  }
  if (record.alwaysAllow === undefined && record.autoApprove !== undefined) record.alwaysAllow = record.autoApprove;
  else if (record.autoApprove !== undefined) warn('autoApprove', '"alwaysAllow" is also set and wins');

  const shape = Object.fromEntries(Object.entries(record).filter(([k]) => !['type', 'transportType', 'transport', 'serverUrl', 'httpUrl', 'timeout', 'autoApprove'].includes(k)));
  if (url !== undefined) shape.url = url;
  const sub = substituteEntry(shape, options, problem);
  if (errors.length > 0) return done();
  // A URL holding `${input:…}` is validated with a placeholder; the server keeps the reference.
  const checked = withInputPlaceholders(sub.value);
  const parsed = hasCommand ? StdioServer.safeParse(checked) : RemoteServer.safeParse(checked);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problem(issue.path.map(String).join('.'), issue.message);
    return done();
  }
  const data: Record<string, unknown> = { ...parsed.data };
  if (sub.inputs.length > 0) for (const k of ['command', 'args', 'env', 'cwd', 'envFile', 'url', 'headers', 'oauth']) if (k in sub.value) data[k] = sub.value[k];
  return { ...data, kind, inputs: sub.inputs } as McpServerConfig;
}

/** Fields whose strings may hold variables. */
function substituteEntry(shape: Record<string, unknown>, options: ParseOptions, problem: (field: string, message: string) => void): { value: Record<string, unknown>; inputs: string[] } {
  const inputs = new Set<string>();
  const one = (text: string, field: string): string => {
    const result = substituteVariables(text, options.env);
    for (const id of result.inputs) inputs.add(id);
    for (const message of result.problems) problem(field, message);
    return result.text;
  };
  const value = { ...shape };
  for (const k of ['command', 'cwd', 'envFile', 'url'] as const) if (typeof value[k] === 'string') value[k] = one(value[k], k);
  if (Array.isArray(value.args)) value.args = value.args.map((a, i) => (typeof a === 'string' ? one(a, `args.${i}`) : a));
  for (const k of ['env', 'headers'] as const) {
    const map = value[k];
    if (typeof map === 'object' && map !== null && !Array.isArray(map)) {
      value[k] = Object.fromEntries(Object.entries(map).map(([name, v]) => [name, typeof v === 'string' ? one(v, `${k}.${name}`) : v]));
    }
  }
  const oauth = value.oauth;
  if (typeof oauth === 'object' && oauth !== null && !Array.isArray(oauth)) {
    const o = { ...(oauth as Record<string, unknown>) };
    for (const k of ['clientId', 'clientSecret', 'privateKey']) if (typeof o[k] === 'string') o[k] = one(o[k], `oauth.${k}`);
    value.oauth = o;
  }
  return { value, inputs: [...inputs] };
}

/** `server "gitea", field "url": must be an http(s) URL` */
export function formatConfigError(error: McpConfigError): string {
  if (error.server === undefined) return error.field ? `${error.field}: ${error.message}` : error.message;
  return `server "${error.server}"${error.field ? `, field "${error.field}"` : ''}: ${error.message}`;
}
