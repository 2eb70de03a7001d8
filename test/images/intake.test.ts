// The chokepoint end to end: files on disk, fixture HTTP servers on loopback, real sharp and
// file-type, a real attachment store. One case per item of issue 2's image test list.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { FileAttachmentStore } from '../../main/images/attachmentStore.ts';
import { ImageIntake } from '../../main/images/imageIntake.ts';
import { targetFor } from '../../main/images/profiles.ts';
import type { AttachResult, ImageInput, IntakeConfig } from '../../main/images/types.ts';
import {
  HTML,
  JSON_TEXT,
  RED,
  SVG,
  TEXT,
  bmpBytes,
  decompressionBomb,
  exifHasGps,
  exifRotatedJpeg,
  gpsJpeg,
  heicHeader,
  near,
  pdfBytes,
  pixelAt,
  quadrantImage,
  solidPng,
  truncatedJpeg,
  truncatedPng,
} from '../fixtures/images.ts';

const SEEING = targetFor('ollama', 'gemma3', { vision: 'yes', visionSource: 'ollama-capabilities' });
const SEEING_OPENAI = targetFor('openai', 'gpt-4o', undefined, { vision: 'yes', source: 'settings' });

let dir: string;
let files: string;
let root: string;
let store: FileAttachmentStore;
let server: Server;
let port: number;
let hits = 0;
const png = await quadrantImage('png');

function intakeWith(config: Partial<IntakeConfig> = {}): ImageIntake {
  return new ImageIntake({ config: { limits: { ...DEFAULT_LIMITS }, allowedRoots: [root], ...config }, store });
}

function attachFile(name: string, target = SEEING, intake = intakeWith()): Promise<AttachResult> {
  return intake.admit({ source: join(files, name), origin: 'user', requestedBy: 'user' }, target, 'user');
}

function attach(input: Partial<ImageInput> & Pick<ImageInput, 'source'>, intake = intakeWith(), target = SEEING): Promise<AttachResult> {
  return intake.admit({ origin: 'user', requestedBy: 'user', ...input }, target, 'user');
}

async function accepted(result: Promise<AttachResult>) {
  const r = await result;
  if (!r.ok) throw new Error(`refused: ${r.code}: ${r.message}`);
  return { info: r.attachment, data: (await store.get(r.attachment.id))?.data ?? new Uint8Array() };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-intake-it-'));
  files = join(dir, 'files');
  root = join(dir, 'root');
  await mkdir(files);
  await mkdir(root);
  store = new FileAttachmentStore(join(dir, 'data'));
  const write = (name: string, data: Uint8Array | string) => writeFile(join(files, name), data);
  for (const f of ['png', 'jpeg', 'webp', 'gif', 'tiff', 'avif'] as const) await write(`quad.${f}`, await quadrantImage(f));
  await write('photo.png', await quadrantImage('jpeg')); // JPEG bytes under a .png name
  await write('exif6.jpg', (await exifRotatedJpeg()).data);
  await write('gps.jpg', await gpsJpeg());
  await write('drawing.svg', SVG);
  await write('drawing.png', SVG); // an SVG pretending to be a PNG
  await write('doc.pdf', pdfBytes());
  await write('page.html', HTML);
  await write('notes.txt', TEXT);
  await write('data.json', JSON_TEXT);
  await write('empty.png', new Uint8Array(0));
  await write('cut.png', await truncatedPng());
  await write('cut.jpg', await truncatedJpeg());
  await write('iphone.heic', heicHeader());
  await write('old.bmp', bmpBytes());
  await write('bomb.png', await decompressionBomb());
  await write('wide.png', await solidPng(20_000, 20));
  await write('dot.png', await solidPng(1, 1));
  await writeFile(join(root, 'allowed.png'), png);
  await symlink(join(files, 'quad.png'), join(root, 'escape.png'));

  server = createServer((req, res) => {
    hits++;
    if (req.url === '/img.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
      res.end(png);
    } else if (req.url?.startsWith('/redirect?to=')) {
      res.writeHead(302, { location: decodeURIComponent(req.url.slice('/redirect?to='.length)) });
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('accepted images', () => {
  it.each([
    ['quad.png', 'image/png'],
    ['quad.jpeg', 'image/jpeg'],
    ['quad.webp', 'image/webp'],
    ['quad.gif', 'image/gif'],
    ['quad.tiff', 'image/tiff'],
    ['quad.avif', 'image/avif'],
  ])('%s is accepted; the sniffed type is %s', async (name, mime) => {
    for (const target of [SEEING, SEEING_OPENAI]) {
      const { info, data } = await accepted(attachFile(name, target));
      expect(info.source.mime).toBe(mime);
      expect(target.profile.formats).toContain(info.mime);
      expect([info.width, info.height]).toEqual([64, 48]);
      expect(near((await pixelAt(data, 4, 4)).rgb, RED)).toBe(true);
      expect(info.name).toBe(name);
    }
  });

  it('trusts the bytes, not the name: JPEG bytes named .png are JPEG', async () => {
    const { info } = await accepted(attachFile('photo.png'));
    expect(info.source.mime).toBe('image/jpeg');
    expect(info.name).toBe('photo.png');
  });

  it('comes out upright from EXIF orientation 6', async () => {
    const { info, data } = await accepted(attachFile('exif6.jpg'));
    expect([info.width, info.height]).toEqual([60, 100]);
    expect(near((await pixelAt(data, 5, 5)).rgb, RED)).toBe(true);
  });

  it('drops GPS (and every other EXIF field) from what is stored and sent', async () => {
    const input = await sharp(join(files, 'gps.jpg')).metadata();
    expect(input.exif && exifHasGps(input.exif)).toBe(true);
    const { data } = await accepted(attachFile('gps.jpg'));
    expect((await sharp(data).metadata()).exif).toBeUndefined();
  });

  it('handles an extreme aspect ratio (20000×20)', async () => {
    const { info } = await accepted(attachFile('wide.png'));
    // gemma3's server squashes whatever it gets to 896×896: each axis is sent at most 896.
    expect(info).toMatchObject({ width: 896, height: 20, source: { width: 20_000, height: 20 } });
  });

  it('handles a 1×1 image', async () => {
    const { info } = await accepted(attachFile('dot.png'));
    expect([info.width, info.height]).toEqual([1, 1]);
  });

  it('reads a file:// URL and a strict data: URL', async () => {
    expect((await attach({ source: `file://${join(files, 'quad.png')}` })).ok).toBe(true);
    expect((await attach({ source: `data:image/png;base64,${png.toString('base64')}` })).ok).toBe(true);
  });

  it('stores what it accepted, content-addressed, and round-trips it', async () => {
    const a = await accepted(attachFile('quad.png'));
    const b = await accepted(attachFile('quad.png'));
    expect(b.info.id).toBe(a.info.id);
    expect(Buffer.from(a.data).length).toBe(a.info.bytes);
    expect(await store.info(a.info.id)).toMatchObject({ id: a.info.id, sha256: a.info.sha256 });
  });
});

describe('refused images', () => {
  it.each([
    ['drawing.svg', 'not-an-image', /SVG drawing/],
    ['drawing.png', 'not-an-image', /SVG drawing/],
    ['doc.pdf', 'not-an-image', /PDF document/],
    ['page.html', 'not-an-image', /HTML web page/],
    ['notes.txt', 'not-an-image', /plain text/],
    ['data.json', 'not-an-image', /JSON/],
    ['empty.png', 'not-an-image', /empty/],
    ['cut.png', 'corrupt', /damaged or cut short/],
    ['cut.jpg', 'corrupt', /damaged or cut short/],
    // A HEIC header with no image in it (the real decode path: test/images/heic.test.ts).
    ['iphone.heic', 'corrupt', /HEIC\/HEIF file is damaged or cut short/],
    ['old.bmp', 'unsupported-format', /BMP/],
  ])('%s is refused with %s, saying what it is', async (name, code, message) => {
    const result = await attachFile(name);
    expect(result).toMatchObject({ ok: false, code });
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('refuses a 40000×40000 decompression bomb (~200 KB) from its header without allocating its pixels', async () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    const result = await attachFile('bomb.png');
    const grown = process.memoryUsage().rss - before;
    expect(result).toMatchObject({ ok: false, code: 'too-many-pixels' });
    // As 8-bit RGB its pixels would be 4.8 GB; refusing from the header costs a few MB at most.
    expect(grown).toBeLessThan(100 * 1024 * 1024);
  });

  it('refuses a file over the ingest cap before decoding it', async () => {
    const small = intakeWith({ limits: { ...DEFAULT_LIMITS, ingestBytes: 100 } });
    const result = await attachFile('quad.tiff', SEEING, small);
    expect(result).toMatchObject({ ok: false, code: 'too-large' });
  });

  it('refuses a data: URL with bad base64', async () => {
    const result = await attach({ source: 'data:image/png;base64,iVBORw0KGgo$$AAAANSUhEUg==' });
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
  });

  it('refuses a bare relative path, asking for an absolute one', async () => {
    const result = await attach({ source: 'quad.png' });
    expect(result).toMatchObject({ ok: false, code: 'source-unreachable' });
    if (!result.ok) expect(result.message).toMatch(/absolute path/);
  });

  describe('SSRF', () => {
    it.each([
      ['loopback', () => `http://127.0.0.1:${port}/img.png`],
      ['localhost', () => `http://localhost:${port}/img.png`],
      ['[::1]', () => `http://[::1]:${port}/img.png`],
      ['169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
      ['10.x', () => 'http://10.0.0.7/cat.png'],
    ])('refuses %s', async (_what, url) => {
      const before = hits;
      const result = await attach({ source: url() });
      expect(result).toMatchObject({ ok: false, code: 'source-forbidden' });
      expect(hits).toBe(before);
    });

    it('fetches with the test-only loopback permission, and re-checks a redirect to another loopback port', async () => {
      const permitted = intakeWith({ allowLoopbackFetch: true, loopbackFetchPorts: [port] });
      expect((await attach({ source: `http://127.0.0.1:${port}/img.png` }, permitted)).ok).toBe(true);
      const to = encodeURIComponent('http://localhost:1/img.png');
      const result = await attach({ source: `http://127.0.0.1:${port}/redirect?to=${to}` }, permitted);
      expect(result).toMatchObject({ ok: false, code: 'source-forbidden' });
    });
  });

  describe('paths a model asks for', () => {
    const model = (source: string) => attach({ source, requestedBy: 'model', origin: 'analyze_image' });

    it('reads inside the allowed roots', async () => {
      expect((await model(join(root, 'allowed.png'))).ok).toBe(true);
    });

    it.each([
      ['outside the roots', () => join(files, 'quad.png')],
      ['traversal out of a root', () => `${root}/../files/quad.png`],
      ['a symbolic link escaping a root', () => join(root, 'escape.png')],
    ])('refuses %s', async (_what, path) => {
      expect(await model(path())).toMatchObject({ ok: false, code: 'source-forbidden' });
    });
  });
});
