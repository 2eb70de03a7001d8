// Issue 30 item 12: MCP rough edges seen with real servers, against the project's fixtures — the
// legacy-SSE fallback, stdio shutdown noise, progress in the CLI, a missing --mcp-config.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { main } from '../../main/cli/main.ts';
import type { CommandIO } from '../../main/cli/io.ts';
import { parseMcpConfig } from '../../main/mcp/config.ts';
import { McpHub } from '../../main/mcp/mcpHub.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { startWebFixture, type WebFixture } from '../fixtures/mcpWebServers.ts';
import { captureFor, fixtureEntry, tempDataDir } from '../support/mcpSetup.ts';

let server: ModelServer;
let web: WebFixture;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let config: string;
let everything: string;

/** @modelcontextprotocol/server-everything, the real peer where the noise was seen. */
function everythingEntry(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const { bin } = require(pkg) as { bin: Record<string, string> };
  return join(dirname(pkg), bin['mcp-server-everything']!);
}

beforeAll(async () => {
  server = await createModelServer();
  web = await startWebFixture();
  data = await tempDataDir();
  config = join(data.dir, 'fx.json');
  await writeFile(config, JSON.stringify({ mcpServers: { fx: fixtureEntry() } }));
  everything = join(data.dir, 'everything.json');
  await writeFile(everything, JSON.stringify({ mcpServers: { ev: { command: process.execPath, args: [everythingEntry(), 'stdio'] } } }));
});
afterAll(async () => {
  await server.close();
  await web.close();
  await data.remove();
});

function cliIO() {
  const io = { out: '', err: '' };
  const commandIO: CommandIO = { out: (t) => void (io.out += t), err: (t) => void (io.err += t), env: { ...process.env, OLLAMA_HOST: server.url } };
  return { io, commandIO };
}

describe('MCP rough edges (issue 30 item 12)', () => {
  it('the fallback from streamable HTTP to legacy SSE logs one line, never the web page the POST got', async () => {
    const lines: string[] = [];
    const hub = new McpHub({ config: parseMcpConfig({ mcpServers: { bare: { url: `${web.base}/sse` } } }), capture: captureFor(data.dir).capture, log: (l) => lines.push(l) });
    try {
      await hub.listTools();
      expect(hub.status()[0]).toMatchObject({ transport: 'sse', state: 'ready' });
      expect(lines.join('\n')).not.toMatch(/<html|<!doctype/i);
      expect(lines.filter((l) => l.includes('trying the legacy SSE transport'))).toHaveLength(1);
    } finally {
      await hub.close();
    }
  });

  it('stdio calls through the CLI end without "Failed to send response: Error: Not connected"', { timeout: 60_000 }, async () => {
    for (const argv of [
      ['mcp', 'list', '--mcp-config', config],
      ['mcp', 'call', 'fx', 'echo', '--args', '{"text":"hi"}', '--mcp-config', config, '--data-dir', join(data.dir, 'd')],
      ['mcp', 'call', 'fx', 'slow_progress', '--args', '{"steps":3,"delayMs":10}', '--mcp-config', config, '--data-dir', join(data.dir, 'd')],
      ['mcp', 'call', 'ev', 'echo', '--args', '{"message":"hi"}', '--mcp-config', everything, '--data-dir', join(data.dir, 'd'), '--yes'],
      ['mcp', 'list', '--mcp-config', everything],
    ]) {
      const { io, commandIO } = cliIO();
      expect(await main(argv, commandIO)).toBe(0);
      expect(io.err).not.toMatch(/Not connected|Failed to send/);
    }
  });

  it('glance ask shows a tool\'s progress notifications on stderr', { timeout: 60_000 }, async () => {
    server.script({ toolCalls: [{ name: 'fx__slow_progress', arguments: { steps: 3, delayMs: 20 } }] }, { text: 'finished' });
    const { io, commandIO } = cliIO();
    expect(await main(['ask', 'go', '--model', 'llava-seer', '--mcp-config', config, '--data-dir', join(data.dir, 'd')], commandIO)).toBe(0);
    expect(io.err).toMatch(/… 1\/3 step 1 of 3/);
    expect(io.err).toMatch(/… 3\/3 step 3 of 3/);
  });

  it('glance ask --mcp-config with a missing file is a usage error (exit 2), nothing is asked', async () => {
    const before = server.requests.length;
    const { io, commandIO } = cliIO();
    expect(await main(['ask', 'go', '--model', 'llava-seer', '--mcp-config', join(data.dir, 'nope.json'), '--data-dir', join(data.dir, 'd')], commandIO)).toBe(2);
    expect(io.err).toMatch(/--mcp-config: .*nope\.json: no such file/);
    expect(server.requests.length).toBe(before);
  });
});
