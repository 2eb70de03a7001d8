// MCP servers apply live (issue 14 item 3): a server added in Settings starts at once and the
// list shows it running with its tools; removed, it is gone — no restart in between. And a
// configured server is started at launch, so its state shows before anything used it.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MCP_FIXTURE } from './browserHarness.ts';
import { chatSuite } from './chatSuite.ts';

const suite = chatSuite();

async function openMcpSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  return page.getByRole('region', { name: 'MCP servers' });
}

describe('MCP servers in Settings, live', () => {
  it('a server added in Settings runs with its tools at once; removed, it is gone', async () => {
    const { page, shot } = await suite.session();
    const section = await openMcpSettings(page);
    const list = section.getByRole('list', { name: 'MCP servers' });
    await list.getByText('No MCP servers configured.').waitFor();

    const editor = section.getByRole('textbox', { name: /^Servers \(JSON/ });
    await editor.fill(JSON.stringify({ live: { command: process.execPath, args: [MCP_FIXTURE], trusted: true } }));
    await section.getByRole('button', { name: 'Save servers' }).click();
    await section.getByText(/MCP servers saved\. Applied now/).waitFor();

    const entry = list.getByRole('listitem', { name: 'live' });
    await entry.locator('.status').filter({ hasText: 'ready' }).waitFor();
    expect(await section.textContent()).not.toContain('when Glance starts again');
    await entry.getByText(/^\d+ tools$/).click();
    await entry.getByText('chart_image', { exact: true }).waitFor();
    await shot('settings-mcp-live');

    await editor.fill('{}');
    await section.getByRole('button', { name: 'Save servers' }).click();
    await entry.waitFor({ state: 'detached' });
    await list.getByText('No MCP servers configured.').waitFor();
    expect(await section.getByRole('alert').count()).toBe(0);
  });

  it('a configured server is started at launch: Settings shows it ready before any use', async () => {
    const { page } = await suite.session({ mcpConfig: { mcpServers: { early: { command: process.execPath, args: [MCP_FIXTURE], trusted: true } } } });
    const section = await openMcpSettings(page);
    const entry = section.getByRole('list', { name: 'MCP servers' }).getByRole('listitem', { name: 'early' });
    await entry.locator('.status').filter({ hasText: 'ready' }).waitFor();
  });

  it('a server that cannot start says why in the list', async () => {
    const { page } = await suite.session({ mcpConfig: { mcpServers: { broken: { command: process.execPath, args: ['-e', 'process.stderr.write("no luck today\\n"); process.exit(3)'] } } } });
    const section = await openMcpSettings(page);
    const entry = section.getByRole('list', { name: 'MCP servers' }).getByRole('listitem', { name: 'broken' });
    await entry.locator('.status').filter({ hasText: 'failed' }).waitFor();
    expect(await entry.textContent()).toContain('no luck today');
  });
});
