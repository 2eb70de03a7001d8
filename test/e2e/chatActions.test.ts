// What a user does with messages and refusals: one grouped alert for refused images with the
// way out (an installed model that sees, the Settings section), copy / regenerate / edit, and
// tool cards that read like the app rather than the wire.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeBarChart } from '../fixtures/chart.ts';
import { inPage, MCP_FIXTURE, modelShown, pickModel } from './browserHarness.ts';
import { answers, chatSuite, finished, messageBox as box } from './chatSuite.ts';

const suite = chatSuite();
const session = suite.session;
const attachments = (page: Page) => page.getByRole('list', { name: 'Attachments' });

describe('refused images', () => {
  it('four images sent to a blind model: one alert naming each, text and images kept, and a retry with a model that sees', async () => {
    const { page, shot } = await session();
    const names = ['one.png', 'two.png', 'three.png', 'four.png'];
    const charts = await Promise.all(names.map((_, i) => makeBarChart({ width: 240 + i * 10, height: 120 })));
    await page.locator('main').drop({ files: names.map((name, i) => ({ name, mimeType: 'image/png', buffer: charts[i]! })) });
    for (const name of names) await attachments(page).getByRole('listitem', { name }).getByRole('img', { name, exact: true }).waitFor();
    await pickModel(page, 'blind-llm');
    await box(page).fill('What do these show?');
    await box(page).press('Enter');

    const alert = page.getByRole('alert').filter({ hasText: 'were not sent' });
    await alert.waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'not sent' }).count()).toBe(1);
    const text = (await alert.textContent()) ?? '';
    expect(text).toMatch(/one\.png, two\.png, three\.png and four\.png were not sent: blind-llm:latest cannot see images, and local OCR found no text in them to send instead\. Pick a vision model such as llava-seer:latest \(installed\), or set a vision helper in Settings → Vision/);
    expect(text).not.toMatch(/--vision|gemma3/);
    // Nothing was lost and nothing was posted.
    expect(await box(page).inputValue()).toBe('What do these show?');
    expect(await attachments(page).getByRole('listitem').count()).toBe(4);
    // Nor do they claim to go as text: OCR found none in them.
    expect(await attachments(page).getByText('goes as text').count()).toBe(0);
    expect(await answers(page).count()).toBe(0);
    await shot('chat-refused-grouped');
    expect(suite.server().requests).toHaveLength(0);

    // The link lands on the Vision section; back in the chat the alert is still there.
    await alert.getByRole('link', { name: 'Settings → Vision' }).click();
    const heading = page.getByRole('heading', { name: 'Vision', level: 2 });
    await page.locator('#settings-vision-title:focus').waitFor();
    expect(await heading.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Back to chat' }).click();
    await alert.waitFor();

    await alert.getByRole('button', { name: 'Retry with llava-seer:latest' }).click();
    await finished(page, 1);
    await modelShown(page, 'llava-seer');
    expect(await page.getByRole('alert').filter({ hasText: 'not sent' }).count()).toBe(0);
    expect(suite.server().requests.at(-1)!.images).toHaveLength(4);
  });

  it('clears a stale "cannot see" alert when the model changes, and refuses a file over the size cap from its size alone', async () => {
    const { page } = await session();
    await pickModel(page, 'blind-llm');
    await page.locator('main').drop({ files: { name: 'chart.png', mimeType: 'image/png', buffer: await makeBarChart() } });
    const stale = page.getByRole('alert').filter({ hasText: 'chart.png' });
    await stale.waitFor();
    await pickModel(page, 'llava-seer');
    await stale.waitFor({ state: 'detached' });

    // 60 MB, made in the page: refused at once from File.size, never read or sent to main.
    await inPage(
      page,
      `() => {
        const data = new DataTransfer();
        const file = new File([new Uint8Array(60 * 1024 * 1024)], 'huge.png', { type: 'image/png' });
        Object.defineProperty(file, 'arrayBuffer', { value: () => { window.__read = true; return Blob.prototype.arrayBuffer.call(file); } });
        data.items.add(file);
        document.querySelector('main').dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: data }));
      }`,
    );
    const huge = page.getByRole('alert').filter({ hasText: 'huge.png' });
    await huge.waitFor();
    expect(await huge.textContent()).toMatch(/huge\.png was not attached: it is 60 MB, and the largest file Glance accepts is 50 MB \(Settings → Limits\)/);
    expect(await page.evaluate('window.__read === true')).toBe(false);
    expect(await attachments(page).count()).toBe(0);
  });
});

describe('message actions', () => {
  it('copies, regenerates and edits; each answer names its model and time', async () => {
    const { page, context, harness } = await session();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.pageOrigin });
    suite.server().script({ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'Answer to the edit.' });
    await box(page).fill('Hello there');
    await box(page).press('Enter');
    await finished(page, 1);
    const article = answers(page);
    const footer = article.locator('footer');
    expect(await footer.textContent()).toContain('llava-seer:latest');
    expect(await footer.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Times fill in once the window's first frame is drawn (renderer/ui/localeTime.ts), here and in the list.
    await expect.poll(() => footer.locator('time').textContent()).toMatch(/\d\d/);
    await expect.poll(() => page.locator('nav[aria-label="Conversation list"] .meta').first().textContent()).toMatch(/\d\d/);

    await article.getByRole('button', { name: 'Copy message' }).click();
    await article.getByRole('button', { name: 'Copy message' }).filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe('First answer.');

    await article.getByRole('button', { name: 'Regenerate' }).click();
    await answers(page).filter({ hasText: 'Second answer.' }).waitFor();
    await finished(page, 1);
    expect(await answers(page).count()).toBe(1);
    expect(suite.server().requests).toHaveLength(2);
    // The regenerated request asked the same question once, without the replaced answer.
    const regenerated = suite.server().requests[1]!.messages.map((m) => m.text).join('\n');
    expect(regenerated).not.toContain('First answer.');
    expect(regenerated.match(/Hello there/g)).toHaveLength(1);

    await page.getByRole('button', { name: 'Edit message' }).click();
    const edited = page.getByRole('textbox', { name: 'Edited message' });
    await edited.fill('Goodbye instead');
    await page.getByRole('button', { name: 'Send edited' }).click();
    await answers(page).filter({ hasText: 'Answer to the edit.' }).waitFor();
    await finished(page, 1);
    expect(await page.getByRole('group', { name: 'Your message' }).count()).toBe(1);
    expect(await page.getByRole('group', { name: 'Your message' }).textContent()).toContain('Goodbye instead');
    const third = suite.server().requests[2]!.messages.map((m) => m.text).join('\n');
    expect(third).toContain('Goodbye instead');
    expect(third).not.toContain('Hello there');

    // Stored that way: a reload shows the edited turn only.
    await page.reload();
    await answers(page).filter({ hasText: 'Answer to the edit.' }).waitFor();
    expect(await answers(page).count()).toBe(1);
    expect(await page.getByRole('region', { name: 'Messages' }).getByText('Hello there').count()).toBe(0);
  });
});

describe('editing an earlier message', () => {
  it('resends from there: the turns after it are gone, in the page, the request and the stored conversation', async () => {
    const { page } = await session();
    suite.server().script({ text: 'About cats.' }, { text: 'About dogs.' }, { text: 'About birds.' });
    for (const [i, q] of ['Tell me about cats', 'Now dogs'].entries()) {
      await box(page).fill(q);
      await box(page).press('Enter');
      await finished(page, i + 1);
    }
    // From history (ids as stored), not only from this page's memory.
    await page.reload();
    await answers(page).nth(1).waitFor();
    const first = page.locator('.message.user').first();
    await first.getByRole('button', { name: 'Edit message' }).click();
    await page.getByRole('textbox', { name: 'Edited message' }).fill('Tell me about birds');
    await page.getByRole('button', { name: 'Send edited' }).click();
    await answers(page).filter({ hasText: 'About birds.' }).waitFor();
    await finished(page, 1);
    expect(await answers(page).count()).toBe(1);
    expect(await page.getByRole('group', { name: 'Your message' }).allTextContents()).toEqual(['Tell me about birds']);
    const sent = suite.server().requests[2]!.messages.map((m) => m.text).join('\n');
    expect(sent).not.toMatch(/cats|dogs/);
    await page.reload();
    await answers(page).filter({ hasText: 'About birds.' }).waitFor();
    expect(await page.getByRole('region', { name: 'Messages' }).getByText(/About (cats|dogs)/).count()).toBe(0);
  });
});

describe('tool cards', () => {
  it('name the server and tool in words, keep the model-facing text behind "Raw", and show a stopped tool as cancelled', async () => {
    const { page, shot } = await session({ mcpConfig: { mcpServers: { fixture: { command: process.execPath, args: [MCP_FIXTURE], trusted: true } } } });
    suite.server().script({ toolCalls: [{ name: 'fixture__chart_image', arguments: {} }] });
    await box(page).fill('Fetch the chart.');
    await box(page).press('Enter');
    const card = page.getByRole('article', { name: 'Tool call Known bar chart (fixture)' });
    await card.waitFor();
    await finished(page, 1);
    // The server's own words when it gives them (MCP title, serverInfo.title).
    expect(await card.locator('.tool-name').textContent()).toBe('Known bar chart');
    expect(await card.locator('.tool-source').textContent()).toBe('fixture'); // its own title names Glance: not shown
    await card.getByRole('button', { name: /Known bar chart/ }).click();
    const result = card.locator('.tool-result');
    expect(await result.textContent()).not.toContain('shown to you in the next message');
    await card.getByRole('button', { name: 'Raw' }).click();
    expect(await result.textContent()).toContain('shown to you in the next message');
    await shot('tool-card-raw');

    suite.server().script({ toolCalls: [{ name: 'fixture__slow_progress', arguments: { steps: 20, delayMs: 300 } }] });
    await box(page).fill('Run the slow one.');
    await box(page).press('Enter');
    const slow = page.getByRole('article', { name: 'Tool call Slow progress (fixture)' });
    await slow.getByRole('progressbar').waitFor();
    await page.getByRole('status', { name: 'Announcements' }).filter({ hasText: 'Running Slow progress' }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await slow.locator('.status').filter({ hasText: 'cancelled' }).waitFor();
    expect(await slow.locator('.status.failed').count()).toBe(0);
  });
});
