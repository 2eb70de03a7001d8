// Issue 3: "a zoom call returns a region with legible text (OCR it)". A real 4K X screen (Xvfb,
// 3840×2160) shows an IDE page with 14 px code in Chromium; the real engine runs
// screenshot_desktop for the seeing fixture model, first the whole screen (fitted to 1568×882:
// the text is a few pixels tall) and then a region of that view, which comes back at native
// resolution. The zoomed payload — the very bytes the model got — must OCR as the known code;
// the full view, read as sent, must not. DISPLAY is set for this file's own process
// (node-screenshots connects once per process).
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { accuracy, Ocr, type Box } from '../fixtures/ocr.ts';
import { editorHtml, showPage, type ScreenPage } from '../fixtures/screenPage.ts';
import { startXvfb, type XServer } from '../fixtures/xvfb.ts';
import { makeHarness, ofType, type Harness } from './engineHarness.ts';

const WIDTH = 3840;
const HEIGHT = 2160;
const page = editorHtml({ width: WIDTH, height: HEIGHT, fontPx: 14 });
// The top-left of the first editor pane, in the 1568×882 view's coordinates (×3840/1568 ≈ 2.45 on
// screen: about 1543×857 screen pixels from x 348, the pane's left edge — within the profile's
// 1568 px, so sent at native size).
const REGION = { x: 142, y: 0, width: 630, height: 350 };
const STATUS_BAR: readonly [number, number, number] = [0, 122, 204]; // #007acc

let x: XServer;
let screen: ScreenPage;
let server: ModelServer;
let h: Harness;
let ocr: Ocr;
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 30_000 });

beforeAll(async () => {
  x = await startXvfb({ width: WIDTH, height: HEIGHT });
  Object.assign(process.env, { DISPLAY: x.display, XDG_SESSION_TYPE: 'x11' });
  delete process.env.WAYLAND_DISPLAY;
  screen = await showPage(x.env, page.html, { monitor: x.monitors[0]!, timeoutMs: 60_000 });
  // Wait until the page is on the X screen (the window maps a frame or two after the page paints):
  // the status bar's blue along the bottom edge.
  for (let i = 0; i < 75; i++) {
    const shot = await capturer.capture('primary', { region: { x: 0, y: HEIGHT - 12, width: 200, height: 1 } });
    if (shot.ok) {
      const { data } = await sharp(Buffer.from(shot.capture.png)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      if (STATUS_BAR.every((c, k) => Math.abs((data[300 + k] ?? 0) - c) <= 8)) break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  server = await createModelServer();
  h = await makeHarness({ ollama: server.url, openai: server.openaiBaseUrl }, { capturer });
  ocr = new Ocr();
}, 120_000);

afterAll(async () => {
  await ocr?.close();
  await h?.close();
  await server?.close();
  await screen?.close();
  await x?.stop();
});

describe('screenshot_desktop zoom on a 4K screen of 14 px code', () => {
  it('returns a region whose text OCRs as the known code; the full view does not', async () => {
    server.script(
      { toolCalls: [{ name: 'screenshot_desktop', arguments: {} }] },
      { toolCalls: [{ name: 'screenshot_desktop', arguments: { region: REGION } }] },
    );
    const { outcome, events } = await h.turn({ model: 'llava-seer', text: 'What does the code at the top left of my editor say?' });
    expect(outcome.status).toBe('done');
    const results = ofType(events, 'tool_result');
    expect(results).toHaveLength(2);
    const [fullResult, zoomResult] = results as [(typeof results)[0], (typeof results)[0]];

    // Where the region landed on the screen, as the tool told the model.
    const m = /screen pixels (\d+)×(\d+) at (\d+),(\d+)/.exec(zoomResult.text);
    expect(m).not.toBeNull();
    const [rw, rh, rx, ry] = m!.slice(1).map(Number) as [number, number, number, number];
    expect(rx).toBeGreaterThanOrEqual(346);
    expect(rx).toBeLessThanOrEqual(349);
    expect(rw).toBeGreaterThanOrEqual(1540);

    const full = await h.core.attachments.get(fullResult.attachmentIds?.[0] ?? '');
    const zoom = await h.core.attachments.get(zoomResult.attachmentIds?.[0] ?? '');
    expect(full && zoom).toBeTruthy();
    expect([full!.info.width, full!.info.height]).toEqual([1568, 882]);
    // Native resolution: the region is within the profile, so it is not scaled.
    expect([zoom!.info.width, zoom!.info.height]).toEqual([rw, rh]);
    // These are the bytes the model got (measured by the fixture server from the wire).
    const sent = server.requests[2]!.images.at(-1)!;
    expect({ mime: sent.mime, width: sent.width, height: sent.height, bytes: sent.bytes }).toEqual({
      mime: zoom!.info.mime,
      width: zoom!.info.width,
      height: zoom!.info.height,
      bytes: zoom!.data.byteLength,
    });

    // The known lines wholly inside the region: the first pane's code, from its top.
    const pane = page.panes[0]!;
    const codeTop = pane.box.y + 4;
    const rowsInside = Math.floor((ry + rh - codeTop - 4) / page.lineHeightPx);
    expect(rowsInside).toBeGreaterThanOrEqual(30);
    expect(pane.box.x >= rx && pane.box.x + pane.box.width <= rx + rw).toBe(true);
    const known = pane.lines.slice(0, rowsInside);
    const inScreen: Box = { x: pane.box.x, y: pane.box.y, width: pane.box.width, height: rowsInside * page.lineHeightPx + 8 };

    const zoomText = await ocr.read(zoom!.data, { ...inScreen, x: inScreen.x - rx, y: inScreen.y - ry });
    const zoomed = accuracy(zoomText, known);
    // The same lines in the full view, read as sent (1568/3840 of their size: ~5.7 px text).
    const s = full!.info.width / WIDTH;
    const inView: Box = {
      x: Math.floor(inScreen.x * s),
      y: Math.floor(inScreen.y * s),
      width: Math.ceil(inScreen.width * s),
      height: Math.ceil(inScreen.height * s),
    };
    const whole = accuracy(await ocr.read(full!.data, inView), known);

    expect(zoomed.knownLines).toBe(known.filter((l) => l.trim()).length);
    expect(zoomed.characters, `zoomed OCR:\n${zoomText}`).toBeGreaterThanOrEqual(0.9);
    expect(whole.characters).toBeLessThan(0.3);
    expect(zoomed.characters - whole.characters).toBeGreaterThan(0.6);
  });
});
