// Window exclusion from the real window list (issue 25 item 4): on Xvfb with openbox, a real
// window titled "KeePassXC" beside an ordinary one; the main window's Screenshot (capture:screenshot,
// the hotkey's handler) feeds node-screenshots' Window.all() into the door, so what the fixture
// model receives has the KeePassXC window filled whole and the other window as it was.
// DISPLAY is set for this file's own process (node-screenshots connects once per process).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { openWindow, startWindowManager, type OpenWindow } from '../fixtures/desktopWindows.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { startXvfb, type XServer } from '../fixtures/xvfb.ts';
import { launchChromium, modelShown, openSession, setRedactPolicy, type Session } from './browserHarness.ts';

const VAULT = { title: 'KeePassXC - Passwords.kdbx', color: '#00c000', x: 80, y: 60, width: 500, height: 380 };
const NOTES = { title: 'Invoice draft', color: '#ff0000', x: 700, y: 200, width: 420, height: 300 };

let x: XServer;
let wm: { stop(): Promise<void> };
const windows: OpenWindow[] = [];
let server: ModelServer;
let browser: Browser;
let s: Session | undefined;
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

beforeAll(async () => {
  x = await startXvfb({ width: 1280, height: 720 });
  Object.assign(process.env, { DISPLAY: x.display, XDG_SESSION_TYPE: 'x11' });
  delete process.env.WAYLAND_DISPLAY;
  wm = await startWindowManager(x.env);
  windows.push(await openWindow(x.env, VAULT), await openWindow(x.env, NOTES));
  // Both windows drawn, and listed under their own titles (a Chromium window is titled by its URL first).
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const [shot, listed] = await Promise.all([capturer.capture('primary'), capturer.listWindows()]);
    const titled = listed.some((w) => w.title.includes('KeePassXC')) && listed.some((w) => w.title.includes(NOTES.title));
    if (titled && shot.ok && (await rgbAt(shot.capture.png, VAULT.x + 20, VAULT.y + 40)) === '0,192,0' && (await rgbAt(shot.capture.png, NOTES.x + 20, NOTES.y + 40)) === '255,0,0') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  [server, browser] = await Promise.all([createModelServer(), launchChromium()]);
}, 90_000);
afterAll(async () => {
  await s?.close();
  await browser?.close();
  await server?.close();
  for (const w of windows) await w.close();
  await wm?.stop();
  await x?.stop();
});

async function rgbAt(png: Uint8Array | Buffer, px: number, py: number): Promise<string> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (py * info.width + px) * info.channels;
  return [data[at], data[at + 1], data[at + 2]].join();
}

describe('window exclusion', () => {
  it("a password manager's window is filled whole in what the model gets; other windows are not", async () => {
    const listed = await capturer.listWindows();
    expect(listed.map((w) => w.title).join(' | ')).toContain('KeePassXC');
    s = await openSession(browser, { ollamaHost: server.url, capturer });
    const { page } = s;
    await modelShown(page, 'llava-seer');
    // The fixture server is on loopback: "always" makes the door redact for it.
    await setRedactPolicy(page, /^Always/);

    await page.getByRole('button', { name: 'Screenshot' }).click();
    const item = page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    await item.getByRole('button', { name: /^\d+ hidden/ }).waitFor({ timeout: 180_000 });
    await page.getByRole('textbox', { name: 'Message' }).fill('What is on my screen?');
    await page.keyboard.press('Enter');
    await page.locator('article[aria-label="Assistant message"][aria-busy="false"]').waitFor({ timeout: 120_000 });
    const body = server.requests.at(-1)!.body as { messages: { images?: string[] }[] };
    const [png] = body.messages.flatMap((m) => m.images ?? []).map((b64) => Buffer.from(b64, 'base64'));
    const meta = await sharp(png!).metadata();
    expect([meta.width, meta.height]).toEqual([1280, 720]);
    // The vault's window: the fill, corner to corner (its frame included); the notes window: red.
    for (const [px, py] of [[VAULT.x + 10, VAULT.y + 30], [VAULT.x + VAULT.width - 10, VAULT.y + VAULT.height - 10], [VAULT.x + 250, VAULT.y + 200]] as const) {
      expect(await rgbAt(png!, px, py)).toBe('40,40,40');
    }
    expect(await rgbAt(png!, NOTES.x + 200, NOTES.y + 150)).toBe('255,0,0');
    const label = server.requests.at(-1)!.messages.find((m) => m.role === 'user')!.text;
    expect(label).toMatch(/hidden on this device \([^)]*excluded window/);
  }, 400_000);
});
