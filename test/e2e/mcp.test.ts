// MCP tools in the UI: the fixture MCP server over stdio behind the harness. An image tool's
// card shows the captured image (which the seeing model then measured), progress shows while
// a tool runs, a failing tool's card says so, and Settings shows each server's state and tools.
import { describe, expect, it } from 'vitest';
import { FAIL_TEXT } from '../fixtures/mcpServer.ts';
import { MCP_FIXTURE } from './browserHarness.ts';
import { fileURLToPath } from 'node:url';
import { answers, ask, chatSuite } from './chatSuite.ts';

const HOSTILE_MCP = fileURLToPath(new URL('../reliability/hostileMcpServer.ts', import.meta.url));
const suite = chatSuite();
const { server } = suite;
// Trusted: its read-only tools run without a card (the cards here are about other things).
const fixtureServer = { command: process.execPath, args: [MCP_FIXTURE], trusted: true };
const session = () => suite.session({ mcpConfig: { mcpServers: { fixture: fixtureServer } } });

describe('MCP servers asking the person', () => {
  it('an elicitation form opens as a dialog named after the server; the answer, with defaults, reaches the server', async () => {
    const { page, shot } = await session();
    server().script({ toolCalls: [{ name: 'fixture__ask_user', arguments: {} }] });
    await ask(page, 'Ask me who I am.');
    const dialog = page.getByRole('dialog', { name: 'MCP server fixture asks' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Who are you?');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Please fill in Name.' }).waitFor();
    await dialog.getByRole('textbox', { name: 'Name (required)' }).fill('Ada');
    expect(await dialog.getByRole('spinbutton', { name: 'Age' }).inputValue()).toBe('30');
    await shot('mcp-elicitation-dialog');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('article', { name: 'Tool call Ask user (fixture)' }).locator('.status').filter({ hasText: 'finished' }).waitFor();
    await expect.poll(() => server().requests.length).toBeGreaterThan(1);
    const toolMessage = server().requests[1]!.messages.find((m) => m.role === 'tool')!;
    const [reply, note] = toolMessage.text.split('\n');
    expect(JSON.parse(reply!)).toEqual({ action: 'accept', content: { name: 'Ada', age: 30 } });
    expect(note).toBe('[MCP server "fixture" asked the person to fill in a form (name, age): answered]');
  });

  it('a secret field (a password, a token) is a password input, and what is typed reaches neither the model nor the page again (issue 30 item 4)', async () => {
    const { page } = await suite.session({ mcpConfig: { mcpServers: { evil: { command: process.execPath, args: [HOSTILE_MCP], trusted: true, alwaysAllow: ['sign_in'] } } } });
    server().script({ toolCalls: [{ name: 'evil__sign_in', arguments: {} }] });
    await ask(page, 'Sign me in.');
    const dialog = page.getByRole('dialog', { name: 'MCP server evil asks' });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: 'User (required)' }).fill('ada');
    const password = dialog.getByLabel('Password (required)');
    expect(await password.getAttribute('type')).toBe('password');
    expect(await dialog.getByLabel('api_token').getAttribute('type')).toBe('password');
    await password.fill('hunter2-Correct-Horse');
    await dialog.getByLabel('api_token').fill('tok-9f8e7d6c5b4a');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => server().requests.length).toBeGreaterThan(1);
    const toolMessage = server().requests[1]!.messages.find((m) => m.role === 'tool')!;
    expect(toolMessage.text).toMatch(/"user":"ada","password":"\[a secret you typed, hidden\]"/);
    expect(toolMessage.text).not.toMatch(/hunter2|tok-9f8e/);
    expect(await page.content()).not.toMatch(/hunter2|tok-9f8e/);
  });

  it("a VS Code ${input:…} is asked in a card that holds up no turn, and its answer reaches the server's environment", async () => {
    const { page } = await suite.session({ mcpConfig: { mcpServers: { fixture: { ...fixtureServer, env: { WHO: '${input:who}' } } } } });
    // Unanswered, the question waits in its own card; a turn meanwhile goes on without the server's tools, and says so.
    server().script({ text: 'Nothing to look up yet.' });
    await ask(page, 'Hello');
    await answers(page).filter({ hasText: 'Nothing to look up yet.' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'waiting for your answer to its question' }).count()).toBeGreaterThan(0);
    const dialog = page.getByRole('dialog', { name: 'MCP server fixture asks' });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: 'who (required)' }).fill('grace');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    // Answered, the server starts and joins.
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('list', { name: 'MCP servers' }).getByRole('listitem', { name: 'fixture' }).locator('.status').filter({ hasText: 'ready' }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Back to chat' }).click();
    server().script({ toolCalls: [{ name: 'fixture__env_vars', arguments: { names: ['WHO'] } }] });
    await ask(page, 'Who is configured?');
    await page.getByRole('article', { name: 'Tool call Env vars (fixture)' }).locator('.status').filter({ hasText: 'finished' }).waitFor();
    await expect.poll(() => server().requests.length).toBeGreaterThan(2);
    const toolMessage = server().requests[2]!.messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(toolMessage.text)).toEqual({ WHO: 'grace' });
  });
});

describe('MCP sampling', () => {
  it("a server's sampling request goes to the user's model only after a yes in the dialog", async () => {
    const { page } = await session();
    server().script({ toolCalls: [{ name: 'fixture__ask_model', arguments: { prompt: 'Name a colour.' } }] }, { text: 'Teal.' });
    await ask(page, 'Let the server ask the model.');
    const dialog = page.getByRole('dialog', { name: 'MCP server fixture asks' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('user: Name a colour.');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('article', { name: 'Tool call Ask model (fixture)' }).locator('.status').filter({ hasText: 'finished' }).waitFor();
    await expect.poll(() => server().requests.length).toBeGreaterThan(2);
    expect(server().requests[1]!.messages.at(-1)).toMatchObject({ role: 'user', text: 'Name a colour.' });
    const toolMessage = server().requests[2]!.messages.find((m) => m.role === 'tool')!;
    expect(toolMessage.text).toMatch(/^model [\w.:-]+ said: Teal\./);
  });
});

describe('MCP tools', () => {
  it('shows the image an MCP tool returned on its card, and the model saw the same pixels', async () => {
    const { page, shot } = await session();
    server().script({ toolCalls: [{ name: 'fixture__chart_image', arguments: {} }] });
    await ask(page, 'Fetch the chart and describe it.');
    const card = page.getByRole('article', { name: 'Tool call Known bar chart (fixture)' });
    await card.waitFor();
    await answers(page).filter({ hasText: 'red, green, blue' }).waitFor();
    const thumb = card.getByRole('list', { name: 'Captured images' }).locator('img');
    await thumb.waitFor();
    expect(await thumb.getAttribute('src')).toMatch(/^data:image\/webp;base64,/);
    expect(await card.getByRole('list', { name: 'Captured images' }).textContent()).toMatch(/240×120 · \d+ B/);
    await card.getByText('retracted').waitFor();
    expect(await card.locator('.status').textContent()).toBe('finished');
    await shot('mcp-image-card');

    // The tool message the model read had no image bytes; the image came as a user turn.
    expect(server().requests[0]!.toolNames).toContain('fixture__chart_image');
    const second = server().requests[1]!;
    const toolMessage = second.messages.find((m) => m.role === 'tool')!;
    expect(toolMessage.imageCount).toBe(0);
    expect(toolMessage.text).not.toMatch(/[A-Za-z0-9+/=]{64,}/);
    expect(second.images).toHaveLength(1);
    expect(second.images[0]!.role).toBe('user');
    expect(second.images[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);

    // Clicking the thumbnail opens it large; Escape closes it.
    await card.getByRole('button', { name: /^Enlarge / }).click();
    const viewer = page.getByRole('dialog');
    await viewer.locator('img').waitFor();
    expect(await viewer.textContent()).toMatch(/sent as 240×120/);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });
  });

  it("a titled tool's card shows its title and its server's display name, also after a reload; so do Settings and the approval card", async () => {
    const { page } = await session();
    server().script({ toolCalls: [{ name: 'fixture__chart_image', arguments: {} }] }, { toolCalls: [{ name: 'fixture__write_note', arguments: { text: 'milk' } }] });
    await ask(page, 'Fetch the chart, then note it.');
    const card = page.getByRole('article', { name: 'Tool call Known bar chart (fixture)' });
    await card.locator('.status').filter({ hasText: 'finished' }).waitFor();
    expect(await card.locator('.tool-name').textContent()).toBe('Known bar chart'); // annotations.title
    // The server calls itself "Glance Test Fixture": a title naming Glance is never shown (issue 30).
    expect(await card.locator('.tool-source').textContent()).toBe('fixture'); // the configured name
    const approval = page.getByRole('group', { name: 'Approve Write a note (fixture)' });
    await approval.waitFor();
    expect(await approval.textContent()).toContain('Write a note (fixture, fixture__write_note) can change things'); // tool.title
    expect(await page.getByRole('article', { name: 'Tool call Write a note (fixture)' }).locator('.tool-name').textContent()).toBe('Write a note');
    await approval.getByRole('button', { name: 'Allow once' }).click();
    await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').waitFor();

    // Stored with the conversation: a reloaded page names them the same.
    await page.reload();
    const again = page;
    const reloaded = again.getByRole('article', { name: 'Tool call Known bar chart (fixture)' });
    await reloaded.waitFor();
    expect(await reloaded.locator('.tool-name').textContent()).toBe('Known bar chart');
    expect(await reloaded.locator('.tool-source').textContent()).toBe('fixture');
    // Settings names the server and each titled tool.
    await again.getByRole('button', { name: 'Settings' }).click();
    const entry = again.getByRole('list', { name: 'MCP servers' }).getByRole('listitem', { name: 'fixture' });
    await entry.locator('.status').filter({ hasText: 'ready' }).waitFor();
    expect(await entry.textContent()).not.toContain('Glance Test Fixture');
    await entry.getByText(/\d+ tools/).click();
    expect(await entry.locator('li').filter({ hasText: 'chart_image' }).first().textContent()).toBe('chart_image Known bar chart');
  });

  it('shows progress while a tool runs, and a failed tool as failed', async () => {
    const { page } = await session();
    server().script({ toolCalls: [{ name: 'fixture__slow_progress', arguments: { steps: 6, delayMs: 400 } }] }, { toolCalls: [{ name: 'fixture__fail_tool', arguments: {} }] });
    await ask(page, 'Run the slow one, then the broken one.');
    const slow = page.getByRole('article', { name: 'Tool call Slow progress (fixture)' });
    const bar = slow.getByRole('progressbar', { name: 'Slow progress (fixture) progress' });
    await bar.waitFor();
    expect(await slow.textContent()).toMatch(/step \d of 6/);
    expect(Number(await bar.getAttribute('max'))).toBe(6);
    await slow.locator('.status').filter({ hasText: 'finished' }).waitFor();
    expect(await bar.count()).toBe(0);

    const failed = page.getByRole('article', { name: 'Tool call Fail tool (fixture)' });
    await failed.locator('.status').filter({ hasText: 'failed' }).waitFor();
    // A failed card opens by itself, showing what went wrong.
    expect(await failed.locator('.tool-result').textContent()).toContain(FAIL_TEXT);
    await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').waitFor();
  });

  it('lists the servers in Settings with their state and tools, and restarts one', async () => {
    const { page, shot } = await session();
    await page.getByRole('button', { name: 'Settings' }).click();
    const entry = page.getByRole('list', { name: 'MCP servers' }).getByRole('listitem', { name: 'fixture' });
    await entry.locator('.status').filter({ hasText: 'ready' }).waitFor();
    await entry.getByText(/\d+ tools/).click();
    await entry.getByText('chart_image', { exact: true }).waitFor();
    await shot('settings-mcp');
    await entry.getByRole('button', { name: 'Restart fixture' }).click();
    await entry.getByRole('button', { name: 'Restart fixture' }).filter({ hasText: 'Restart' }).waitFor();
    await entry.locator('.status').filter({ hasText: 'ready' }).waitFor();
    const section = page.getByRole('region', { name: 'MCP servers' });
    await section.waitFor();
    expect(await section.getByRole('alert').count()).toBe(0);
  });

  it("shows a server's own log (its notifications/message lines) from Settings, and what it logged since when opened again", async () => {
    const { page, shot } = await session();
    server().script({ toolCalls: [{ name: 'fixture__log_line', arguments: { text: 'first line from the fixture' } }] }, { text: 'Logged.' });
    await ask(page, 'Log something.');
    await answers(page).filter({ hasText: 'Logged.' }).waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    const entry = page.getByRole('list', { name: 'MCP servers' }).getByRole('listitem', { name: 'fixture' });
    await entry.getByText('Show log').click();
    const log = entry.getByLabel('Log of fixture', { exact: true });
    await log.filter({ hasText: 'info fixture: first line from the fixture' }).waitFor();
    await shot('settings-mcp-log');
    server().script({ toolCalls: [{ name: 'fixture__log_line', arguments: { text: 'second line' } }] }, { text: 'Again.' });
    await page.getByRole('button', { name: 'Back to chat' }).click();
    await ask(page, 'Log again.');
    await answers(page).filter({ hasText: 'Again.' }).waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await entry.getByText('Show log').click();
    await log.filter({ hasText: 'second line' }).waitFor();
    expect((await log.textContent())!.trim().split('\n')).toHaveLength(2);
    await entry.getByRole('button', { name: 'Refresh the log of fixture' }).click();
    await log.filter({ hasText: 'second line' }).waitFor();
  });
});
