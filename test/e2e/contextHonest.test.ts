// The Context meter counts what a request really carries: the system prompt with the MCP servers'
// instructions, the tool descriptions offered (shortened for a small context, as the request
// shortens them), the conversation after the history budget, the message and its images. An empty
// chat has no "conversation so far"; a send that will not fit is warned about in words, with what
// to do; switching tools off for the chat takes the warning away.
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { createModelServer, DEFAULT_MODELS } from '../fixtures/modelServer.ts';
import { everythingServer } from '../fixtures/referenceServers.ts';
import { MCP_FIXTURE, pickModel } from './browserHarness.ts';
import { ask, chatSuite, finished, openTools } from './chatSuite.ts';

const suite = chatSuite();
const servers = { mcpConfig: { mcpServers: { fixture: { command: process.execPath, args: [MCP_FIXTURE], trusted: true }, everything: everythingServer().entry } } };
const SMALL = { name: 'tiny-ctx', capabilities: ['completion', 'tools'], contextLength: 2048 };
const ROOMY = { name: 'roomy', capabilities: ['completion', 'tools'], contextLength: 131_072 };

/** The breakdown's lines as numbers ("The system prompt: ≈544" → 544), and the total it states. */
async function parts(page: Page): Promise<{ total: number; part: Record<string, number>; text: string }> {
  const meter = page.locator('.context-meter');
  const text = (await meter.locator('.context-breakdown').textContent({ timeout: 5000 })) ?? '';
  const num = (s: string | undefined) => Number((s ?? 'NaN').replaceAll(',', ''));
  const part: Record<string, number> = {};
  for (const m of text.matchAll(/(The system prompt|Tool descriptions|The conversation so far|This message|Images): ≈([\d,]+)/g)) part[m[1]!] = num(m[2]);
  return { total: num(/≈([\d,]+) (?:of|tokens)/.exec(text)?.[1]), part, text };
}

describe('an honest Context meter', () => {
  it('an empty chat: no conversation so far, the servers’ instructions in the system prompt, the parts adding up', async () => {
    const { page } = await suite.session(servers);
    await expect.poll(async () => (await parts(page)).text, { timeout: 30_000 }).toMatch(/everything ≈[\d,]+ for \d+ tools.*fixture|fixture ≈[\d,]+ for \d+ tools.*everything/);
    const { total, part } = await parts(page);
    expect(part['The conversation so far']).toBe(0);
    expect(part['This message']).toBe(0);
    expect(part.Images).toBe(0);
    // server-everything gives the client instructions: they ride on the system prompt of every request.
    expect(part['The system prompt']).toBeGreaterThan(200);
    const sum = Object.values(part).reduce((a, b) => a + b, 0);
    expect(sum).toBe(total);
  });

  it('warns in words before a send that will not fit, shortens tool descriptions for a small context, and the warning goes with the tools', async () => {
    const models = await createModelServer({ models: [...DEFAULT_MODELS, SMALL, ROOMY] });
    onTestFinished(() => models.close());
    const { page, shot } = await suite.session({ ...servers, ollamaHost: models.url });
    const warning = page.getByRole('status').filter({ hasText: 'will not fit' });

    // A roomy model first: the request carries the servers' tools as they gave them.
    await pickModel(page, 'roomy');
    await expect.poll(async () => (await parts(page)).text, { timeout: 30_000 }).toMatch(/everything ≈[\d,]+ for \d+ tools/);
    expect(await warning.count()).toBe(0);
    await ask(page, 'Hello.');
    await finished(page, 1);
    const roomyTools = JSON.stringify((models.requests.at(-1)!.body as { tools: unknown[] }).tools);

    // A 2,048-token model in a new chat: the two servers' tools alone fill it.
    await page.getByRole('button', { name: 'New chat' }).click();
    await pickModel(page, 'tiny-ctx');
    await warning.waitFor();
    const words = (await warning.textContent()) ?? '';
    expect(words).toMatch(/^Tool descriptions take [\d,]+ of 2,048 tokens, so this message will not fit with room for an answer: switch some tools off for this chat \(Tools\), or pick a model with a larger context\.$/);
    await page.locator('.context-meter summary').hover();
    expect((await parts(page)).text).toMatch(/shortened for this model's small context from ≈[\d,]+/);
    expect(await page.locator('.context-meter summary').getAttribute('aria-label')).toMatch(/^Context \d+%, too full to send$/);
    await shot('context-warning-small-model');

    // One server off for this chat: the rest fits, and the request carries the shortened descriptions.
    const menu = await openTools(page);
    await menu.getByRole('checkbox', { name: 'Use server fixture' }).uncheck();
    await warning.waitFor({ state: 'detached' });
    await ask(page, 'Hello again.');
    await finished(page, 1);
    const request = models.requests.at(-1)!;
    expect(request.model).toMatch(/^tiny-ctx/);
    expect(request.toolNames.some((n) => n.startsWith('fixture__'))).toBe(false);
    const small = (request.body as { tools: { function: { name: string } }[] }).tools;
    const roomy = (JSON.parse(roomyTools) as { function: { name: string } }[]).filter((t) => t.function.name.startsWith('everything__'));
    expect(small.map((t) => t.function.name).sort()).toEqual(roomy.map((t) => t.function.name).sort());
    expect(JSON.stringify(small).length).toBeLessThan(JSON.stringify(roomy).length * 0.8);
  });
});
