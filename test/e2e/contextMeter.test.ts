// The composer's Context meter when messages are sent straight after each other. Its refresh
// was debounced (250 ms after the last change) and cancelled by each send, so a quick typist
// saw no meter (or the figures of before the last turn) until they paused. After a turn it
// must show main's estimate of the next request at once.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chatSuite, messageBox } from './chatSuite.ts';

const suite = chatSuite();
const meter = (page: Page) => page.getByRole('meter', { name: 'Context' });
const answer = (page: Page, text: string) => page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: text });

/** Types and sends at once, as a quick typist does (no pause for the meter's debounce). */
async function typeAndSend(page: Page, text: string): Promise<void> {
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
}

/** Waits for the answer that echoes `marker` to finish (not by count: the list is virtualised). */
async function answered(page: Page, marker: string): Promise<void> {
  await page.locator('article[aria-label="Assistant message"][aria-busy="false"]', { hasText: marker }).waitFor();
}

describe('the Context meter', () => {
  it('shows the figures after each turn at once, however quickly the next message is sent', async () => {
    const { page, harness, open } = await suite.session();
    const shown = async () => Number(await meter(page).getAttribute('value'));
    await meter(page).waitFor();
    const empty = await shown();
    await typeAndSend(page, `Question 1: ${'some words '.repeat(100)}`);
    await answered(page, 'Question 1:');
    // The next message straight away, its answer slow: while it streams the meter counts the
    // first turn (1,100 characters asked, as many echoed), with an empty box.
    suite.server().script({ text: 'A slow answer in a few chunks, one after another, for the second question.', chunkDelayMs: 600 });
    await typeAndSend(page, 'Question 2');
    await answer(page, 'A slow').waitFor();
    await expect.poll(shown, { timeout: 2500 }).toBeGreaterThan(empty + 400);
    expect(await answer(page, 'A slow').getAttribute('aria-busy')).toBe('true');
    expect(await page.getByLabel('What fills the context').textContent()).toContain('This message: ≈0');
    await answered(page, 'for the second question');

    await typeAndSend(page, `Question 3: ${'more words '.repeat(120)}`);
    await answered(page, 'Question 3:');
    // After the last turn: what a fresh page computes for the same conversation and an empty box.
    const id = /#\/c\/([^&]+)/.exec(page.url())?.[1];
    expect(id).toBeTruthy();
    const fresh = await open(`${harness.pageOrigin}/#/c/${id}&token=${harness.token}`);
    await meter(fresh).waitFor();
    const expected = Number(await meter(fresh).getAttribute('value'));
    await fresh.close();
    await expect.poll(shown, { timeout: 2000 }).toBe(expected);
  });

  it('asks again when an estimate fails, without anything typed', async () => {
    // The model's server is away when the window opens: no model is listed, so main cannot
    // say which model the estimate is for and the first one fails.
    const server = suite.server();
    await server.setDown(true);
    const { page } = await suite.bareSession();
    try {
      await messageBox(page).waitFor();
      await page.waitForTimeout(600);
      expect(await meter(page).count()).toBe(0);
      await server.setDown(false);
      await meter(page).waitFor({ timeout: 8000 });
    } finally {
      await server.setDown(false);
    }
  });
});

describe('the Context meter’s label and breakdown (issue 29)', () => {
  it('says what it measures ("Context N%") and shows the breakdown on hover and on focus', async () => {
    const { page } = await suite.session();
    await meter(page).waitFor();
    const summary = page.locator('.context-meter summary');
    // Visible words, not a bare percentage.
    expect(await summary.innerText()).toMatch(/^Context\s+\d+%$/);
    expect(await summary.getAttribute('aria-label')).toMatch(/^Context \d+%$/);
    const breakdown = page.getByLabel('What fills the context');
    expect(await breakdown.isVisible()).toBe(false);
    await summary.hover();
    await breakdown.waitFor({ state: 'visible' });
    expect(await breakdown.innerText()).toMatch(/The system prompt: ≈[\d,]+[\s\S]*Tool descriptions: ≈[\d,]+[\s\S]*The conversation so far: ≈[\d,]+[\s\S]*This message: ≈[\d,]+[\s\S]*Images: ≈\d+/);
    await page.mouse.move(5, 5);
    await breakdown.waitFor({ state: 'hidden' });
    await messageBox(page).focus();
    // Keyboard: the meter is reached with Tab from the Tools button, and shows its breakdown.
    await page.getByRole('button', { name: /^Tools/ }).focus();
    await page.keyboard.press('Tab');
    await breakdown.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await breakdown.waitFor({ state: 'hidden' });
  });
});
