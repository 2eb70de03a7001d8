// Issue 25 in the browser: Settings → Privacy sets the policy; a screen with a JWT on it, attached,
// says how many regions are hidden; "What the model gets" shows the copy and lists the region; the fixture model
// server receives the masked copy (OCR of the very bytes finds no piece of the token); "Show
// anyway" goes through main, so the next request holds the token, and the stored copy records it
// was shown on request; policy "never" hides nothing.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { Ocr } from '../fixtures/ocr.ts';
import { readable, secretScreen } from '../fixtures/secretScreens.ts';
import { seriousFindings } from './axe.ts';
import { setRedactPolicy } from './browserHarness.ts';
import { chatSuite, finished, messageBox } from './chatSuite.ts';

const suite = chatSuite();
const ocr = new Ocr();
afterAll(() => ocr.close());
const attachments = (page: Page) => page.getByRole('list', { name: 'Attachments' });

const setPolicy = setRedactPolicy;

/** The images of the fixture server's last request, as bytes (Ollama: base64 in messages[].images). */
function lastImages(): Buffer[] {
  const body = suite.server().requests.at(-1)!.body as { messages: { images?: string[] }[] };
  return body.messages.flatMap((m) => (m.images ?? []).map((b64) => Buffer.from(b64, 'base64')));
}

async function readAll(png: Buffer): Promise<string> {
  const { width, height } = await sharp(png).metadata();
  return ocr.read(png, { x: 0, y: 0, width: width!, height: height! });
}

async function drop(page: Page, png: Buffer) {
  await page.locator('main').drop({ files: { name: 'devtools.png', mimeType: 'image/png', buffer: png } });
}

describe('privacy in the chat window', () => {
  it('"N hidden", what the model gets, Show anyway for one send, and the policy from Settings', async () => {
    const { page, dataDir, shot } = await suite.session();
    const screen = await secretScreen('devtools', { width: 1280, height: 720, seed: 1 });
    // The fixture server is on loopback, so the default ("remote") would send it as it is.
    await setPolicy(page, /^Always/);

    // An own pattern that can backtrack without end is marked as typed, not saved.
    await page.getByRole('button', { name: 'Settings' }).click();
    const patterns = page.getByRole('region', { name: 'Privacy' }).getByRole('textbox', { name: 'Own patterns' });
    await patterns.fill('runaway: (a+)+');
    expect(await patterns.getAttribute('aria-invalid')).toBe('true');
    await patterns.fill('');
    expect(await patterns.getAttribute('aria-invalid')).toBeNull();
    await page.getByRole('button', { name: 'Back to chat' }).click();

    await drop(page, screen.png);
    const item = attachments(page).getByRole('listitem', { name: 'devtools.png' });
    // The JWT, and whatever else the detector finds on this screen (its count changes with the rules).
    const badge = item.getByRole('button', { name: /^\d+ hidden$/ });
    await badge.waitFor({ timeout: 180_000 });
    await badge.click();
    const dialog = page.getByRole('dialog', { name: 'What the model gets' });
    await dialog.getByRole('img', { name: 'devtools.png as the model gets it', exact: true }).waitFor();
    const region = dialog.getByRole('listitem', { name: 'jwt' });
    expect(await region.textContent()).toMatch(/^jwt, [a-z ,]+, \d+×\d+ px/);
    await shot('privacy-what-the-model-gets');
    expect(await seriousFindings(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();

    await messageBox(page).fill('What is on this screen?');
    await messageBox(page).press('Enter');
    await finished(page, 1);
    const [masked] = lastImages();
    expect(masked).toBeDefined();
    const maskedText = await readAll(masked!);
    expect(screen.secrets.filter((s) => readable(s, maskedText)), maskedText).toEqual([]);
    expect(suite.server().requests.at(-1)!.messages.map((m) => m.text).join('\n')).toMatch(/\d+ regions? hidden on this device \([^)]*jwt/);

    // Show anyway: this image, this send only.
    await drop(page, screen.png);
    await badge.waitFor({ timeout: 180_000 });
    await badge.click();
    await dialog.getByRole('listitem', { name: 'jwt' }).getByRole('button', { name: 'Show anyway' }).click();
    await dialog.getByRole('heading', { name: /Shown on your request/ }).waitFor();
    expect(await dialog.getByRole('listitem', { name: 'jwt' }).getByRole('button', { name: 'Show anyway' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await item.getByRole('button', { name: /^\d+ hidden, 1 shown$/ }).waitFor();
    await messageBox(page).fill('And now?');
    await messageBox(page).press('Enter');
    await finished(page, 2);
    const [plain] = lastImages().slice(-1);
    const plainText = await readAll(plain!);
    expect(screen.secrets.some((s) => readable(s, plainText)), plainText).toBe(true);
    // The durable record: the copy that was sent says the region was shown on request.
    const metas = await recordsWith(dataDir, '"shownOnRequest"');
    expect(metas.length).toBeGreaterThan(0);
    expect(metas.join('\n')).toMatch(/"shownOnRequest": \[\s*{[^}]*"kind": "jwt"/);

    // Policy "never": nothing is hidden, nothing says so.
    await setPolicy(page, /^Never/);
    await drop(page, screen.png);
    await item.getByRole('img', { name: 'devtools.png', exact: true }).waitFor({ timeout: 60_000 });
    expect(await item.getByRole('button', { name: /hidden/ }).count()).toBe(0);
    await item.getByRole('button', { name: 'Remove devtools.png' }).click();

    // This chat's own choice over Settings: "always" here hides again, from the attach on.
    await page.getByRole('combobox', { name: 'Hide secrets in this chat' }).selectOption('always');
    await expect.poll(() => page.getByRole('combobox', { name: 'Hide secrets in this chat' }).inputValue()).toBe('always');
    await drop(page, screen.png);
    await badge.waitFor({ timeout: 180_000 });
  }, 600_000);
});

async function recordsWith(dir: string, needle: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
    if (text.includes(needle)) out.push(text);
  }
  return out;
}
