// `glance mcp serve`'s list_windows and capture_screen {window} on a real desktop: Xvfb, openbox,
// two Chromium windows of known colour and title (test/fixtures/desktopWindows.ts), through the
// capture port's window listing, seen by the SDK client over stdio.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDesktop, type Desktop } from '../support/desktop.ts';
import { partOf, stdioClient, textOf } from './serveHelpers.ts';

const RED = { title: 'Red report — Glance test', color: '#ff0000', x: 100, y: 80, width: 500, height: 400 };
const BLUE = { title: 'Blue notes', color: '#0000ff', x: 700, y: 300, width: 420, height: 300 };
// A terminal's title shows its command line: here with a GitHub token in it (made up, of the real shape).
const TOKEN = `ghp_${'R7mQ2xK9vL4pT8wZ3nB6cY1dF5gH0jS2aE7u'}`;
const DEPLOY = { title: `Deploy — curl -H "Authorization: token ${TOKEN}"`, color: '#00aa00', x: 300, y: 500, width: 360, height: 240 };

let desktop: Desktop;
let dataDir: string;
let stdio: Awaited<ReturnType<typeof stdioClient>>;

type Listed = { windows: { app: string; title: string; focused: boolean; x: number; y: number; width: number; height: number }[] };

beforeAll(async () => {
  desktop = await openDesktop({ width: 1280, height: 800 }, [RED, BLUE, DEPLOY]);
  dataDir = await mkdtemp(join(tmpdir(), 'glance-serve-windows-'));
  stdio = await stdioClient({ env: desktop.x.env, dataDir });
  // Windows are listed a few frames after they map.
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const listed = (await stdio.client.callTool({ name: 'list_windows', arguments: {} })).structuredContent as Listed;
    if ([RED, BLUE].every((k) => listed.windows.some((w) => w.title === k.title)) && listed.windows.some((w) => w.title.startsWith('Deploy'))) break;
    await new Promise((r) => setTimeout(r, 300));
  }
}, 120_000);

afterAll(async () => {
  await stdio?.close();
  await desktop?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('glance mcp serve: windows', () => {
  it('list_windows gives app, title, focus and geometry of each window', async () => {
    const result = await stdio.client.callTool({ name: 'list_windows', arguments: {} });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { windows: listed } = result.structuredContent as Listed;
    const red = listed.find((w) => w.title === RED.title)!;
    expect(red).toBeDefined();
    expect(Object.keys(red).sort()).toEqual(['app', 'focused', 'height', 'title', 'width', 'x', 'y']);
    expect(red.app).toMatch(/chrom/i);
    // The window manager's frame may add a border: the client area sits inside what is listed.
    expect(red.x).toBeLessThanOrEqual(RED.x);
    expect(red.x + red.width).toBeGreaterThanOrEqual(RED.x + RED.width);
    expect(listed.filter((w) => w.focused).length).toBeLessThanOrEqual(1);
    expect(textOf(result)).toContain(JSON.stringify(RED.title));
  });

  it('capture_screen {window} shows only that window, by its title', async () => {
    const result = await stdio.client.callTool({ name: 'capture_screen', arguments: { window: 'Red report' } });
    expect(result.isError, textOf(result)).toBeFalsy();
    const image = partOf<{ type: 'image'; data: string }>(result, 'image');
    const { data, info } = await sharp(Buffer.from(image.data, 'base64')).raw().toBuffer({ resolveWithObject: true });
    const at = (px: number, py: number) => [0, 1, 2].map((c) => data[(py * info.width + px) * info.channels + c]!);
    // The middle is the red page; the window is about 500×400, not the 1280×800 screen.
    expect(at(Math.floor(info.width / 2), Math.floor(info.height / 2))).toEqual([255, 0, 0]);
    expect(info.width).toBeLessThan(700);
    expect(result.structuredContent).toMatchObject({ window: { title: RED.title } });
    expect(textOf(result)).toContain(`window ${JSON.stringify(RED.title)}`);
  }, 60_000);

  it('a token in a window title reaches the client in neither list_windows nor a window capture (its text line and structuredContent.window)', async () => {
    const listed = await stdio.client.callTool({ name: 'list_windows', arguments: {} });
    expect(JSON.stringify(listed)).not.toContain(TOKEN);
    expect((listed.structuredContent as Listed).windows.some((w) => w.title.startsWith('Deploy'))).toBe(true);
    const result = await stdio.client.callTool({ name: 'capture_screen', arguments: { window: 'Deploy' } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).not.toContain(TOKEN);
    const window = (result.structuredContent as { window?: { title: string } }).window;
    expect(window?.title).toMatch(/^Deploy/);
    expect(window?.title).not.toContain(TOKEN.slice(4, 20));
    expect(JSON.stringify(result.structuredContent)).not.toContain(TOKEN);
  }, 60_000);

  it('an unknown window is a tool error that names the windows there are', async () => {
    const result = await stdio.client.callTool({ name: 'capture_screen', arguments: { window: 'Spreadsheet' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/No window matches "Spreadsheet"\. The windows, topmost first: .*Blue notes/);
  });
});
