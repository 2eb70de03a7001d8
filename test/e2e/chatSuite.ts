// The set-up the chat-window suites share: one fixture model server and one Chromium per file,
// a harness session per test (closed after it), and the few steps every chat test takes.
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { launchChromium, modelShown, openSession, type Session } from './browserHarness.ts';

export type ChatSuite = {
  /** The fixture model server (reset after each test). */
  server(): ModelServer;
  /** A harness session on the fixture server, its model list loaded. */
  session(options?: Parameters<typeof openSession>[1]): Promise<Session>;
  /** A harness session without waiting for the model list (the server may be down). */
  bareSession(options?: Parameters<typeof openSession>[1]): Promise<Session>;
};

export function chatSuite(): ChatSuite {
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
  const bareSession = async (options: Parameters<typeof openSession>[1] = {}) => {
    s = await openSession(browser, { ollamaHost: server.url, ...options });
    return s;
  };
  return {
    server: () => server,
    bareSession,
    async session(options = {}) {
      const session = await bareSession(options);
      await modelShown(session.page, 'llava-seer');
      return session;
    },
  };
}

export const answers = (page: Page) => page.getByRole('article', { name: 'Assistant message' });
export const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });

export async function ask(page: Page, text: string): Promise<void> {
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
}

/** Waits until the `count`-th answer has finished streaming. */
export async function finished(page: Page, count: number): Promise<void> {
  await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').nth(count - 1).waitFor();
}

/** Opens the composer's "Tools" menu (if closed) and answers its group. */
export async function openTools(page: Page) {
  const button = page.getByRole('button', { name: /^Tools/ });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  return page.getByRole('group', { name: 'Tools for this conversation' });
}
