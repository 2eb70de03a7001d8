// Remote servers over real HTTP on loopback: legacy HTTP+SSE (declared and by fallback), a
// stateful streamable HTTP session (instructions, annotations, resource links, task-only and
// outputSchema tools, DELETE on close), and servers that answer with web pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../main/mcp/config.ts';
import { McpHub } from '../../main/mcp/mcpHub.ts';
import { readBars } from '../fixtures/chart.ts';
import { HTML_404, WEB_INSTRUCTIONS, startWebFixture, type WebFixture } from '../fixtures/mcpWebServers.ts';
import { captureFor, expectNoBase64, tempDataDir } from '../support/mcpSetup.ts';

let web: WebFixture;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let env: ReturnType<typeof captureFor>;
const hubs: McpHub[] = [];
const hubFor = (servers: Record<string, unknown>) => {
  const hub = new McpHub({ config: parseMcpConfig({ mcpServers: servers }), capture: env.capture, startTimeoutMs: 10_000 });
  hubs.push(hub);
  return hub;
};

beforeAll(async () => {
  web = await startWebFixture();
  data = await tempDataDir();
  env = captureFor(data.dir);
});
afterAll(async () => {
  await Promise.all(hubs.map((h) => h.close()));
  await web?.close();
  await data?.remove();
});

describe('legacy HTTP+SSE', () => {
  it('declared `type: "sse"`: tools listed and an image captured over the SSE transport', async () => {
    const hub = hubFor({ old: { type: 'sse', url: `${web.base}/sse` } });
    const tools = await hub.listTools();
    expect(tools.map((t) => t.name)).toContain('old__chart_image');
    expect(hub.status()[0]).toMatchObject({ transport: 'sse', state: 'ready' });
    const outcome = await hub.callTool('old__chart_image', {});
    expect(outcome.images).toHaveLength(1);
    expectNoBase64(outcome.text);
    const stored = await env.store.get(outcome.images[0]!.id);
    expect((await readBars(Buffer.from(stored!.data))).bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  });

  it('a bare …/sse URL works: POST answers 405, the hub falls back to the SSE GET (spec backwards compatibility)', async () => {
    const before = web.requests.length;
    const hub = hubFor({ bare: { url: `${web.base}/sse` } });
    expect((await hub.listTools()).map((t) => t.name)).toContain('bare__echo');
    expect(hub.status()[0]).toMatchObject({ transport: 'sse', state: 'ready' });
    expect(web.requests.slice(before).slice(0, 2)).toEqual(['POST /sse', 'GET /sse']);
    expect((await hub.callTool('bare__echo', { text: 'over sse' })).text).toBe('over sse');
  });

  it('a URL that is neither: the message says what happened, without the server\'s HTML', async () => {
    const hub = hubFor({ nowhere: { url: `${web.base}/nothing-here` } });
    expect(await hub.listTools()).toEqual([]);
    const status = hub.status()[0]!;
    expect(status.state).toBe('failed');
    expect(status.message).toMatch(/could not start/);
    expect(status.message).toMatch(/HTTP 404|web page/);
    expect(status.message).not.toContain('<');
    expect(status.message).not.toContain(HTML_404.slice(20, 60));
  });
});

describe('a stateful streamable HTTP server', () => {
  let hub: McpHub;
  beforeAll(() => {
    hub = hubFor({ web: { url: `${web.base}/mcp`, alwaysAllow: ['web_echo'] } });
  });

  it('offers titles, annotations and alwaysAllow; leaves task-only tools out, saying why', async () => {
    const tools = await hub.listTools();
    const echo = tools.find((t) => t.name === 'web__web_echo');
    expect(echo).toMatchObject({ title: 'Echo (web)', annotations: { readOnlyHint: true }, alwaysAllow: true });
    expect(tools.find((t) => t.name === 'web__delete_things')).toMatchObject({ annotations: { destructiveHint: true }, alwaysAllow: false });
    expect(tools.map((t) => t.name)).not.toContain('web__long_job');
    expect(hub.status()[0]?.hiddenTools).toEqual([{ tool: 'long_job', reason: 'it runs only as a task, which Glance does not support yet' }]);
  });

  it("puts the server's instructions into the model's notes", async () => {
    await hub.listTools();
    expect(hub.promptNotes()).toContain(`Instructions from MCP server "web"`);
    expect(hub.promptNotes()).toContain(WEB_INSTRUCTIONS);
  });

  it('reads a resource link through resources/read and captures the image it holds', async () => {
    const outcome = await hub.callTool('web__chart_link', {});
    expect(outcome.ok).toBe(true);
    expect(outcome.images).toHaveLength(1);
    expect(outcome.text).toContain('[resource link: chart.png fixture://charts/chart.png, image/png — read, 1 content]');
    expect(outcome.text).toMatch(/\[image captured from web__chart_link: chart\.png, image\/\w+, 240×120/);
    expectNoBase64(outcome.text);
  });

  it('checks structuredContent against the outputSchema', async () => {
    const raw = hubFor({ raw: { url: `${web.base}/raw` } });
    await raw.listTools();
    expect(await raw.callTool('raw__weather', {})).toMatchObject({ ok: true });
    const bad = await raw.callTool('raw__weather', { broken: true });
    expect(bad.ok).toBe(false);
    expect(bad.text).toMatch(/^\[The result of raw__weather is not reliable: its structured result does not match its output schema/);
  });

  it('ends the session with DELETE on close', async () => {
    await hub.listTools();
    const before = web.requests.length;
    await hub.close();
    expect(web.requests.slice(before)).toContain('DELETE /mcp');
  });
});
