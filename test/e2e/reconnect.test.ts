// Reconnecting when the model server comes up (issue 29). With Ollama down, the window says so
// in words a first-time user can act on (what Ollama is, where to get it, Settings → Providers
// for another server) — no raw "ollama:" prefix, no literal backticks — and asks again by
// itself with a growing pause, and at once when the window gets the focus back; a message sent
// meanwhile is listed in the sidebar and goes through once the server answers.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { modelShown, pickModel } from './browserHarness.ts';
import { answers, chatSuite, messageBox } from './chatSuite.ts';

const suite = chatSuite();
const status = (page: Page) => page.getByRole('status', { name: 'Model server' });

describe('with the model server down', () => {
  it('explains the first run in plain words, and connects by itself once the server is up', async () => {
    await suite.server().setDown(true);
    const { page, shot } = await suite.bareSession();
    await status(page).waitFor();
    const text = (await status(page).innerText()).trim();
    expect(text).toMatch(/^Glance can't reach Ollama at http:\/\/127\.0\.0\.1:\d+/);
    expect(text).not.toMatch(/\bollama: /);
    expect(text).not.toContain('`');
    expect(await status(page).locator('code').innerText()).toBe('ollama serve');
    expect(await status(page).getByRole('link', { name: 'download Ollama' }).getAttribute('href')).toBe('https://ollama.com/download');
    const providers = status(page).getByRole('link', { name: 'Settings → Providers' });
    expect(await providers.getAttribute('href')).toBe('#/settings/providers');
    expect(await page.getByRole('combobox', { name: 'Model' }).innerText()).toContain('Not connected');
    await shot('first-run-ollama-down');

    // The link lands on the Providers section, its heading focused.
    await providers.click();
    await expect.poll(() => page.evaluate<string | null>('document.activeElement?.id ?? null')).toBe('settings-providers-title');
    await page.keyboard.press('Escape');
    await status(page).waitFor();
    // An attempt or two fail meanwhile (at about 2 and 6 s); the next still comes.
    await page.waitForTimeout(5000);

    await suite.server().setDown(false);
    // No Retry pressed: the next attempt (at most 8 s after the first few) finds it.
    await modelShown(page, 'llava-seer');
    await status(page).waitFor({ state: 'detached' });
  });

  it('asks again at once when the window gets the focus back', async () => {
    await suite.server().setDown(true);
    const { page } = await suite.bareSession();
    await status(page).waitFor();
    // Attempts at about 2, 6 and 14 s: after the second, the next is some seconds away.
    await page.waitForTimeout(7000);
    await suite.server().setDown(false);
    await page.evaluate("window.dispatchEvent(new Event('focus'))");
    await modelShown(page, 'llava-seer');
    // Well before the timed attempt would have come.
    await status(page).waitFor({ state: 'detached', timeout: 4000 });
  });

  it('lists a conversation sent while offline, and sends it once the server is back', async () => {
    // Someone who has used Glance before: their model is remembered (a pick is saved).
    const { page } = await suite.session();
    await pickModel(page, 'llava-seer');
    await suite.server().setDown(true);
    await page.reload();
    await status(page).waitFor();
    await messageBox(page).fill('Are you there?');
    await messageBox(page).press('Enter');
    const failure = answers(page).getByRole('alert');
    await failure.waitFor();
    const list = page.getByRole('navigation', { name: 'Conversation list' });
    await list.getByText('Are you there?').waitFor({ timeout: 10_000 });
    expect(await list.innerText()).not.toContain('No conversations yet');
    await suite.server().setDown(false);
    // Back to Glance after starting Ollama: the window's focus asks again, the failed message goes through.
    await page.evaluate("window.dispatchEvent(new Event('focus'))");
    await answers(page).filter({ hasText: 'You said: "Are you there?"' }).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await answers(page).count()).toBe(1);
  });
});

describe('a first message with no model server ever seen', () => {
  it('fails with the reason and goes through by itself once the server is up', async () => {
    await suite.server().setDown(true);
    const { page } = await suite.bareSession();
    await status(page).waitFor();
    await messageBox(page).fill('Hello from the first run.');
    await messageBox(page).press('Enter');
    await answers(page).getByRole('alert').waitFor();
    await suite.server().setDown(false);
    await answers(page).filter({ hasText: 'You said: "Hello from the first run."' }).waitFor({ timeout: 20_000 });
    await page.getByRole('navigation', { name: 'Conversation list' }).getByText('Hello from the first run.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
