// axe-core in every view of the chat window (issue 29): zero serious or critical findings in
// the chat (a first run, a conversation with Markdown, a tool card and a failed answer), with
// the Tools popover, the Context breakdown and the image viewer open, in Settings (wide and
// 400 px), in the dark scheme and in the ask window.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeBarChart } from '../fixtures/chart.ts';
import { allFindings, seriousFindings } from './axe.ts';
import { MCP_FIXTURE } from './browserHarness.ts';
import { ask, chatSuite, finished } from './chatSuite.ts';

const suite = chatSuite();
const fixture = { mcpConfig: { mcpServers: { fixture: { command: process.execPath, args: [MCP_FIXTURE], trusted: true } } } };

async function expectClean(page: Page, view: string) {
  expect({ view, findings: await seriousFindings(page) }).toEqual({ view, findings: [] });
}

async function conversation(page: Page) {
  suite.server().script({
    text: ['## Result', '', 'Some **bold**, `code` and a [link](https://example.com).', '', '| a | b |', '| - | - |', '| 1 | 2 |', '', '```ts', 'const x = 1;', '```'].join('\n'),
  });
  await ask(page, 'Show me.');
  await finished(page, 1);
  suite.server().script({ toolCalls: [{ name: 'fixture__chart_image', arguments: {} }] }, { text: 'A chart.' });
  await ask(page, 'Chart please.');
  await finished(page, 2);
}

describe('axe-core finds nothing serious', () => {
  it('in the chat: first run, a conversation, the Tools popover, the Context breakdown, the viewer', async () => {
    const { page } = await suite.session(fixture);
    await expectClean(page, 'empty chat');
    // The moderate ones the issue named: a page has an h1, the skip link sits in a landmark.
    const moderate = (await allFindings(page)).map((f) => f.id);
    expect(moderate).not.toContain('page-has-heading-one');
    expect(moderate).not.toContain('region');
    await conversation(page);
    await expectClean(page, 'conversation');
    await page.getByRole('button', { name: /^Tools/ }).click();
    await page.getByRole('group', { name: 'Tools for this conversation' }).getByRole('checkbox').first().waitFor();
    await expectClean(page, 'tools popover');
    await page.keyboard.press('Escape');
    await page.locator('.context-meter summary').hover();
    await expectClean(page, 'context breakdown');
    await page.mouse.move(5, 5);
    await page.locator('main').drop({ files: { name: 'chart.png', mimeType: 'image/png', buffer: await makeBarChart({ width: 400, height: 300 }) } });
    await page.getByRole('button', { name: 'Enlarge chart.png' }).first().click();
    await page.locator('dialog.viewer[open]').waitFor();
    await expectClean(page, 'image viewer');
  });

  it('keeps the skip link off screen until it has the focus', async () => {
    const { page } = await suite.session();
    const skip = page.getByRole('link', { name: 'Skip to message box' });
    expect((await skip.boundingBox())!.y + (await skip.boundingBox())!.height).toBeLessThanOrEqual(0);
    await skip.focus();
    await expect.poll(async () => (await skip.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await skip.press('Enter');
    await expect.poll(() => page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null")).toBe('Message');
  });

  it('with the model server down and after a failed answer', async () => {
    await suite.server().setDown(true);
    const { page } = await suite.bareSession();
    await page.getByRole('status', { name: 'Model server' }).waitFor();
    await expectClean(page, 'server down');
    await ask(page, 'Are you there?');
    await page.getByRole('article', { name: 'Assistant message' }).getByRole('alert').waitFor();
    await expectClean(page, 'failed answer');
    await suite.server().setDown(false);
  });

  it('in the dark scheme', async () => {
    const { page } = await suite.session({ ...fixture, colorScheme: 'dark' });
    await conversation(page);
    await expectClean(page, 'dark conversation');
  });

  it('in Settings, wide and at 400 px', async () => {
    const { page } = await suite.session(fixture);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByText('ready', { exact: true }).first().waitFor({ timeout: 20_000 });
    await expectClean(page, 'settings');
    await page.setViewportSize({ width: 400, height: 800 });
    await expectClean(page, 'settings 400 px');
  });

  it('in the ask window', async () => {
    const { page } = await suite.session({ url: 'ask' });
    await expectClean(page, 'ask window');
  });
});
