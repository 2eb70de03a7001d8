// The chat window, finished (issue 44, what chatAgain.test.ts left), each in Chromium through the
// harness: the Context meter's parts add up, settings are not lost, a server that goes away is
// seen, a pasted image keeps its own name, marks show on thumbnails, and the smaller things.
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { BLUE, GREEN, RED, solidPng } from '../fixtures/images.ts';
import { seriousFindings } from './axe.ts';
import { inPage, pickModel } from './browserHarness.ts';
import { chatSuite, messageBox, openTools } from './chatSuite.ts';
import { createModelServer, DEFAULT_MODELS } from '../fixtures/modelServer.ts';

const suite = chatSuite();

/** "≈2,378" → 2378 */
const figure = (text: string) => Number(text.replace(/[≈,]/g, ''));

async function dropImage(page: Page, name: string, buffer: Buffer) {
  await page.locator('main').drop({ files: { name, mimeType: 'image/png', buffer } });
  const item = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem', { name });
  await item.getByRole('img', { name, exact: true }).waitFor();
  return item;
}

describe('the Context meter (issue 44 item 7)', () => {
  it("counts a vision model's images under Images, not This message, and every thumbnail shows its tokens", async () => {
    // llava-seer sees, and Glance knows no image rule for it: its images are estimated from their size.
    const { page } = await suite.session();
    const items = [
      await dropImage(page, 'red.png', await solidPng(640, 480, RED)),
      await dropImage(page, 'green.png', await solidPng(800, 500, GREEN)),
      await dropImage(page, 'blue.png', await solidPng(300, 200, BLUE)),
    ];
    let thumbnails = 0;
    for (const item of items) {
      const tokens = item.locator('.tokens');
      await tokens.waitFor();
      expect(await tokens.textContent()).toMatch(/^≈[\d,]+ tokens$/);
      thumbnails += figure((await tokens.textContent())!.replace(' tokens', ''));
    }
    const breakdown = page.getByLabel('What fills the context');
    const part = async (name: string) => {
      const line = (await breakdown.locator('li').filter({ hasText: `${name}:` }).textContent())!;
      return figure(/≈([\d,]+)/.exec(line)![1]!);
    };
    await expect.poll(() => part('Images'), { timeout: 20_000 }).toBe(thumbnails);
    // Three file names and no words: the message's own text is a few dozen tokens, not the images.
    expect(await part('This message')).toBeLessThan(100);
    const total = Number(await page.getByRole('meter', { name: 'Context' }).getAttribute('value'));
    const parts = (await part('The system prompt')) + (await part('The conversation so far')) + (await part('This message')) + (await part('Images'));
    const tools = (await breakdown.locator('li').filter({ hasText: 'Tool descriptions:' }).count()) ? await part('Tool descriptions') : 0;
    expect(parts + tools).toBe(total);
    expect(await seriousFindings(page)).toEqual([]);
  });

  it('opens its breakdown inside a 400 px window', async () => {
    const { page } = await suite.session({ viewport: { width: 400, height: 700 } });
    await page.locator('.context-meter summary').click();
    const box = (await page.getByLabel('What fills the context').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(400);
  });
});

describe('Settings keeps what was typed (issue 44 item 4)', () => {
  it('leaving with unsaved edits asks first; Keep editing keeps them, a save or Leave without saving lets the page go', async () => {
    const { page, shot } = await suite.session({ viewport: { width: 1280, height: 800 } });
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const field = page.getByRole('textbox', { name: 'Model steps per turn' });
    const stored = await field.inputValue();
    await field.fill('7');
    await page.getByRole('button', { name: 'Back to chat' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave Settings without saving?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Your changes in Limits are not saved');
    expect(await seriousFindings(page)).toEqual([]);
    await shot('leave-settings');
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await field.inputValue()).toBe('7');
    await expect.poll(() => page.evaluate<string | null>('document.activeElement?.id ?? null')).toBe('settings-limits-title');

    // Escape (and a conversation, Back, the address) ask as well; a save lets the page go without asking.
    await page.keyboard.press('Escape');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Save limits' }).click();
    await page.getByText('Saved. New limits apply').waitFor();
    await page.getByRole('button', { name: 'Back to chat' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor({ state: 'detached' });
    expect(await dialog.count()).toBe(0);

    // Typed again and left without saving: gone, as asked.
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('textbox', { name: 'Shortcut (press the keys; Backspace clears)' }).press('Backspace');
    await page.evaluate('history.back()');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Your changes in Screenshot hotkey are not saved');
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Settings' }).click();
    expect(await page.getByRole('textbox', { name: 'Model steps per turn' }).inputValue()).toBe('7');
    expect(await page.getByRole('textbox', { name: 'Shortcut (press the keys; Backspace clears)' }).inputValue()).not.toBe('');
    expect(stored).not.toBe('7');
  });
});

describe('a model server that goes away (issue 44 item 5)', () => {
  it("is seen while idle, its state is always shown, and a send's connection error is said once, the URL as text", async () => {
    const { page, shot } = await suite.session({ viewport: { width: 1280, height: 800 } });
    const state = page.getByRole('status', { name: 'Server connection' });
    await state.filter({ hasText: 'Connected' }).waitFor();
    await suite.server().setDown(true);
    // Nothing asked of it: the window notices by itself.
    await state.filter({ hasText: 'Not reachable' }).waitFor({ timeout: 40_000 });
    await page.getByRole('status', { name: 'Model server' }).waitFor();
    await shot('server-down-idle');

    await messageBox(page).fill('Are you there?');
    await messageBox(page).press('Enter');
    const failure = page.getByRole('article', { name: 'Assistant message' }).getByRole('alert');
    await failure.waitFor();
    await shot('server-down-send');
    // The address is said once on the page (in the banner), as text, never as a link.
    const body = await page.locator('main').innerText();
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(body)![0];
    expect(body.split(url).length - 1).toBe(1);
    expect(await page.locator(`main a[href^="${url}"]`).count()).toBe(0);
    expect(await failure.innerText()).not.toContain("Can't reach");
    expect(await seriousFindings(page)).toEqual([]);

    await suite.server().setDown(false);
    await state.filter({ hasText: 'Connected' }).waitFor({ timeout: 40_000 });
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'You said: "Are you there?"' }).waitFor({ timeout: 20_000 });
  });
});

/** Pastes `bytes` into the message box as the clipboard gives a screenshot: a file named `name`. */
async function paste(page: Page, name: string, bytes: Buffer) {
  await inPage(
    page,
    `([b64, fileName]) => {
      const data = new DataTransfer();
      data.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], fileName, { type: 'image/png' }));
      document.querySelector('textarea[aria-label="Message"]').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }`,
    [bytes.toString('base64'), name],
  );
}

describe('names belong to the attachment in its draft (issue 44 item 1)', () => {
  it('the same bytes pasted again keep the name given each time, in the composer, the sent message and the model label, and the first message keeps its own', async () => {
    const { page } = await suite.session();
    const bytes = await solidPng(320, 200, BLUE);
    const attachments = page.getByRole('list', { name: 'Attachments' });
    await dropImage(page, 'quarterly-chart.png', bytes);
    suite.server().script({ text: 'A blue chart.' }, { text: 'Blue again.' });
    await messageBox(page).fill('What is this?');
    await messageBox(page).press('Enter');
    const sent = page.getByRole('group', { name: 'Your message' });
    await sent.getByRole('listitem', { name: 'quarterly-chart.png' }).waitFor();
    await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').first().waitFor();
    const first = page.url();

    await page.getByRole('button', { name: 'New chat' }).click();
    await expect.poll(() => page.getByRole('article', { name: 'Assistant message' }).count()).toBe(0);
    await paste(page, 'image.png', bytes);
    await attachments.getByRole('listitem', { name: 'image.png' }).getByRole('img', { name: 'image.png', exact: true }).waitFor();
    expect(await attachments.textContent()).not.toContain('quarterly-chart');
    await messageBox(page).fill('And this?');
    await messageBox(page).press('Enter');
    await sent.getByRole('listitem', { name: 'image.png' }).waitFor();
    await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').first().waitFor();
    expect(await sent.textContent()).not.toContain('quarterly-chart');
    const label = suite.server().requests.at(-1)!.messages.filter((m) => m.role === 'user').at(-1)!.text;
    expect(label).toContain('image.png');
    expect(label).not.toContain('quarterly-chart');

    // After a reload, each message has the name it was sent with.
    await page.reload();
    await sent.getByRole('listitem', { name: 'image.png' }).waitFor();
    await page.goto(first);
    await page.reload();
    await sent.getByRole('listitem', { name: 'quarterly-chart.png' }).waitFor();
    expect(await seriousFindings(page)).toEqual([]);
  });
});

describe('marks show on thumbnails (issue 44 item 3)', () => {
  it('a box drawn in the editor is drawn on the composer thumbnail and on the sent message, also after a reload', async () => {
    const { page, shot } = await suite.session();
    const item = await dropImage(page, 'white.png', await solidPng(800, 500, [255, 255, 255]));
    await item.getByRole('button', { name: 'Mark up white.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark up white.png' });
    await dialog.getByRole('img', { name: 'white.png' }).waitFor();
    const canvas = (await page.getByRole('group', { name: 'Mark-up canvas' }).boundingBox())!;
    await page.mouse.move(canvas.x + canvas.width * 0.25, canvas.y + canvas.height * 0.25);
    await page.mouse.down();
    await page.mouse.move(canvas.x + canvas.width * 0.75, canvas.y + canvas.height * 0.75, { steps: 6 });
    await page.mouse.up();
    await dialog.getByRole('status').filter({ hasText: 'Box 1 added.' }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();

    /** The box drawn over a thumbnail, as a fraction of the thumbnail: where it starts and how wide it is. */
    const boxOn = async (thumb: ReturnType<Page['locator']>) => {
      const rect = thumb.locator('.thumb-marks svg rect').first();
      await rect.waitFor();
      const r = (await rect.boundingBox())!;
      const t = (await thumb.boundingBox())!;
      return { x: Math.round(((r.x - t.x) / t.width) * 10) / 10, width: Math.round((r.width / t.width) * 10) / 10 };
    };
    expect(await boxOn(item.locator('.thumb'))).toEqual({ x: 0.2, width: 0.5 });
    await shot('marks-composer');

    suite.server().script({ text: 'A box in the middle.' });
    await messageBox(page).fill('What is boxed?');
    await messageBox(page).press('Enter');
    await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').first().waitFor();
    const sent = page.getByRole('group', { name: 'Your message' }).getByRole('listitem', { name: 'white.png' });
    expect(await boxOn(sent.locator('.thumb'))).toEqual({ x: 0.2, width: 0.5 });
    await shot('marks-sent');
    await page.reload();
    expect(await boxOn(sent.locator('.thumb'))).toEqual({ x: 0.2, width: 0.5 });
    expect(await seriousFindings(page)).toEqual([]);
  });
});

describe('smaller things, the rest (issue 44 item 10)', () => {
  it('a tool switched off for the chat and asked for anyway says so, not "failed — There is no tool named …", also after a reload', async () => {
    const { page } = await suite.session();
    const menu = await openTools(page);
    const zoom = menu.getByRole('group', { name: 'Glance (built-in)' }).getByRole('checkbox', { name: 'Use tool Zoom into an image (Glance)' });
    await zoom.uncheck();
    await page.getByRole('button', { name: 'Tools (1 off)' }).waitFor();
    await page.keyboard.press('Escape');
    suite.server().script({ toolCalls: [{ name: 'zoom_image', arguments: { id: 'x', x: 0, y: 0, width: 10, height: 10 } }] }, { text: 'Without zoom then.' });
    await messageBox(page).fill('Zoom in, please.');
    await messageBox(page).press('Enter');
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'Without zoom then.' }).waitFor();
    const card = page.getByRole('article', { name: /^Tool call Zoom into an image/ });
    const check = async () => {
      expect(await card.locator('.status').innerText()).toBe('switched off for this chat');
      expect(await card.innerText()).not.toMatch(/failed|There is no tool named/);
      expect(await card.getAttribute('class')).not.toContain('failed');
    };
    await check();
    expect(suite.server().requests.at(-1)!.messages.find((m) => m.role === 'tool')!.text).toContain('switched off for this conversation');
    expect(await seriousFindings(page)).toEqual([]);
    await page.reload();
    await card.waitFor();
    await check();
  });

  it('the conversation list: the open chat is marked by more than bold, the row buttons do not cover the title, and F2 and Delete are said', async () => {
    const { page, shot } = await suite.session({ viewport: { width: 1280, height: 800 } });
    for (const q of ['A rather long question about the quarterly revenue chart', 'Another long question about the second chart of the report']) {
      await page.getByRole('button', { name: 'New chat' }).click();
      suite.server().script({ text: 'Answered.' });
      await messageBox(page).fill(q);
      await messageBox(page).press('Enter');
      await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').first().waitFor();
    }
    const list = page.getByRole('navigation', { name: 'Conversation list' });
    const active = list.locator('li.conversation.active');
    await active.waitFor();
    const style = (row: typeof active, property: string) => row.evaluate((el, p) => el.ownerDocument.defaultView!.getComputedStyle(el).getPropertyValue(p), property);
    expect(await style(active, 'box-shadow')).toContain('inset');
    const other = list.locator('li.conversation:not(.active)').first();
    expect(await style(active, 'background-color')).not.toBe(await style(other, 'background-color'));

    // Hovered, each row's title ends before its buttons.
    for (const row of [active, other]) {
      await row.hover();
      const title = (await row.locator('.title').boundingBox())!;
      const buttons = (await row.locator('.item-actions').boundingBox())!;
      expect(title.x + title.width).toBeLessThanOrEqual(buttons.x);
    }
    await shot('conversation-list-hover');
    expect(await other.getByRole('button', { name: /^Rename/ }).getAttribute('title')).toContain('F2');
    expect(await other.getByRole('button', { name: /^Delete/ }).getAttribute('title')).toContain('Delete');
    // With the focus in the list, the keys it takes are written under it.
    const keys = list.getByText('F2 renames · Delete deletes');
    expect(await keys.isVisible()).toBe(false);
    await list.getByRole('link').first().focus();
    await keys.waitFor();
    expect(await seriousFindings(page)).toEqual([]);
  });

  it('the ask window opened without a screenshot does not ask about one, and has a main landmark and an h1', async () => {
    const { page } = await suite.session({ url: 'ask', viewport: { width: 760, height: 680 } });
    const box = messageBox(page);
    await box.waitFor();
    expect(await box.getAttribute('placeholder')).not.toContain('this screenshot');
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('main').getByRole('textbox', { name: 'Message' }).count()).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    // With a screenshot in it, it does.
    await paste(page, 'screen.png', await solidPng(640, 400, GREEN));
    await expect.poll(() => box.getAttribute('placeholder'), { timeout: 20_000 }).toBe('Ask about this screenshot…');
    expect(await seriousFindings(page)).toEqual([]);
  });

  it('a "will not fit" warning goes once the message is sent and answered, and the box is empty', async () => {
    const models = await createModelServer({ models: [...DEFAULT_MODELS, { name: 'tiny-ctx', capabilities: ['completion'], contextLength: 2048 }] });
    onTestFinished(() => models.close());
    const { page } = await suite.session({ ollamaHost: models.url });
    await pickModel(page, 'tiny-ctx');
    const warning = page.getByRole('status').filter({ hasText: 'will not fit' });
    await messageBox(page).fill(`Please read all of this: ${'a long line of words to fill the window '.repeat(170)}`);
    await warning.waitFor();
    models.script({ text: 'Read it, all of it, slowly, a few words at a time.', chunkDelayMs: 400 });
    await messageBox(page).press('Enter');
    // While the answer streams, the warning about the message being answered is gone.
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'Read it' }).waitFor();
    expect(await page.locator('article[aria-label="Assistant message"][aria-busy="true"]').count()).toBe(1);
    expect(await warning.count()).toBe(0);
    await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').first().waitFor();
    expect(await messageBox(page).inputValue()).toBe('');
    // The meter has its figures for the empty box (the conversation so far fills the window) and no warning.
    await expect.poll(async () => (await page.getByLabel('What fills the context').textContent()) ?? '').toContain('This message: ≈0');
    await warning.waitFor({ state: 'detached' });
  });

  it('an image refused because the model does not say whether it sees offers one click for "it can see", which declares it and sends', async () => {
    const { page, shot } = await suite.session();
    await pickModel(page, 'mystery');
    await page.locator('main').drop({ files: { name: 'chart.png', mimeType: 'image/png', buffer: await solidPng(320, 200, RED) } });
    const canSee = page.getByRole('button', { name: /^mystery(:latest)? can see$/ });
    await canSee.waitFor();
    await shot('declare-sees');
    expect(await seriousFindings(page)).toEqual([]);
    await canSee.click();
    await canSee.waitFor({ state: 'detached' });
    await page.getByRole('list', { name: 'Attachments' }).getByRole('listitem', { name: 'chart.png' }).getByRole('img', { name: 'chart.png', exact: true }).waitFor();
    await shot('declared-sees');
    await messageBox(page).fill('What colour?');
    await messageBox(page).press('Enter');
    // It goes to the model with the image (whether this fixture model then takes it is the server's business).
    await expect.poll(() => suite.server().requests.length).toBeGreaterThan(0);
    const request = suite.server().requests.at(-1)!;
    expect(request.model).toMatch(/^mystery/);
    expect(request.images).toHaveLength(1);
    // Declared as Settings → Vision would.
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('row', { name: /mystery:latest/ }).filter({ hasText: 'per your settings' }).waitFor();
  });
});
