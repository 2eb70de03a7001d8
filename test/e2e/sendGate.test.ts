// A send whose images main checks again for the chosen model (the gate, tryAttachImage in the
// image door): nothing shows as sent until the gate has answered. A blind model's gate first
// tries local OCR, which takes seconds; the window used to show the message as sent meanwhile,
// with "user: …" alerts under it, and then took it back when the refusal came.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeBarChart } from '../fixtures/chart.ts';
import { inPage, pickModel } from './browserHarness.ts';
import { answers, chatSuite, messageBox } from './chatSuite.ts';

const suite = chatSuite();
const attachments = (page: Page) => page.getByRole('list', { name: 'Attachments' });

/** Records, from now on, everything the message list ever shows: user messages and alerts. */
function watchMessages(page: Page): Promise<void> {
  return inPage(
    page,
    `() => {
      window.__seen = [];
      const list = document.querySelector('section[aria-label="Messages"]');
      const look = () => {
        for (const el of list.querySelectorAll('[aria-label="Your message"], [role="alert"]')) window.__seen.push(el.getAttribute('aria-label') ?? el.textContent);
      };
      new MutationObserver(look).observe(list, { childList: true, subtree: true, characterData: true });
    }`,
  );
}

describe('a send the gate refuses', () => {
  it('shows nothing as sent: the text and image stay in the box until the refusal, which names the file', async () => {
    const { page, shot } = await suite.session();
    await page.locator('main').drop({ files: { name: 'chart.png', mimeType: 'image/png', buffer: await makeBarChart({ width: 400, height: 300 }) } });
    await attachments(page).getByRole('listitem', { name: 'chart.png' }).getByRole('img', { name: 'chart.png', exact: true }).waitFor();
    // A model that cannot see: the gate reads the chart with local OCR, finds no text, and refuses it.
    await pickModel(page, 'blind-llm');
    await watchMessages(page);
    await messageBox(page).fill('What do the bars say?');
    await messageBox(page).press('Enter');
    const refusal = page.locator('form.composer').getByRole('alert').filter({ hasText: 'chart.png' });
    await refusal.waitFor({ timeout: 60_000 });
    expect(await refusal.textContent()).toMatch(/chart\.png was not sent: blind-llm.* cannot see images/);
    expect(await inPage<string[]>(page, '() => window.__seen')).toEqual([]);
    // Nothing lost: the words and the image are where they were, to send to a model that sees.
    expect(await messageBox(page).inputValue()).toBe('What do the bars say?');
    expect(await messageBox(page).getAttribute('readonly')).toBeNull();
    await attachments(page).getByRole('listitem', { name: 'chart.png' }).waitFor();
    expect(suite.server().requests).toHaveLength(0);
    await shot('send-gate-refused');
    // "Retry with" sends them as they are to the model that sees; the message shows once the gate lets it through.
    await refusal.getByRole('button', { name: /^Retry with llava-seer/ }).click();
    await answers(page).filter({ hasText: 'red, green, blue' }).waitFor();
    expect(await page.getByRole('group', { name: 'Your message' }).count()).toBe(1);
    expect(await messageBox(page).inputValue()).toBe('');
    expect(await attachments(page).count()).toBe(0);
  });

  it('keeps the box as it is while the gate checks, then lets go once the image is through', async () => {
    const { page } = await suite.session();
    // The answer is slow to come, so the sent message can be seen while it streams.
    suite.server().script({ text: 'Red, green and blue bars, slowly.', chunkDelayMs: 400 });
    await page.locator('main').drop({ files: { name: 'chart.png', mimeType: 'image/png', buffer: await makeBarChart({ width: 400, height: 300 }) } });
    await attachments(page).getByRole('listitem', { name: 'chart.png' }).getByRole('img', { name: 'chart.png', exact: true }).waitFor();
    await messageBox(page).fill('Which bars?');
    await messageBox(page).press('Enter');
    const sent = page.getByRole('group', { name: 'Your message' });
    await sent.waitFor();
    await sent.getByRole('listitem', { name: 'chart.png' }).waitFor();
    expect(await messageBox(page).inputValue()).toBe('');
    expect(await attachments(page).count()).toBe(0);
    await answers(page).filter({ hasText: 'slowly' }).waitFor();
  });
});
