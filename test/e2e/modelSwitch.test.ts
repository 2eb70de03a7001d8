// A model switch with images waiting in the composer: each is fitted anew for the model picked
// (main's door, from the original), so its thumbnail says what this model will get — the size
// and tokens its copy has, and the Context meter counts that — and a switch to a model that
// cannot see says in words what happens to the image. The sent request proves the figures.
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { makeBarChart } from '../fixtures/chart.ts';
import { createModelServer, DEFAULT_MODELS, VISION_MODELS } from '../fixtures/modelServer.ts';
import { pickModel } from './browserHarness.ts';
import { chatSuite, finished, messageBox } from './chatSuite.ts';

const suite = chatSuite();
const item = (page: Page, name: string) => page.getByRole('list', { name: 'Attachments' }).getByRole('listitem', { name });

/** The thumbnail's words once main has answered for the model picked (not while it re-fits). */
async function settled(page: Page, name: string): Promise<string> {
  const li = item(page, name);
  await page.locator('.attachment[aria-busy="false"]', { hasText: name }).waitFor();
  return (await li.textContent()) ?? '';
}

async function breakdown(page: Page): Promise<string> {
  await page.locator('.context-meter summary').hover();
  const text = (await page.getByLabel('What fills the context').textContent()) ?? '';
  await page.mouse.move(2, 2);
  return text;
}

describe('a model switch with images waiting to be sent', () => {
  it('re-fits each thumbnail and the Context meter to the model picked, and says what a blind model does with it', async () => {
    const models = await createModelServer({ models: [...DEFAULT_MODELS, ...VISION_MODELS] });
    onTestFinished(() => models.close());
    const { page, shot } = await suite.session({ ollamaHost: models.url });
    await pickModel(page, 'qwen2.5vl:7b');
    // A wide screen: qwen2.5-vl keeps 28-px tokens up to 4096 of them; gemma3 squashes to 896² (256).
    const screen = await makeBarChart({ width: 3000, height: 1500 });
    await page.locator('main').drop({ files: { name: 'screen.png', mimeType: 'image/png', buffer: screen } });
    const qwen = await settled(page, 'screen.png');
    const qwenTokens = Number(/≈([\d,]+) tokens/.exec(qwen)?.[1]?.replaceAll(',', ''));
    expect(qwenTokens).toBeGreaterThan(1000);
    await expect.poll(() => breakdown(page), { timeout: 30_000 }).toContain(`Images: ≈${qwenTokens.toLocaleString('en-US')}`);

    await pickModel(page, 'gemma3:4b');
    // The thumbnail now says gemma3's copy, and the meter counts its 256 tokens.
    await expect.poll(() => settled(page, 'screen.png')).toMatch(/≈256 tokens/);
    const gemma = await settled(page, 'screen.png');
    const size = /(\d+)×(\d+)/.exec(gemma);
    expect(size).not.toBeNull();
    expect(gemma).not.toBe(qwen);
    await expect.poll(() => breakdown(page), { timeout: 30_000 }).toMatch(/Images: ≈256(?!\d)/);

    await pickModel(page, 'blind-llm');
    // No text in a bar chart: it says, in words, that the image will not go, and counts nothing for it.
    await expect.poll(() => settled(page, 'screen.png'), { timeout: 60_000 }).toMatch(/cannot see images, and this one has no text to read instead: it will not be sent\. Pick a model that can see, or remove it\./);
    expect(await settled(page, 'screen.png')).not.toMatch(/tokens|\d+×\d+/);
    // Main reads the image for the estimate as the send would (local OCR, remembered): wait for its answer.
    await expect.poll(() => breakdown(page), { timeout: 30_000 }).toMatch(/Images: ≈0(?!\d)/);
    await shot('model-switch-blind');

    // Back to a model that sees: the note goes, and what is sent is what the thumbnail said.
    await pickModel(page, 'gemma3:4b');
    await expect.poll(() => settled(page, 'screen.png')).toMatch(/≈256 tokens/);
    expect(await settled(page, 'screen.png')).not.toMatch(/will not be sent/);
    await messageBox(page).fill('What does the chart show?');
    await messageBox(page).press('Enter');
    await finished(page, 1);
    const sent = models.requests.at(-1)!.images;
    expect(sent).toHaveLength(1);
    expect(`${sent[0]!.width}×${sent[0]!.height}`).toBe(`${size![1]}×${size![2]}`);
  });
});
