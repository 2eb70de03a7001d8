// The fixture server over streamable HTTP, run as its own process on 127.0.0.1:<random port>.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../main/mcp/config.ts';
import { McpHub, type McpProgress } from '../../main/mcp/mcpHub.ts';
import { hubSuite } from '../support/hubSuite.ts';
import { readBars } from '../fixtures/chart.ts';
import { FAIL_TEXT } from '../fixtures/mcpServer.ts';
import { FIXTURE_SERVER, GITEA_RULE, expectNoBase64 } from '../support/mcpSetup.ts';

describe('McpHub over streamable HTTP', () => {
  let server: ChildProcess;
  let url: string;
  const s = hubSuite(async () => {
    server = spawn(process.execPath, [FIXTURE_SERVER, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: server.stdout! });
    url = await new Promise<string>((resolve, reject) => {
      lines.on('line', (line) => line.startsWith('MCP_FIXTURE_URL=') && resolve(line.slice('MCP_FIXTURE_URL='.length)));
      server.once('exit', (code) => reject(new Error(`fixture exited with ${code}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    return { web: { url, headers: { 'X-Test': '1' }, capture: { rules: [GITEA_RULE] } } };
  }, () => void server?.kill());

  it('lists tools and captures a typed image', async () => {
    const tools = await s.hub.listTools();
    expect(tools.map((t) => t.name)).toContain('web__chart_image');
    expect(s.hub.status()[0]).toMatchObject({ transport: 'http', state: 'ready' });
    const outcome = await s.hub.callTool('web__chart_image', {});
    expect(outcome.images).toHaveLength(1);
    expectNoBase64(outcome.text);
    const stored = await s.store.get(outcome.images[0]!.id);
    expect((await readBars(Buffer.from(stored!.data))).bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  });

  it('applies declared rules, reports progress and isError', async () => {
    const file = await s.hub.callTool('web__get_file_contents', { path: 'docs/chart.png' });
    expect(file.images).toHaveLength(1);
    expect(JSON.parse(file.text)).toMatchObject({ path: 'docs/chart.png', sha: expect.stringMatching(/^[a-f0-9]{40}$/) });
    const seen: McpProgress[] = [];
    expect((await s.hub.callTool('web__slow_progress', { steps: 3, delayMs: 10 }, { onProgress: (p) => seen.push(p) })).text).toBe('done after 3 steps');
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(await s.hub.callTool('web__fail_tool', {})).toMatchObject({ ok: false, text: FAIL_TEXT });
  });

  it('a 5 MB image arrives over HTTP too', async () => {
    const outcome = await s.hub.callTool('web__big_image', { megabytes: 5 }, { timeoutMs: 120_000 });
    expect(outcome.images[0]!.source.bytes).toBeGreaterThan(5 * 1024 * 1024);
    expectNoBase64(outcome.text);
  });

  it('a hung HTTP call times out as a failed outcome', async () => {
    const outcome = await s.hub.callTool('web__hang', {}, { timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, failure: 'timeout' });
    expect((await s.hub.callTool('web__echo', { text: 'still here' })).text).toBe('still here');
  });

  it('an unreachable URL fails to start with a clear message', async () => {
    const dead = new McpHub({ config: parseMcpConfig({ mcpServers: { dead: { url: 'http://127.0.0.1:9/mcp' } } }), capture: s.capture });
    try {
      expect(await dead.listTools()).toEqual([]);
      expect(dead.status()[0]).toMatchObject({ state: 'failed', message: expect.stringContaining('MCP server "dead" could not start') });
      expect(await dead.callServerTool('dead', 'x', {})).toMatchObject({ ok: false, failure: 'server-unavailable' });
    } finally {
      await dead.close();
    }
  });
});
