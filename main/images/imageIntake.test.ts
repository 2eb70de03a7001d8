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
import type { IntakeConfig } from './types.ts';

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
    const result = await intake.tryAttachImage(
      { source: png, origin: 'user', requestedBy: 'user' },
      targetFor('ollama', 'llama3.2', { vision: 'no', visionSource: 'ollama-capabilities' }),
    );
    expect(result).toEqual({
      ok: false,
      code: 'model-blind',
      message: 'llama3.2 cannot see images. Pick a vision model such as gemma3, or set a vision helper model in Settings.',
    });
  });

  it('refuses unknown capability and says how to declare it', async () => {
    const result = await intake.tryAttachImage({ source: png, origin: 'user', requestedBy: 'user' }, targetFor('openai', 'my-model', undefined));
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
    await intake.tryAttachImage({ source, origin: 'user', requestedBy: 'user' }, targetFor('ollama', 'llama3.2', undefined, 'no'));
    await intake.tryAttachImage({ source, origin: 'user', requestedBy: 'user' }, targetFor('ollama', 'x', undefined));
    expect(hits).toBe(before);
    const seeing = await intake.tryAttachImage({ source, origin: 'user', requestedBy: 'user' }, targetFor('ollama', 'gemma3', undefined, 'yes'));
    expect(seeing.ok).toBe(true);
    expect(hits).toBe(before + 1);
  });

  it('names a declared verdict in the refusal', () => {
    expect(visionRefusal(targetFor('ollama', 'llava', undefined, 'no'))?.message).toMatch(/declared with --vision no/);
    expect(visionRefusal(targetFor('openai', 'm', undefined, { vision: 'no', source: 'settings' }))?.message).toMatch(/Vision setting is off/);
    expect(visionRefusal(targetFor('openai', 'm', undefined, 'yes'))).toBeUndefined();
  });
});

describe('tryAttachImage', () => {
  it('stores an accepted image and returns its attachment', async () => {
    const result = await intake.tryAttachImage(
      { source: png, name: 'drop.png', origin: 'user', requestedBy: 'user' },
      targetFor('ollama', 'gemma3', { vision: 'yes', visionSource: 'ollama-capabilities' }),
    );
    if (!result.ok) throw new Error(result.message);
    expect(result.attachment).toMatchObject({ name: 'drop.png', origin: 'user', width: 64, height: 48, source: { mime: 'image/png', bytes: png.byteLength } });
    const files = await readdir(join(dataDir, 'attachments'));
    expect(files).toContain(`${result.attachment.id}.json`);
  });

  it('names nameless bytes after their output format', async () => {
    const result = await intake.prepare({ source: await quadrantImage('tiff'), origin: 'hotkey', requestedBy: 'user' }, targetFor('ollama', 'g', undefined, 'yes').profile);
    expect(result.ok && result.image.name).toMatch(/^image\.(png|jpg)$/);
  });

  it('never puts image bytes or base64 in a refusal', async () => {
    const b64 = png.toString('base64');
    const result = await intake.tryAttachImage(
      { source: `data:image/png;base64,${b64.slice(0, -3)}`, origin: 'user', requestedBy: 'user' },
      targetFor('ollama', 'gemma3', undefined, 'yes'),
    );
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
    if (!result.ok) expect(result.message).not.toContain(b64.slice(0, 16));
  });

  it('rejects with the abort reason when cancelled before work starts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      intake.tryAttachImage({ source: png, origin: 'user', requestedBy: 'user' }, targetFor('ollama', 'g', undefined, 'yes'), { signal: controller.signal }),
    ).rejects.toThrow('stop');
  });
});
