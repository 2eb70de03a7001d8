// "This window" in the ask window, on a real desktop: Xvfb, openbox, two Chromium windows of
// known colour and title, the pointer warped onto one with a real X request, then the hotkey's
// capture (harness.screenshotAndAsk). The window is cut from that capture; what the fixture
// model receives is that window's pixels, and its label names the app and title.
// DISPLAY is set for this file's own process (node-screenshots connects once per process).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { warpPointer } from '../support/xPointer.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { openDesktop, rgbAt, waitForWindows, type Desktop } from '../support/desktop.ts';
import { seriousFindings } from './axe.ts';
import { launchChromium, modelShown, openSession, type Session } from './browserHarness.ts';

const RED = { title: 'Invoice draft', color: '#ff0000', x: 80, y: 60, width: 600, height: 400 };
const BLUE = { title: 'Blue notes', color: '#0000ff', x: 760, y: 200, width: 420, height: 300 };

let desktop: Desktop;
let server: ModelServer;
let browser: Browser;
let s: Session | undefined;
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

beforeAll(async () => {
  desktop = await openDesktop({ width: 1280, height: 720 }, [RED, BLUE], { thisProcess: true });
  await waitForWindows(capturer, [RED, BLUE]);
  [server, browser] = await Promise.all([createModelServer(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await desktop?.close();
});
afterEach(async () => {
  await s?.close();
  s = undefined;
  server.reset();
});

/** The images of an Ollama request as the server received them (base64 in the body). */
function sentImages(body: unknown): Buffer[] {
  return (body as { messages: { images?: string[] }[] }).messages.flatMap((m) => m.images ?? []).map((b64) => Buffer.from(b64, 'base64'));
}

describe('the ask window: This window', () => {
  it('switches between the display and the window under the pointer at the hotkey; a region of the window composes', async () => {
    s = await openSession(browser, { ollamaHost: server.url, capturer, url: 'ask', viewport: { width: 900, height: 760 } });
    const { page, harness, shot } = s;
    await modelShown(page, 'llava-seer');
    await warpPointer({ x: RED.x + 40, y: RED.y + 40 }, { env: desktop.x.env });
    await harness.screenshotAndAsk();
    const surface = page.getByRole('group', { name: 'Screenshot region' });
    await surface.getByRole('img').waitFor();
    const item = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    const toggle = page.getByRole('button', { name: 'This window' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await page.getByText(`${RED.title} — Chromium`).waitFor();

    await toggle.click();
    await page.locator('button[aria-pressed="true"]', { hasText: 'This window' }).waitFor();
    await item.filter({ hasText: `${RED.width}×${RED.height}` }).waitFor();
    await shot('ask-this-window');
    expect(await seriousFindings(page)).toEqual([]);
    // Off again: the whole display; on again: the window (no new capture either way).
    await toggle.click();
    await item.filter({ hasText: '1280×720' }).waitFor();
    await toggle.click();
    await item.filter({ hasText: `${RED.width}×${RED.height}` }).waitFor();

    // A region of the window: drag over its left half (the preview shows the window now).
    const img = surface.getByRole('img');
    await page.waitForFunction("() => { const i = document.querySelector('.crop-surface img'); return i && i.naturalWidth / i.naturalHeight > 1.45 && i.naturalWidth / i.naturalHeight < 1.55; }");
    const box = (await img.boundingBox())!;
    await page.mouse.move(box.x + 2, box.y + 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await page.getByText('Sending the region').waitFor();
    const size = /(\d+)×(\d+)/.exec((await item.textContent()) ?? '')!;
    const [w, h] = [Number(size[1]), Number(size[2])];
    expect(w).toBeGreaterThan(RED.width / 2 - 10);
    expect(w).toBeLessThan(RED.width / 2 + 10);

    // …and marks on that region of the window: a blue marker in its middle, placed by keyboard.
    await item.getByRole('button', { name: /^Mark up / }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('toolbar', { name: 'Mark up' }).getByRole('radio', { name: 'Marker' }).click();
    await dialog.getByRole('toolbar', { name: 'Mark up' }).getByLabel('Colour').fill('#0000ff');
    await dialog.getByRole('group', { name: 'Mark-up canvas' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await dialog.getByRole('status').filter({ hasText: 'Marker 1 added.' }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('textbox', { name: 'Message' }).fill('What is in this window?');
    await page.keyboard.press('Enter');
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'I received 1 image' }).waitFor();
    const request = server.requests[0]!;
    expect(request.images).toHaveLength(1);
    expect(request.images[0]).toMatchObject({ width: w, height: h });
    const [png] = sentImages(request.body);
    // The red window's pixels, nothing of the desktop around it or of the blue window…
    for (const [px, py] of [[3, 3], [w - 3, 3], [3, h - 3], [w - 3, h - 3]] as const) expect(await rgbAt(png!, px, py)).toBe('255,0,0');
    // …with the marker drawn in the middle of the region.
    const [mr, mg, mb] = (await rgbAt(png!, Math.round(w / 2) - 6, Math.round(h / 2) - 6)).split(',').map(Number);
    expect(mb! > 190 && mr! < 90 && mg! < 90).toBe(true);
    const user = request.messages.find((m) => m.role === 'user')!;
    // Region, window and marks compose: the label names the window and lists the marker in the sent pixels.
    expect(user.text).toContain(`window "${RED.title}" of app "Chromium", shown as ${w}×${h}`);
    expect(user.text).toMatch(new RegExp(`marks: 1 marker \\(${Math.round(w / 2)},${Math.round(h / 2)}\\)\\]`));
  });
});
