// A UI-like screenshot with real text at a known place: an editor page rendered by Debian's
// Chromium (headless) at width×height CSS pixels and `deviceScaleFactor` (default 1: 3840×2160
// device pixels). The text is the known answer for OCR; its boxes are in CSS pixels (× scale).
import { chromium, type Browser } from 'playwright-core';
import { editorHtml, type EditorPage } from '../../test/fixtures/screenPage.ts';

export type Screenshot = EditorPage & { png: Buffer; width: number; height: number; deviceScaleFactor: number };

/** Debian's Chromium as the benches drive it: headless, software rendering, no hinting (stable glyphs). */
export function launchBenchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.GLANCE_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    timeout: 60_000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--font-render-hinting=none'],
  });
}

export async function renderEditorScreenshot(options: { width?: number; height?: number; fontPx?: number; deviceScaleFactor?: number; signal?: AbortSignal } = {}): Promise<Screenshot> {
  const width = options.width ?? 3840;
  const height = options.height ?? 2160;
  const deviceScaleFactor = options.deviceScaleFactor ?? 1;
  const page = editorHtml({ width, height, fontPx: options.fontPx ?? 14 });
  const browser = await launchBenchChromium();
  try {
    options.signal?.throwIfAborted();
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor });
    const tab = await context.newPage();
    await tab.setContent(page.html, { waitUntil: 'load' });
    await tab.evaluate('document.fonts.ready');
    const png = await tab.screenshot({ type: 'png', timeout: 60_000 });
    return { ...page, png, width, height, deviceScaleFactor };
  } finally {
    await browser.close();
  }
}
