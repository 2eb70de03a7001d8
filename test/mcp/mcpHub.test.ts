// Every fixture shape end to end through the hub: a real SDK client, the fixture server as a
// real child process over stdio, the real intake and attachment store on disk.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStdioTransport, LineReadBuffer } from '../../main/mcp/stdioTransport.ts';
import { parseMcpConfig } from '../../main/mcp/config.ts';
import { McpHub, type McpProgress } from '../../main/mcp/mcpHub.ts';
import { KNOWN_CHART, readBars } from '../fixtures/chart.ts';
import { BINARY_BLOB, CRASH_STDERR, FAIL_TEXT, README_MD, TEXT_AFTER, TEXT_BEFORE, bigImageSide, makeToneWav, repoFiles } from '../fixtures/mcpServer.ts';
import { hubSuite } from '../support/hubSuite.ts';
import { FIXTURE_SERVER, captureFor, expectNoBase64, fixtureEntry, tempDataDir } from '../support/mcpSetup.ts';

const EXPECTED_BARS = KNOWN_CHART.bars.map((b) => ({ color: b.color, relativeHeight: Math.round((b.height / 95) * 100) / 100 }));

async function expectKnownChart(store: ReturnType<typeof captureFor>['store'], id: string): Promise<void> {
  const stored = await store.get(id);
  expect(stored, `attachment ${id} is in the store`).toBeDefined();
  const chart = await readBars(Buffer.from(stored!.data));
  expect(chart.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  chart.bars.forEach((bar, i) => expect(bar.relativeHeight).toBeCloseTo(EXPECTED_BARS[i]!.relativeHeight, 1));
}

describe('McpHub over stdio with the fixture server', () => {
  const s = hubSuite(() => ({ fixture: fixtureEntry() }));

  it('lists namespaced tools with descriptions and input schemas, starting the server lazily', async () => {
    expect(s.hub.status()).toEqual([expect.objectContaining({ name: 'fixture', state: 'idle', tools: 0 })]);
    // Two callers while the server is still starting (the UI's status and a chat turn): both get the tools.
    const [tools, concurrent] = await Promise.all([s.hub.listTools(), s.hub.listTools()]);
    expect(concurrent.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    expect(tools.map((t) => t.name)).toContain('fixture__get_file_contents');
    for (const tool of tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const get = tools.find((t) => t.tool === 'get_file_contents')!;
    expect(get).toMatchObject({ server: 'fixture', description: expect.stringContaining('Gitea-like') });
    expect(get.inputSchema).toMatchObject({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });
    expect(s.hub.status()[0]).toMatchObject({ state: 'ready', transport: 'stdio', tools: tools.length, restarts: 0 });
  });

  it('typed image: captured into the store, a descriptor in the text, the chart intact', async () => {
    const outcome = await s.hub.callTool('fixture__chart_image', {});
    expect(outcome.ok).toBe(true);
    expect(outcome.images).toHaveLength(1);
    const image = outcome.images[0]!;
    expect(image).toMatchObject({ origin: 'fixture__chart_image', width: 240, height: 120, source: { mime: 'image/png', width: 240, height: 120 } });
    expect(outcome.text).toContain(`attachment id ${image.id}`);
    expect(outcome.text).toContain('240×120');
    expectNoBase64(outcome.text);
    await expectKnownChart(s.store, image.id);
  });

  it('typed audio: saved as a WAV file with exactly the bytes the server sent', async () => {
    const outcome = await s.hub.callTool('fixture__tone_audio', {});
    expect(outcome.ok).toBe(true);
    expect(outcome.images).toEqual([]);
    expect(outcome.files).toHaveLength(1);
    const file = outcome.files[0]!;
    expect(file).toMatchObject({ mime: 'audio/wav', bytes: 4044 });
    expect(file.path.startsWith(join(s.dir, 'captures'))).toBe(true);
    expect(file.name).toMatch(/\.wav$/);
    expect(Buffer.compare(await readFile(file.path), makeToneWav())).toBe(0);
    // The model reads the file's name, never the data directory's path.
    expect(outcome.text).toContain(file.name);
    expect(outcome.text).not.toContain(s.dir);
    expectNoBase64(outcome.text);
  });

  it('text + image: the text blocks stay as they are, only the image is replaced', async () => {
    const outcome = await s.hub.callTool('fixture__text_and_image', {});
    const lines = outcome.text.split('\n');
    expect(lines[0]).toBe(TEXT_BEFORE);
    expect(lines[1]).toMatch(/^\[image captured from fixture__text_and_image: .*attachment id [a-f0-9]{16,}\]$/);
    expect(lines[2]).toBe(TEXT_AFTER);
    expect(outcome.images).toHaveLength(1);
    expectNoBase64(outcome.text);
    await expectKnownChart(s.store, outcome.images[0]!.id);
  });

  it('declared rule: a PNG in base64 JSON is captured, sha/size/url survive', async () => {
    const png = (await repoFiles()).get('docs/chart.png')!;
    const outcome = await s.hub.callTool('fixture__get_file_contents', { path: 'docs/chart.png' });
    expect(outcome.ok).toBe(true);
    expect(outcome.images).toHaveLength(1);
    expectNoBase64(outcome.text);
    const json = JSON.parse(outcome.text) as Record<string, unknown>;
    expect(json).toMatchObject({
      name: 'chart.png',
      path: 'docs/chart.png',
      size: png.length,
      type: 'file',
      url: 'http://gitea.example/api/v1/repos/acme/widgets/contents/docs/chart.png?ref=main',
      download_url: 'http://gitea.example/acme/widgets/raw/branch/main/docs/chart.png',
    });
    expect(json.sha).toMatch(/^[a-f0-9]{40}$/);
    expect(json.content).toContain(`attachment id ${outcome.images[0]!.id}`);
    await expectKnownChart(s.store, outcome.images[0]!.id);
  });

  it('declared rule: a README through the same field stays text (decoded), SVG too', async () => {
    const readme = await s.hub.callTool('fixture__get_file_contents', { path: 'README.md' });
    expect(readme.images).toEqual([]);
    expect(readme.files).toEqual([]);
    const json = JSON.parse(readme.text) as Record<string, unknown>;
    expect(json.content).toBe(README_MD);
    expect(json).toMatchObject({ name: 'README.md', sha: expect.stringMatching(/^[a-f0-9]{40}$/), url: expect.stringContaining('README.md') });

    const svg = await s.hub.callTool('fixture__get_file_contents', { path: 'logo.svg' });
    expect(svg.images).toEqual([]);
    expect((JSON.parse(svg.text) as { content: string }).content).toContain('<svg');
  });

  it('declared rule: a non-image binary becomes a file', async () => {
    const outcome = await s.hub.callTool('fixture__get_file_contents', { path: 'data/blob.bin' });
    expect(outcome.files).toHaveLength(1);
    expect(Buffer.compare(await readFile(outcome.files[0]!.path), BINARY_BLOB)).toBe(0);
    expect((JSON.parse(outcome.text) as { content: string }).content).toContain(outcome.files[0]!.name);
    expect(outcome.text).not.toContain(s.dir);
    expectNoBase64(outcome.text);
  });

  it('binary mangled into text is dropped with a note; the other fields survive', async () => {
    const outcome = await s.hub.callTool('fixture__get_file_mangled', {});
    expect(outcome.ok).toBe(true);
    expectNoBase64(outcome.text);
    expect(outcome.text).not.toContain('\uFFFD');
    const json = JSON.parse(outcome.text) as Record<string, unknown>;
    expect(json.content).toMatch(/^\[content dropped: the server returned binary data decoded as text/);
    expect(json).toMatchObject({ name: 'noise.png', sha: expect.stringMatching(/^[a-f0-9]{40}$/), download_url: expect.stringContaining('noise.png') });
    expect(outcome.notes.join('\n')).toMatch(/binary as text/);
  });

  it('the mangled-binary guard covers every text result, not only declared rule fields', async () => {
    const outcome = await s.hub.callTool('fixture__read_text_file', {});
    expect(outcome.ok).toBe(true);
    expect(outcome.text).not.toContain('\uFFFD');
    expect(outcome.text).toMatch(/^\[content dropped: the server returned binary data decoded as text \(\d+ characters, \d+ U\+FFFD\)/);
    expect(outcome.text.length).toBeLessThan(400);
    expect(outcome.notes.join('\n')).toMatch(/fixture__read_text_file returned binary as text: \d+ characters/);
  });

  it('embedded blob resources: an image is captured, a binary saved under a safe name, a text blob read as text', async () => {
    const image = await s.hub.callTool('fixture__get_blob_resource', { kind: 'image', name: 'chart.png' });
    expect(image.images).toHaveLength(1);
    await expectKnownChart(s.store, image.images[0]!.id);
    expectNoBase64(image.text);

    const binary = await s.hub.callTool('fixture__get_blob_resource', { kind: 'binary', name: '../../../etc/evil.bin' });
    expect(binary.files).toHaveLength(1);
    const file = binary.files[0]!;
    expect(file.path).toBe(join(s.dir, 'captures', file.name));
    expect(file.name).toMatch(/^evil(-\d+)?\.bin$/);
    expect(Buffer.compare(await readFile(file.path), BINARY_BLOB)).toBe(0);
    expectNoBase64(binary.text);

    const text = await s.hub.callTool('fixture__get_blob_resource', { kind: 'text', name: 'README.md' });
    expect(text.files).toEqual([]);
    expect(text.text).toContain(README_MD.trim());
  });

  it('a 5 MB image survives the stdio transport and the model gets a descriptor of ≤ 1 KB', async () => {
    const outcome = await s.hub.callTool('fixture__big_image', { megabytes: 5 }, { timeoutMs: 120_000 });
    expect(outcome.ok).toBe(true);
    expect(outcome.images).toHaveLength(1);
    const side = bigImageSide(5);
    expect(outcome.images[0]!.source).toMatchObject({ mime: 'image/png', width: side, height: side });
    expect(outcome.images[0]!.source.bytes).toBeGreaterThan(5 * 1024 * 1024);
    expectNoBase64(outcome.text);
  });

  it('an image the intake refuses keeps a descriptor saying why', async () => {
    const outcome = await s.hub.callTool('fixture__bad_image', {});
    expect(outcome.ok).toBe(true);
    expect(outcome.images).toEqual([]);
    expect(outcome.text).toMatch(/^\[image from fixture__bad_image not kept: .* — corrupt: /);
    expect(outcome.notes).toHaveLength(1);
  });

  it('a huge text result is capped with a note', async () => {
    const outcome = await s.hub.callTool('fixture__huge_text', { chars: 1_000_000 });
    expect(outcome.ok).toBe(true);
    expect(outcome.text.startsWith('line 000001: the quick brown fox')).toBe(true);
    expect(outcome.text.length).toBeLessThan(100_000 + 200);
    expect(outcome.text).toMatch(/\[… result cut: 1000000 characters of text, only the first 100000 shown\]$/);
    expect(outcome.notes).toContain('text cut from 1000000 to 100000 characters');
  });

  it('isError → ok:false with the server’s text', async () => {
    const outcome = await s.hub.callTool('fixture__fail_tool', {});
    expect(outcome).toMatchObject({ ok: false, text: FAIL_TEXT, images: [], files: [] });
    expect(outcome.failure).toBeUndefined();
  });

  it('progress notifications reach the callback, in order, including the last one', async () => {
    const seen: McpProgress[] = [];
    const outcome = await s.hub.callTool('fixture__slow_progress', { steps: 4, delayMs: 20 }, { onProgress: (p) => seen.push(p) });
    expect(outcome.text).toBe('done after 4 steps');
    expect(seen).toEqual([1, 2, 3, 4].map((i) => ({ progress: i, total: 4, message: `step ${i} of 4` })));
  });

  it('progress resets the timeout: a call longer than its timeout that keeps reporting succeeds', async () => {
    const outcome = await s.hub.callTool('fixture__slow_progress', { steps: 5, delayMs: 300 }, { timeoutMs: 1000 });
    expect(outcome).toMatchObject({ ok: true, text: 'done after 5 steps' });
  });

  it('abort: the call fails as cancelled and the server is not restarted', async () => {
    const before = s.hub.status()[0]!;
    const controller = new AbortController();
    const outcome = await s.hub.callTool('fixture__slow_progress', { steps: 100, delayMs: 100 }, { signal: controller.signal, onProgress: () => controller.abort() });
    expect(outcome).toMatchObject({ ok: false, failure: 'aborted' });
    expect(outcome.text).toMatch(/cancelled/);
    const pid = await s.hub.callTool('fixture__pid', {});
    expect(pid.ok).toBe(true);
    expect(s.hub.status()[0]).toMatchObject({ state: 'ready', restarts: before.restarts, pid: before.pid });
  });

  it('an unknown tool is a failed outcome, not a throw', async () => {
    await expect(s.hub.callTool('fixture__nope', {})).resolves.toMatchObject({ ok: false, failure: 'unknown-tool' });
    await expect(s.hub.callTool('elsewhere__x', {})).resolves.toMatchObject({ ok: false, failure: 'unknown-tool' });
  });
});

describe('McpHub: crash, hang, failed start, invalid config', () => {
  let data: Awaited<ReturnType<typeof tempDataDir>>;
  let hub: McpHub;

  beforeAll(async () => {
    data = await tempDataDir();
    const config = parseMcpConfig({
      mcpServers: {
        'my.fixture': fixtureEntry(),
        missing: { command: join(data.dir, 'no-such-server') },
        broken: { url: 'not a url' },
      },
    });
    hub = new McpHub({ config, capture: captureFor(data.dir).capture });
  });
  afterAll(async () => {
    await hub.close();
    await data.remove();
  });

  it('a server that fails to start is reported; the others are still listed', async () => {
    const tools = await hub.listTools();
    expect(tools.length).toBeGreaterThan(10);
    expect(tools.every((t) => t.server === 'my.fixture' && t.name.startsWith('my_fixture__'))).toBe(true);
    const status = hub.status();
    expect(status.find((s) => s.name === 'missing')).toMatchObject({ state: 'failed', message: expect.stringContaining('command was not found') });
    expect(status.find((s) => s.name === 'broken')).toMatchObject({ state: 'invalid', message: expect.stringContaining('url') });
    await expect(hub.callServerTool('missing', 'x', {})).resolves.toMatchObject({ ok: false, failure: 'server-unavailable' });
    await expect(hub.callServerTool('broken', 'x', {})).resolves.toMatchObject({ ok: false, failure: 'server-unavailable' });
  });

  it('crash → a clear failure; the next call restarts the server and succeeds', async () => {
    const first = await hub.callTool('my_fixture__pid', {});
    const crashed = await hub.callTool('my_fixture__crash', {});
    expect(crashed).toMatchObject({ ok: false, failure: 'server-crashed' });
    expect(crashed.text).toContain('MCP server "my.fixture" stopped while running my_fixture__crash');
    expect(crashed.text).toContain(CRASH_STDERR);
    expect(crashed.text).toContain('restarted on next use');
    expect(hub.status()[0]).toMatchObject({ state: 'crashed' });
    const second = await hub.callTool('my_fixture__pid', {});
    expect(second.ok).toBe(true);
    expect(second.text).not.toBe(first.text);
    expect(hub.status()[0]).toMatchObject({ state: 'ready', restarts: 1, pid: Number(second.text) });
  });

  it('hang → a timeout failure; the next call restarts the server and succeeds', async () => {
    const before = await hub.callTool('my_fixture__pid', {});
    const hung = await hub.callTool('my_fixture__hang', {}, { timeoutMs: 500 });
    expect(hung).toMatchObject({ ok: false, failure: 'timeout' });
    expect(hung.text).toContain('did not answer within 0.5 s');
    expect(hub.status()[0]).toMatchObject({ state: 'hung' });
    const after = await hub.callTool('my_fixture__pid', {});
    expect(after.ok).toBe(true);
    expect(after.text).not.toBe(before.text);
    expect(hub.status()[0]).toMatchObject({ state: 'ready', restarts: 2 });
  });

  it('restart(server) replaces the process; close() ends every child and later calls fail cleanly', async () => {
    const before = hub.status()[0]!.pid!;
    const status = await hub.restart('my.fixture');
    expect(status).toMatchObject({ state: 'ready', restarts: 3 });
    expect(status!.pid).not.toBe(before);
    const pid = status!.pid!;
    await hub.close();
    expect(() => process.kill(pid, 0)).toThrow(); // the child is gone
    expect(hub.status()[0]).toMatchObject({ state: 'closed' });
    await expect(hub.callTool('my_fixture__pid', {})).resolves.toMatchObject({ ok: false, failure: 'closed' });
  });
});

describe('McpHub: close() during a start', () => {
  it('leaves no child process behind', async () => {
    const data = await tempDataDir();
    const marker = `--glance-test-marker=${process.pid}-${Date.now()}`;
    const hub = new McpHub({ config: parseMcpConfig({ mcpServers: { fx: fixtureEntry({ args: [FIXTURE_SERVER, marker] }) } }), capture: captureFor(data.dir).capture });
    try {
      const listing = hub.listTools();
      await new Promise((resolve) => setTimeout(resolve, 50)); // spawned, not yet initialised
      await hub.close();
      expect(await listing).toEqual([]);
      expect(hub.status()[0]).toMatchObject({ state: 'closed' });
      const running = (await readdir('/proc')).filter((p) => /^\d+$/.test(p));
      const cmdlines = await Promise.all(running.map((p) => readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '')));
      expect(cmdlines.filter((c) => c.includes(marker))).toEqual([]);
    } finally {
      await data.remove();
    }
  });
});

describe('McpHub: the stdio buffer', () => {
  let data: Awaited<ReturnType<typeof tempDataDir>>;
  beforeAll(async () => {
    data = await tempDataDir();
  });
  afterAll(async () => data.remove());

  it('the hub reads stdio with the linear LineReadBuffer (pins the SDK internals it replaces)', () => {
    // The SDK's private field, read here (not through a product export): this pins the internals the hub replaces.
    const transport = createStdioTransport({ command: process.execPath, maxBufferSize: 1024 });
    expect((transport as unknown as { _readBuffer?: unknown })._readBuffer).toBeInstanceOf(LineReadBuffer);
  });

  it('an 8 MB image (≈11 MB of JSON) passes with the hub’s limit and fails cleanly at a 10 MB limit (the SDK’s default)', async () => {
    const { capture } = captureFor(data.dir);
    const raised = new McpHub({ config: parseMcpConfig({ mcpServers: { fx: fixtureEntry() } }), capture });
    const sdkDefault = new McpHub({ config: parseMcpConfig({ mcpServers: { fx: fixtureEntry() } }), capture, maxMessageBytes: 10 * 1024 * 1024 });
    try {
      const ok = await raised.callTool('fx__big_image', { megabytes: 8 }, { timeoutMs: 120_000 });
      expect(ok.ok).toBe(true);
      expect(ok.images[0]!.source.bytes).toBeGreaterThan(8 * 1024 * 1024);
      expectNoBase64(ok.text);

      const broken = await sdkDefault.callTool('fx__big_image', { megabytes: 8 }, { timeoutMs: 120_000 });
      expect(broken).toMatchObject({ ok: false, failure: 'server-crashed' });
      // Said in the person's terms (issue 30): which limit, and which setting moves it.
      expect(broken.text).toContain('over 10 MB, the most Glance reads of one MCP message');
      expect(broken.text).toContain('Settings → Limits → Largest file');
      expect(broken.text).not.toMatch(/10485760/);
    } finally {
      await raised.close();
      await sdkDefault.close();
    }
  });
});

describe('McpHub: capture never fails a call', () => {
  let data: Awaited<ReturnType<typeof tempDataDir>>;
  let hub: McpHub;
  beforeAll(async () => {
    data = await tempDataDir();
    // The store and the captures folder cannot be created: a file sits where each must go.
    await mkdir(data.dir, { recursive: true });
    await writeFile(join(data.dir, 'attachments'), 'not a folder');
    await writeFile(join(data.dir, 'captures'), 'not a folder');
    hub = new McpHub({ config: parseMcpConfig({ mcpServers: { fx: fixtureEntry() } }), capture: captureFor(data.dir).capture });
  });
  afterAll(async () => {
    await hub.close();
    await data.remove();
  });

  it('an unwritable store: a typed image becomes a descriptor saying why, no base64', async () => {
    const outcome = await hub.callTool('fx__chart_image', {});
    expect(outcome.ok).toBe(true);
    expect(outcome.images).toEqual([]);
    expect(outcome.text).toMatch(/^\[image from fx__chart_image not kept: .*the attachment store failed/);
    expectNoBase64(outcome.text);
  });

  it('an unwritable captures folder: audio becomes a descriptor saying why', async () => {
    const outcome = await hub.callTool('fx__tone_audio', {});
    expect(outcome.ok).toBe(true);
    expect(outcome.files).toEqual([]);
    expect(outcome.text).toMatch(/^\[audio from fx__tone_audio not kept: .*saving failed/);
  });

  it('an unwritable store under a rule: the original result passes through, with a note', async () => {
    const png = (await repoFiles()).get('docs/chart.png')!;
    const outcome = await hub.callTool('fx__get_file_contents', { path: 'docs/chart.png' });
    expect(outcome.ok).toBe(true);
    expect((JSON.parse(outcome.text) as { content: string }).content).toBe(png.toString('base64'));
    expect(outcome.notes.join('\n')).toMatch(/capture rule for fx__get_file_contents failed/);
  });
});
