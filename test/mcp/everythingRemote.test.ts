// @modelcontextprotocol/server-everything (a real peer) over streamable HTTP and legacy SSE, as
// its own process on 127.0.0.1. Its transports read PORT (and print port 0 when given 0), so
// the port is one the OS just handed out. A bare …/sse URL reaches the SSE transport by the
// spec's fallback; the streamable session is ended with DELETE on close.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../main/mcp/config.ts';
import { McpHub } from '../../main/mcp/mcpHub.ts';
import { captureFor, expectNoBase64, tempDataDir } from '../support/mcpSetup.ts';

function everythingEntry(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const { bin } = require(pkg) as { bin: Record<string, string> };
  return join(dirname(pkg), bin['mcp-server-everything']!);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
  for (const child of children) child.kill();
});

async function startEverything(mode: 'sse' | 'streamableHttp'): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingEntry(), mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (new RegExp(`port ${port}`).test(seen)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${seen}`)));
  });
  return port;
}

async function hubFor(url: string) {
  const data = await tempDataDir();
  const env = captureFor(data.dir);
  const hub = new McpHub({ config: parseMcpConfig({ mcpServers: { everything: { url } } }), capture: env.capture });
  cleanups.push(async () => {
    await hub.close();
    await data.remove();
  });
  return { hub, env };
}

describe('server-everything over the remote transports', () => {
  it.each([
    ['streamable HTTP', 'streamableHttp', '/mcp', 'http'],
    ['legacy SSE (a bare …/sse URL, found by fallback)', 'sse', '/sse', 'sse'],
  ] as const)('%s: tools, a captured image, its instructions', async (_label, mode, path, transport) => {
    const port = await startEverything(mode);
    const { hub, env } = await hubFor(`http://127.0.0.1:${port}${path}`);
    const tools = await hub.listTools();
    expect(tools.map((t) => t.name)).toContain('everything__get-tiny-image');
    expect(hub.status()[0]).toMatchObject({ state: 'ready', transport });
    const outcome = await hub.callTool('everything__get-tiny-image', {});
    expect(outcome.images).toHaveLength(1);
    expectNoBase64(outcome.text);
    expect((await env.store.get(outcome.images[0]!.id))?.data.length).toBeGreaterThan(0);
    expect(hub.promptNotes() ?? '').toContain('Instructions from MCP server "everything"');
  });
});
