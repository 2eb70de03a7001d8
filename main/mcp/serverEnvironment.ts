// The environment a stdio server starts with. The SDK passes only a safe list (HOME, PATH,
// SHELL, TERM, USER, LOGNAME — sudo's list) so a server does not inherit the user's secrets;
// but `npx -y some-server` behind a corporate proxy or TLS-inspecting gateway also needs the
// proxy and CA variables, or it fails to download with a certificate error nobody connects
// to Glance. Those, then the server's `envFile`, then its `env` (which wins).
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

/** Passed through from Glance's own environment when set (both spellings: tools read either). */
const NETWORK_ENV_VARS = [
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'NO_PROXY',
  'https_proxy',
  'http_proxy',
  'no_proxy',
  'ALL_PROXY',
  'all_proxy',
];

type EnvironmentInput = {
  env?: Record<string, string> | undefined;
  envFile?: string | undefined;
  /** For a relative envFile. */
  cwd?: string | undefined;
};

/** The full environment for the child. Throws a plain-words error when envFile cannot be read. */
export async function stdioEnvironment(server: EnvironmentInput, parent: NodeJS.ProcessEnv = process.env): Promise<Record<string, string>> {
  const env: Record<string, string> = { ...getDefaultEnvironment() };
  for (const key of NETWORK_ENV_VARS) {
    const value = parent[key];
    if (value !== undefined && value !== '') env[key] = value;
  }
  if (server.envFile) {
    const path = isAbsolute(server.envFile) ? server.envFile : resolve(server.cwd ?? process.cwd(), server.envFile);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(`its envFile ${path} cannot be read (${code === 'ENOENT' ? 'no such file' : (error as Error).message})`, { cause: error });
    }
    Object.assign(env, parseDotenv(text));
  }
  return { ...env, ...server.env };
}

/**
 * `KEY=value` lines as dotenv writes them: `export ` prefixes, # comments, single quotes
 * literal, double quotes with \n escapes, unquoted values trimmed (a trailing # comment cut).
 */
function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(lines[i] as string);
    if (!match) continue;
    const key = match[1] as string;
    let value = match[2] as string;
    const quote = value[0];
    if (quote === '"' || quote === "'" || quote === '`') {
      // A quoted value may span lines.
      let body = value.slice(1);
      while (!body.includes(quote) && i + 1 < lines.length) body += `\n${lines[++i]}`;
      const end = body.indexOf(quote);
      value = end === -1 ? body : body.slice(0, end);
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r').replace(/\\t/g, '\t').replace(/\\"/g, '"');
    } else {
      value = value.replace(/\s+#.*$/, '').trim();
    }
    out[key] = value;
  }
  return out;
}
