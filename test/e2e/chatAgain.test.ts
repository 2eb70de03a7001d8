// The chat window, tried again (issue 44), each in Chromium: the message box takes the column at
// every width and keeps it when the Context meter and the "Hide secrets" select appear.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousFindings } from './axe.ts';
import { ask, chatSuite, finished, messageBox } from './chatSuite.ts';

const suite = chatSuite();

/** The message box's width, and the width its row has inside the composer. */
async function widths(page: Page): Promise<{ box: number; row: number }> {
  const box = (await messageBox(page).boundingBox())!.width;
  const row = (await page.locator('form.composer .composer-row').boundingBox())!.width;
  return { box, row };
}

describe('the message box (issue 44 item 2)', () => {
  it.each([
    { width: 400, height: 700 },
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ])('takes the column at $width px, with and without the Context meter and the "Hide secrets" select', async (viewport) => {
    const { page, shot } = await suite.session({ viewport });
    const before = await widths(page);
    expect(before.box).toBeGreaterThanOrEqual(before.row - 1);
    suite.server().script({ text: 'An answer.' });
    await ask(page, 'Hello');
    await finished(page, 1);
    await page.getByRole('combobox', { name: 'Hide secrets in this chat' }).waitFor();
    await page.locator('form.composer meter[aria-label="Context"]').waitFor({ state: 'attached' });
    const after = await widths(page);
    expect(after.box).toBe(before.box);
    expect(after.box).toBeGreaterThanOrEqual(after.row - 1);
    // At desktop widths that is the column (860 px at most), not the 302 px left beside the buttons.
    if (viewport.width >= 1280) expect(after.box).toBeGreaterThan(800);
    expect(await seriousFindings(page)).toEqual([]);
    await shot(`composer-${viewport.width}`);
  });
});
