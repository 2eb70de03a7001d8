// `glance mcp serve` seen by a client nobody here wrote: the MCP Inspector's CLI
// (@modelcontextprotocol/inspector-cli, pinned), which starts the server over stdio as Claude
// Desktop or Cursor would, lists its tools and calls them. Run in a network namespace of its own
// (`unshare -n`, when this machine allows it) to show it needs nothing from the network.
// The Inspector finds its own package.json through "../package.json" *relative to the working
// directory* (inspector-cli 1.0.3, build/index.js), so it runs from a sub-folder of the repo.
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { readBars } from '../fixtures/chart.ts';
import { chartOnXvfb } from '../fixtures/chartScreen.ts';
import type { ScreenPage } from '../fixtures/screenPage.ts';
import type { XServer } from '../fixtures/xvfb.ts';
import { CLI, ROOT } from './serveHelpers.ts';

const run = promisify(execFile);
const INSPECTOR = join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');
/** No network at all for the Inspector and the server it starts, where a namespace can be made. */
const OFFLINE = spawnSync('unshare', ['-n', 'true']).status === 0;

let x: XServer;
let screen: ScreenPage;
let dataDir: string;

beforeAll(async () => {
  ({ x, screen } = await chartOnXvfb(new NodeScreenshotsCapturer({ timeoutMs: 20_000 })));
  dataDir = await mkdtemp(join(tmpdir(), 'glance-serve-inspector-'));
}, 120_000);

afterAll(async () => {
  await screen?.close();
  await x?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function inspector(...args: string[]): Promise<Record<string, unknown>> {
  const argv = [INSPECTOR, '--cli', process.execPath, CLI, 'mcp', 'serve', '--data-dir', dataDir, ...args];
  const [command, ...rest] = OFFLINE ? ['unshare', '-n', process.execPath, ...argv] : [process.execPath, ...argv];
  const { stdout } = await run(command!, rest, { cwd: join(ROOT, 'test'), env: x.env, maxBuffer: 64 * 1024 * 1024, timeout: 90_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

type Part = { type: string; text?: string; data?: string; uri?: string };

describe('the MCP Inspector CLI as a client of glance mcp serve', () => {
  it('tools/list: the seven tools, read-only, with output schemas', async () => {
    const { tools } = (await inspector('--method', 'tools/list')) as { tools: { name: string; annotations?: { readOnlyHint?: boolean }; outputSchema?: unknown }[] };
    expect(tools.map((t) => t.name).sort()).toEqual(['capture_screen', 'describe', 'list_displays', 'list_windows', 'read_text', 'wait_for', 'zoom']);
    for (const t of tools) expect([t.name, t.annotations?.readOnlyHint, Boolean(t.outputSchema)]).toEqual([t.name, true, true]);
  }, 120_000);

  it('tools/call capture_screen: the chart, fitted to the named model, and a link to the original', async () => {
    const result = (await inspector('--method', 'tools/call', '--tool-name', 'capture_screen', '--tool-arg', 'model=gpt-4o')) as { content: Part[]; isError?: boolean };
    expect(result.isError).toBeFalsy();
    const image = result.content.find((c) => c.type === 'image')!;
    const bytes = Buffer.from(image.data!, 'base64');
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height]).toEqual([1365, 768]);
    expect((await readBars(bytes)).bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
    const link = result.content.find((c) => c.type === 'resource_link')!;
    // The original, read by another run of the Inspector: another server process finds it in the store.
    const read = (await inspector('--method', 'resources/read', '--uri', link.uri!)) as { contents: { blob: string }[] };
    const original = Buffer.from(read.contents[0]!.blob, 'base64');
    expect(createHash('sha256').update(original).digest('hex')).toBe(link.uri!.slice(-64));
    expect((await sharp(original).metadata()).width).toBe(1920);
  }, 180_000);

  it('tools/call with a bad argument: a tool error in words', async () => {
    const result = (await inspector('--method', 'tools/call', '--tool-name', 'capture_screen', '--tool-arg', 'region={"x":5000,"y":0,"width":10,"height":10}')) as { content: Part[]; isError?: boolean };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/lies outside the display, which is 1920×1080/);
  }, 120_000);
});
