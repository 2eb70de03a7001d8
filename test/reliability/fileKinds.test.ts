// Issue 12 items 4 and 9 (non-MCP): sources that are not images in disguise — a FIFO, a
// device, a folder, a JPEG header lying about its size — and refusals in plain words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { defaultAllowedRoots } from '../../main/images/readLocalFile.ts';
import { ImageIntake } from '../../main/images/imageIntake.ts';
import { FileAttachmentStore } from '../../main/images/attachmentStore.ts';
import { resolveModel } from '../../main/core/modelResolver.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { makeHarness, ofType } from '../chat/engineHarness.ts';

const REPO = resolve(import.meta.dirname, '../..');
let dir: string;
let fifo: string;
let server: ModelServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-kinds-'));
  await mkdir(join(dir, 'pics'));
  fifo = join(dir, 'pics', 'pipe.png');
  await new Promise<void>((ok, fail) => execFile('mkfifo', [fifo], (e) => (e ? fail(e) : ok())));
  server = await createModelServer();
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the real CLI as a process; a hang is killed after `ms` and reported as such. */
function cli(args: string[], ms = 20_000): Promise<{ code: number | null; stdout: string; stderr: string; killed: boolean }> {
  return new Promise((done) => {
    const child = execFile(process.execPath, [join(REPO, 'main/cli/main.ts'), ...args], { timeout: ms, env: { ...process.env, OLLAMA_HOST: server.url } }, (error, stdout, stderr) => {
      done({ code: child.exitCode, stdout, stderr, killed: error?.killed === true || child.signalCode !== null });
    });
  });
}

function intake(dataDir: string, allowedRoots: string[] = [join(dir, 'pics')]) {
  return new ImageIntake({ config: { limits: { ...DEFAULT_LIMITS }, allowedRoots, allowLoopbackFetch: true }, store: new FileAttachmentStore(dataDir) });
}

async function target() {
  return (await resolveModel({ kind: 'ollama', model: 'llava-seer', baseUrl: server.url })).target;
}

describe('not a regular file (item 4)', () => {
  it('glance check-image on a FIFO answers at once with a refusal (it used to hang)', async () => {
    const result = await cli(['check-image', fifo, '--json']);
    expect(result.killed).toBe(false);
    const answer = JSON.parse(result.stdout) as { ok: boolean; code: string; message: string };
    expect(answer).toMatchObject({ ok: false, code: 'source-unreachable' });
    expect(answer.message).toMatch(/not a regular file/);
    expect(result.code).toBe(3);
  });

  it.each([
    ['a character device', '/dev/zero', /not a regular file/],
    ['a folder', '/tmp', /is a folder/],
  ])('%s is refused before it is opened', async (_what, path, message) => {
    const result = await intake(join(dir, 'data')).admit({ source: path, origin: 'user', requestedBy: 'user' }, await target(), 'user');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('analyze_image on a FIFO under an allowed root fails that call and the turn goes on', async () => {
    const h = await makeHarness({ ollama: server.url, openai: server.openaiBaseUrl }, { allowedRoots: [join(dir, 'pics')] });
    try {
      server.script({ toolCalls: [{ name: 'analyze_image', arguments: { source: fifo, prompt: 'what is it?' } }] }, { text: 'That was not an image.' });
      const { outcome, events } = await h.turn({ model: 'llava-seer', text: 'look at the pipe' });
      expect(outcome.status).toBe('done');
      expect(ofType(events, 'tool_result')[0]).toMatchObject({ ok: false });
      expect(ofType(events, 'tool_result')[0]!.text).toMatch(/not a regular file/);
    } finally {
      await h.close();
      server.reset();
    }
  });
});

describe('small refusals in plain words (item 9)', () => {
  it('a JPEG whose header claims 10000×10000 in about 2 KB is refused as corrupt, not accepted as grey', async () => {
    const small = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 30, b: 30 } } }).jpeg({ quality: 90 }).toBuffer();
    const lying = Buffer.from(small);
    const sof = lying.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sof).toBeGreaterThan(0);
    lying.writeUInt16BE(10_000, sof + 5);
    lying.writeUInt16BE(10_000, sof + 7);
    expect(lying.byteLength).toBeLessThan(3000);
    const result = await intake(join(dir, 'data')).admit({ source: lying, name: 'lying.jpg', origin: 'user', requestedBy: 'user' }, await target(), 'user');
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
    if (!result.ok) expect(result.message).toMatch(/claims to be 10000×10000 pixels/);
    // A real photo-sized JPEG still passes.
    const real = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 10, g: 120, b: 200 } } }).jpeg().toBuffer();
    expect((await intake(join(dir, 'data')).admit({ source: real, origin: 'user', requestedBy: 'user' }, await target(), 'user')).ok).toBe(true);
  });

  it('issue 30 item 10: jpeg-sof-65535.jpg is too-many-pixels (not corrupt); PNG magic followed by HTML is corrupt (not not-an-image)', async () => {
    const small = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 20, g: 30, b: 200 } } }).jpeg().toBuffer();
    const huge = Buffer.from(small);
    const sof = huge.indexOf(Buffer.from([0xff, 0xc0]));
    huge.writeUInt16BE(65_535, sof + 5);
    huge.writeUInt16BE(65_535, sof + 7);
    const big = await intake(join(dir, 'data')).admit({ source: huge, name: 'jpeg-sof-65535.jpg', origin: 'user', requestedBy: 'user' }, await target(), 'user');
    expect(big).toMatchObject({ ok: false, code: 'too-many-pixels' });
    if (!big.ok) expect(big.message).toMatch(/65535×65535/);

    const disguised = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('<!doctype html><html><body>not a picture</body></html>\n')]);
    const page = await intake(join(dir, 'data')).admit({ source: disguised, name: 'photo.png', origin: 'user', requestedBy: 'user' }, await target(), 'user');
    expect(page).toMatchObject({ ok: false, code: 'corrupt' });
    if (!page.ok) expect(page.message).toMatch(/starts like a PNG image but the rest is not one/);
  });

  it('the temp folder is not a default allowed root', () => {
    expect(defaultAllowedRoots('/data/glance')).not.toContain(tmpdir());
    expect(defaultAllowedRoots('/data/glance').some((r) => r.startsWith(tmpdir()))).toBe(false);
  });

  it('a model-requested path outside the roots is refused without listing the roots or the data directory', async () => {
    const dataDir = join(dir, 'secret-data-dir');
    const roots = [join(dataDir, 'attachments'), join(dir, 'pics')];
    const result = await intake(dataDir, roots).admit({ source: '/etc/hostname', origin: 'analyze_image', requestedBy: 'model' }, await target(), 'user');
    expect(result).toMatchObject({ ok: false, code: 'source-forbidden' });
    if (!result.ok) {
      expect(result.message).not.toContain(dataDir);
      expect(result.message).not.toContain(join(dir, 'pics'));
    }
  });

  it('a server that does not speak HTTP is described in words, not as HPE_INVALID_CONSTANT', async () => {
    const garbage: Server = createServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
    await new Promise<void>((ok) => garbage.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}/shot.png`;
      const result = await intake(join(dir, 'data')).admit({ source: url, origin: 'user', requestedBy: 'user' }, await target(), 'user');
      expect(result).toMatchObject({ ok: false, code: 'source-unreachable' });
      if (!result.ok) {
        expect(result.message).not.toMatch(/HPE_|E[A-Z]{4,}/);
        expect(result.message).toMatch(/did not answer in valid HTTP/);
      }
    } finally {
      garbage.close();
    }
  });

  it('a damaged image says so without the decoder internals', async () => {
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 1, g: 2, b: 3 } } }).png().toBuffer();
    const cut = png.subarray(0, Math.floor(png.length / 2));
    const result = await intake(join(dir, 'data')).admit({ source: cut, origin: 'user', requestedBy: 'user' }, await target(), 'user');
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
    if (!result.ok) expect(result.message).not.toMatch(/vips|spng|libpng|bad seek|read error/i);
  });
});
