// wait_for (DESIGN §6a, issue 43) on a real X display: Chromium shows a page whose text changes after
// a delay; the SDK's client calls the real `glance mcp serve` over stdio. It returns when the text
// appears (or goes) or a region changes, with the capture that shows it, reading by OCR only the band
// that changed after the first read; and a wait whose timeout passes says so, with the screen as it is.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showPage, type ScreenPage } from '../fixtures/screenPage.ts';
import { startXvfb, type XServer } from '../fixtures/xvfb.ts';
import { partOf, stdioClient, textOf } from './serveHelpers.ts';

const W = 1280;
const H = 720;
const PAGE = `<!doctype html><html><body style="margin:0;background:#fff;font:48px sans-serif;color:#000">
<div id="status" style="position:absolute;left:60px;top:80px">Status: Building</div>
<div id="other" style="position:absolute;left:60px;top:300px">Nothing else moves here</div>
<div id="block" style="position:absolute;left:900px;top:450px;width:200px;height:150px;background:#2060c0"></div>
</body></html>`;

let x: XServer;
let screen: ScreenPage;
let dataDir: string;
let stdio: Awaited<ReturnType<typeof stdioClient>>;

beforeAll(async () => {
  x = await startXvfb({ width: W, height: H });
  screen = await showPage(x.env, PAGE, { monitor: x.monitors[0]! });
  dataDir = await mkdtemp(join(tmpdir(), 'glance-wait-for-'));
  stdio = await stdioClient({ env: { ...x.env, XDG_SESSION_TYPE: 'x11' }, dataDir });
}, 120_000);

afterAll(async () => {
  await stdio?.close();
  await screen?.close();
  await x?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

type Waited = { met: boolean; waitedMs: number; changed?: { x: number; y: number; width: number; height: number }; ocrReads: number; ocrPixels: number; original: { uri: string; width: number; height: number } };

/** Changes the page `ms` from now (the page's own timer: the test does not wait for it). */
const later = (ms: number, script: string) => screen.page.evaluate(`setTimeout(() => { ${script} }, ${ms})`);

describe('wait_for on a real display', () => {
  it('is a read-only tool with input and output schemas', async () => {
    const { tools } = await stdio.client.listTools();
    const tool = tools.find((t) => t.name === 'wait_for')!;
    expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(['display', 'gone', 'maxTokens', 'model', 'region', 'text', 'timeout', 'window']);
    expect(tool.outputSchema?.type).toBe('object');
  });

  it('returns when the text appears, with the capture that shows it; after the first read only the changed band is read', async () => {
    await later(2500, `document.getElementById('status').textContent = 'Status: Build finished'`);
    const result = await stdio.client.callTool({ name: 'wait_for', arguments: { text: 'build FINISHED', timeout: 60 } }, undefined, { timeout: 120_000 });
    expect(result.isError, textOf(result)).toBeFalsy();
    const got = result.structuredContent as Waited;
    expect(got.met).toBe(true);
    expect(textOf(result)).toMatch(/^Waited [\d.]+ s for the text "build FINISHED" to appear: it did \(the change: \d+×\d+ at \d+,\d+\)\. This capture shows it/);
    // The change is the status line, not the page.
    expect(got.changed!.y).toBeLessThan(200);
    expect(got.changed!.y + got.changed!.height).toBeGreaterThan(80);
    expect(got.ocrReads).toBeGreaterThanOrEqual(2);
    expect(got.ocrPixels - W * H).toBeLessThan((W * H * (got.ocrReads - 1)) / 2);
    partOf(result, 'image');
    // The capture returned is the one that shows it: its own text, read back.
    const read = await stdio.client.callTool({ name: 'read_text', arguments: { image: got.original.uri } }, undefined, { timeout: 120_000 });
    expect(textOf(read)).toMatch(/Build finished/i);
  }, 180_000);

  it('returns when the text goes; text already gone is no wait', async () => {
    await later(2000, `document.getElementById('other').textContent = ''`);
    const result = await stdio.client.callTool({ name: 'wait_for', arguments: { gone: 'Nothing else moves', timeout: 60 } }, undefined, { timeout: 120_000 });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((result.structuredContent as Waited).met).toBe(true);
    expect(textOf(result)).toMatch(/for the text "Nothing else moves" to go: it did/);
    const again = await stdio.client.callTool({ name: 'wait_for', arguments: { gone: 'Building', timeout: 60 } }, undefined, { timeout: 120_000 });
    expect(textOf(again)).toMatch(/^No wait: "Building" is already not on screen/);
  }, 180_000);

  it('returns when a region changes, and not for changes outside it', async () => {
    await later(1500, `document.getElementById('status').textContent = 'Status: elsewhere'`);
    await later(3000, `document.getElementById('block').style.background = '#c02020'`);
    const result = await stdio.client.callTool({ name: 'wait_for', arguments: { region: { x: 850, y: 400, width: 300, height: 250 }, timeout: 60 } }, undefined, { timeout: 120_000 });
    expect(result.isError, textOf(result)).toBeFalsy();
    const got = result.structuredContent as Waited & { region: { x: number; y: number } };
    expect(got.met).toBe(true);
    expect(got.waitedMs).toBeGreaterThan(1500);
    expect(got.original).toMatchObject({ width: 300, height: 250 });
    expect(textOf(result)).toMatch(/for the screen to change: it did/);
  }, 180_000);

  it('a timeout that passes says so, with the screen as it is; bad arguments are errors in words', async () => {
    const result = await stdio.client.callTool({ name: 'wait_for', arguments: { text: 'a phrase that never shows', timeout: 2 } }, undefined, { timeout: 120_000 });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((result.structuredContent as Waited).met).toBe(false);
    expect(textOf(result)).toMatch(/^Timed out after [\d.]+ s waiting for the text "a phrase that never shows" to appear: it did not happen\. This is the screen as it is now/);
    partOf(result, 'image');
    const both = await stdio.client.callTool({ name: 'wait_for', arguments: { text: 'a', gone: 'b' } });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toMatch(/Give "text" or "gone", not both/);
    const tooLong = await stdio.client.callTool({ name: 'wait_for', arguments: { timeout: 100_000 } });
    expect(tooLong.isError).toBe(true);
  }, 180_000);

  it('reports progress to a client that asks, so a wait longer than its request timeout is not cut off', async () => {
    const heard: number[] = [];
    // The client's own timer is 3 s; the wait is 6 s. Progress resets the timer each poll.
    const result = await stdio.client.callTool({ name: 'wait_for', arguments: { text: 'still never shows', timeout: 6 } }, undefined, {
      timeout: 3000,
      resetTimeoutOnProgress: true,
      onprogress: (p) => heard.push(p.progress),
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((result.structuredContent as Waited).met).toBe(false);
    expect(heard.length).toBeGreaterThan(2);
    expect(heard.at(-1)!).toBeGreaterThan(3000);
  }, 120_000);
});
