// The chat window keeps its state as a demanding user moves around: an answer streaming while
// they switch conversations or reload, drafts per conversation, focus and keyboard.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { launchChromium, openSession, type Session } from './browserHarness.ts';

let server: ModelServer;
let browser: Browser;
let s: Session | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([createModelServer(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
afterEach(async () => {
  await s?.close();
  s = undefined;
  server.reset();
});

async function session(options: Parameters<typeof openSession>[1] = {}): Promise<Session> {
  s = await openSession(browser, { ollamaHost: server.url, ...options });
  await s.page.getByRole('combobox', { name: 'Model' }).filter({ hasText: 'llava-seer' }).waitFor();
  return s;
}

const answers = (page: Page) => page.getByRole('article', { name: 'Assistant message' });
const box = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const conversation = (page: Page, title: string) => page.getByRole('navigation', { name: 'Conversation list' }).getByRole('link', { name: new RegExp(`^${title}`) });

async function ask(page: Page, text: string) {
  await box(page).fill(text);
  await box(page).press('Enter');
}
async function finished(page: Page, count: number) {
  await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').nth(count - 1).waitFor();
}

describe('an answer that is still streaming', () => {
  const LONG = 'Alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima.';

  it('comes back whole, in one message, after switching to another conversation and back', async () => {
    const { page } = await session();
    await ask(page, 'First chat');
    await finished(page, 1);
    await page.getByRole('button', { name: 'New chat' }).click();
    server.script({ text: LONG, chunkDelayMs: 800 });
    await ask(page, 'Second chat');
    await answers(page).filter({ hasText: 'Alpha' }).waitFor();
    expect(await answers(page).first().getAttribute('aria-busy')).toBe('true');

    // Listed while it streams, not only once done.
    await conversation(page, 'Second chat').waitFor();
    await conversation(page, 'First chat').click();
    await page.getByRole('group', { name: 'Your message' }).filter({ hasText: 'First chat' }).waitFor();
    await conversation(page, 'Second chat').click();
    await page.getByRole('group', { name: 'Your message' }).filter({ hasText: 'Second chat' }).waitFor();
    // Back while it still streams: the part so far is there at once, in the one message.
    await answers(page).filter({ hasText: 'Alpha' }).waitFor({ timeout: 1500 });
    expect(await answers(page).getAttribute('aria-busy')).toBe('true');
    expect(await answers(page).count()).toBe(1);
    await answers(page).filter({ hasText: 'lima.' }).waitFor();
    await finished(page, 1);
    expect(await answers(page).count()).toBe(1);
    expect((await answers(page).textContent())!.replace(/\s+/g, ' ')).toContain(LONG);
  });

  it('comes back whole after a reload, and Stop still works on it', async () => {
    const { page } = await session();
    server.script({ text: LONG, chunkDelayMs: 400 });
    await ask(page, 'Reload me');
    await answers(page).filter({ hasText: 'bravo' }).waitFor();
    await page.waitForURL(/#\/c\//);
    await page.reload();
    await page.getByRole('group', { name: 'Your message' }).filter({ hasText: 'Reload me' }).waitFor();
    await answers(page).filter({ hasText: 'lima.' }).waitFor();
    await finished(page, 1);
    expect(await answers(page).count()).toBe(1);
    expect((await answers(page).textContent())!.replace(/\s+/g, ' ')).toContain(LONG);

    // A second answer, stopped from a reloaded page: the resumed turn is a real one.
    server.script({ text: LONG, chunkDelayMs: 600 });
    await ask(page, 'Then stop');
    await answers(page).nth(1).filter({ hasText: 'Alpha' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Stopped.').waitFor();
    expect(await answers(page).count()).toBe(2);
    expect((await answers(page).nth(1).textContent()) ?? '').not.toContain('lima.');
  });
});
