// Mark-up in Chromium: an attachment opened in the editor from the composer, a box drawn with
// the mouse and one with the keyboard alone, undo and redo (buttons and Ctrl+Z / Ctrl+Shift+Z).
// What the fixture model receives has each box's colour where it was drawn and the label's list
// of marks; an undone mark is nowhere in it; after a reload the marks are still on the message;
// regenerating with another model re-fits the image and draws the marks again at its size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { solidPng, WHITE } from '../fixtures/images.ts';
import { createModelServer, DEFAULT_MODELS, VISION_MODELS, type ModelServer } from '../fixtures/modelServer.ts';
import { seriousFindings } from './axe.ts';
import { pickModel } from './browserHarness.ts';
import { answers, ask, chatSuite, finished } from './chatSuite.ts';

const suite = chatSuite();
let models: ModelServer;
beforeAll(async () => {
  models = await createModelServer({ models: [...DEFAULT_MODELS, ...VISION_MODELS] });
});
afterAll(async () => {
  await models?.close();
});

const W = 1600;
const H = 1000;

/** The one image of request `i`, decoded as the server received it, and a colour test at a point given in fractions of it. */
async function received(server: ModelServer, i: number) {
  const body = server.requests[i]!.body as { messages: { images?: string[] }[] };
  const [b64] = body.messages.flatMap((m) => m.images ?? []);
  const { data, info } = await sharp(Buffer.from(b64!, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const rgb = (fx: number, fy: number) => {
    const x = Math.min(info.width - 1, Math.round(fx * info.width));
    const y = Math.min(info.height - 1, Math.round(fy * info.height));
    const at = (y * info.width + x) * info.channels;
    return [data[at]!, data[at + 1]!, data[at + 2]!];
  };
  return { width: info.width, height: info.height, rgb };
}
const red = ([r, g, b]: number[]) => r! > 190 && g! < 90 && b! < 90;
const blue = ([r, g, b]: number[]) => b! > 190 && r! < 90 && g! < 90;
const green = ([r, g, b]: number[]) => g! > 150 && r! < 90 && b! < 90;
const white = ([r, g, b]: number[]) => r! > 230 && g! > 230 && b! > 230;

/** A drag on the canvas between two points given as fractions of the image. */
async function drag(page: Page, from: [number, number], to: [number, number]) {
  const box = (await page.getByRole('group', { name: 'Mark-up canvas' }).boundingBox())!;
  await page.mouse.move(box.x + from[0] * box.width, box.y + from[1] * box.height);
  await page.mouse.down();
  await page.mouse.move(box.x + ((from[0] + to[0]) / 2) * box.width, box.y + ((from[1] + to[1]) / 2) * box.height, { steps: 4 });
  await page.mouse.move(box.x + to[0] * box.width, box.y + to[1] * box.height, { steps: 4 });
  await page.mouse.up();
}

describe('mark-up', () => {
  it('draws by mouse and keyboard, undoes and redoes; the model gets the marks drawn and listed; they survive a reload and a change of model', async () => {
    const { page, shot } = await suite.session({ ollamaHost: models.url });
    await page.locator('main').drop({ files: { name: 'white.png', mimeType: 'image/png', buffer: await solidPng(W, H, WHITE) } });
    const item = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem', { name: 'white.png' });
    await item.getByRole('img', { name: 'white.png', exact: true }).waitFor();
    await item.getByRole('button', { name: 'Mark up white.png' }).click();

    const dialog = page.getByRole('dialog', { name: 'Mark up white.png' });
    const toolbar = dialog.getByRole('toolbar', { name: 'Mark up' });
    for (const name of ['Box', 'Arrow', 'Marker', 'Line', 'Text']) await toolbar.getByRole('radio', { name }).waitFor();
    const summary = dialog.locator('.markup-footer .muted');
    await dialog.getByRole('img', { name: 'white.png' }).waitFor();
    // No serious or critical axe finding in the open editor.
    expect(await seriousFindings(page)).toEqual([]);

    // 1. A red box by mouse, with a note: (20%,30%)–(45%,50%).
    await toolbar.getByRole('radio', { name: 'Box' }).click();
    expect(await toolbar.getByRole('radio', { name: 'Box' }).getAttribute('aria-checked')).toBe('true');
    await toolbar.getByRole('textbox', { name: 'Note' }).fill('this button');
    await drag(page, [0.2, 0.3], [0.45, 0.5]);
    await dialog.getByRole('status').filter({ hasText: 'Box 1 added.' }).waitFor();
    await summary.filter({ hasText: '1 mark: 1 box' }).waitFor();
    await toolbar.getByRole('textbox', { name: 'Note' }).fill('');

    // Undo and redo: the buttons, then the keys.
    await toolbar.getByRole('button', { name: 'Undo' }).click();
    await summary.filter({ hasText: 'No marks yet.' }).waitFor();
    await toolbar.getByRole('button', { name: 'Redo' }).click();
    await summary.filter({ hasText: '1 mark: 1 box' }).waitFor();
    const canvas = dialog.getByRole('group', { name: 'Mark-up canvas' });
    await canvas.focus();
    await page.keyboard.press('Control+z');
    await summary.filter({ hasText: 'No marks yet.' }).waitFor();
    await page.keyboard.press('Control+Shift+z');
    await summary.filter({ hasText: '1 mark: 1 box' }).waitFor();

    // 2. A blue box by keyboard alone: Enter puts the cursor in the middle, arrows step 2%.
    await toolbar.getByLabel('Colour').fill('#0000ff');
    await canvas.focus();
    await page.keyboard.press('Enter');
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight'); // 70%
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown'); // 60%
    await page.keyboard.press('Enter');
    await dialog.getByRole('status').filter({ hasText: 'First point at 70% from the left, 60% from the top' }).waitFor();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight'); // 80%
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowDown'); // 80%
    await page.keyboard.press('Enter');
    await dialog.getByRole('status').filter({ hasText: 'Box 2 added.' }).waitFor();

    // 3. A green box, undone: it must not reach the model.
    await toolbar.getByLabel('Colour').fill('#00ff00');
    await drag(page, [0.05, 0.7], [0.15, 0.9]);
    await summary.filter({ hasText: '3 marks: 3 boxes' }).waitFor();
    await page.keyboard.press('Control+z');
    await summary.filter({ hasText: '2 marks: 2 boxes' }).waitFor();
    await shot('markup-editor');
    expect(await seriousFindings(page)).toEqual([]);
    await toolbar.getByRole('button', { name: 'Done' }).click();
    await item.getByText('2 marks: 2 boxes').waitFor();

    await ask(page, 'What did I mark?');
    await finished(page, 1);
    const first = await received(models, 0);
    // Each box's edges in its colour, where it was drawn (the edge midpoints), white inside and around.
    expect(red(first.rgb(0.325, 0.3))).toBe(true);
    expect(red(first.rgb(0.2, 0.4))).toBe(true);
    expect(red(first.rgb(0.45, 0.4))).toBe(true);
    expect(red(first.rgb(0.325, 0.5))).toBe(true);
    expect(white(first.rgb(0.325, 0.4))).toBe(true);
    expect(blue(first.rgb(0.75, 0.6))).toBe(true);
    expect(blue(first.rgb(0.8, 0.7))).toBe(true);
    expect(white(first.rgb(0.75, 0.7))).toBe(true);
    // The undone green box is nowhere.
    expect(green(first.rgb(0.1, 0.7))).toBe(false);
    expect(white(first.rgb(0.1, 0.7))).toBe(true);
    const label = models.requests[0]!.messages.find((m) => m.role === 'user')!.text;
    const sx = first.width / W;
    const sy = first.height / H;
    const r = Math.round;
    expect(label).toContain(`marks: 1 box (${r(320 * sx)},${r(300 * sy)},${r(400 * sx)},${r(200 * sy)}) "this button"; 2 box (${r(1120 * sx)},${r(600 * sy)},${r(160 * sx)},${r(200 * sy)})]`);
    const message = page.getByRole('group', { name: 'Your message' });
    await message.getByText('Sent with 2 marks: 2 boxes').waitFor();

    // 4. After a reload the marks are still on the message (stored with the conversation).
    await page.reload();
    await answers(page).first().waitFor();
    await page.getByRole('group', { name: 'Your message' }).getByText('Sent with 2 marks: 2 boxes').waitFor();

    // 5. Another model: Regenerate re-fits the image for it and draws the marks again at its size.
    await pickModel(page, 'gemma3:4b');
    await answers(page).first().getByRole('button', { name: 'Regenerate' }).click();
    await finished(page, 1);
    const second = await received(models, models.requests.length - 1);
    expect(models.requests.at(-1)!.model).toMatch(/^gemma3:4b/);
    expect([second.width, second.height]).not.toEqual([first.width, first.height]);
    expect(red(second.rgb(0.325, 0.3))).toBe(true);
    expect(red(second.rgb(0.2, 0.4))).toBe(true);
    expect(blue(second.rgb(0.8, 0.7))).toBe(true);
    expect(white(second.rgb(0.325, 0.4))).toBe(true);
    const label2 = models.requests.at(-1)!.messages.find((m) => m.role === 'user')!.text;
    const tx = second.width / W;
    const ty = second.height / H;
    expect(label2).toContain(`marks: 1 box (${r(320 * tx)},${r(300 * ty)},${r(400 * tx)},${r(200 * ty)}) "this button"`);
  });
});
