// The composer's "Tools" popover behaves like every other menu (issue 29): Escape and a press
// outside close it (Escape gives the focus back to its button), so do a send, a new chat and the
// image viewer, and at 400 px it stays inside the window.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeBarChart } from '../fixtures/chart.ts';
import { ask, chatSuite, finished, messageBox } from './chatSuite.ts';

const suite = chatSuite();
const toolsButton = (page: Page) => page.getByRole('button', { name: /^Tools/ });
const panel = (page: Page) => page.getByRole('group', { name: 'Tools for this conversation' });

async function openTools(page: Page) {
  await toolsButton(page).click();
  await panel(page).waitFor();
}

async function closed(page: Page) {
  await panel(page).waitFor({ state: 'detached', timeout: 5000 });
  expect(await toolsButton(page).getAttribute('aria-expanded')).toBe('false');
}

const focusedName = (page: Page) => page.evaluate<string>("document.activeElement?.textContent ?? ''");

describe('the Tools popover', () => {
  it('closes on Escape with the focus back on its button, and on a press outside it', async () => {
    const { page } = await suite.session();
    await openTools(page);
    await panel(page).locator('p').first().click(); // a press inside keeps it open
    expect(await panel(page).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await closed(page);
    expect(await focusedName(page)).toMatch(/^Tools/);

    await openTools(page);
    await page.locator('.message-list, main').first().click({ position: { x: 40, y: 120 } });
    await closed(page);
  });

  it('closes when a message is sent and when a new chat starts', async () => {
    const { page } = await suite.session();
    await openTools(page);
    await messageBox(page).fill('Hello.');
    await messageBox(page).press('Enter');
    await closed(page);
    await finished(page, 1);

    await openTools(page);
    await page.keyboard.press('Control+Shift+O');
    await closed(page);
    await expect.poll(() => page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null")).toBe('Message');
  });

  it('closes when the image viewer opens, so nothing of it sits above the viewer', async () => {
    const { page } = await suite.session();
    await page.locator('main').drop({ files: { name: 'chart.png', mimeType: 'image/png', buffer: await makeBarChart({ width: 400, height: 300 }) } });
    const thumb = page.getByRole('list', { name: 'Attachments' }).getByRole('button', { name: 'Enlarge chart.png' });
    await thumb.waitFor();
    await openTools(page);
    await thumb.focus();
    await page.keyboard.press('Enter');
    await page.locator('dialog.viewer[open]').waitFor();
    await closed(page);
  });

  it('stays inside a 400 px window', async () => {
    const { page, shot } = await suite.session({ viewport: { width: 400, height: 720 } });
    await ask(page, 'Hello.');
    await finished(page, 1);
    await openTools(page);
    const box = (await panel(page).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(400);
    expect(box.y).toBeGreaterThanOrEqual(0);
    await shot('tools-popover-400px');
  });
});
