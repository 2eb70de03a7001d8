// Settings as a window (issue 29): Escape goes back to the chat, a section link scrolls to its
// section and gives its heading the focus, and at 400 px nothing is wider than the window —
// the Vision and Image sizes tables (with their Declare column) and the Ollama host field.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { inPage } from './browserHarness.ts';
import { chatSuite } from './chatSuite.ts';

const suite = chatSuite();

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
}

describe('Settings', () => {
  it('Escape goes back to the chat, with the focus in the message box', async () => {
    const { page } = await suite.session();
    await openSettings(page);
    await page.getByRole('heading', { name: 'Providers' }).first().waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null")).toBe('Message');
  });

  it('a section link scrolls to its section and focuses its heading', async () => {
    const { page } = await suite.session({ viewport: { width: 900, height: 600 } });
    await openSettings(page);
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Tool approval' }).click();
    await expect.poll(() => page.evaluate<string | null>('document.activeElement?.id ?? null')).toBe('settings-tools-title');
    // In view: its top inside the scrolled pane.
    await expect
      .poll(() => inPage<number>(page, `() => document.getElementById('settings-tools').getBoundingClientRect().top`))
      .toBeLessThan(300);
  });

  it('fits a 400 px window: tables and the Ollama host field are not cut', async () => {
    const { page, shot } = await suite.session({ viewport: { width: 400, height: 800 } });
    await openSettings(page);
    await page.getByRole('table', { name: 'Image size per model' }).waitFor();
    const overflow = await inPage<{ what: string; right: number }[]>(
      page,
      `() => {
        const out = [];
        const limit = document.documentElement.clientWidth;
        for (const el of document.querySelectorAll('.settings table, .settings th, .settings td, .settings input, .settings select, .settings button')) {
          const r = el.getBoundingClientRect();
          if (r.width > 0 && r.right > limit + 0.5) out.push({ what: el.tagName + ' ' + (el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30)), right: Math.round(r.right) });
        }
        for (const wrap of document.querySelectorAll('.settings .table-wrap')) if (wrap.scrollWidth > wrap.clientWidth + 1) out.push({ what: 'scrolled table ' + wrap.querySelector('table')?.getAttribute('aria-label'), right: wrap.scrollWidth });
        return out;
      }`,
    );
    expect(overflow).toEqual([]);
    // The host field shows its whole value.
    const host = page.getByRole('textbox', { name: /Ollama host/i }).first();
    expect(await host.evaluate((el) => (el as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth <= (el as unknown as { clientWidth: number }).clientWidth + 1)).toBe(true);
    await page.getByRole('table').first().scrollIntoViewIfNeeded();
    await shot('settings-400px');
  });
});
