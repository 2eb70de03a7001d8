// The chat window, tried again (issue 44), each in Chromium: the message box takes the column at
// every width and keeps it when the Context meter and the "Hide secrets" select appear.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { solidPng, WHITE } from '../fixtures/images.ts';
import { secretScreen } from '../fixtures/secretScreens.ts';
import { seriousFindings } from './axe.ts';
import { setRedactPolicy } from './browserHarness.ts';
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

/** A drag on the mark-up canvas between two points given as fractions of the image. */
async function drag(page: Page, from: [number, number], to: [number, number]) {
  const box = (await page.getByRole('group', { name: 'Mark-up canvas' }).boundingBox())!;
  await page.mouse.move(box.x + from[0] * box.width, box.y + from[1] * box.height);
  await page.mouse.down();
  await page.mouse.move(box.x + to[0] * box.width, box.y + to[1] * box.height, { steps: 6 });
  await page.mouse.up();
}

async function dropWhite(page: Page) {
  await page.locator('main').drop({ files: { name: 'white.png', mimeType: 'image/png', buffer: await solidPng(800, 500, WHITE) } });
  const item = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem', { name: 'white.png' });
  await item.getByRole('img', { name: 'white.png', exact: true }).waitFor();
  return item;
}

describe('marks belong to the attachment in its draft (issue 44 item 1)', () => {
  it('marks drawn in one chat do not come back, nor reach the model, when the same file is attached in a new chat', async () => {
    const { page } = await suite.session();
    const item = await dropWhite(page);
    await item.getByRole('button', { name: 'Mark up white.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark up white.png' });
    await dialog.getByRole('img', { name: 'white.png' }).waitFor();
    await drag(page, [0.2, 0.2], [0.5, 0.5]);
    await dialog.getByRole('status').filter({ hasText: 'Box 1 added.' }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await item.filter({ hasText: '1 mark' }).waitFor();
    suite.server().script({ text: 'Seen with a box.' }, { text: 'Seen plain.' });
    await ask(page, 'What is boxed?');
    await finished(page, 1);
    expect(suite.server().requests.at(-1)!.messages.find((m) => m.role === 'user')!.text).toContain('marks: 1 box');

    await page.getByRole('button', { name: 'New chat' }).click();
    await expect.poll(() => page.getByRole('article', { name: 'Assistant message' }).count()).toBe(0);
    const again = await dropWhite(page);
    expect(await again.textContent()).not.toMatch(/mark:|marks:/);
    await ask(page, 'And this one?');
    await finished(page, 1);
    expect(suite.server().requests.at(-1)!.messages.find((m) => m.role === 'user')!.text).not.toContain('marks:');
    expect(await seriousFindings(page)).toEqual([]);
  });
});

describe('mark-up (issue 44 item 3)', () => {
  it('a note goes with the next mark only, a Text mark is placed by click-and-type, Tab stays in the dialog, the sent message says it once', async () => {
    const { page } = await suite.session();
    const item = await dropWhite(page);
    await item.getByRole('button', { name: 'Mark up white.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark up white.png' });
    const toolbar = dialog.getByRole('toolbar', { name: 'Mark up' });
    await dialog.getByRole('img', { name: 'white.png' }).waitFor();

    await toolbar.getByRole('textbox', { name: 'Note' }).fill('tallest bar');
    await drag(page, [0.1, 0.1], [0.3, 0.3]);
    await dialog.getByRole('status').filter({ hasText: 'Box 1 added.' }).waitFor();
    expect(await toolbar.getByRole('textbox', { name: 'Note' }).inputValue()).toBe('');
    await drag(page, [0.5, 0.5], [0.7, 0.7]);
    await dialog.getByRole('status').filter({ hasText: 'Box 2 added.' }).waitFor();

    // Text: click where it goes, type it, Enter.
    await toolbar.getByRole('radio', { name: 'Text' }).click();
    const canvas = (await page.getByRole('group', { name: 'Mark-up canvas' }).boundingBox())!;
    await page.mouse.click(canvas.x + canvas.width * 0.6, canvas.y + canvas.height * 0.2);
    await expect.poll(() => page.evaluate<string | null>('document.activeElement?.getAttribute("aria-label") ?? null')).toBe('Note');
    await page.keyboard.type('look here');
    await page.keyboard.press('Enter');
    await dialog.getByRole('status').filter({ hasText: 'Text 3 added.' }).waitFor();

    // Tab goes round the dialog's controls and never reaches the page behind it.
    for (let i = 0; i < 16; i++) {
      await page.keyboard.press(i % 5 === 4 ? 'Shift+Tab' : 'Tab');
      expect(await page.evaluate<boolean>('!!document.activeElement?.closest(\'[role="dialog"]\')')).toBe(true);
    }
    expect(await seriousFindings(page)).toEqual([]);
    await toolbar.getByRole('button', { name: 'Done' }).click();

    suite.server().script({ text: 'Marked up.' });
    await ask(page, 'Which is tallest?');
    await finished(page, 1);
    const label = suite.server().requests.at(-1)!.messages.find((m) => m.role === 'user')!.text;
    expect(label.match(/tallest bar/g)).toHaveLength(1);
    expect(label).toContain('"look here"');
    const sent = page.getByRole('group', { name: 'Your message' });
    await sent.getByText('Sent with 3 marks: 2 boxes, 1 text').waitFor();
    expect(await sent.textContent()).not.toMatch(/Marked: \d+ marks?/);
  });
});

describe('after sending, what was hidden (issue 44 item 6)', () => {
  it('the sent image says "N hidden", and the viewer shows the copy the model got beside the original, its region in words', async () => {
    const { page, shot } = await suite.session();
    const screen = await secretScreen('devtools', { width: 1280, height: 720, seed: 1 });
    await setRedactPolicy(page, /^Always/);
    await page.locator('main').drop({ files: { name: 'devtools.png', mimeType: 'image/png', buffer: screen.png } });
    const item = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem', { name: 'devtools.png' });
    await item.getByRole('button', { name: /^\d+ hidden/ }).waitFor({ timeout: 180_000 });
    suite.server().script({ text: 'A browser with developer tools.' });
    await ask(page, 'What is on this screen?');
    await finished(page, 1);

    const sent = page.getByRole('group', { name: 'Your message' }).getByRole('listitem', { name: 'devtools.png' });
    await sent.getByText(/^\d+ hidden$/).waitFor();
    await sent.getByRole('img', { name: 'devtools.png', exact: true }).click();
    const viewer = page.getByRole('dialog', { name: 'devtools.png' });
    const copy = viewer.getByRole('region', { name: 'What the model got' });
    await copy.getByRole('img', { name: 'devtools.png as the model got it' }).waitFor();
    await copy.getByRole('listitem').filter({ hasText: /^[a-z ]+, (top|bottom|centre|left|right)/ }).first().waitFor();
    expect(await copy.textContent()).not.toMatch(/at \d+,\d+/);
    await viewer.getByRole('img', { name: 'devtools.png', exact: true }).waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await shot('sent-image-what-the-model-got');
    // Detection runs local OCR on a 2-core machine: minutes, not seconds.
  }, 300_000);
});

describe('"What the model gets" (issue 44 item 9)', () => {
  it('has no heavy border, keeps Close on screen after "Show anyway" at 800 px, hides a region again, and says where regions are in words', async () => {
    const { page } = await suite.session({ viewport: { width: 1280, height: 800 } });
    const screen = await secretScreen('devtools', { width: 1280, height: 720, seed: 1 });
    await setRedactPolicy(page, /^Always/);
    await page.locator('main').drop({ files: { name: 'devtools.png', mimeType: 'image/png', buffer: screen.png } });
    const item = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem', { name: 'devtools.png' });
    const badge = item.getByRole('button', { name: /^\d+ hidden/ });
    await badge.waitFor({ timeout: 180_000 });
    const hidden = Number((await badge.textContent())!.match(/^(\d+)/)![1]);
    await badge.click();
    const dialog = page.getByRole('dialog', { name: 'What the model gets' });
    const jwt = dialog.getByRole('listitem', { name: 'jwt', exact: true });
    await jwt.waitFor();
    expect(await jwt.textContent()).toMatch(/^jwt, (top|middle|bottom|centre|left|right)[a-z ,]*, \d+×\d+ px/);
    expect(await jwt.textContent()).not.toMatch(/ at \d+,\d+/);
    expect(await page.evaluate<string>('getComputedStyle(document.querySelector("dialog.privacy-preview")).borderTopWidth')).toBe('0px');

    await jwt.getByRole('button', { name: 'Show anyway' }).click();
    const shown = dialog.getByRole('listitem', { name: 'jwt, shown' });
    await shown.waitFor();
    const close = dialog.getByRole('button', { name: 'Close' });
    const box = (await close.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    await shown.getByRole('button', { name: 'Hide again' }).click();
    await jwt.waitFor();
    expect(await shown.count()).toBe(0);
    expect(await seriousFindings(page)).toEqual([]);
    await close.click();
    await item.getByRole('button', { name: `${hidden} hidden` }).waitFor();
  }, 300_000);
});

describe('smaller things (issue 44 item 10)', () => {
  it('"Hide secrets: as in Settings (…)" is not cut off at 1280 px', async () => {
    const { page } = await suite.session({ viewport: { width: 1280, height: 800 } });
    suite.server().script({ text: 'An answer.' });
    await ask(page, 'Hello');
    await finished(page, 1);
    await page.getByRole('combobox', { name: 'Hide secrets in this chat' }).waitFor();
    // The chosen option's text, measured in the select's own font, against the room the select gives it (arrow and padding: 24 px).
    const fits = await page.evaluate<{ text: number; room: number }>(`(() => {
      const select = document.querySelector('select.redaction-choice');
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = getComputedStyle(select).font;
      return { text: ctx.measureText(select.selectedOptions[0].textContent).width, room: select.clientWidth - 24 };
    })()`);
    expect(fits.room).toBeGreaterThanOrEqual(fits.text);
  });
});
