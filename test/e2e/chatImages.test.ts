// Images in the chat window: what each costs (≈N tokens, the Context meter) and the viewer —
// the original at full resolution, zoom, copy, save, previous / next.
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { makeBarChart } from '../fixtures/chart.ts';
import { invoiceLines, textImage } from '../fixtures/textImage.ts';
import { createModelServer, DEFAULT_MODELS, VISION_MODELS } from '../fixtures/modelServer.ts';
import { pickModel } from './browserHarness.ts';
import { chatSuite, messageBox } from './chatSuite.ts';

const suite = chatSuite();
const attachments = (page: Page) => page.getByRole('list', { name: 'Attachments' });
const contextValue = async (page: Page) => {
  const meter = page.getByRole('meter', { name: 'Context' });
  await meter.waitFor();
  return meter.evaluate((el) => Number(el.getAttribute('value')));
};

describe('image costs', () => {
  it('shows a token estimate on each thumbnail and a Context meter that counts them', async () => {
    // gemma3 resizes every image to 896×896 = 256 tokens (architecture §4a), and says its context length.
    const models = await createModelServer({ models: [...DEFAULT_MODELS, ...VISION_MODELS] });
    onTestFinished(() => models.close());
    const { page } = await suite.session({ ollamaHost: models.url });
    await pickModel(page, 'gemma3:4b');
    // The estimate for gemma3 (no tools offered: it does not call them) once it has been asked for.
    await page.waitForTimeout(1000);
    const before = await contextValue(page);
    await page.locator('main').drop({ files: { name: 'wide.png', mimeType: 'image/png', buffer: await makeBarChart({ width: 1600, height: 800 }) } });
    const item = attachments(page).getByRole('listitem', { name: 'wide.png' });
    await item.getByRole('img', { name: 'wide.png', exact: true }).waitFor();
    // A thumbnail big enough to tell images apart (88 px on its long edge, not a 40-px chip).
    expect(await item.getByRole('img', { name: 'wide.png', exact: true }).evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThanOrEqual(80);
    const tokens = /≈([\d,]+) tokens/.exec((await item.textContent()) ?? '');
    expect(tokens).not.toBeNull();
    const n = Number(tokens![1]!.replaceAll(',', ''));
    expect(n).toBe(256);
    // The meter (main's estimate of the next request) grew by the image's tokens, then by the draft's.
    // (the image's tokens plus the line that labels it for the model).
    await expect.poll(() => contextValue(page)).toBeGreaterThanOrEqual(before + n);
    await page.locator('.context-meter summary').click();
    const breakdown = page.getByLabel('What fills the context');
    expect(await breakdown.textContent()).toMatch(/Images: ≈256(?!\d)/);
    await page.locator('.context-meter summary').click();
    // llava-seer calls tools: the built-in tools' schemas are part of its requests.
    await page.getByRole('combobox', { name: 'Model' }).click();
    await page.getByRole('option', { name: /^llava-seer/ }).click();
    await page.locator('.context-meter summary').click();
    // Main fits the waiting image for llava-seer first (the thumbnail and the estimate): wait for its answer.
    await expect.poll(async () => (await breakdown.textContent()) ?? '', { timeout: 20_000 }).toMatch(/Tool descriptions: ≈[\d,]+ \(built-in ≈[\d,]+ for \d+ tools/);
    const withImage = await contextValue(page);
    await messageBox(page).fill('word '.repeat(200));
    await expect.poll(() => contextValue(page)).toBeGreaterThan(withImage);
    expect(await page.getByRole('meter', { name: 'Context' }).getAttribute('aria-valuetext')).toMatch(/^≈[\d,]+ of [\d,]+ tokens$/);
  });
});

describe('a blind model without a helper', () => {
  it('gets the text local OCR reads from an image, and the chat shows the image as sent as text', async () => {
    const { page } = await suite.session();
    await pickModel(page, 'blind-llm');
    const scan = await textImage({ lines: ['Invoice 4711', 'Total 99.50 EUR'], width: 700, height: 220, fontPx: 32 });
    await page.locator('main').drop({ files: { name: 'invoice.png', mimeType: 'image/png', buffer: scan.png } });
    // Accepted (it has text), and the box says what will happen to it.
    const item = attachments(page).getByRole('listitem', { name: 'invoice.png' });
    await item.getByText('goes as text (local OCR)').waitFor({ timeout: 60_000 });
    expect(await item.textContent()).not.toMatch(/tokens/);
    await messageBox(page).fill('What is the total?');
    await messageBox(page).press('Enter');
    await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').waitFor({ timeout: 60_000 });
    const sent = page.getByRole('group', { name: 'Your message' }).getByRole('listitem', { name: 'invoice.png' });
    // Opened, it shows what the model read.
    await sent.getByText('sent as text (local OCR)').click();
    expect(await sent.locator('.read-text').textContent()).toMatch(/Invoice 4711[\s\S]*99\.50/);
    // The model got words, not pixels.
    const request = suite.server().requests.at(-1)!;
    expect(request.images).toHaveLength(0);
    expect(request.messages.map((m) => m.text).join('\n')).toMatch(/Invoice 4711[\s\S]*99\.50/);
    // Stored so: a reload shows it the same way.
    await page.reload();
    await page.getByRole('group', { name: 'Your message' }).getByRole('listitem', { name: 'invoice.png' }).getByText('sent as text (local OCR)').waitFor();
  });
});

describe('a reading too long for the context window', () => {
  it('is cut to fit, and the chat says the model got only its beginning and end', async () => {
    const models = await createModelServer({ models: [...DEFAULT_MODELS, { name: 'small-blind', capabilities: ['completion'], contextLength: 768 }] });
    onTestFinished(() => models.close());
    const { page, shot } = await suite.session({ ollamaHost: models.url });
    await pickModel(page, 'small-blind');
    // ~2,200 characters read: more than the 576 tokens a 768-token window leaves for the request.
    const scan = await textImage({ lines: invoiceLines(40, 11), width: 900, height: 960, x: 20, y: 20, fontPx: 14 });
    await page.locator('main').drop({ files: { name: 'orders.png', mimeType: 'image/png', buffer: scan.png } });
    await attachments(page).getByRole('listitem', { name: 'orders.png' }).getByText('goes as text (local OCR)').waitFor({ timeout: 60_000 });
    await messageBox(page).fill('Sum the totals.');
    await messageBox(page).press('Enter');
    await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').waitFor({ timeout: 60_000 });
    const sent = page.getByRole('group', { name: 'Your message' }).getByRole('listitem', { name: 'orders.png' });
    await sent.getByText('sent as text, shortened (local OCR)').click();
    expect(await sent.textContent()).toMatch(/it got the beginning and end of what tesseract\.js 7 \(eng\) read — [\d,]+ of [\d,]+ characters, cut to fit its context window/);
    await shot('reading-cut-to-fit');
    expect(models.requests.at(-1)!.messages.map((m) => m.text).join('\n')).toMatch(/characters cut to fit the model's context window/);
    // Stored so: a reload says it the same way.
    await page.reload();
    await page.getByRole('group', { name: 'Your message' }).getByRole('listitem', { name: 'orders.png' }).getByText('sent as text, shortened (local OCR)').waitFor();
  });
});

describe('the image viewer', () => {
  it('opens the original at full resolution, zooms, copies, saves, and steps through the images', async () => {
    const { page, context, harness, shot } = await suite.session();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.pageOrigin });
    await page.locator('main').drop({
      files: [
        { name: 'big.png', mimeType: 'image/png', buffer: await makeBarChart({ width: 2400, height: 1200 }) },
        { name: 'small.png', mimeType: 'image/png', buffer: await makeBarChart({ width: 300, height: 150 }) },
      ],
    });
    await attachments(page).getByRole('listitem', { name: 'small.png' }).getByRole('img', { name: 'small.png', exact: true }).waitFor();
    await attachments(page).getByRole('button', { name: 'Enlarge big.png' }).click();
    const viewer = page.getByRole('dialog', { name: 'big.png' });
    const img = viewer.locator('img');
    await img.waitFor();
    // The original, not the 1024-px preview nor the copy fitted for the model.
    expect(await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(2400);
    expect(await viewer.textContent()).toMatch(/original 2400×1200/);
    expect(await viewer.textContent()).toMatch(/sent as \d+×\d+/);
    await shot('viewer-fit');

    const shown = () => img.evaluate((el) => el.getBoundingClientRect().width);
    const fit = await shown();
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    expect(await shown()).toBeGreaterThan(fit);
    await viewer.getByRole('button', { name: /^\d+%$/ }).click();
    expect(await shown()).toBeCloseTo(fit, 0);

    await viewer.getByRole('button', { name: 'Copy image' }).click();
    await viewer.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.read().then((items) => items[0].types.join(","))')).toContain('image/png');
    expect(await viewer.getByRole('link', { name: 'Save' }).getAttribute('download')).toBe('big.png');

    await viewer.getByRole('button', { name: 'Next image' }).click();
    await page.getByRole('dialog', { name: 'small.png' }).locator('img').waitFor();
    expect(await page.getByRole('dialog', { name: 'small.png' }).getByRole('button', { name: 'Next image' }).isDisabled()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('dialog', { name: 'big.png' }).locator('img').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
  });
});
