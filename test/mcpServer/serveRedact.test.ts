// `glance mcp serve` hides secrets before an image or its text leaves Glance (architecture §14,
// §3 "Redact"): the caller's model is unknown, so the server's default policy is "always". A real X
// screen shows a checkout form with a Luhn-valid card number (from a fixed seed); capture_screen's image holds
// none of it (read back by real tesseract), its text line says what was hidden, read_text gives the
// card back neither in its text nor in its words, and `--redact never` sends the screen as it is.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TesseractReader } from '../../main/ocr/tesseractReader.ts';
import { readable, secretScreen, type SecretScreen } from '../fixtures/secretScreens.ts';
import { showPage, type ScreenPage } from '../fixtures/screenPage.ts';
import { startXvfb, type XServer } from '../fixtures/xvfb.ts';
import { partOf, stdioClient, textOf } from './serveHelpers.ts';

let x: XServer;
let page: ScreenPage;
let planted: SecretScreen;
let dataDir: string;
const reader = new TesseractReader({ timeoutMs: 180_000 });
const ocr = async (png: Uint8Array) => (await reader.read(await sharp(png).greyscale().png().toBuffer())).text;

beforeAll(async () => {
  x = await startXvfb({ width: 1280, height: 720 });
  planted = await secretScreen('checkout', { width: 1280, height: 720, seed: 1 });
  const html = `<body style="margin:0;background:#fff"><img style="display:block" src="data:image/png;base64,${planted.png.toString('base64')}"></body>`;
  page = await showPage(x.env, html, { monitor: x.monitors[0]! });
  dataDir = await mkdtemp(join(tmpdir(), 'glance-serve-redact-'));
}, 120_000);

afterAll(async () => {
  await reader.close();
  await page?.close();
  await x?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

type Image = { type: 'image'; data: string };

describe('glance mcp serve hides secrets (default "always")', () => {
  it('capture_screen and read_text give the planted card number back in neither pixels nor text', async () => {
    const before = await ocr(planted.png);
    const shownBefore = planted.secrets.filter((s) => readable(s, before));
    expect(shownBefore.length, `OCR must read the planted secret before, or the test proves nothing:\n${before}`).toBeGreaterThan(0);
    const serve = await stdioClient({ env: x.env, dataDir });
    try {
      const result = await serve.client.callTool({ name: 'capture_screen', arguments: {} });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(textOf(result)).toMatch(/Hidden: \d+ regions? \([^)]*card number/);
      const sent = Buffer.from(partOf<Image>(result, 'image').data, 'base64');
      const after = await ocr(sent);
      expect(shownBefore.filter((s) => readable(s, after)), after).toEqual([]);

      const read = await serve.client.callTool({ name: 'read_text', arguments: {} });
      expect(read.isError, textOf(read)).toBeFalsy();
      const structured = read.structuredContent as { text: string; words: { text: string }[] };
      expect(shownBefore.filter((s) => readable(s, structured.text) || readable(s, textOf(read)) || readable(s, structured.words.map((w) => w.text).join(' '))), structured.text).toEqual([]);
      // The card was filled in the original before reading; the text says what was hidden.
      expect(textOf(read)).toMatch(/hidden on this device \([^)]*card number/);
    } finally {
      await serve.close();
    }
  }, 300_000);

  it('the capture resource gives the original with the same regions filled; --serve-originals gives it as captured, and the line says so', async () => {
    const serve = await stdioClient({ env: x.env, dataDir });
    try {
      const result = await serve.client.callTool({ name: 'capture_screen', arguments: {} });
      expect(textOf(result)).toMatch(/original \(the resource link\) has the same regions filled/);
      const link = partOf<{ type: 'resource_link'; uri: string }>(result, 'resource_link');
      const read = await serve.client.readResource({ uri: link.uri });
      const blob = Buffer.from((read.contents[0] as { blob: string }).blob, 'base64');
      const text = await ocr(blob);
      expect(planted.secrets.filter((s) => readable(s, text)), text).toEqual([]);
    } finally {
      await serve.close();
    }
    const clear = await stdioClient({ env: x.env, dataDir, extra: ['--serve-originals'] });
    try {
      const result = await clear.client.callTool({ name: 'capture_screen', arguments: {} });
      expect(textOf(result)).toMatch(/served as captured, secrets in the clear: glance mcp serve runs with --serve-originals/);
      const link = partOf<{ type: 'resource_link'; uri: string }>(result, 'resource_link');
      const read = await clear.client.readResource({ uri: link.uri });
      const text = await ocr(Buffer.from((read.contents[0] as { blob: string }).blob, 'base64'));
      expect(planted.secrets.some((s) => readable(s, text)), text).toBe(true);
    } finally {
      await clear.close();
    }
  }, 300_000);

  it('a zoom or read_text of only the second half of the card number gives nothing readable', async () => {
    const serve = await stdioClient({ env: x.env, dataDir });
    try {
      const result = await serve.client.callTool({ name: 'capture_screen', arguments: {} });
      const { hidden } = result.structuredContent as { hidden: { x: number; y: number; width: number; height: number; kind: string }[] };
      const card = hidden.find((h) => h.kind === 'card number');
      expect(card, JSON.stringify(hidden)).toBeDefined();
      const link = partOf<{ type: 'resource_link'; uri: string }>(result, 'resource_link');
      const half = { x: Math.round(card!.x + card!.width / 2), y: card!.y, width: Math.round(card!.width / 2), height: card!.height };
      const zoom = await serve.client.callTool({ name: 'zoom', arguments: { image: link.uri, ...half } });
      expect(zoom.isError, textOf(zoom)).toBeFalsy();
      const zoomed = await ocr(Buffer.from(partOf<Image>(zoom, 'image').data, 'base64'));
      const read = await serve.client.callTool({ name: 'read_text', arguments: { image: link.uri, region: half } });
      const words = textOf(read);
      // Eight characters in a row of a secret are a leak (readable): the half of a 16-digit card is exactly that.
      for (const text of [zoomed, words]) expect(planted.secrets.filter((s) => readable(s, text)), text).toEqual([]);
    } finally {
      await serve.close();
    }
  }, 300_000);

  it('--redact never sends the screen as it is, and says so', async () => {
    const serve = await stdioClient({ env: x.env, dataDir, extra: ['--redact', 'never'] });
    try {
      const result = await serve.client.callTool({ name: 'capture_screen', arguments: {} });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(textOf(result)).toMatch(/Hidden: nothing \(redaction is off/);
      const after = await ocr(Buffer.from(partOf<Image>(result, 'image').data, 'base64'));
      expect(planted.secrets.some((s) => readable(s, after)), after).toBe(true);
    } finally {
      await serve.close();
    }
  }, 300_000);
});
