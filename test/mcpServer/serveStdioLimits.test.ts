// `glance mcp serve` on stdio within what a stdio client can take (DESIGN §6a, issue 43), with the
// SDK's own client and its default 10 MB read buffer: a 4K original that would be ~40 M characters
// of base64 as kept is read as a resource under the cap (said in words, zoom a call away for full
// resolution), and an oversized request is refused with an error in words and a line on stderr
// while the server goes on (it used to end with exit 0 and no word).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STDIO_RESOURCE_BASE64 } from '../../main/mcpServer/captureResource.ts';
import { MAX_STDIO_REQUEST } from '../../main/mcpServer/stdioLines.ts';
import { showPage, type ScreenPage } from '../fixtures/screenPage.ts';
import { startXvfb, type XServer } from '../fixtures/xvfb.ts';
import { partOf, stdioClient, textOf } from './serveHelpers.ts';

const W = 3840;
const H = 2160;
/** Seeded noise over the whole page: a screen no lossless PNG makes small (the worst case for the buffer). */
const NOISE_HTML = `<!doctype html><html><body style="margin:0;overflow:hidden"><canvas id="c" width="${W}" height="${H}"></canvas><script>
const c = document.getElementById('c').getContext('2d'); const img = c.createImageData(${W}, ${H}); let s = 42;
for (let i = 0; i < img.data.length; i += 4) { s ^= s << 13; s ^= s >>> 17; s ^= s << 5; s >>>= 0; img.data[i] = s >>> 24; img.data[i + 1] = (s >>> 16) & 255; img.data[i + 2] = (s >>> 8) & 255; img.data[i + 3] = 255; }
c.putImageData(img, 0, 0);
</script></body></html>`;

let x: XServer;
let screen: ScreenPage;
let dataDir: string;
let stdio: Awaited<ReturnType<typeof stdioClient>>;

beforeAll(async () => {
  x = await startXvfb({ width: W, height: H });
  screen = await showPage(x.env, NOISE_HTML, { monitor: x.monitors[0]! });
  dataDir = await mkdtemp(join(tmpdir(), 'glance-serve-limits-'));
  // Redaction is another test's subject: OCR of a 4K screen of noise for secrets would only add minutes.
  stdio = await stdioClient({ env: { ...x.env, XDG_SESSION_TYPE: 'x11' }, dataDir, extra: ['--redact', 'never'] });
}, 120_000);

afterAll(async () => {
  await stdio?.close();
  await screen?.close();
  await x?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('glance mcp serve on stdio, within the SDK client\'s 10 MB buffer', () => {
  it('a 4K original reads as a resource under the cap, said in words, and zoom still gives full resolution', async () => {
    const shot = await stdio.client.callTool({ name: 'capture_screen', arguments: {} }, undefined, { timeout: 150_000 });
    expect(shot.isError, textOf(shot)).toBeFalsy();
    const link = partOf<{ type: 'resource_link'; uri: string }>(shot, 'resource_link');
    const line = textOf(shot);
    expect(line).toMatch(/3840×2160 pixels/);
    expect(line).toMatch(/Read over stdio, the original comes re-compressed, and made smaller only if it is still over 8 MB of base64.*zoom gives any region at full resolution/);

    const read = await stdio.client.readResource({ uri: link.uri }, { timeout: 150_000 });
    const blob = read.contents.find((c) => 'blob' in c) as { blob: string; mimeType: string };
    const note = read.contents.find((c) => 'text' in c) as { text: string };
    expect(blob.blob.length).toBeLessThanOrEqual(STDIO_RESOURCE_BASE64);
    const meta = await sharp(Buffer.from(blob.blob, 'base64')).metadata();
    expect(meta.format).toBe('png');
    // Noise does not compress: the picture had to be made smaller, keeping its shape.
    expect(meta.width!).toBeLessThan(W);
    expect(Math.abs(meta.width! / meta.height! - W / H)).toBeLessThan(0.01);
    expect(note.text).toMatch(new RegExp(`is 3840×2160 pixels, [\\d.]+ MB of base64 as kept: over the 8 MB a stdio client takes in one message\\. It is sent as a PNG made smaller to ${meta.width}×${meta.height}`));
    expect(note.text).toContain(`Call zoom with image "${link.uri}"`);

    const zoomed = await stdio.client.callTool({ name: 'zoom', arguments: { image: link.uri, x: 2000, y: 1200, width: 300, height: 200 } }, undefined, { timeout: 150_000 });
    expect(zoomed.isError, textOf(zoomed)).toBeFalsy();
    expect(zoomed.structuredContent).toMatchObject({ from: { originalRegion: { x: 2000, y: 1200, width: 300, height: 200 } } });
    expect(textOf(zoomed)).toMatch(/cut from the original at full resolution \(300×200 of its 3840×2160 pixels/);
  }, 400_000);

  it('an oversized request is refused with an error in words and a line on stderr, and the server goes on', async () => {
    const huge = 'A'.repeat(11 * 1024 * 1024);
    const refused = await stdio.client.callTool({ name: 'read_text', arguments: { image: huge } }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(refused?.message).toMatch(new RegExp(`Request refused: \\d+ bytes on one line, over the ${MAX_STDIO_REQUEST} bytes glance mcp serve reads`));
    expect(stdio.stderr()).toMatch(/glance: Request refused: \d+ bytes on one line/);
    // Just over the cap, split across many chunks by the pipe, and then a normal call: all answered in turn.
    const over = await stdio.client.callTool({ name: 'describe', arguments: { question: 'q'.repeat(MAX_STDIO_REQUEST) } }).catch((error: Error) => error);
    expect((over as Error).message).toMatch(/Request refused/);
    const { tools } = await stdio.client.listTools();
    expect(tools.map((t) => t.name)).toContain('capture_screen');
    const displays = await stdio.client.callTool({ name: 'list_displays', arguments: {} });
    expect(textOf(displays)).toMatch(/3840×2160/);
  }, 60_000);
});
