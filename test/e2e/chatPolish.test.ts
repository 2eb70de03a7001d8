// Small things a daily user notices, each in Chromium: a thumbnail's focus ring is whole, a tool
// card's duration stays on screen at 400 px, the Context breakdown closes on Escape wherever the
// focus went, "Show again" is named by its visible words (axe), an endpoint's API key can be
// pasted without inventing a key name, and a Settings error goes once its field is fixed.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeBarChart } from '../fixtures/chart.ts';
import { ruleFindings } from './axe.ts';
import { MCP_FIXTURE } from './browserHarness.ts';
import { ask, chatSuite, finished, messageBox } from './chatSuite.ts';

const suite = chatSuite();
const fixture = { mcpConfig: { mcpServers: { fixture: { command: process.execPath, args: [MCP_FIXTURE], trusted: true } } } };
// The accent of the light theme (styles.css --accent), the focus ring's colour.
const ACCENT = [0x31, 0x57, 0xd5];

/** Pixels of the accent colour in a band `reach` px wide around (outside) the element. */
async function ringPixels(page: Page, selector: string, reach: number): Promise<number> {
  const box = (await page.locator(selector).boundingBox())!;
  const clip = { x: Math.floor(box.x - reach), y: Math.floor(box.y - reach), width: Math.ceil(box.width + 2 * reach), height: Math.ceil(box.height + 2 * reach) };
  const { data, info } = await sharp(await page.screenshot({ clip })).raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const inside = x >= reach && x < info.width - reach && y >= reach && y < info.height - reach;
      const i = (y * info.width + x) * info.channels;
      if (!inside && ACCENT.every((c, k) => Math.abs(data[i + k]! - c) < 40)) count++;
    }
  }
  return count;
}

async function toolConversation(page: Page) {
  suite.server().script({ toolCalls: [{ name: 'fixture__chart_image', arguments: {} }] }, { text: 'A chart.' });
  await ask(page, 'Chart please.');
  await finished(page, 1);
}

describe('the chat window', () => {
  it('draws a thumbnail’s whole focus ring, outside the picture', async () => {
    const { page, shot } = await suite.session();
    await page.locator('main').drop({ files: { name: 'chart.png', mimeType: 'image/png', buffer: await makeBarChart({ width: 400, height: 300 }) } });
    const button = page.getByRole('button', { name: 'Enlarge chart.png' });
    await button.getByRole('img', { name: 'chart.png', exact: true }).waitFor();
    // From the keyboard, as :focus-visible wants it.
    await messageBox(page).focus();
    await page.keyboard.press('Shift');
    await button.focus();
    expect(await button.evaluate((el) => el.matches(':focus-visible'))).toBe(true);
    await shot('thumbnail-focus');
    // A 2 px ring 2 px out around an 88×66 button: hundreds of pixels; a clipped one leaves none.
    expect(await ringPixels(page, '.attachments .thumb-button', 5)).toBeGreaterThan(300);
  });

  it('keeps a tool card’s status and duration inside the card at 400 px', async () => {
    const { page, shot } = await suite.session({ ...fixture, viewport: { width: 400, height: 800 } });
    await toolConversation(page);
    const card = page.getByRole('article', { name: /^Tool call / }).first();
    // Found by what it says, not by a class the fix added.
    const duration = card.locator('header > span').filter({ hasText: /^\d+(\.\d)? (ms|s)$/ });
    await duration.waitFor();
    await shot('tool-card-400');
    const inCard = await card.evaluate((el) => {
      const edge = el.getBoundingClientRect();
      const parts = [...el.querySelectorAll('header > span')].filter((p) => p.matches('.status') || /^\d+(\.\d)? (ms|s)$/.test(p.textContent ?? '')).map((p) => p.getBoundingClientRect());
      return parts.length === 2 && parts.every((r) => r.width > 0 && r.left >= edge.left && r.right <= edge.right) && edge.right <= el.ownerDocument.documentElement.clientWidth;
    });
    expect(inCard).toBe(true);
    // On one line: "538" above "ms" is a duration cut in two.
    const lines = await duration.evaluate((el) => {
      const range = el.ownerDocument.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(lines).toBe(1);
    expect(await duration.innerText()).toMatch(/^\d+(\.\d)? (ms|s)$/);
  });

  it('closes the Context breakdown on Escape after the focus left it, and a pinned one on a press outside', async () => {
    const { page } = await suite.session();
    const summary = page.locator('.context-meter summary');
    await summary.waitFor();
    const breakdown = page.getByLabel('What fills the context');
    await summary.click();
    await breakdown.waitFor({ state: 'visible' });
    await page.mouse.move(5, 5);
    // Pinned, then the person goes back to typing: Escape still closes it.
    await messageBox(page).focus();
    await page.keyboard.type('Hello');
    expect(await breakdown.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await breakdown.waitFor({ state: 'hidden' });
    expect(await messageBox(page).inputValue()).toBe('Hello');
    // Pinned again, a press elsewhere closes it.
    await summary.click();
    await breakdown.waitFor({ state: 'visible' });
    await page.mouse.move(5, 5);
    await page.getByRole('heading', { name: 'What should Glance look at?' }).click();
    await breakdown.waitFor({ state: 'hidden' });
  });

  it('names “Show again” by its visible words first (axe label-content-name-mismatch)', async () => {
    const { page } = await suite.session(fixture);
    await toolConversation(page);
    const again = page.getByRole('article', { name: /^Tool call / }).getByRole('button', { name: /again/ });
    await again.first().waitFor();
    expect(await ruleFindings(page, ['label-content-name-mismatch'])).toEqual([]);
  });
});

describe('Settings', () => {
  async function providers(page: Page) {
    await page.getByRole('button', { name: 'Settings' }).click();
    const region = page.getByRole('region', { name: 'Providers' });
    await region.waitFor();
    return region;
  }

  it('offers an endpoint’s API key field at once, named from the endpoint', async () => {
    const { page, dataDir } = await suite.session();
    const region = await providers(page);
    await region.getByRole('button', { name: 'Add endpoint' }).click();
    await region.getByLabel('Name', { exact: true }).fill('OpenRouter');
    await region.getByLabel('Base URL').fill('https://openrouter.ai/api/v1');
    // No key name typed: the key field is there, under a name made from the endpoint's.
    const key = region.getByLabel(/Key “openrouter”/);
    await key.fill('sk-or-test-1234');
    await region.getByRole('button', { name: 'Save key' }).click();
    await region.getByRole('status').filter({ hasText: 'Key stored.' }).waitFor();
    // The endpoint now refers to it, in the form and in the settings file.
    expect(await region.getByLabel('Key name').inputValue()).toBe('openrouter');
    await expect.poll(async () => JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8')).providers.openai).toEqual([{ name: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', apiKeyRef: 'openrouter' }]);
    expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).not.toContain('sk-or-test-1234');
  });

  it('takes an error away once its field is fixed', async () => {
    const { page } = await suite.session();
    const region = await providers(page);
    await region.getByRole('button', { name: 'Add endpoint' }).click();
    await region.getByLabel('Name', { exact: true }).fill('local');
    await region.getByLabel('Base URL').fill('not a url');
    await region.getByRole('button', { name: 'Save providers' }).click();
    const error = region.getByRole('alert');
    await error.waitFor();
    await region.getByLabel('Base URL').fill('http://127.0.0.1:1234/v1');
    await error.waitFor({ state: 'detached' });
    await region.getByRole('button', { name: 'Save providers' }).click();
    await region.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  });
});
