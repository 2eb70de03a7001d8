// `glance mcp serve` under a real X server (DESIGN §6a): the SDK's own client over stdio and over
// streamable HTTP sees what is on the display — the known-answer chart, read back from the
// image's pixels — in one image fitted to Claude's rule and under 1 MB of base64, with the
// full-size original a resource away. Bad arguments are tool errors in words, and the server
// answers the next call.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { readBars } from '../fixtures/chart.ts';
import { chartOnXvfb } from '../fixtures/chartScreen.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { chartHtml, type ScreenPage } from '../fixtures/screenPage.ts';
import type { XServer } from '../fixtures/xvfb.ts';
import { CLI, httpClient, partOf, startHttpServe, stdioClient, textOf, type HttpServer } from './serveHelpers.ts';

let x: XServer;
let screen: ScreenPage;
let model: ModelServer;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let stdio: Awaited<ReturnType<typeof stdioClient>>;

beforeAll(async () => {
  ({ x, screen } = await chartOnXvfb(new NodeScreenshotsCapturer({ timeoutMs: 20_000 })));
  model = await createModelServer();
  dataDir = await mkdtemp(join(tmpdir(), 'glance-serve-'));
  env = { ...x.env, OLLAMA_HOST: model.url };
  stdio = await stdioClient({ env, dataDir });
}, 120_000);

afterAll(async () => {
  await stdio?.close();
  await model?.close();
  await screen?.close();
  await x?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

type Image = { type: 'image'; data: string; mimeType: string };
type Link = { type: 'resource_link'; uri: string; mimeType: string };

/** Claude's rule: ⌈w/28⌉·⌈h/28⌉ ≤ 1568, sides ≤ 1568. */
const claudeTokens = (w: number, h: number) => Math.ceil(w / 28) * Math.ceil(h / 28);

async function seesTheChart(client: Client) {
  const result = await client.callTool({ name: 'capture_screen', arguments: {} });
  expect(result.isError, textOf(result)).toBeFalsy();
  const image = partOf<Image>(result, 'image');
  expect(image.data.length).toBeLessThanOrEqual(1024 * 1024);
  const bytes = Buffer.from(image.data, 'base64');
  const meta = await sharp(bytes).metadata();
  expect(claudeTokens(meta.width!, meta.height!)).toBeLessThanOrEqual(1568);
  expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(1568);
  // A 16:9 screen fits Claude's budget at about 1456×819: much more than half the screen, not all of it.
  expect(meta.width!).toBeGreaterThan(1000);
  expect(meta.width!).toBeLessThan(1920);
  expect((await readBars(bytes)).bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  const link = partOf<Link>(result, 'resource_link');
  expect(link.uri).toMatch(/^glance:\/\/captures\/[a-f0-9]{64}$/);
  const text = textOf(result);
  expect(text).toMatch(/1920×1080 pixels/);
  expect(text).toContain(`${meta.width}×${meta.height}`);
  expect(text).toMatch(/about \d+ tokens for claude/);
  expect(text).toMatch(/Displays: /);
  expect(text).toMatch(/Hidden: /);
  expect(result.structuredContent).toMatchObject({ image: { width: meta.width, height: meta.height }, original: { uri: link.uri, width: 1920, height: 1080 } });

  // The original, full size, exactly the bytes named by the URI.
  const read = await client.readResource({ uri: link.uri });
  const blob = read.contents[0] as { blob: string; mimeType: string };
  const original = Buffer.from(blob.blob, 'base64');
  expect(createHash('sha256').update(original).digest('hex')).toBe(link.uri.slice(-64));
  const full = await sharp(original).metadata();
  expect([full.width, full.height]).toEqual([1920, 1080]);
  expect((await readBars(original)).bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  return { result, image: meta, link };
}

describe('glance mcp serve over stdio (SDK client)', () => {
  it('lists seven read-only tools, each with an input and an output schema', async () => {
    const { tools } = await stdio.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['capture_screen', 'describe', 'list_displays', 'list_windows', 'read_text', 'wait_for', 'zoom']);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
    const capture = tools.find((t) => t.name === 'capture_screen')!;
    expect(Object.keys(capture.inputSchema.properties ?? {}).sort()).toEqual(['display', 'maxTokens', 'model', 'region', 'window']);
  });

  it('capture_screen shows the display, fitted to Claude, with the full-size original as a resource', async () => {
    const { link } = await seesTheChart(stdio.client);
    const { resources } = await stdio.client.listResources();
    expect(resources.map((r) => r.uri)).toContain(link.uri);
  }, 60_000);

  it('captures anew on each call: a changed screen gives a new original', async () => {
    const first = partOf<Link>(await stdio.client.callTool({ name: 'capture_screen', arguments: { region: { x: 0, y: 0, width: 400, height: 300 } } }), 'resource_link');
    await screen.page.evaluate('document.body.style.background = "#203040"');
    await new Promise((r) => setTimeout(r, 400));
    const second = await stdio.client.callTool({ name: 'capture_screen', arguments: { region: { x: 0, y: 0, width: 400, height: 300 } } });
    expect(partOf<Link>(second, 'resource_link').uri).not.toBe(first.uri);
    await screen.page.evaluate('document.body.style.background = ""');
    await new Promise((r) => setTimeout(r, 400));
  }, 60_000);

  it("a named model's rule decides the size: gpt-4o gets its 768-px short side", async () => {
    const result = await stdio.client.callTool({ name: 'capture_screen', arguments: { model: 'gpt-4o' } });
    const meta = await sharp(Buffer.from(partOf<Image>(result, 'image').data, 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([1365, 768]);
    expect(textOf(result)).toMatch(/tokens for gpt-4o/);
  }, 60_000);

  it('maxTokens makes the image smaller until it fits the budget', async () => {
    const result = await stdio.client.callTool({ name: 'capture_screen', arguments: { maxTokens: 300 } });
    expect(result.isError, textOf(result)).toBeFalsy();
    const meta = await sharp(Buffer.from(partOf<Image>(result, 'image').data, 'base64')).metadata();
    expect(claudeTokens(meta.width!, meta.height!)).toBeLessThanOrEqual(300);
    expect(claudeTokens(meta.width!, meta.height!)).toBeGreaterThan(200);
  }, 60_000);

  it('zoom cuts from the original at full resolution', async () => {
    const shot = await stdio.client.callTool({ name: 'capture_screen', arguments: {} });
    const id = (shot.structuredContent as { image: { id: string; width: number } }).image;
    // The left half of the shown image is the left half of the screen, 960 screen pixels wide.
    const zoomed = await stdio.client.callTool({ name: 'zoom', arguments: { image: id.id, x: 0, y: 0, width: Math.round(id.width / 2), height: 200 } });
    expect(zoomed.isError, textOf(zoomed)).toBeFalsy();
    expect(zoomed.structuredContent).toMatchObject({ from: { originalRegion: { x: 0, y: 0, width: 960 } } });
    const meta = await sharp(Buffer.from(partOf<Image>(zoomed, 'image').data, 'base64')).metadata();
    expect(meta.width).toBe(960);
    // By the original's URI, coordinates are the screen's.
    const uri = partOf<Link>(shot, 'resource_link').uri;
    const byUri = await stdio.client.callTool({ name: 'zoom', arguments: { image: uri, x: 100, y: 100, width: 300, height: 200 } });
    expect(byUri.structuredContent).toMatchObject({ from: { originalRegion: { x: 100, y: 100, width: 300, height: 200 } } });
  }, 60_000);

  it('list_displays names the Xvfb screen', async () => {
    const result = await stdio.client.callTool({ name: 'list_displays', arguments: {} });
    expect(result.structuredContent).toMatchObject({ displays: [{ pixels: { width: 1920, height: 1080 }, primary: true }] });
  });

  it('describe answers from the configured local vision model, text only', async () => {
    const result = await stdio.client.callTool({ name: 'describe', arguments: { question: 'What chart is this?' } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((result.content as { type: string }[]).map((c) => c.type)).toEqual(['text']);
    // The fixture model measures what reached it: the chart's bars.
    expect(textOf(result)).toMatch(/red, green, blue/);
    const received = model.requests.at(-1)!;
    expect(received.images[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  }, 60_000);

  it('read_text gives the exact text and a box for every word, from a fresh capture', async () => {
    try {
      await screen.page.setContent('<body style="margin:0;background:#fff"><div style="font:48px DejaVu Sans,sans-serif;color:#000;padding:40px 60px">INVOICE 4821 PORT 8080</div></body>');
      await new Promise((r) => setTimeout(r, 500));
      const result = await stdio.client.callTool({ name: 'read_text', arguments: { region: { x: 0, y: 0, width: 1000, height: 200 } } });
      expect(result.isError, textOf(result)).toBeFalsy();
      const { text, words } = result.structuredContent as { text: string; words: { text: string; x: number; y: number; width: number; height: number }[] };
      // OCR keeps runs of spaces as it read them: the words matter, not the gaps.
      expect(text.replace(/\s+/g, ' ')).toContain('INVOICE 4821 PORT 8080');
      expect(words.map((w) => w.text)).toEqual(['INVOICE', '4821', 'PORT', '8080']);
      // In screen pixels: the line starts 60 px in, 48 px type about 40–110 px down.
      expect(words[0]!.x).toBeGreaterThan(50);
      expect(words[0]!.x).toBeLessThan(75);
      expect(words[0]!.y).toBeGreaterThan(40);
      expect(words[0]!.y + words[0]!.height).toBeLessThan(120);
      for (let i = 1; i < words.length; i++) expect(words[i]!.x).toBeGreaterThan(words[i - 1]!.x + words[i - 1]!.width);
      expect(textOf(result).replace(/[ \t]+/g, ' ')).toContain('INVOICE 4821 PORT 8080');
      // The same words from the capture's shown image, in its own (smaller) pixels.
      const shown = await stdio.client.callTool({ name: 'capture_screen', arguments: {} });
      const image = (shown.structuredContent as { image: { id: string; width: number } }).image;
      const again = await stdio.client.callTool({ name: 'read_text', arguments: { image: image.id, region: { x: 0, y: 0, width: Math.round(image.width / 2), height: 150 } } });
      const scaled = (again.structuredContent as { words: { text: string; x: number }[] }).words;
      expect(scaled.map((w) => w.text)).toEqual(['INVOICE', '4821', 'PORT', '8080']);
      expect(scaled[0]!.x).toBeCloseTo((words[0]!.x * image.width) / 1920, -1);
    } finally {
      await screen.page.setContent(await chartHtml(4), { waitUntil: 'load' });
      await new Promise((r) => setTimeout(r, 500));
    }
  }, 120_000);

  describe('bad arguments are tool errors in words, and the server goes on', () => {
    it.each<[string, { name: string; arguments: Record<string, unknown> }, RegExp]>([
      ['an unknown display', { name: 'capture_screen', arguments: { display: 'HDMI-9' } }, /No display "HDMI-9"\. The displays are: /],
      ['an unknown window', { name: 'capture_screen', arguments: { window: 'Nope' } }, /No window matches "Nope"\..*Call list_windows/],
      ['a region outside the screen', { name: 'capture_screen', arguments: { region: { x: 5000, y: 5000, width: 100, height: 100 } } }, /lies outside the display, which is 1920×1080/],
      ['a maxTokens too small to hold anything', { name: 'capture_screen', arguments: { maxTokens: 2 } }, /maxTokens 2 is too small to hold an image/],
      ['a negative width', { name: 'capture_screen', arguments: { region: { x: 0, y: 0, width: -5, height: 10 } } }, /width/],
      ['a zoom of an image never captured', { name: 'zoom', arguments: { image: 'f'.repeat(64), x: 0, y: 0, width: 10, height: 10 } }, /No capture/],
      ['a zoom outside the image', { name: 'zoom', arguments: { image: 'latest', x: 9000, y: 0, width: 10, height: 10 } }, /outside the \d+×\d+ image/],
      ['a read_text region outside the screen', { name: 'read_text', arguments: { region: { x: 4000, y: 0, width: 10, height: 10 } } }, /outside/],
      ['an image that is not an id or a capture URI', { name: 'zoom', arguments: { image: 'glance://captures/0', x: 0, y: 0, width: 10, height: 10 } }, /"image" must be/],
    ])('%s', async (_what, call, words) => {
      if (call.arguments.image === 'latest') {
        const shot = await stdio.client.callTool({ name: 'capture_screen', arguments: {} });
        call = { ...call, arguments: { ...call.arguments, image: (shot.structuredContent as { image: { id: string } }).image.id } };
      }
      const result = await stdio.client.callTool(call);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(words);
      const after = await stdio.client.callTool({ name: 'list_displays', arguments: {} });
      expect(after.isError).toBeFalsy();
    }, 60_000);
  });

  it('concurrent captures all succeed, each its own result', async () => {
    const results = await Promise.all([0, 1, 2, 3].map((i) => stdio.client.callTool({ name: 'capture_screen', arguments: { region: { x: i * 100, y: 0, width: 300, height: 300 } } })));
    for (const r of results) expect(r.isError, textOf(r)).toBeFalsy();
    const regions = results.map((r) => (r.structuredContent as { region: { x: number } }).region.x);
    expect(regions).toEqual([0, 100, 200, 300]);
  }, 90_000);
});

describe('glance mcp serve refuses what it must not do', () => {
  it.each([['0.0.0.0'], ['192.168.1.10'], ['example.com']])('a bind to %s (not loopback) is a usage error, and nothing listens', async (host) => {
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, [CLI, 'mcp', 'serve', '--http', '--host', host, '--data-dir', dataDir], { env, encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`--host ${host.replace(/\./g, '\\.')} is not loopback`));
    expect(run.stderr).not.toMatch(/MCP server at/);
  }, 40_000);

  it('an unknown --redact is a usage error', async () => {
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, [CLI, 'mcp', 'serve', '--redact', 'sometimes', '--data-dir', dataDir], { env, encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--redact must be always, remote or never/);
  }, 40_000);
});

describe('glance mcp serve --http (SDK client, streamable HTTP)', () => {
  let serve: HttpServer;
  let httpDir: string;
  beforeAll(async () => {
    httpDir = await mkdtemp(join(tmpdir(), 'glance-serve-http-'));
    serve = await startHttpServe({ env, dataDir: httpDir });
  }, 60_000);
  afterAll(async () => {
    await serve?.stop();
    if (httpDir) await rm(httpDir, { recursive: true, force: true });
  });

  it('listens on loopback, with the token kept at 0600 and printed once', async () => {
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(serve.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect((await stat(join(httpDir, 'mcp-serve-token'))).mode & 0o777).toBe(0o600);
    const again = await startHttpServe({ env, dataDir: httpDir });
    try {
      expect(again.token).toBe('');
      expect(again.stderr()).not.toContain(serve.token);
    } finally {
      await again.stop();
    }
  }, 60_000);

  it('refuses a request without the token, or with another', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(serve.url, { method: 'POST', headers, body: JSON.stringify(init) });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await fetch(serve.url, { method: 'POST', headers: { ...headers, authorization: 'Bearer nope' }, body: JSON.stringify(init) });
    expect(wrong.status).toBe(401);
    const page = await fetch(serve.url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${serve.token}`, origin: 'https://evil.example' }, body: JSON.stringify(init) });
    expect(page.status).toBe(403);
    // A rebinding page's request carries its own host name, with the right port: refused too, Origin or not.
    const { request } = await import('node:http');
    const port = new URL(serve.url).port;
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...headers, host: `evil.example:${port}`, authorization: `Bearer ${serve.token}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify(init));
    });
    expect(rebound).toBe(403);
  });

  it('capture_screen shows the display and the original reads at full size', async () => {
    const client = await httpClient(serve.url, serve.token);
    try {
      await seesTheChart(client);
    } finally {
      await client.close();
    }
  }, 60_000);
});
