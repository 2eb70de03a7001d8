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

describe('Settings checks what is typed (issue 29)', () => {
  it('marks a bad field (aria-invalid, outline) as it is typed, and points a JSON mistake at its line', async () => {
    const { page, shot } = await suite.session();
    await openSettings(page);
    // Limits: explained and marked, before Save.
    const limit = page.getByRole('textbox', { name: 'Images per request' });
    await limit.fill('-1');
    expect(await limit.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await limit.getAttribute('aria-describedby'))!;
    await limit.blur(); // not the focus ring: the mark stays after the field is left
    expect(await inPage<string>(page, `(id) => getComputedStyle(document.querySelector('[aria-describedby="' + id + '"]')).outlineStyle`, describedBy)).toBe('solid');
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe('Images per request must be more than 1.');
    await limit.fill('4');
    expect(await limit.getAttribute('aria-invalid')).toBeNull();

    // Image sizes: a negative longest edge says so at once.
    const edge = page.getByRole('textbox', { name: 'Longest edge for llava-seer:latest' });
    await edge.fill('-5');
    expect(await edge.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Longest edge for llava-seer:latest must be between').waitFor();
    await edge.fill('');
    expect(await edge.getAttribute('aria-invalid')).toBeNull();

    // MCP servers: the mistake's line and column, the caret put on it.
    const box = page.getByRole('textbox', { name: /^Servers \(JSON/ });
    const bad = '{\n  "fs": {\n    "command": "npx",\n    "args": ["a",, "b"]\n  }\n}';
    await box.fill(bad);
    await page.getByRole('button', { name: 'Save servers' }).click();
    const alert = page.getByRole('region', { name: 'MCP servers' }).getByRole('alert').or(page.getByRole('alert').filter({ hasText: 'not JSON' }));
    await alert.first().waitFor();
    expect(await alert.first().innerText()).toBe('The servers are not JSON: Line 4, column 18: expected a value, found ",". Line 4 reads: "args": ["a",, "b"]');
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(await box.evaluate((el) => (el as unknown as { selectionStart: number }).selectionStart)).toBe(bad.indexOf(',,') + 1);
    await shot('settings-validation');
  });

  it('starts a new tool-approval rule at "Ask every time"', async () => {
    const { page } = await suite.session();
    await openSettings(page);
    const decision = page.getByLabel('Decision', { exact: true });
    await decision.waitFor();
    expect(await decision.inputValue()).toBe('ask');
  });
});
