// Shared by the `glance mcp serve` tests: the real command started the way a client starts it
// (node on the CLI's source, DISPLAY on the test's Xvfb), over stdio or streamable HTTP, and the
// SDK's own client on the other end.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = fileURLToPath(new URL('../../main/cli/main.ts', import.meta.url));

export type ServeEnv = { env: NodeJS.ProcessEnv; dataDir: string; extra?: string[] };

export async function stdioClient(options: ServeEnv): Promise<{ client: Client; stderr: () => string; close(): Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', 'serve', '--data-dir', options.dataDir, ...(options.extra ?? [])],
    env: options.env as Record<string, string>,
    stderr: 'pipe',
    cwd: ROOT,
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: 'glance-serve-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

export type HttpServer = { child: ChildProcess; url: string; token: string; stderr: () => string; stop(): Promise<void> };

/** `glance mcp serve --http --port 0`: waits for the URL and token lines on stderr. */
export async function startHttpServe(options: ServeEnv): Promise<HttpServer> {
  const child = spawn(process.execPath, [CLI, 'mcp', 'serve', '--http', '--port', '0', '--data-dir', options.dataDir, ...(options.extra ?? [])], { env: options.env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const ready = new Promise<{ url: string; token: string }>((resolve, reject) => {
    let url: string | undefined;
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      url ??= /MCP server at (\S+)/.exec(stderr)?.[1];
      const token = /bearer token \(shown once, kept in [^)]+\): (\S+)/.exec(stderr)?.[1];
      if (url && token) resolve({ url, token });
      else if (url && /bearer token kept in/.test(stderr)) resolve({ url, token: '' });
    });
    child.once('exit', (code) => reject(new Error(`glance mcp serve --http exited ${code}: ${stderr}`)));
  });
  const { url, token } = await ready;
  return {
    child,
    url,
    token,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function httpClient(url: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'glance-serve-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The text of a tool result's text parts. */
export function textOf(result: unknown): string {
  return (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[])
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
}

export function partOf<T extends { type: string }>(result: unknown, type: T['type']): T {
  const part = (((result as { content?: unknown }).content ?? []) as { type: string }[]).find((c) => c.type === type);
  if (!part) throw new Error(`no ${type} part in ${JSON.stringify(result).slice(0, 400)}`);
  return part as T;
}
