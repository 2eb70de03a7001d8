import sharp from 'sharp';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { quadrantImage } from '../../test/fixtures/images.ts';
import { FileAttachmentStore } from './attachmentStore.ts';
import { ImageIntake, visionRefusal } from './imageIntake.ts';
import { targetFor } from './profiles.ts';
import type { IntakeConfig, PixelStage } from './types.ts';

const png = await quadrantImage('png');

let server: Server;
let port: number;
let hits = 0;
let dataDir: string;
let intake: ImageIntake;

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  dataDir = await mkdtemp(join(tmpdir(), 'glance-intake-'));
  const config: IntakeConfig = { limits: { ...DEFAULT_LIMITS }, allowedRoots: [], allowLoopbackFetch: true };
  intake = new ImageIntake({ config, store: new FileAttachmentStore(dataDir) });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dataDir, { recursive: true, force: true });
});

describe('the capability gate', () => {
  it('refuses a blind model in words a person can act on', async () => {
    const result = await intake.admit({ source: png, origin: 'user', requestedBy: 'user' }, targetFor('ollama', 'llama3.2', { vision: 'no', visionSource: 'ollama-capabilities' }), 'user');
    expect(result).toEqual({
      ok: false,
      code: 'model-blind',
      message: 'llama3.2 cannot see images. Pick a vision model such as gemma3, or set a vision helper model in Settings.',
    });
  });

  it('refuses unknown capability and says how to declare it', async () => {
    const result = await intake.admit({ source: png, origin: 'user', requestedBy: 'user' }, targetFor('openai', 'my-model', undefined), 'user');
    expect(result).toMatchObject({ ok: false, code: 'capability-unknown' });
    if (!result.ok) {
      expect(result.message).toMatch(/cannot tell whether my-model can see images/);
      expect(result.message).toMatch(/--vision yes/);
      expect(result.message).toMatch(/Vision setting/);
    }
  });

  it('checks capability first: nothing is fetched for a blind or unknown model', async () => {
    const before = hits;
    const source = `http://127.0.0.1:${port}/img.png`;
    await intake.admit({ source, origin: 'user', requestedBy: 'user' }, targetFor('ollama', 'llama3.2', undefined, 'no'), 'user');
    await intake.admit({ source, origin: 'user', requestedBy: 'user' }, targetFor('ollama', 'x', undefined), 'user');
    expect(hits).toBe(before);
    const seeing = await intake.admit({ source, origin: 'user', requestedBy: 'user' }, targetFor('ollama', 'gemma3', undefined, 'yes'), 'user');
    expect(seeing.ok).toBe(true);
    expect(hits).toBe(before + 1);
  });

  it('names a declared verdict in the refusal', () => {
    expect(visionRefusal(targetFor('ollama', 'llava', undefined, 'no'))?.message).toMatch(/declared with --vision no/);
    expect(visionRefusal(targetFor('openai', 'm', undefined, { vision: 'no', source: 'settings' }))?.message).toMatch(/Vision setting is off/);
    expect(visionRefusal(targetFor('openai', 'm', undefined, 'yes'))).toBeUndefined();
  });
});

describe('admit', () => {
  it('stores an accepted image and returns its attachment', async () => {
    const result = await intake.admit({ source: png, name: 'drop.png', origin: 'user', requestedBy: 'user' }, targetFor('ollama', 'gemma3', { vision: 'yes', visionSource: 'ollama-capabilities' }), 'user');
    if (!result.ok) throw new Error(result.message);
    expect(result.attachment).toMatchObject({ name: 'drop.png', origin: 'user', width: 64, height: 48, source: { mime: 'image/png', bytes: png.byteLength } });
    const files = await readdir(join(dataDir, 'attachments'));
    expect(files).toContain(`${result.attachment.id}.json`);
  });

  it('names nameless bytes after their output format', async () => {
    const result = await intake.admit({ source: await quadrantImage('tiff'), origin: 'hotkey', requestedBy: 'user' }, { profile: targetFor('ollama', 'g', undefined, 'yes').profile }, 'check');
    expect(result.ok && result.image.name).toMatch(/^image\.(png|jpg)$/);
  });

  it('never puts image bytes or base64 in a refusal', async () => {
    const b64 = png.toString('base64');
    const result = await intake.admit({ source: `data:image/png;base64,${b64.slice(0, -3)}`, origin: 'user', requestedBy: 'user' }, targetFor('ollama', 'gemma3', undefined, 'yes'), 'user');
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
    if (!result.ok) expect(result.message).not.toContain(b64.slice(0, 16));
  });

  it('rejects with the abort reason when cancelled before work starts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      intake.admit({ source: png, origin: 'user', requestedBy: 'user' }, targetFor('ollama', 'g', undefined, 'yes'), 'user', { signal: controller.signal }),
    ).rejects.toThrow('stop');
  });
});

describe('the pixel stage (where redaction plugs in)', () => {
  it('starts as the image enters, is awaited before the target copy is made, and leaves the original as it came', async () => {
    const calls: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const black = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#000000' } }).png().toBuffer();
    const stage: PixelStage = {
      begin(image, target) {
        calls.push(`begin ${image.mime} ${image.origin} ${'model' in target ? target.model : 'profile'}`);
        return {
          settle: async () => {
            await gate;
            calls.push('settled');
            return { data: black };
          },
        };
      },
    };
    const staged = new ImageIntake({ config: { limits: { ...DEFAULT_LIMITS }, allowedRoots: [] }, store: new FileAttachmentStore(dataDir), pixelStage: stage });
    const pending = staged.admit({ source: png, origin: 'user', requestedBy: 'user' }, targetFor('ollama', 'gemma3', undefined, 'yes'), 'user');
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toEqual(['begin image/png user gemma3']);
    release();
    const result = await pending;
    if (!result.ok) throw new Error(result.message);
    expect(calls).toEqual(['begin image/png user gemma3', 'settled']);
    const store = new FileAttachmentStore(dataDir);
    const payload = await store.get(result.attachment.id);
    const { data } = await sharp(payload!.data).raw().toBuffer({ resolveWithObject: true });
    expect(Math.max(...data)).toBe(0);
    const original = await store.original(result.attachment);
    expect(Buffer.from(original!.data).equals(png)).toBe(true);
  });

  it('a stage that refuses stops the image: nothing is stored', async () => {
    const store = new FileAttachmentStore(dataDir);
    let puts = 0;
    const put = store.put.bind(store);
    store.put = (...args) => (puts++, put(...args));
    const refusing: PixelStage = { begin: () => ({ settle: async () => ({ ok: false, code: 'corrupt', message: 'could not be checked' }) }) };
    const staged = new ImageIntake({ config: { limits: { ...DEFAULT_LIMITS }, allowedRoots: [] }, store, pixelStage: refusing });
    const result = await staged.admit({ source: png, origin: 'user', requestedBy: 'user' }, targetFor('ollama', 'gemma3', undefined, 'yes'), 'user');
    expect(result).toEqual({ ok: false, code: 'corrupt', message: 'could not be checked' });
    expect(puts).toBe(0);
  });
});
