// Drafts outlive a reload and a restart, per conversation (the new chat's too, images waiting
// included), and a first chat whose send found no model server is listed with its message kept.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startHarness } from '../../main/harness/startHarness.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { buildRenderer } from './browserHarness.ts';
import { answers, ask, chatSuite, finished, messageBox as box } from './chatSuite.ts';

const suite = chatSuite();
const list = (page: Page) => page.getByRole('navigation', { name: 'Conversation list' });
const attachments = (page: Page) => page.getByRole('list', { name: 'Attachments' });
/** What main has stored of the drafts (the test waits for the write, not for a time). */
const storedDrafts = async (dataDir: string): Promise<Record<string, { text: string; images: { name: string }[] }>> =>
  JSON.parse(await readFile(join(dataDir, 'drafts.json'), 'utf8').catch(() => '{"drafts":{}}')).drafts;

async function expectDrafts(page: Page): Promise<void> {
  await expect.poll(() => box(page).inputValue(), { timeout: 20_000 }).toBe('a new chat, half written');
  await attachments(page).getByRole('listitem', { name: 'chart.png' }).getByRole('img', { name: 'chart.png', exact: true }).waitFor();
  await list(page).getByText('Chat A').click();
  await page.getByRole('group', { name: 'Your message' }).filter({ hasText: 'Chat A' }).waitFor();
  await expect.poll(() => box(page).inputValue(), { timeout: 20_000 }).toBe('draft for A');
  expect(await attachments(page).count()).toBe(0);
}

describe('drafts', () => {
  it('are kept across a reload and a restart, per conversation, the new chat with its image', async () => {
    const { page, dataDir } = await suite.session();
    await ask(page, 'Chat A');
    await finished(page, 1);
    await box(page).fill('draft for A');
    await page.getByRole('button', { name: 'New chat' }).click();
    await box(page).fill('a new chat, half written');
    await page.locator('main').drop({ files: { name: 'chart.png', mimeType: 'image/png', buffer: await makeBarChart() } });
    await attachments(page).getByRole('listitem', { name: 'chart.png' }).getByRole('img', { name: 'chart.png', exact: true }).waitFor();
    await expect.poll(async () => Object.entries(await storedDrafts(dataDir)).map(([, d]) => [d.text, d.images.map((i) => i.name)])).toEqual(
      expect.arrayContaining([
        ['draft for A', []],
        ['a new chat, half written', ['chart.png']],
      ]),
    );

    await page.reload();
    await expectDrafts(page);

    // A restart: another harness on the same data folder, a browser with nothing in memory.
    const harness = await startHarness({ dataDir, rendererDir: await buildRenderer(), ollamaHost: suite.server().url, log: () => undefined });
    const context = await page.context().browser()!.newContext({ viewport: { width: 1200, height: 820 } });
    try {
      const again = await context.newPage();
      await again.goto(harness.url);
      await expectDrafts(again);
      // A sent draft is gone for good: the box is empty after the answer, and after a reload.
      await ask(again, 'draft for A, sent');
      await finished(again, 2);
      await expect.poll(async () => Object.values(await storedDrafts(dataDir)).map((d) => d.text)).toEqual(['a new chat, half written']);
      await again.reload();
      await again.getByRole('group', { name: 'Your message' }).filter({ hasText: 'draft for A, sent' }).waitFor();
      expect(await box(again).inputValue()).toBe('');
    } finally {
      await context.close();
      await harness.close();
    }
  });

  it('a first chat that found no model server is listed, and its message survives a reload', async () => {
    await suite.server().setDown(true);
    const { page } = await suite.bareSession();
    await page.getByRole('status', { name: 'Model server' }).waitFor();
    await ask(page, 'Hello from the first run.');
    await answers(page).getByRole('alert').waitFor();
    await list(page).getByText('Hello from the first run.').waitFor();
    expect(await list(page).innerText()).not.toContain('No conversations yet');

    await page.reload();
    await list(page).getByText('Hello from the first run.').click();
    await page.getByRole('group', { name: 'Your message' }).filter({ hasText: 'Hello from the first run.' }).waitFor();
    // With the reason it was not sent, as before the reload.
    expect(await page.locator('.turn-error').innerText()).toMatch(/can't reach|not reach|unreachable|does not answer/i);
    // Once the server is up, it goes through by itself in the same conversation: one message, one answer.
    await suite.server().setDown(false);
    await page.evaluate("window.dispatchEvent(new Event('focus'))");
    await answers(page).filter({ hasText: 'You said: "Hello from the first run."' }).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('group', { name: 'Your message' }).count()).toBe(1);
    expect(await list(page).locator('li.conversation').count()).toBe(1);
  });
});
