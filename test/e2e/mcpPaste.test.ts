// Pasting a VS Code mcp.json into Settings → MCP servers, in Chromium over the harness: JSONC
// (comments, trailing commas) is read, the good entries are saved and the bad one is named and
// left in the box, the `inputs` are kept — a `password: true` one is asked without echo and its
// answer lands in the secret store, not in settings.json. And a hand edit of settings.json on
// disk is applied while the window is open.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousFindings } from './axe.ts';
import { MCP_FIXTURE } from './browserHarness.ts';
import { chatSuite } from './chatSuite.ts';

const suite = chatSuite();
const SECRET = 'tok-pasted-7f3a9c1e5b';

async function openMcpSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  return page.getByRole('region', { name: 'MCP servers' });
}

/** What a person copies out of VS Code: comments, trailing commas, inputs, and one entry that cannot work. */
const pasted = `// .vscode/mcp.json
{
  "inputs": [
    { "type": "promptString", "id": "fixture-token", "description": "Fixture API token", "password": true },
  ],
  "servers": {
    /* the fixture MCP server over stdio */
    "fixture": {
      "type": "stdio",
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(MCP_FIXTURE)}],
      "env": { "FIXTURE_API_TOKEN": "\${input:fixture-token}" },
      "trusted": true,
    },
    "broken": { "type": "stdio", "args": ["--port", "3000"] },
  },
}
`;

describe('pasting an MCP config in Settings', () => {
  it('a VS Code mcp.json: the good server is saved, the bad one named and kept in the box, the password input asked masked', async () => {
    const { page, dataDir, shot } = await suite.session();
    const section = await openMcpSettings(page);
    const editor = section.getByRole('textbox', { name: /^Servers \(JSON/ });
    await editor.fill(pasted);
    await section.getByRole('button', { name: 'Save servers' }).click();
    const status = section.getByRole('status').filter({ hasText: /^MCP servers saved\./ });
    await status.waitFor();
    expect(await status.textContent()).toContain('Not saved, left in the box to fix: "broken" (missing: give "command" (stdio) or "url" (HTTP or SSE)).');
    expect(await section.getByRole('alert').count()).toBe(0);
    // The broken entry is still in the box, beside the saved one, to be fixed there.
    await expect.poll(async () => JSON.parse(await editor.inputValue()) as Record<string, unknown>).toMatchObject({ fixture: { type: 'stdio' }, broken: { type: 'stdio', args: ['--port', '3000'] } });
    await section.getByRole('note', { name: 'Inputs' }).filter({ hasText: 'fixture-token (a password: typed without echo, kept in the secret store)' }).waitFor();
    // The note of inputs and the feedback are clean for axe.
    expect(await seriousFindings(page)).toEqual([]);
    const saved = JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8')) as { mcpServers: Record<string, unknown>; mcpInputs: unknown[] };
    expect(Object.keys(saved.mcpServers)).toEqual(['fixture']);
    expect(saved.mcpInputs).toEqual([{ type: 'promptString', id: 'fixture-token', description: 'Fixture API token', password: true }]);

    // Saved, it starts at once and asks for the input: typed without echo.
    const entry = section.getByRole('list', { name: 'MCP servers' }).getByRole('listitem', { name: 'fixture' });
    const dialog = page.getByRole('dialog', { name: 'MCP server fixture asks' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Fixture API token');
    const field = dialog.getByLabel('fixture-token (required)');
    expect(await field.getAttribute('type')).toBe('password');
    await field.fill(SECRET);
    await shot('settings-mcp-paste-password');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await entry.locator('.status').filter({ hasText: 'ready' }).waitFor();
    expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).not.toContain(SECRET);

    // Kept in the secret store: a second start asks nothing and the server comes up again.
    await section.getByRole('button', { name: 'Restart fixture' }).click();
    await entry.locator('.status').filter({ hasText: 'ready' }).waitFor();
    expect(await dialog.isVisible()).toBe(false);
    expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).not.toContain(SECRET);
  });

  it('a hand edit of settings.json on disk is applied while the window is open', async () => {
    const { page, dataDir } = await suite.session();
    const section = await openMcpSettings(page);
    const list = section.getByRole('list', { name: 'MCP servers' });
    await list.getByText('No MCP servers configured.').waitFor();
    const file = join(dataDir, 'settings.json');
    const current = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const edited = { ...current, mcpServers: { handmade: { command: process.execPath, args: [MCP_FIXTURE], trusted: true } } };
    await writeFile(file, `// added by hand\n${JSON.stringify(edited, null, 2)}\n`);
    await list.getByRole('listitem', { name: 'handmade' }).locator('.status').filter({ hasText: 'ready' }).waitFor();
    await expect.poll(async () => section.getByRole('textbox', { name: /^Servers \(JSON/ }).inputValue()).toContain('"handmade"');
  });
});
