// Per-conversation tool switches (issue 13): a server switched off in the composer's "Tools"
// menu is not offered to the model (the fixture model server records the request's tools),
// its schemas leave the Context meter's "Tool descriptions", and the choice is kept with the
// conversation across a reload. One tool switched off in a stored conversation likewise.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MCP_FIXTURE } from './browserHarness.ts';
import { ask, chatSuite, finished, openTools } from './chatSuite.ts';

const suite = chatSuite();
const fixture = { mcpConfig: { mcpServers: { fixture: { command: process.execPath, args: [MCP_FIXTURE], trusted: true } } } };

/** The meter's "Tool descriptions" line: total tokens and each source's. */
async function toolShare(page: Page): Promise<{ total: number; sources: string }> {
  const text = (await page.locator('.context-breakdown').textContent()) ?? '';
  const line = /Tool descriptions: ≈([\d,]+)(?: \(([^)]*)\))?/.exec(text);
  return { total: Number((line?.[1] ?? '0').replaceAll(',', '')), sources: line?.[2] ?? '' };
}

describe('the Context meter and MCP servers', () => {
  it("counts a server's tool descriptions once it has started, without anything typed", async () => {
    // Slow enough that the window's first estimate comes before it, even on a loaded machine
    // (at 2.5 s the page and the first model resolve sometimes took longer under load 18).
    const slow = { mcpConfig: { mcpServers: { fixture: { command: process.execPath, args: [MCP_FIXTURE], trusted: true, env: { FIXTURE_START_DELAY_MS: '8000' } } } } };
    const { page } = await suite.session(slow);
    await expect.poll(async () => (await toolShare(page)).sources).toMatch(/^built-in ≈[\d,]+ for \d+ tools$/);
    await expect.poll(async () => (await toolShare(page)).sources, { timeout: 20_000 }).toMatch(/fixture ≈[\d,]+ for \d+ tools/);
  });
});

describe('tools switched off per conversation', () => {
  it('a server switched off is not in the request, leaves the meter, and stays off after a reload', async () => {
    const { page, shot } = await suite.session(fixture);
    const menu = await openTools(page);
    const serverBox = menu.getByRole('checkbox', { name: 'Use server fixture' });
    await serverBox.waitFor();
    await menu.getByRole('checkbox', { name: 'Use tool Known bar chart (fixture)' }).waitFor();
    await expect.poll(async () => (await toolShare(page)).sources).toMatch(/fixture ≈[\d,]+ for \d+ tools/);
    const before = await toolShare(page);

    await serverBox.uncheck();
    expect(await menu.getByRole('checkbox', { name: 'Use tool Known bar chart (fixture)' }).isDisabled()).toBe(true);
    await expect.poll(async () => (await toolShare(page)).sources).not.toContain('fixture');
    const after = await toolShare(page);
    expect(after.total).toBeLessThan(before.total);
    expect(after.total).toBeGreaterThan(0); // the built-ins are still offered
    expect(await page.getByRole('button', { name: 'Tools (1 off)' }).isVisible()).toBe(true);
    await shot('tools-menu-server-off');

    await ask(page, 'Which tools do you have?');
    await finished(page, 1);
    const offered = suite.server().requests[0]!.toolNames;
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.filter((n) => n.startsWith('fixture__'))).toEqual([]);

    await page.reload();
    await finished(page, 1);
    const again = await openTools(page);
    await again.getByRole('checkbox', { name: 'Use server fixture' }).waitFor();
    expect(await again.getByRole('checkbox', { name: 'Use server fixture' }).isChecked()).toBe(false);
    await expect.poll(async () => (await toolShare(page)).total).toBe(after.total);
  });

  it('one tool switched off in a stored conversation is left out of the next request, the rest of its server stays', async () => {
    const { page } = await suite.session(fixture);
    await ask(page, 'Hello.');
    await finished(page, 1);
    expect(suite.server().requests[0]!.toolNames).toContain('fixture__chart_image');

    const menu = await openTools(page);
    const chart = menu.getByRole('checkbox', { name: 'Use tool Known bar chart (fixture)' });
    await chart.waitFor();
    await chart.uncheck();
    await page.getByRole('button', { name: 'Tools (1 off)' }).waitFor();

    await ask(page, 'Again.');
    await finished(page, 2);
    const offered = suite.server().requests.at(-1)!.toolNames;
    expect(offered).not.toContain('fixture__chart_image');
    expect(offered).toContain('fixture__echo');

    await page.reload();
    await finished(page, 2);
    const again = await openTools(page);
    await again.getByRole('checkbox', { name: 'Use tool Known bar chart (fixture)' }).waitFor();
    expect(await again.getByRole('checkbox', { name: 'Use tool Known bar chart (fixture)' }).isChecked()).toBe(false);
    expect(await again.getByRole('checkbox', { name: 'Use server fixture' }).isChecked()).toBe(true);
  });
});

describe("Glance's own tools in the Tools menu (issue 29)", () => {
  it('are listed by title with no MCP server, and one switched off is not offered, also after a reload', async () => {
    const { page, shot } = await suite.session();
    const menu = await openTools(page);
    const group = menu.getByRole('group', { name: 'Glance (built-in)' });
    const zoom = group.getByRole('checkbox', { name: 'Use tool Zoom into an image (Glance)' });
    await zoom.waitFor();
    const boxes = await group.getByRole('checkbox').evaluateAll((els) => els.map((el) => [el.getAttribute('aria-label'), (el as unknown as { checked: boolean }).checked]));
    // (no capturer in this harness: screenshot_desktop is not among them here, as it is not offered)
    expect(boxes).toEqual(expect.arrayContaining([['Use tool Show an image again (Glance)', true], ['Use tool Describe an image (Glance)', true], ['Use tool Zoom into an image (Glance)', true], ['Use tool Read text in an image (Glance)', true]]));
    // Titles in words, shown and in each box's name; the model's own name is the tooltip.
    expect(await group.innerText()).toContain('Read text in an image');
    expect(await group.innerText()).toContain('Zoom into an image');
    expect((await group.getByTitle('zoom_image').innerText()).trim()).toBe('Zoom into an image');
    await expect.poll(async () => (await toolShare(page)).sources).toMatch(/^built-in ≈[\d,]+ for \d+ tools$/);
    const before = await toolShare(page);

    await zoom.uncheck();
    await page.getByRole('button', { name: 'Tools (1 off)' }).waitFor();
    await expect.poll(async () => (await toolShare(page)).total).toBeLessThan(before.total);
    await shot('tools-menu-built-in');
    await page.keyboard.press('Escape');
    await ask(page, 'Which tools do you have?');
    await finished(page, 1);
    const offered = suite.server().requests[0]!.toolNames;
    expect(offered).toContain('read_text');
    expect(offered).not.toContain('zoom_image');

    await page.reload();
    await finished(page, 1);
    const again = await openTools(page);
    const zoomAgain = again.getByRole('checkbox', { name: 'Use tool Zoom into an image (Glance)' });
    await zoomAgain.waitFor();
    expect(await zoomAgain.isChecked()).toBe(false);
    await zoomAgain.check();
    await page.getByRole('button', { name: 'Tools', exact: true }).waitFor();
    await ask(page, 'And now?');
    await finished(page, 2);
    expect(suite.server().requests.at(-1)!.toolNames).toContain('zoom_image');
  });
});
