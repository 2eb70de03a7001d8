// "Send anyway" in the browser, for every way an image enters: when local OCR cannot check an
// image for secrets, nothing goes to the model until the person chooses, and then exactly what
// was attached goes — a dropped file, the Screenshot button's capture and the hotkey's (both held
// in main, not captured again). Real Xvfb capture, real Chromium, the fixture model server; the
// OCR reader is one that fails (its port is where an OCR timeout enters).
// DISPLAY is set for this file's own process (node-screenshots connects once per process).
import { networkInterfaces } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { OcrError, type TextReader } from '../../main/ocr/textReader.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { chartOnXvfb } from '../fixtures/chartScreen.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import type { ScreenPage } from '../fixtures/screenPage.ts';
import type { XServer } from '../fixtures/xvfb.ts';
import { launchChromium, modelShown, openSession, setRedactPolicy, type Session } from './browserHarness.ts';

let x: XServer;
let screen: ScreenPage;
let server: ModelServer;
let browser: Browser;
let s: Session | undefined;
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });
const failing: TextReader = {
  engine: 'failing',
  read: () => Promise.reject(new OcrError('timeout', 'Local OCR took longer than 90 s and was stopped.')),
  close: async () => undefined,
};

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
  s = await openSession(browser, { ollamaHost: server.url, capturer, ocr: failing, ...options });
  // The fixture server is on loopback: "always" makes the door check every image for it. Set in
  // the main window's Settings (the ask window has none).
  const main = options.url === 'ask' ? await s.open() : s.page;
  await modelShown(main, 'llava-seer');
  await setRedactPolicy(main, /^Always/);
  if (main !== s.page) await main.close();
  return s;
}

const refusal = (page: Page) => page.getByRole('alert').filter({ hasText: 'could not check this image for secrets' });
const item = (page: Page) => page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');

async function sendAndWait(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.keyboard.press('Enter');
  await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').waitFor({ timeout: 120_000 });
}

describe('Send anyway after an image could not be checked', () => {
  it('a dropped file: refused with the reason, nothing sent; Send anyway attaches that file and the model gets it', async () => {
    const { page } = await session();
    const chart = await makeBarChart({ width: 800, height: 400 });
    await page.locator('main').drop({ files: { name: 'chart.png', mimeType: 'image/png', buffer: chart } });
    await refusal(page).waitFor({ timeout: 60_000 });
    expect(await item(page).count()).toBe(0);
    expect(server.requests.length).toBe(0);
    await refusal(page).getByRole('button', { name: 'Send anyway' }).click();
    await item(page).filter({ hasText: /800×400/ }).waitFor({ timeout: 60_000 });
    await expect.poll(() => refusal(page).count()).toBe(0);
    await sendAndWait(page, 'What does the chart show?');
    const delivered = server.requests.at(-1)!.images;
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  }, 300_000);

  it('the hotkey: the ask window offers Send anyway for the held capture', async () => {
    const { page, harness } = await session({ url: 'ask', viewport: { width: 760, height: 680 } });
    const incoming = await harness.screenshotAndAsk();
    expect(incoming.result).toMatchObject({ ok: false, code: 'redaction-failed' });
    await refusal(page).getByRole('button', { name: 'Send anyway' }).click();
    await item(page).filter({ hasText: /1568×882/ }).waitFor({ timeout: 60_000 });
    await sendAndWait(page, 'What is this?');
    expect(server.requests.at(-1)!.images.map((i) => i.bars.map((b) => b.color))).toEqual([['red', 'green', 'blue']]);
  }, 300_000);

  it('the Screenshot button: Send anyway sends the capture main held, without capturing again', async () => {
    const { page } = await session();
    await page.getByRole('button', { name: 'Screenshot' }).click();
    await refusal(page).waitFor({ timeout: 60_000 });
    expect(await refusal(page).textContent()).toMatch(/screenshot was not attached/);
    // The screen changes before the choice (this test runs last): what goes is what was captured, not what is there now.
    await screen.page.evaluate("document.body.style.background = '#00ff00'; document.body.innerHTML = ''");
    await refusal(page).getByRole('button', { name: 'Send anyway' }).click();
    const attached = item(page).filter({ hasText: /1568×882/ });
    await attached.waitFor({ timeout: 60_000 });
    await sendAndWait(page, 'What is on my screen?');
    const delivered = server.requests.at(-1)!.images;
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ width: 1568, height: 882 });
    expect(delivered[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  }, 300_000);

  // A second interface's address makes the fixture a server on another machine to Glance (not loopback).
  const lan = Object.values(networkInterfaces())
    .flat()
    .find((a) => a?.family === 'IPv4' && !a.internal)?.address;
  it.skipIf(!lan)('a model on this computer is offered beside Send anyway, and gets the image as it is [skipped only on a machine with no non-loopback IPv4 address]', async () => {
    const remote = await createModelServer({ host: lan! });
    try {
      s = await openSession(browser, { ollamaHost: server.url, openaiEndpoints: [{ name: 'cloud', baseUrl: remote.openaiBaseUrl }], capturer, ocr: failing });
      const { page } = s;
      // The default policy, "remote": the cloud model's copy must be checked; the local one's need not be.
      await page.getByRole('combobox', { name: 'Model' }).click();
      await page.getByRole('option', { name: /^llava-seer.*cloud/ }).click();
      const chart = await makeBarChart({ width: 800, height: 400 });
      await page.locator('main').drop({ files: { name: 'chart.png', mimeType: 'image/png', buffer: chart } });
      await refusal(page).waitFor({ timeout: 60_000 });
      await refusal(page).getByRole('button', { name: /^Use llava-seer(:latest)? on this computer$/ }).click();
      await item(page).filter({ hasText: /800×400/ }).waitFor({ timeout: 60_000 });
      await modelShown(page, 'llava-seer:latest');
      await sendAndWait(page, 'What does the chart show?');
      // The local server got it, not as "unchecked"; the cloud one got no chat at all.
      expect(server.requests.at(-1)!.images.map((i) => i.bars.map((b) => b.color))).toEqual([['red', 'green', 'blue']]);
      expect(remote.requests.filter((r) => r.messages.length > 0)).toEqual([]);
      const label = server.requests.at(-1)!.messages.find((m) => m.role === 'user')!.text;
      expect(label).not.toMatch(/not checked|unchecked/i);
    } finally {
      await remote.close();
    }
  }, 300_000);
});
