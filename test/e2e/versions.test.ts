// Answer versions in the chat window: Regenerate, Edit and Retry keep what they replace, as
// "‹ 2 / 3 ›" on the answer; each version brings back its own answer and the turns that followed
// it, a reload keeps them, and the model is sent the branch shown.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousFindings } from './axe.ts';
import { answers, ask, chatSuite, finished, messageBox } from './chatSuite.ts';

const suite = chatSuite();
const versions = (page: Page) => page.getByRole('group', { name: /^Version \d+ of \d+$/ });
const shownAnswers = (page: Page) => answers(page).evaluateAll((all) => all.map((a) => a.querySelector('.markdown, p')?.textContent ?? ''));
const focusedLabel = (page: Page) => page.evaluate<string | null>('document.activeElement?.getAttribute("aria-label") ?? null');
const announced = (page: Page) => page.getByRole('status', { name: 'Announcements' }).textContent();

describe('answer versions', () => {
  it('Regenerate and Edit keep versions with their own branch, across a reload; the model gets the branch shown', async () => {
    const { page, shot } = await suite.session();
    suite.server().script({ text: 'First answer.' }, { text: 'Follow-up answer.' }, { text: 'Second answer.' }, { text: 'Answer to the edit.' });
    await ask(page, 'Hello there');
    await finished(page, 1);
    await ask(page, 'And then?');
    await finished(page, 2);
    expect(await versions(page).count()).toBe(0);

    await answers(page).first().getByRole('button', { name: 'Regenerate' }).click();
    await answers(page).filter({ hasText: 'Second answer.' }).waitFor();
    await finished(page, 1);
    expect(await answers(page).count()).toBe(1);
    await page.getByRole('group', { name: 'Version 2 of 2' }).waitFor();

    await page.getByRole('button', { name: 'Edit message' }).click();
    await page.getByRole('textbox', { name: 'Edited message' }).fill('Goodbye instead');
    await page.getByRole('button', { name: 'Send edited' }).click();
    await answers(page).filter({ hasText: 'Answer to the edit.' }).waitFor();
    await finished(page, 1);
    const third = page.getByRole('group', { name: 'Version 3 of 3' });
    await third.waitFor();
    expect(await third.innerText()).toMatch(/3\s*\/\s*3/);
    expect(await third.getByRole('button', { name: 'Next version' }).isDisabled()).toBe(true);

    // Back to the first version: its answer and the turn that followed it come back.
    await third.getByRole('button', { name: 'Previous version' }).click();
    await page.getByRole('group', { name: 'Version 2 of 3' }).waitFor();
    expect(await shownAnswers(page)).toEqual(['Second answer.']);
    expect(await page.getByRole('group', { name: 'Your message' }).allTextContents()).toEqual(['Hello there']);
    await expect.poll(() => focusedLabel(page)).toBe('Previous version');
    await expect.poll(() => announced(page)).toBe('Version 2 of 3');
    await page.keyboard.press('Enter');
    const first = page.getByRole('group', { name: 'Version 1 of 3' });
    await first.waitFor();
    await answers(page).nth(1).waitFor();
    expect(await shownAnswers(page)).toEqual(['First answer.', 'Follow-up answer.']);
    expect(await page.getByRole('group', { name: 'Your message' }).allTextContents()).toEqual(['Hello there', 'And then?']);
    // At the first version the focus moves to the button that still works.
    await expect.poll(() => focusedLabel(page)).toBe('Next version');
    await expect.poll(() => announced(page)).toBe('Version 1 of 3');
    expect(await seriousFindings(page)).toEqual([]);
    await shot('versions-first-of-three');

    // Stored with the conversation: a reload shows the version chosen, and the others are still there.
    await page.reload();
    await answers(page).nth(1).waitFor();
    expect(await shownAnswers(page)).toEqual(['First answer.', 'Follow-up answer.']);
    await page.getByRole('group', { name: 'Version 1 of 3' }).getByRole('button', { name: 'Next version' }).click();
    await page.getByRole('group', { name: 'Version 2 of 3' }).getByRole('button', { name: 'Next version' }).click();
    await page.getByRole('group', { name: 'Version 3 of 3' }).waitFor();
    expect(await page.getByRole('group', { name: 'Your message' }).allTextContents()).toEqual(['Goodbye instead']);
    expect(await shownAnswers(page)).toEqual(['Answer to the edit.']);

    // The next message goes on the branch shown: the model gets that branch, nothing of the others.
    suite.server().script({ text: 'On the edited branch.' });
    await ask(page, 'One more');
    await finished(page, 2);
    const sent = suite.server().requests.at(-1)!.messages.filter((m) => m.role !== 'system').map((m) => m.text);
    expect(sent).toEqual([expect.stringContaining('Goodbye instead'), 'Answer to the edit.', expect.stringContaining('One more')]);
    expect(await messageBox(page).inputValue()).toBe('');
  });

  it('Retry after an answer that broke off keeps the broken one as version 1', async () => {
    const { page } = await suite.session();
    suite.server().script({ text: 'Half an ans', fail: 'drop', chunkDelayMs: 20 }, { text: 'The whole answer.' });
    await ask(page, 'Tell me everything');
    const failed = page.locator('.turn-error');
    await failed.waitFor();
    await failed.getByRole('button', { name: 'Retry' }).click();
    await answers(page).filter({ hasText: 'The whole answer.' }).waitFor();
    await finished(page, 1);
    const second = page.getByRole('group', { name: 'Version 2 of 2' });
    await second.waitFor();
    expect(suite.server().requests.at(-1)!.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual([expect.stringContaining('Tell me everything')]);
    await second.getByRole('button', { name: 'Previous version' }).click();
    await page.getByRole('group', { name: 'Version 1 of 2' }).waitFor();
    expect((await answers(page).first().textContent()) ?? '').toContain('Half an');
    expect(await answers(page).count()).toBe(1);
  });
  it('an edit is sent from the keyboard: Shift+Enter is a new line, Enter sends, no trailing newline goes (issue 44 item 8)', async () => {
    const { page } = await suite.session();
    suite.server().script({ text: 'First answer.' }, { text: 'Answer to the edit.' });
    await ask(page, 'Hello there');
    await finished(page, 1);
    await page.getByRole('button', { name: 'Edit message' }).click();
    const box = page.getByRole('textbox', { name: 'Edited message' });
    await box.fill('Line one');
    await box.press('Shift+Enter');
    await box.pressSequentially('Line two');
    await box.press('Shift+Enter');
    expect(await box.inputValue()).toBe('Line one\nLine two\n');
    await box.press('Enter');
    await answers(page).filter({ hasText: 'Answer to the edit.' }).waitFor();
    await finished(page, 1);
    // The version arrows are targets a finger or a shaky hand can hit (issue 44 item 10: they were 23×25 px).
    for (const name of ['Previous version', 'Next version']) {
      const arrow = (await page.getByRole('button', { name }).boundingBox())!;
      expect(Math.min(arrow.width, arrow.height)).toBeGreaterThanOrEqual(32);
    }
    const sent = suite.server().requests.at(-1)!.messages.filter((m) => m.role === 'user').map((m) => m.text);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('Line one\nLine two');
    expect(sent[0]).not.toMatch(/Line two\s+$/);
    expect(await page.getByRole('group', { name: 'Your message' }).allTextContents()).toEqual(['Line one\nLine two']);
  });
});
