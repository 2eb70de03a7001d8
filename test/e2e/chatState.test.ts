// The chat window keeps its state as a demanding user moves around: an answer streaming while
// they switch conversations or reload, drafts per conversation, focus and keyboard.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ConversationStore } from '../../main/chat/conversationStore.ts';
import { createModelServer } from '../fixtures/modelServer.ts';
import { answers, ask, chatSuite, finished, messageBox as box } from './chatSuite.ts';

const suite = chatSuite();
const session = suite.session;

const conversation = (page: Page, title: string) => page.getByRole('navigation', { name: 'Conversation list' }).getByRole('link', { name: new RegExp(`^${title}`) });

describe('an answer that is still streaming', () => {
  const LONG = 'Alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima.';

  it('comes back whole, in one message, after switching to another conversation and back', async () => {
    const { page } = await session();
    await ask(page, 'First chat');
    await finished(page, 1);
    await page.getByRole('button', { name: 'New chat' }).click();
    suite.server().script({ text: LONG, chunkDelayMs: 800 });
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
    suite.server().script({ text: LONG, chunkDelayMs: 400 });
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
    // 3 s between chunks: the reload and the Stop must land before the answer ends (at 600 ms the
    // whole answer took 2.4 s, and under load the reloaded page found it already finished).
    suite.server().script({ text: LONG, chunkDelayMs: 3000 });
    await ask(page, 'Then stop');
    await answers(page).nth(1).filter({ hasText: 'Alpha' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Stopped.', { exact: true }).waitFor();
    expect(await answers(page).count()).toBe(2);
    expect((await answers(page).nth(1).textContent()) ?? '').not.toContain('lima.');
  });
});

describe('drafts', () => {
  it('keeps a draft per conversation, across Settings and switching', async () => {
    const { page } = await session();
    await ask(page, 'Chat A');
    await finished(page, 1);
    await box(page).fill('draft for A');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Back to chat' }).click();
    expect(await box(page).inputValue()).toBe('draft for A');

    await page.getByRole('button', { name: 'New chat' }).click();
    expect(await box(page).inputValue()).toBe('');
    await box(page).fill('draft for a new chat');
    await conversation(page, 'Chat A').click();
    await page.getByRole('group', { name: 'Your message' }).filter({ hasText: 'Chat A' }).waitFor();
    expect(await box(page).inputValue()).toBe('draft for A');
    await page.getByRole('button', { name: 'New chat' }).click();
    expect(await box(page).inputValue()).toBe('draft for a new chat');
  });

  it('a send main turns down shows once, as a failed message with Retry, and leaves the box empty', async () => {
    const gone = await createModelServer();
    const { page } = await session({ ollamaHost: gone.url });
    await gone.close();
    await ask(page, 'Nobody is listening');
    const failed = page.locator('.turn-error');
    await failed.waitFor();
    expect(await failed.getByRole('button', { name: 'Retry' }).count()).toBe(1);
    expect(await page.getByRole('group', { name: 'Your message' }).filter({ hasText: 'Nobody is listening' }).count()).toBe(1);
    expect(await box(page).inputValue()).toBe('');
  });
});

describe('narrow windows', () => {
  it('below 520 px a "Conversations" button opens the list, and "New chat" stays visible', async () => {
    const { page, shot } = await session({ viewport: { width: 480, height: 800 } });
    await ask(page, 'Narrow one');
    await finished(page, 1);
    const toggle = page.getByRole('button', { name: 'Conversations' });
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    expect(await search.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'New chat' }).isVisible()).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    // The message box keeps the width (its buttons go under it), and the toolbar stays one row.
    expect(await box(page).evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(400);
    const top = (name: string) => page.getByRole('button', { name, exact: true }).evaluate((el) => Math.round(el.getBoundingClientRect().top));
    expect(Math.abs((await top('Settings')) - (await top('Conversations')))).toBeLessThan(12);
    await page.getByRole('button', { name: 'Settings' }).click();
    expect(Math.abs((await top('Back to chat')) - (await top('Conversations')))).toBeLessThan(12);
    await page.getByRole('button', { name: 'Back to chat' }).click();
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByText('What should Glance look at?').waitFor();

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await search.waitFor();
    await shot('narrow-conversations');
    // Picking a conversation opens it and closes the list.
    await conversation(page, 'Narrow one').click();
    await page.getByRole('group', { name: 'Your message' }).filter({ hasText: 'Narrow one' }).waitFor();
    await search.waitFor({ state: 'hidden' });
    // Escape closes it too.
    await toggle.click();
    await search.waitFor();
    await page.keyboard.press('Escape');
    await search.waitFor({ state: 'hidden' });
  });
});

describe('keyboard and screen reader', () => {
  it('focuses the message box, has a skip link, and the list is one tab stop with arrow keys', async () => {
    const { page, dataDir } = await session();
    const store = new ConversationStore(dataDir);
    for (const title of ['Oldest', 'Middle', 'Newest']) {
      const c = store.create(title);
      c.messages.push({ role: 'user', id: `u-${title}`, text: `About ${title}`, attachmentIds: [], createdAt: new Date().toISOString() });
      await store.save(c);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await page.reload();
    await conversation(page, 'Newest').waitFor();
    expect(await focusedLabel(page)).toBe('Message');

    // The skip link is the first stop and leads to the message box.
    const first = 'document.querySelector("a[href], button, input, textarea, select, [tabindex]:not([tabindex=\'-1\'])")';
    expect(await page.evaluate(`${first}.textContent`)).toBe('Skip to message box');
    await page.evaluate(`${first}.focus()`);
    const skip = page.getByRole('link', { name: 'Skip to message box' });
    expect(await skip.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await page.locator('textarea[aria-label="Message"]:focus').waitFor();

    // One tab stop: from the search box, Tab lands on a conversation; arrows move; Tab leaves the list.
    await page.getByRole('searchbox', { name: 'Search conversations' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.querySelector(".title")?.textContent')).toBe('Newest');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate('document.activeElement.querySelector(".title")?.textContent')).toBe('Middle');
    await page.keyboard.press('End');
    expect(await page.evaluate('document.activeElement.querySelector(".title")?.textContent')).toBe('Oldest');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('!!document.activeElement.closest("nav[aria-label=\\"Conversation list\\"]")')).toBe(false);
    // Enter opens the focused conversation.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('group', { name: 'Your message' }).filter({ hasText: 'About Oldest' }).waitFor();
  });

  it('says when an answer finished, follows the bottom while it streams, and offers "Jump to latest"', async () => {
    const { page } = await session({ viewport: { width: 1000, height: 600 } });
    const lines = Array.from({ length: 80 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n\n');
    suite.server().script({ text: lines, chunkDelayMs: 250 });
    await ask(page, 'Write a lot');
    const list = page.getByRole('region', { name: 'Messages' });
    const fromBottom = () => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    await answers(page).filter({ hasText: 'Line 20 ' }).waitFor();
    // Following happens in the frame after the text lands: polled, so a loaded machine's late frame is not a failure.
    await expect.poll(fromBottom).toBeLessThan(2);
    await finished(page, 1);
    await expect.poll(fromBottom).toBeLessThan(2);
    await page.getByRole('status', { name: 'Announcements' }).filter({ hasText: 'Answer finished.' }).waitFor();

    // Scrolled up, the list stays put and offers the way back.
    await list.hover();
    await page.mouse.wheel(0, -1500);
    const jump = page.getByRole('button', { name: /Jump to latest/ });
    await jump.waitFor();
    expect(await fromBottom()).toBeGreaterThan(200);
    await jump.click();
    await jump.waitFor({ state: 'detached' });
    await expect.poll(fromBottom).toBeLessThan(2);
  });
});

function focusedLabel(page: Page): Promise<string | null> {
  return page.evaluate('document.activeElement?.getAttribute("aria-label") ?? null') as Promise<string | null>;
}
