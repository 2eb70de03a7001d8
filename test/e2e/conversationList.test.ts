// The conversation list in Chromium: search finds words in the messages too (and shows where),
// a rename keeps the chat where it is, and a delete asks within the sidebar's width, is
// cancelled by Escape, and can be undone for a few seconds — nothing is lost to a mis-click.
import { access } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ConversationStore } from '../../main/chat/conversationStore.ts';
import { seriousFindings } from './axe.ts';
import { chatSuite } from './chatSuite.ts';

const suite = chatSuite();
const list = (page: Page) => page.getByRole('navigation', { name: 'Conversation list' });
const titles = (page: Page) => list(page).locator('.title').allTextContents();
const exists = (file: string) => access(file).then(() => true, () => false);

/** Stored conversations, oldest first, each a question and an answer. */
async function seed(dataDir: string, chats: readonly { title: string; question: string; answer: string }[]): Promise<ConversationStore> {
  const store = new ConversationStore(dataDir);
  for (const { title, question, answer } of chats) {
    const c = store.create(title);
    c.messages.push({ role: 'user', id: `u-${title}`, text: question, attachmentIds: [], createdAt: c.createdAt });
    c.messages.push({ role: 'assistant', id: `a-${title}`, text: answer, createdAt: c.createdAt });
    await store.save(c);
    // Distinct times, so the list's order is known.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return store;
}

const CHATS = [
  { title: 'Holiday photos', question: 'Which beach is this?', answer: 'That is the Praia da Marinha in the Algarve, a cove under limestone cliffs.' },
  { title: 'Quarterly revenue', question: 'What was the total?', answer: 'The total is 99.50 EUR, up from the last quarter.' },
  { title: 'Code review', question: 'Why does this loop never end?', answer: 'The counter is reset inside the loop body.' },
];

describe('search', () => {
  it('finds words in the messages, not only the titles, and shows the text it found them in', async () => {
    const { page, dataDir, shot } = await suite.session();
    await seed(dataDir, CHATS);
    await page.reload();
    await list(page).getByRole('link', { name: /Holiday photos/ }).waitFor();
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    // In an answer only: the title says nothing of limestone.
    await search.fill('limestone cliffs');
    await expect.poll(() => titles(page)).toEqual(['Holiday photos']);
    const found = list(page).getByRole('link', { name: /Holiday photos/ });
    expect(await found.locator('.snippet').textContent()).toMatch(/^…Marinha in the Algarve, a cove under limestone cliffs\.$/);
    expect(await found.locator('.snippet mark').allTextContents()).toEqual(['limestone', 'cliffs']);
    await shot('conversation-search-text');
    expect(await seriousFindings(page)).toEqual([]);
    // Title and text together; a title match needs no snippet.
    await search.fill('revenue total');
    await expect.poll(() => titles(page)).toEqual(['Quarterly revenue']);
    await search.fill('Code');
    await expect.poll(() => titles(page)).toEqual(['Code review']);
    expect(await list(page).locator('.snippet').count()).toBe(0);
    await search.fill('zebra');
    await page.getByText('No conversation has all of these words.').waitFor();
    // Opening a match shows the conversation.
    await search.fill('counter reset');
    await list(page).getByRole('link', { name: /Code review/ }).click();
    await page.getByRole('group', { name: 'Your message' }).filter({ hasText: 'Why does this loop never end?' }).waitFor();
  });
});

describe('rename', () => {
  it('keeps the chat where it is in the list, also after a reload', async () => {
    const { page, dataDir } = await suite.session();
    await seed(dataDir, CHATS);
    await page.reload();
    await list(page).getByRole('link', { name: /Code review/ }).waitFor();
    expect(await titles(page)).toEqual(['Code review', 'Quarterly revenue', 'Holiday photos']);
    await list(page).getByRole('button', { name: 'Rename Holiday photos' }).click();
    const box = page.getByRole('textbox', { name: 'New title for Holiday photos' });
    await box.fill('Trip to the coast');
    await box.press('Enter');
    await list(page).getByRole('link', { name: /Trip to the coast/ }).waitFor();
    expect(await titles(page)).toEqual(['Code review', 'Quarterly revenue', 'Trip to the coast']);
    await page.reload();
    await list(page).getByRole('link', { name: /Trip to the coast/ }).waitFor();
    expect(await titles(page)).toEqual(['Code review', 'Quarterly revenue', 'Trip to the coast']);
  });
});

describe('delete', () => {
  it('asks within the narrow sidebar, Escape keeps the chat, and Undo brings it back', async () => {
    const { page, dataDir, shot } = await suite.session({ viewport: { width: 400, height: 800 } });
    const long = 'A very long conversation title about the quarterly revenue chart of the northern region';
    const store = await seed(dataDir, [...CHATS, { title: long, question: 'Look at this chart.', answer: 'It rises.' }]);
    const [id] = (await store.list()).filter((c) => c.title === long).map((c) => c.id);
    await page.reload();
    await page.getByRole('button', { name: 'Conversations' }).click();
    const sidebar = page.getByRole('complementary', { name: 'Conversations' });
    await list(page).getByRole('link', { name: /A very long conversation title/ }).waitFor();
    await list(page).getByRole('button', { name: `Delete ${long}` }).click();
    const confirm = list(page).getByRole('group', { name: `Delete ${long}?` });
    await confirm.waitFor();
    // Both buttons inside the sidebar, however long the title.
    const edge = (await sidebar.boundingBox())!;
    for (const name of [/^Delete “/, /^Keep$/]) {
      const button = (await confirm.getByRole('button', { name }).boundingBox())!;
      expect(button.x).toBeGreaterThanOrEqual(edge.x);
      expect(button.x + button.width).toBeLessThanOrEqual(edge.x + edge.width);
    }
    expect(await confirm.getByRole('button', { name: /^Delete “/ }).evaluate((el) => el.matches(':focus'))).toBe(true);
    await shot('conversation-delete-narrow');
    expect(await seriousFindings(page)).toEqual([]);
    // Escape cancels the question only: the list stays open, the focus back on the chat's link.
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await page.getByRole('searchbox', { name: 'Search conversations' }).isVisible()).toBe(true);
    await expect.poll(() => page.evaluate<string | null>('document.activeElement?.querySelector(".title")?.textContent ?? null')).toBe(long);
    expect(await exists(store.fileOf(id!))).toBe(true);

    // Deleted, it leaves the list with "Undo" offered; Undo brings it back and nothing was removed.
    await page.keyboard.press('Delete');
    await confirm.getByRole('button', { name: /^Delete “/ }).click();
    const undo = sidebar.getByRole('status').filter({ hasText: 'Deleted' });
    await undo.waitFor();
    await shot('conversation-deleted-undo');
    expect(await seriousFindings(page)).toEqual([]);
    expect(await titles(page)).not.toContain(long);
    await undo.getByRole('button', { name: 'Undo' }).click();
    await list(page).getByRole('link', { name: /A very long conversation title/ }).waitFor();
    expect(await exists(store.fileOf(id!))).toBe(true);

    // Not undone, it is deleted once the offer ends…
    await list(page).getByRole('button', { name: `Delete ${long}` }).click();
    await confirm.getByRole('button', { name: /^Delete “/ }).click();
    await undo.waitFor();
    await expect.poll(() => exists(store.fileOf(id!)), { timeout: 30_000 }).toBe(false);
    await undo.waitFor({ state: 'detached' });
    // …or at once when the window goes away.
    const [other] = (await store.list()).filter((c) => c.title === 'Code review').map((c) => c.id);
    await list(page).getByRole('button', { name: 'Delete Code review' }).click();
    await list(page).getByRole('group', { name: 'Delete Code review?' }).getByRole('button', { name: /^Delete “/ }).click();
    await undo.waitFor();
    await page.reload();
    await expect.poll(() => exists(store.fileOf(other!)), { timeout: 30_000 }).toBe(false);
  });
});
