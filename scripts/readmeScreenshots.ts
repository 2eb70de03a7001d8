// Takes the README's screenshots: the built renderer in Debian's Chromium through the web
// harness, against the fixture model server and MCP fixture (what the e2e tests drive).
//   node scripts/readmeScreenshots.ts      → docs/screenshots/*.png
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, MCP_FIXTURE, openSession, REPO_ROOT } from '../test/e2e/browserHarness.ts';
import { makeBarChart } from '../test/fixtures/chart.ts';
import { createModelServer } from '../test/fixtures/modelServer.ts';

const OUT = join(REPO_ROOT, 'docs', 'screenshots');
const server = await createModelServer();
const browser = await launchChromium();
// Trusted: its read-only tools (chart_image) run without asking, as the tool-card shot needs (architecture §5).
const mcp = { mcpServers: { fixture: { command: process.execPath, args: [MCP_FIXTURE], trusted: true } } };

async function ready(page: Page) {
  await page.getByRole('combobox', { name: 'Model' }).filter({ hasText: 'llava-seer' }).waitFor();
}
async function ask(page: Page, text: string, count: number) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.keyboard.press('Enter');
  await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').nth(count - 1).waitFor();
}
async function pickModel(page: Page, name: string) {
  await page.getByRole('combobox', { name: 'Model' }).click();
  await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
}

try {
  // A tool call with its capture, shown to the model and retracted; the answer with its actions.
  {
    const s = await openSession(browser, { ollamaHost: server.url, mcpConfig: mcp });
    await ready(s.page);
    server.script({ toolCalls: [{ name: 'fixture__chart_image', arguments: {} }] });
    await ask(s.page, 'Fetch the chart and tell me which bars it has.', 1);
    await s.page.getByText('retracted').waitFor();
    await s.page.getByRole('button', { name: /^Known bar chart/ }).click();
    await s.page.locator('article[aria-label^="Tool call"] img').waitFor();
    await s.page.mouse.move(700, 500);
    await s.page.screenshot({ path: join(OUT, 'chat-tool-card.png') });
    server.reset();
    await s.close();
  }
  // Four images refused by a blind model: one alert naming each, the way out, nothing lost.
  {
    const s = await openSession(browser, { ollamaHost: server.url });
    await ready(s.page);
    const names = ['q1-sales.png', 'q2-sales.png', 'q3-sales.png', 'q4-sales.png'];
    const charts = await Promise.all(names.map((_, i) => makeBarChart({ width: 240 + 10 * i, height: 120 })));
    await s.page.locator('main').drop({ files: names.map((name, i) => ({ name, mimeType: 'image/png', buffer: charts[i]! })) });
    await s.page.getByRole('list', { name: 'Attachments' }).getByRole('img', { name: 'q4-sales.png', exact: true }).waitFor();
    await pickModel(s.page, 'blind-llm');
    await s.page.getByRole('textbox', { name: 'Message' }).fill('Compare the four quarters.');
    await s.page.keyboard.press('Enter');
    await s.page.getByRole('alert').filter({ hasText: 'were not sent' }).waitFor();
    await s.page.screenshot({ path: join(OUT, 'refusal-blind-model.png') });
    await s.close();
  }
  // Dark theme: a conversation with an image, message actions and the Context meter.
  {
    const s = await openSession(browser, { ollamaHost: server.url, colorScheme: 'dark' });
    await ready(s.page);
    await s.page.locator('main').drop({ files: { name: 'chart.png', mimeType: 'image/png', buffer: await makeBarChart() } });
    await s.page.getByRole('list', { name: 'Attachments' }).getByRole('img', { name: 'chart.png', exact: true }).waitFor();
    await ask(s.page, 'Which bars are there?', 1);
    await s.page.getByRole('textbox', { name: 'Message' }).fill('And which one is tallest?');
    await s.page.getByRole('meter', { name: 'Context' }).waitFor();
    await s.page.locator('article[aria-label="Assistant message"]').hover();
    await s.page.screenshot({ path: join(OUT, 'chat-dark.png') });

    // The viewer: the original at full resolution, with its tools.
    await s.page.getByRole('group', { name: 'Your message' }).getByRole('button', { name: 'Enlarge chart.png' }).click();
    await s.page.getByRole('dialog').locator('img').waitFor();
    await s.page.screenshot({ path: join(OUT, 'image-viewer.png') });
    await s.close();
  }
  // A narrow window: the list behind "Conversations", New chat still there.
  {
    const s = await openSession(browser, { ollamaHost: server.url, viewport: { width: 460, height: 760 } });
    await ready(s.page);
    await ask(s.page, 'What is on my screen?', 1);
    await s.page.getByRole('button', { name: 'New chat' }).click();
    await ask(s.page, 'Summarise this chart', 1);
    await s.page.getByRole('button', { name: 'Conversations' }).click();
    await s.page.getByRole('searchbox', { name: 'Search conversations' }).waitFor();
    await s.page.screenshot({ path: join(OUT, 'narrow-conversations.png') });
    await s.close();
  }
  // A tool that can change things waits on its approval card; Settings keeps standing rules.
  {
    const s = await openSession(browser, { ollamaHost: server.url, mcpConfig: mcp });
    await ready(s.page);
    server.script({ toolCalls: [{ name: 'fixture__write_note', arguments: { text: 'Call the dentist on Monday' } }] }, { text: 'Noted.' });
    await s.page.getByRole('textbox', { name: 'Message' }).fill('Remind me to call the dentist on Monday.');
    await s.page.keyboard.press('Enter');
    await s.page.getByRole('group', { name: /^Approve / }).waitFor();
    await s.page.screenshot({ path: join(OUT, 'approval-card.png') });
    await s.page.getByRole('button', { name: 'Allow once' }).click();
    await s.page.locator('article[aria-label="Assistant message"][aria-busy="false"]').waitFor();
    await s.page.getByRole('button', { name: 'Settings' }).click();
    const tools = s.page.getByRole('region', { name: 'Tool approval' });
    await tools.getByLabel('Tool or pattern').fill('fixture__delete_*');
    await tools.getByLabel('Decision', { exact: true }).selectOption('deny');
    await tools.getByRole('button', { name: 'Add rule' }).click();
    await tools.getByRole('status').filter({ hasText: 'fixture__delete_*: never runs.' }).waitFor();
    await tools.getByLabel('Tool or pattern').fill('fixture__write_note');
    await tools.getByLabel('Decision', { exact: true }).selectOption('allow');
    await tools.getByRole('button', { name: 'Add rule' }).click();
    await tools.getByRole('status').filter({ hasText: 'fixture__write_note: always allowed.' }).waitFor();
    await tools.getByRole('row', { name: /fixture__delete_\*/ }).filter({ hasText: 'fixture__delete_notes' }).waitFor();
    await tools.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await s.page.screenshot({ path: join(OUT, 'settings-tool-approval.png') });
    server.reset();
    await s.close();
  }
  console.log(`screenshots in ${OUT}`);
} finally {
  await browser.close();
  await server.close();
}
