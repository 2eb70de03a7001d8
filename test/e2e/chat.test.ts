// The chat window in Chromium against the harness and the seeing fixture model server: what a
// user sees (attachments with their final size, streaming, Stop, retry, history) checked
// against what the model server actually received.
import { describe, expect, it } from 'vitest';
import { formatImageSize } from '../../common/images.ts';
import { ConversationStore } from '../../main/chat/conversationStore.ts';
import { KNOWN_CHART, makeBarChart } from '../fixtures/chart.ts';
import { SVG, TEXT } from '../fixtures/images.ts';
import { inPage, modelShown, pickModel } from './browserHarness.ts';
import { conversationFiles, hasBase64Run } from '../support/storedText.ts';
import { answers, chatSuite } from './chatSuite.ts';

const suite = chatSuite();
const { server, session } = suite;

const chartFile = async () => ({ name: 'chart.png', mimeType: 'image/png', buffer: await makeBarChart() });
describe('attachments', () => {
  it('drops the chart, shows the size the model receives, and streams an answer that names the bars', async () => {
    const { page, shot } = await session();
    await page.locator('main').drop({ files: await chartFile() });
    const item = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem', { name: 'chart.png' });
    await item.getByRole('img', { name: 'chart.png', exact: true }).waitFor();
    const shown = (await item.textContent()) ?? '';
    await shot('chat-attached');

    server().script({ chunkDelayMs: 120 });
    await page.getByRole('textbox', { name: 'Message' }).fill('Which bars are there?');
    await page.getByRole('button', { name: 'Send' }).click();
    // It streams: the answer is visible while the turn is still running.
    await page.locator('article[aria-label="Assistant message"][aria-busy="true"]').filter({ hasText: 'I received' }).waitFor();
    await answers(page).filter({ hasText: 'red, green, blue' }).waitFor();
    await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').waitFor();
    await shot('chat-answer');

    const request = server().requests[0]!;
    expect(request.images).toHaveLength(1);
    const image = request.images[0]!;
    expect(image.role).toBe('user');
    expect(image.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
    // The thumbnail said exactly what arrived.
    expect(shown).toContain(formatImageSize(image));
    expect(image).toMatchObject({ width: KNOWN_CHART.width, height: KNOWN_CHART.height });
    expect(await answers(page).textContent()).toContain(KNOWN_CHART.description);
    // Sent: the composer is empty again and the message carries the image.
    expect(await page.getByRole('list', { name: 'Attachments' }).count()).toBe(0);
    await page.getByRole('group', { name: 'Your message' }).getByRole('img', { name: 'chart.png', exact: true }).waitFor();
  });

  it('refuses an SVG and a text file with the reason, and nothing reaches the model', async () => {
    const { page, shot } = await session();
    await page.locator('main').drop({
      files: [
        { name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SVG) },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(TEXT) },
      ],
    });
    const svg = page.getByRole('alert').filter({ hasText: 'logo.svg' });
    const text = page.getByRole('alert').filter({ hasText: 'notes.txt' });
    await svg.waitFor();
    await text.waitFor();
    expect(await svg.textContent()).toMatch(/SVG drawing, not a raster image/);
    expect(await text.textContent()).toMatch(/plain text, not an image/);
    expect(await page.getByRole('list', { name: 'Attachments' }).count()).toBe(0);
    // Send stays off: there is nothing to send.
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await shot('chat-refused');
    expect(server().requests).toHaveLength(0);
    expect(server().log.filter((l) => l.path === '/api/chat' || l.path.endsWith('/chat/completions'))).toHaveLength(0);

    // Dismissing an alert removes it.
    await page.getByRole('button', { name: 'Dismiss: logo.svg' }).click();
    await svg.waitFor({ state: 'detached' });
  });

  it('with a blind model, explains how to get vision and refuses a dropped image with the suggestion', async () => {
    const { page, shot } = await session();
    await pickModel(page, 'blind-llm');
    const hint = page.getByRole('note', { name: 'Vision' });
    await hint.waitFor();
    expect(await hint.textContent()).toMatch(/blind-llm:latest can't see images\. To use images, pick a model with the vision badge \(such as llava-seer:latest\) or set a vision helper in Settings/);

    // The overlay says what a drop would do before the drop.
    await inPage(
      page,
      `() => {
        const data = new DataTransfer();
        data.items.add(new File(['x'], 'x.png', { type: 'image/png' }));
        document.querySelector('main').dispatchEvent(new DragEvent('dragenter', { bubbles: true, dataTransfer: data }));
      }`,
    );
    const overlay = page.locator('.drop-overlay');
    expect(await overlay.textContent()).toMatch(/blind-llm:latest can't see images.*Dropped images will be refused/);
    await shot('chat-blind-overlay');
    await page.locator('main').drop({ files: await chartFile() });
    await overlay.waitFor({ state: 'detached' });

    const alert = page.getByRole('alert').filter({ hasText: 'chart.png' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/blind-llm.* cannot see images.*Pick a vision model.*or set a vision helper/);
    expect(await page.getByRole('list', { name: 'Attachments' }).count()).toBe(0);
    await shot('chat-blind-refused');
    expect(server().requests).toHaveLength(0);

    // The badge in the list says which model sees, and where that verdict came from.
    await page.getByRole('combobox', { name: 'Model' }).click();
    const seer = page.getByRole('option', { name: /^llava-seer/ });
    expect(await seer.textContent()).toMatch(/vision.*per Ollama capabilities/);
    expect(await page.getByRole('option', { name: /^blind-llm/ }).textContent()).toMatch(/text only/);
    expect(await page.getByRole('option', { name: /^mystery/ }).textContent()).toMatch(/unknown/);
    await shot('model-picker');
    await page.keyboard.press('Escape');
  });
});

describe('other ways in', () => {
  it('attaches a pasted image and one picked with “Attach image”', async () => {
    const { page } = await session();
    const chart = (await makeBarChart()).toString('base64');
    // A screenshot on the clipboard, pasted into the message box.
    await inPage(
      page,
      `(b64) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
        const box = document.querySelector('textarea[aria-label="Message"]');
        box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }`,
      chart,
    );
    const list = page.getByRole('list', { name: 'Attachments' });
    await list.getByRole('listitem', { name: 'image.png' }).getByText(/240×120 · \d+ B/).waitFor();

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach image' }).click();
    await (await chooser).setFiles({ name: 'picked.png', mimeType: 'image/png', buffer: await makeBarChart({ width: 300, height: 150 }) });
    await list.getByRole('listitem', { name: 'picked.png' }).getByText(/300×150 · \d+ B/).waitFor();

    // Removable before sending.
    await page.getByRole('button', { name: 'Remove image.png' }).click();
    await list.getByRole('listitem', { name: 'image.png' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Send' }).click();
    await answers(page).filter({ hasText: 'I received 1 image' }).waitFor();
    expect(server().requests[0]!.images.map((i) => [i.width, i.height])).toEqual([[300, 150]]);
  });

  it('keeps a long conversation light: only the turns near the viewport are in the page', async () => {
    const { page, dataDir, harness } = await session();
    const store = new ConversationStore(dataDir);
    const conversation = store.create('Long one');
    for (let i = 0; i < 300; i++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
      conversation.messages.push({ role: 'user', id: `u${i}`, text: `Question ${i}`, attachmentIds: [], createdAt: at }, { role: 'assistant', id: `a${i}`, text: `Answer **${i}**.`, createdAt: at });
    }
    await store.save(conversation);
    await page.goto(`${harness.pageOrigin}/#/c/${conversation.id}`);
    // The turns in each conversations:get answer a cold load receives: its end first, the whole once painted.
    const served: { turns: number; earlier?: number }[] = [];
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        const view = (JSON.parse(String(payload)) as { result?: { value?: { id?: string; turns?: unknown[]; earlier?: number } } }).result?.value;
        if (view?.id === conversation.id && view.turns) served.push({ turns: view.turns.length, ...(view.earlier === undefined ? {} : { earlier: view.earlier }) });
      }),
    );
    await page.reload();
    await page.getByRole('group', { name: 'Your message' }).filter({ hasText: 'Question 299' }).waitFor();
    await page.locator('section[aria-label="Messages"][aria-busy="false"]').waitFor();
    expect(served).toEqual([{ turns: 24, earlier: 276 }, { turns: 300 }]);
    const rows = await page.locator('.row').count();
    expect(rows).toBeGreaterThan(2);
    expect(rows).toBeLessThan(40);
    // Scrolled to the top, the first turn is there and the last is gone.
    await page.getByRole('region', { name: 'Messages' }).evaluate((el) => el.scrollTo({ top: 0 }));
    await page.getByRole('group', { name: 'Your message' }).filter({ hasText: /^Question 0$/ }).waitFor();
    expect(await page.getByText('Question 299').count()).toBe(0);
  });
});

describe('streaming', () => {
  it('Stop ends the answer mid-stream and keeps what arrived', async () => {
    const { page, dataDir } = await session();
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    server().script({ text: words, chunkDelayMs: 400 });
    await page.getByRole('textbox', { name: 'Message' }).fill('Count slowly.');
    await page.keyboard.press('Enter');
    await answers(page).filter({ hasText: 'word0' }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await answers(page).getByText('Stopped.').waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    const text = (await answers(page).textContent()) ?? '';
    expect(text).toContain('word0');
    expect(text).not.toContain('word39');
    // The stored conversation says the answer was stopped. The engine emits the error (the
    // "Stopped." above) before it saves the turn, so the file may lag the page by a moment.
    await expect.poll(async () => (await conversationFiles(dataDir))[0], { timeout: 10_000 }).toContain('"interrupted": "cancelled"');
  });

  it('says clearly when the model server is down, and Retry works once it is back', async () => {
    const { page, shot } = await session();
    await server().setDown(true);
    try {
      await page.getByRole('textbox', { name: 'Message' }).fill('Are you there?');
      await page.getByRole('button', { name: 'Send' }).click();
      const failure = answers(page).getByRole('alert');
      await failure.waitFor();
      // Said once (issue 44 item 5): the notice under the toolbar names the server and what to do, the turn points at it.
      await page.getByRole('status', { name: 'Model server' }).filter({ hasText: /Glance can't reach Ollama at http:\/\/127\.0\.0\.1:\d+/ }).waitFor();
      await expect.poll(() => failure.textContent()).toMatch(/^Not sent: the model server does not answer \(see above\)/);
      await shot('chat-server-down');
      // Retry is the one way on from an answer that never came (no Regenerate beside it).
      expect(await answers(page).getByRole('button', { name: 'Regenerate' }).count()).toBe(0);
    } finally {
      await server().setDown(false);
    }
    await answers(page).getByRole('button', { name: 'Retry' }).click();
    await answers(page).filter({ hasText: 'You said: "Are you there?"' }).waitFor();
    // The retry replaced the failed turn.
    expect(await answers(page).count()).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('renders Markdown without raw HTML, with copyable code and collapsible thinking', async () => {
    const { page, shot } = await session();
    server().script({
      thinking: 'The user wants a snippet. Keep it short.',
      text: [
        '## Result',
        '',
        'Use **bold** and `inline code`. A [link](https://example.com) and a [bad one](javascript:alert(1)).',
        '',
        '```ts',
        'const answer: number = 42; // the answer',
        '```',
        '',
        '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>',
        '',
        '- one',
        '- two',
      ].join('\n'),
    });
    await page.getByRole('textbox', { name: 'Message' }).fill('Show me code.');
    await page.keyboard.press('Enter');
    const article = answers(page);
    await article.getByRole('button', { name: 'Copy code' }).waitFor();
    await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').waitFor();
    expect(await article.getByRole('heading', { name: 'Result' }).count()).toBe(1);
    expect(await article.locator('strong').textContent()).toBe('bold');
    expect(await article.getByRole('link', { name: 'link' }).getAttribute('href')).toBe('https://example.com');
    expect(await article.getByRole('link', { name: 'bad one' }).count()).toBe(0);
    expect(await article.locator('pre code').textContent()).toBe('const answer: number = 42; // the answer');
    expect(await article.locator('.tok-keyword').first().textContent()).toBe('const');
    // Raw HTML stays text: no element was made from it and nothing ran.
    expect(await article.locator('img, script').count()).toBe(0);
    expect(await article.textContent()).toContain('<img src=x onerror="window.__pwned=1">');
    expect(await inPage(page, '() => window.__pwned ?? "nothing ran"')).toBe('nothing ran');
    expect(await article.getByRole('listitem').count()).toBe(2);

    // Thinking is there, folded once the answer is done; a click opens it.
    const thinking = article.locator('details.thinking');
    expect(await thinking.getAttribute('open')).toBeNull();
    await thinking.getByText('Thinking').click();
    expect(await thinking.getAttribute('open')).not.toBeNull();
    expect(await thinking.textContent()).toContain('Keep it short.');

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await article.getByRole('button', { name: 'Copy code' }).click();
    await article.getByRole('button', { name: 'Copy code' }).filter({ hasText: 'Copied' }).waitFor();
    expect(await inPage(page, '() => navigator.clipboard.readText()')).toBe('const answer: number = 42; // the answer');
    await shot('chat-markdown');
  });
});

describe('conversations', () => {
  it('restores a conversation on reload, thumbnails included, and its files hold no base64', async () => {
    const { page, dataDir } = await session();
    await page.locator('main').drop({ files: await chartFile() });
    await page.getByRole('list', { name: 'Attachments' }).getByRole('img', { name: 'chart.png', exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('Remember this chart.');
    await page.keyboard.press('Enter');
    await answers(page).filter({ hasText: 'red, green, blue' }).waitFor();
    await page.waitForURL(/#\/c\/[\w-]+$/);
    const url = page.url();

    await page.reload();
    expect(page.url()).toBe(url);
    const message = page.getByRole('group', { name: 'Your message' });
    await message.getByRole('img', { name: 'chart.png', exact: true }).waitFor();
    expect(await message.getByRole('img', { name: 'chart.png', exact: true }).getAttribute('src')).toMatch(/^data:image\/webp;base64,/);
    expect(await message.textContent()).toContain('Remember this chart.');
    expect(await message.textContent()).toMatch(/240×120 · \d+ B/);
    expect(await answers(page).textContent()).toContain('red, green, blue');

    const files = await conversationFiles(dataDir);
    expect(files).toHaveLength(1);
    for (const file of files) expect(hasBase64Run(file)).toBe(false);
  });

  it('lists conversations: new chat, search by title, rename and delete', async () => {
    const { page, shot } = await session();
    const ask = async (text: string) => {
      await page.getByRole('button', { name: 'New chat' }).click();
      await page.getByRole('textbox', { name: 'Message' }).fill(text);
      await page.keyboard.press('Enter');
      await answers(page).filter({ hasText: `You said: "${text}"` }).waitFor();
    };
    await ask('Quarterly revenue chart');
    await ask('Holiday photos');
    const list = page.getByRole('navigation', { name: 'Conversation list' });
    await list.getByRole('link', { name: /Quarterly revenue chart/ }).waitFor();
    await list.getByRole('link', { name: /Holiday photos/ }).waitFor();

    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('revenue');
    expect(await list.getByRole('link').count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('');

    await list.getByRole('button', { name: 'Rename Holiday photos' }).click();
    const title = page.getByRole('textbox', { name: 'New title for Holiday photos' });
    await title.fill('Trip to the coast');
    await title.press('Enter');
    await list.getByRole('link', { name: /Trip to the coast/ }).waitFor();

    // Opening a conversation from the list shows it.
    await list.getByRole('link', { name: /Quarterly revenue chart/ }).click();
    await page.getByRole('group', { name: 'Your message' }).filter({ hasText: 'Quarterly revenue chart' }).waitFor();
    await shot('chat-conversations');

    await list.getByRole('button', { name: 'Delete Quarterly revenue chart' }).click();
    await list.getByRole('button', { name: 'Delete “Quarterly revenue chart”' }).click();
    await list.getByRole('link', { name: /Quarterly revenue chart/ }).waitFor({ state: 'detached' });
    // The deleted conversation was on screen: the chat starts afresh.
    await page.getByRole('heading', { name: 'What should Glance look at?' }).waitFor();
    expect(await list.getByRole('link').count()).toBe(1);
  });

  it('works from the keyboard: the model picker, Enter to send', async () => {
    const { page } = await session();
    const picker = page.getByRole('combobox', { name: 'Model' });
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    expect(await picker.getAttribute('aria-expanded')).toBe('true');
    // llava-seer is selected; the next one down is blind-llm.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await modelShown(page, 'blind-llm');
    expect(await picker.getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('textbox', { name: 'Message' }).focus();
    await page.keyboard.type('Hello from the keyboard');
    await page.keyboard.press('Enter');
    await answers(page).filter({ hasText: 'Hello from the keyboard' }).waitFor();
    expect(server().requests[0]!.model).toMatch(/^blind-llm/);
  });

  it('follows the dark theme of the OS', async () => {
    const { page, shot } = await session({ colorScheme: 'dark' });
    const background = await inPage(page, '() => getComputedStyle(document.documentElement).backgroundColor');
    expect(background).toBe('rgb(22, 24, 29)');
    await page.locator('main').drop({ files: await chartFile() });
    await page.getByRole('list', { name: 'Attachments' }).getByRole('img', { name: 'chart.png', exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('Which bars?');
    await page.keyboard.press('Enter');
    await answers(page).filter({ hasText: 'red, green, blue' }).waitFor();
    await shot('chat-dark');
  });
});
