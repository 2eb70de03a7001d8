// "This window" with the window's own words, as a person sees it: a real desktop with accessibility
// (Xvfb + openbox + the AT-SPI bus and registry), zenity's text view holding a line far below what it
// shows, the pointer warped onto it with a real X request, the hotkey's capture (harness
// screenshotAndAsk) in the ask window in Chromium. The ask window says how much of the window's text
// goes; the model gets it beside the image; the chat shows it with the image it went with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { accessibleDesktopMissing, openAccessibleDesktop, untilExposed, type AccessibleDesktop } from '../fixtures/atspiSession.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { pointAtWindow } from '../support/xPointer.ts';
import { seriousFindings } from './axe.ts';
import { launchChromium, modelShown, openSession, type Session } from './browserHarness.ts';

const skip = accessibleDesktopMissing(['zenity']);
if (skip) console.warn(`"This window" text e2e skipped: ${skip}`);

const LOG = { title: 'Changelog — Glance e2e', lines: [...Array.from({ length: 90 }, (_, i) => `entry ${i + 1}: fixed`), 'the last entry, far below'] };

let desktop: AccessibleDesktop;
let dir: string;
let server: ModelServer;
let browser: Browser;
let s: Session | undefined;
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

beforeAll(async () => {
  if (skip) return;
  desktop = await openAccessibleDesktop({ width: 1280, height: 800 });
  dir = await mkdtemp(join(tmpdir(), 'glance-e2e-this-window-'));
  await writeFile(join(dir, 'changelog.txt'), LOG.lines.join('\n'));
  desktop.session.start('zenity', ['--text-info', '--filename', join(dir, 'changelog.txt'), '--title', LOG.title, '--width', '560', '--height', '380']);
  await untilExposed(capturer, [LOG.title]);
  [server, browser] = await Promise.all([createModelServer(), launchChromium()]);
}, 120_000);

afterAll(async () => {
  await s?.close();
  await browser?.close();
  await server?.close();
  await desktop?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('the ask window: This window with its own text', () => {
  it('says how much of the window’s text goes, sends it beside the image, and the chat shows it', async () => {
    s = await openSession(browser, { ollamaHost: server.url, capturer, url: 'ask', viewport: { width: 900, height: 760 } });
    const { page, harness, shot } = s;
    await modelShown(page, 'llava-seer');
    await pointAtWindow(capturer, LOG.title, { env: desktop.x.env });
    await harness.screenshotAndAsk();
    await page.getByRole('group', { name: 'Screenshot region' }).getByRole('img').waitFor();
    await page.getByRole('button', { name: 'This window' }).click();
    const note = page.getByRole('status').filter({ hasText: 'Its own text goes with it' });
    await note.waitFor();
    expect(await note.textContent()).toMatch(/Its own text goes with it: [\d,]+ characters read from accessibility, exact\./);
    await shot('ask-this-window-text');
    expect(await seriousFindings(page)).toEqual([]);

    await page.getByRole('textbox', { name: 'Message' }).fill('Summarise this changelog.');
    await page.keyboard.press('Enter');
    await page.getByRole('article', { name: 'Assistant message' }).filter({ hasText: 'I received 1 image' }).waitFor();
    const user = server.requests[0]!.messages.find((m) => m.role === 'user')!;
    expect(user.text).toContain('entry 1: fixed');
    expect(user.text).toContain('the last entry, far below');

    // The chat shows what went with the image ("Open in Glance": the same tab becomes the main window).
    await page.getByRole('button', { name: 'Open in Glance' }).click();
    await page.waitForURL(/#\/c\/[\w-]+$/);
    const withText = page.getByRole('group', { name: 'Your message' }).locator('details.window-text');
    await withText.locator('summary').click();
    await withText.getByText('the last entry, far below').waitFor();
    await shot('chat-window-text');
    expect(await seriousFindings(page)).toEqual([]);
  });
});
