// Answers in GitHub-flavoured Markdown (issue 29): the hand-written parser, kept because it is
// fast on the cold render of a long conversation (bench:ui) and renders elements, never HTML,
// shown here to handle a GFM sample as a GFM renderer does — tables with alignment, task
// lists, autolinks (bare http(s), www., <url>, <e-mail>), strikethrough, fenced code with a
// language, and a Copy button on each code block that copies that block.
import { describe, expect, it } from 'vitest';
import { inPage } from './browserHarness.ts';
import { answers, ask, chatSuite, finished } from './chatSuite.ts';

const suite = chatSuite();

const SAMPLE = [
  'GFM sample',
  '',
  '| Left | Center | Right |',
  '|:-----|:------:|------:|',
  '| a | **b** | `c` |',
  '| long cell | x | 42 |',
  '',
  '- [x] done',
  '- [ ] to do',
  '',
  'Visit https://example.com/path?q=1, www.example.org and <https://angle.example> or mail <me@example.com>.',
  '',
  '~~gone~~ stays as struck text.',
  '',
  '```python',
  'def hello():',
  '    return "hi"',
  '```',
  '',
  '```',
  'plain block',
  '```',
].join('\n');

describe('Markdown in answers', () => {
  it('renders a GFM sample: tables, task lists, autolinks, strikethrough, fenced code with a language and a Copy button per block', async () => {
    const { page, shot } = await suite.session();
    suite.server().script({ text: SAMPLE });
    await ask(page, 'GFM please.');
    await finished(page, 1);
    const article = answers(page).first();

    const table = article.getByRole('table');
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['Left', 'Center', 'Right']);
    expect(await table.getByRole('row').count()).toBe(3);
    expect(await table.locator('td').nth(2).evaluate((el) => (el as unknown as { style: { textAlign: string } }).style.textAlign)).toBe('right');
    expect(await table.locator('td strong').innerText()).toBe('b');
    expect(await table.locator('td code').innerText()).toBe('c');

    const tasks = article.getByRole('checkbox');
    expect(await tasks.count()).toBe(2);
    expect(await tasks.nth(0).isChecked()).toBe(true);
    expect(await tasks.nth(1).isChecked()).toBe(false);
    expect(await tasks.nth(0).isDisabled()).toBe(true);

    const links = await article.getByRole('link').evaluateAll((els) => els.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(links).toEqual([
      ['https://example.com/path?q=1', 'https://example.com/path?q=1'],
      ['www.example.org', 'https://www.example.org'],
      ['https://angle.example', 'https://angle.example'],
      ['me@example.com', 'mailto:me@example.com'],
    ]);
    expect(await article.locator('del').innerText()).toBe('gone');

    expect(await article.locator('.code-lang').allInnerTexts()).toEqual(['python', 'text']);
    expect(await article.locator('pre code').first().locator('.tok-keyword').first().innerText()).toBe('def');
    const copies = article.getByRole('button', { name: 'Copy code' });
    expect(await copies.count()).toBe(2);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await copies.nth(1).click();
    await expect.poll(() => inPage<string>(page, '() => navigator.clipboard.readText()')).toBe('plain block');
    await copies.nth(0).click();
    await expect.poll(() => inPage<string>(page, '() => navigator.clipboard.readText()')).toBe('def hello():\n    return "hi"');
    await shot('chat-markdown-gfm');
  });
});
