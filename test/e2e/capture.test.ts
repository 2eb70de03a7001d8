// Screen capture in the UI under a real X server (Xvfb) showing the known-answer chart in a
// kiosk Chromium: the model's screenshot_desktop tool as a card (shown, then retracted, then
// shown again on request), the Screenshot button, and the ask window with a region crop (by
// pointer, and by keyboard alone).
// DISPLAY is set for this file's own process (node-screenshots connects once per process).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { chartOnXvfb } from '../fixtures/chartScreen.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import type { ScreenPage } from '../fixtures/screenPage.ts';
import type { XServer } from '../fixtures/xvfb.ts';
import { inPage, launchChromium, modelShown, openSession, type Session } from './browserHarness.ts';

let x: XServer;
let screen: ScreenPage;
let server: ModelServer;
let browser: Browser;
let s: Session | undefined;
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });
/** Where chartHtml(4) draws the chart on the 1920×1080 screen. */
const CHART_ON_SCREEN = { x: 40, y: 40, width: 960, height: 480 };

beforeAll(async () => {
  ({ x, screen } = await chartOnXvfb(capturer));
  [server, browser] = await Promise.all([createModelServer(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await screen?.close();
  await x?.stop();
});
afterEach(async () => {
  await s?.close();
  s = undefined;
  server.reset();
});

async function session(options: Parameters<typeof openSession>[1] = {}): Promise<Session> {
  s = await openSession(browser, { ollamaHost: server.url, capturer, ...options });
  await modelShown(s.page, 'llava-seer');
  return s;
}
const answer = (page: Page) => page.getByRole('article', { name: 'Assistant message' });

describe('the model asks to look', () => {
  it('shows a tool card with the capture: shown to the model, retracted after the turn, shown again on request', async () => {
    const { page, shot } = await session();
    // The second model step waits a little, so the card can be seen while the image is out.
    server.script({ toolCalls: [{ name: 'screenshot_desktop', arguments: {} }] }, { firstTokenDelayMs: 1500 });
    await page.getByRole('textbox', { name: 'Message' }).fill('What is on my screen?');
    await page.keyboard.press('Enter');

    const card = page.getByRole('article', { name: 'Tool call Screenshot of the desktop (Glance)' });
    await card.getByText('shown to model').waitFor();
    const thumb = card.getByRole('list', { name: 'Captured images' }).locator('img');
    await thumb.waitFor();
    expect(await thumb.getAttribute('src')).toMatch(/^data:image\/webp;base64,/);
    expect(await card.textContent()).toMatch(/1568×882 · \d+ KB/);
    await shot('tool-card-shown');

    await answer(page).filter({ hasText: 'red, green, blue' }).waitFor();
    await card.getByText('retracted').waitFor();
    expect(await card.getByText('shown to model').count()).toBe(0);
    expect(await card.locator('.status').textContent()).toBe('finished');
    expect(await card.textContent()).toMatch(/\d+(\.\d)? (ms|s)/);
    // Expanded: the arguments and what the model read.
    await card.getByRole('button', { name: /^Screenshot of the desktop/ }).click();
    expect(await card.locator('.tool-result').textContent()).toMatch(/1920×1080 pixels, shown to you as 1568×882/);
    await shot('tool-card-retracted');

    // What the model received: the capture as a user turn, measured by the fixture.
    const delivered = server.requests[1]!.images;
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ role: 'user', width: 1568, height: 882 });
    expect(delivered[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);

    // "show again" puts it on the next message.
    await card.getByRole('button', { name: /^Show again \(.*\)$/ }).click();
    const pending = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    await pending.waitFor();
    expect(await pending.textContent()).toMatch(/1568×882/);
    await page.getByRole('textbox', { name: 'Message' }).fill('Look again.');
    await page.keyboard.press('Enter');
    await answer(page).nth(1).filter({ hasText: 'red, green, blue' }).waitFor();
    const again = server.requests.at(-1)!;
    expect(again.images).toHaveLength(1);
    expect(again.images[0]).toMatchObject({ role: 'user', width: 1568, height: 882 });
  });

  it('attaches the display under the pointer with the Screenshot button', async () => {
    const { page } = await session();
    await page.getByRole('button', { name: 'Screenshot' }).click();
    const item = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem', { name: /^screenshot-.*\.png$/ });
    await item.locator('img').waitFor();
    expect(await item.textContent()).toMatch(/1568×882 · \d+ KB/);
  });
});

describe('the ask window', () => {
  it('has the capture attached and the message box focused; a dragged region is sent and the answer streams there', async () => {
    const { page, shot, harness } = await session({ url: 'ask', viewport: { width: 760, height: 680 } });
    const incoming = await harness.screenshotAndAsk();
    expect(incoming.result.ok).toBe(true);

    const surface = page.getByRole('group', { name: 'Screenshot region' });
    const img = surface.getByRole('img');
    await img.waitFor();
    expect(await inPage(page, "() => document.activeElement?.getAttribute('aria-label')")).toBe('Message');
    const item = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    expect(await item.textContent()).toMatch(/1568×882/);
    await shot('ask-captured');

    // Drag around the chart (screen pixels → the preview's CSS pixels), with a margin.
    const box = (await img.boundingBox())!;
    const at = (sx: number, sy: number) => ({ x: box.x + (sx / 1920) * box.width, y: box.y + (sy / 1080) * box.height });
    const from = at(CHART_ON_SCREEN.x - 20, CHART_ON_SCREEN.y - 20);
    const to = at(CHART_ON_SCREEN.x + CHART_ON_SCREEN.width + 20, CHART_ON_SCREEN.y + CHART_ON_SCREEN.height + 20);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
    await page.mouse.move(to.x, to.y, { steps: 4 });
    await page.mouse.up();
    await page.getByText('Sending the region').waitFor();
    const size = /(\d+)×(\d+)/.exec((await item.textContent()) ?? '')!;
    // About 1000×520 screen pixels: cut from the native capture, not from the 1568-wide copy.
    expect(Number(size[1])).toBeGreaterThan(960);
    expect(Number(size[1])).toBeLessThan(1040);
    await shot('ask-region');

    await page.getByRole('textbox', { name: 'Message' }).fill('What does this chart show?');
    await page.keyboard.press('Enter');
    await answer(page).filter({ hasText: 'red, green, blue' }).waitFor();
    const sent = server.requests[0]!.images;
    expect(sent).toHaveLength(1);
    expect(sent[0]!.width).toBe(Number(size[1]));
    expect(sent[0]!.height).toBe(Number(size[2]));
    expect(sent[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
    await shot('ask-answer');

    // "Open in Glance" continues in the main window (here: the same tab becomes it).
    await page.getByRole('button', { name: 'Open in Glance' }).click();
    await page.waitForURL(/#\/c\/[\w-]+$/);
    await page.getByRole('button', { name: 'New chat' }).waitFor();
    await page.getByRole('group', { name: 'Your message' }).filter({ hasText: 'What does this chart show?' }).locator('img').waitFor();
  });

  it('selects, sends and undoes a region with the keyboard alone', async () => {
    const { page, shot, harness } = await session({ url: 'ask', viewport: { width: 760, height: 680 } });
    await harness.screenshotAndAsk();
    const surface = page.getByRole('group', { name: 'Screenshot region' });
    await surface.getByRole('img').waitFor();
    const focused = () => inPage<string | null>(page, "() => document.activeElement?.getAttribute('aria-label') ?? null");
    /** Presses `key` until the element named `name` has the focus (a handful of stops at most). */
    const tabTo = async (key: 'Tab' | 'Shift+Tab', name: string) => {
      for (let i = 0; i < 8 && (await focused()) !== name; i++) await page.keyboard.press(key);
      expect(await focused()).toBe(name);
    };
    const status = page.locator('figure.crop').getByRole('status');
    const item = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    expect(await surface.getAttribute('tabindex')).toBe('0');
    expect(await surface.getAttribute('aria-describedby')).toBeTruthy();

    // From the message box back to the capture; Enter starts a centred selection.
    expect(await focused()).toBe('Message');
    await tabTo('Shift+Tab', 'Screenshot region');
    await page.keyboard.press('Enter');
    await status.filter({ hasText: 'Selected 50% × 50% of the capture, 25% from the left, 25% from the top' }).waitFor();
    expect(await surface.locator('.crop-box').count()).toBe(1);

    // The chart is at (40,40)–(1000,520) of the 1920×1080 screen; arrows step 2% of the capture.
    // 12 × left and 12 × up bring the selection's corner to 1% from the top left; two
    // Shift+Right widen it from 50% to 54%, past the chart's right edge (at 52%).
    for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowUp');
    for (let i = 0; i < 2; i++) await page.keyboard.press('Shift+ArrowRight');
    await status.filter({ hasText: 'Selected 54% × 50% of the capture, 1% from the left, 1% from the top' }).waitFor();
    await shot('ask-keyboard-selection');
    await page.keyboard.press('Enter');
    await status.filter({ hasText: 'Sending the region' }).waitFor();
    const announced = /^Sending the region: (\d+)×(\d+) · \d+ KB$/.exec((await status.textContent()) ?? '');
    expect(announced).not.toBeNull();
    const [width, height] = [Number(announced![1]), Number(announced![2])];
    // ~54 % × 50 % of the native 1920×1080 capture, cut from it rather than the 1568-wide copy.
    expect(width).toBeGreaterThan(1000);
    expect(width).toBeLessThan(1060);
    expect(height).toBe(540);
    expect(await item.textContent()).toContain(`${width}×${height}`);
    expect(await focused()).toBe('Screenshot region');

    // Escape returns to the whole screenshot…
    await page.keyboard.press('Escape');
    await page.getByText('Drag on the capture to send only a region').waitFor();
    expect(await item.textContent()).toMatch(/1568×882/);
    expect(await status.textContent()).toBe('');
    // …and the next selection starts in the middle again; this one is sent.
    await page.keyboard.press('Enter');
    for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowUp');
    for (let i = 0; i < 2; i++) await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Enter');
    await status.filter({ hasText: `Sending the region: ${width}×${height}` }).waitFor();

    await tabTo('Tab', 'Message');
    await page.keyboard.type('What does this chart show?');
    await page.keyboard.press('Enter');
    await answer(page).filter({ hasText: 'red, green, blue' }).waitFor();
    const sent = server.requests[0]!.images;
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ width, height });
    expect(sent[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  });

  it('can go back to the whole screenshot after a crop', async () => {
    const { page, harness } = await session({ url: 'ask', viewport: { width: 760, height: 680 } });
    await harness.screenshotAndAsk();
    const img = page.getByRole('group', { name: 'Screenshot region' }).getByRole('img');
    await img.waitFor();
    const box = (await img.boundingBox())!;
    await page.mouse.move(box.x + 10, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + 110, box.y + 90, { steps: 3 });
    await page.mouse.up();
    await page.getByRole('button', { name: 'Use whole screenshot' }).click();
    await page.getByText('Drag on the capture to send only a region').waitFor();
    expect(await page.getByRole('list', { name: 'Attachments' }).textContent()).toMatch(/1568×882/);
  });
});
