// The CLI's --redact (architecture §10): check-image --redact --json prints the hidden regions in the
// original's pixels and --out writes the redacted payload; ask --redact always sends the screen
// masked and prints image_redacted. Real tesseract, the fixture model server.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatEvent } from '../../common/events.ts';
import { Redaction } from '../../common/privacy.ts';
import { main } from '../../main/cli/main.ts';
import { TesseractReader } from '../../main/ocr/tesseractReader.ts';

/** TesseractReader's idle timer (IDLE_MS in main/ocr/tesseractReader.ts): an unused worker ends after it. */
const IDLE_MS = 60_000;
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { readable, secretScreen, type SecretScreen } from '../fixtures/secretScreens.ts';

let dir: string;
let server: ModelServer;
let screen: SecretScreen;
let screenPath: string;
const reader = new TesseractReader({ timeoutMs: 180_000 });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-redact-cli-'));
  server = await createModelServer();
  screen = await secretScreen('env', { width: 1280, height: 720, seed: 1 });
  screenPath = join(dir, 'env.png');
  await writeFile(screenPath, screen.png);
});
afterAll(async () => {
  await reader.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t), env: { ...process.env, OLLAMA_HOST: server.url } });
  return { code, out, err };
}
const ocr = async (png: Uint8Array) => (await reader.read(await sharp(png).greyscale().png().toBuffer())).text;

describe('glance --redact', () => {
  it('check-image --redact --json prints redactions in the original pixels; --out writes the masked payload', async () => {
    const out = join(dir, 'sent.png');
    const r = await cli(['check-image', screenPath, '--redact', '--json', '--out', out]);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as { ok: boolean; redactions: unknown[]; source: { width: number } };
    expect(report.ok).toBe(true);
    const regions = report.redactions.map((x) => Redaction.parse(x));
    expect(regions.length).toBeGreaterThan(0);
    for (const g of regions) expect(g.x + g.width <= 1280 && g.y + g.height <= 720).toBe(true);
    const read = await ocr(await readFile(out));
    expect(screen.secrets.filter((s) => readable(s, read)), read).toEqual([]);
    // Without redaction the same payload shows them: the check above could fail.
    const plain = join(dir, 'plain.png');
    const p = await cli(['check-image', screenPath, '--redact', 'never', '--json', '--out', plain]);
    expect(JSON.parse(p.out)).toMatchObject({ ok: true, redactions: [] });
    const plainRead = await ocr(await readFile(plain));
    expect(screen.secrets.some((s) => readable(s, plainRead)), plainRead).toBe(true);
  }, 240_000);

  it("own patterns that run out of the image's time budget are named in the output, never dropped silently", async () => {
    const data = join(dir, 'slow-patterns');
    await mkdir(data, { recursive: true });
    // Polynomial backtracking on any line of text: each pattern alone takes seconds on an 80-character line.
    const slow = Array.from({ length: 50 }, (_, i) => ({ name: `slow ${i}`, pattern: String.raw`[\w .:=/-]*[\w .:=/-]*[\w .:=/-]*[\w .:=/-]*[\w .:=/-]*[\w .:=/-]*#` }));
    await writeFile(join(data, 'settings.json'), JSON.stringify({ version: 1, privacy: { redact: 'always', patterns: slow } }));
    let out = '';
    let err = '';
    const env = { ...process.env, OLLAMA_HOST: server.url, GLANCE_DATA_DIR: data };
    const code = await main(['check-image', screenPath, '--redact', '--json'], { out: (t) => void (out += t), err: (t) => void (err += t), env });
    expect(code, err).toBe(0);
    const report = JSON.parse(out) as { patternsSkipped?: string[] };
    expect(report.patternsSkipped?.length ?? 0).toBeGreaterThan(0);
    expect(report.patternsSkipped![0]).toMatch(/^slow \d+/);
    out = '';
    await main(['check-image', screenPath, '--redact'], { out: (t) => void (out += t), err: () => undefined, env });
    expect(out).toMatch(/Not applied \(ran out of the image's time budget\): your patterns? "slow \d+/);
  }, 240_000);

  it('check-image --redact without --json says what was hidden in words', async () => {
    const r = await cli(['check-image', screenPath, '--redact']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/\d+ regions? hidden on this device \(.+\): .+ at \d+,\d+ \d+×\d+/);
  }, 240_000);

  it('ask --redact always: the model gets the screen masked and the stream carries image_redacted', async () => {
    server.reset();
    const r = await cli(['ask', 'What is on my screen?', '--attach', screenPath, '--model', 'llava-seer', '--redact', 'always', '--data-dir', join(dir, 'data'), '--json']);
    expect(r.code, r.err).toBe(0);
    const stream = r.out.trim().split('\n').map((l) => ChatEvent.parse(JSON.parse(l)));
    const hidden = stream.find((e) => e.type === 'image_redacted');
    expect(hidden).toMatchObject({ type: 'image_redacted', regions: expect.any(Array), ms: expect.any(Number) });
    const body = server.requests[0]!.body as { messages: { images?: string[] }[] };
    const sent = body.messages.flatMap((m) => m.images ?? []).map((b) => Buffer.from(b, 'base64'));
    expect(sent.length).toBe(1);
    const read = await ocr(sent[0]!);
    expect(screen.secrets.filter((s) => readable(s, read)), read).toEqual([]);
  }, 240_000);

  it('a --redact that is not a policy is a usage error', async () => {
    const r = await cli(['ask', 'hi', '--model', 'llava-seer', '--redact', 'sometimes', '--data-dir', join(dir, 'data')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--redact takes always, remote or never, not "sometimes"/);
  });

  // The door's OCR workers keep a process alive until they are ended: left to their idle timer, a
  // check-image --redact sat IDLE_MS (60 s) after printing its answer before it exited. The bound
  // is that timer, not a speed: an exit that late means the workers were never closed.
  it('the real check-image --redact process exits once it has answered, not when idle OCR workers time out', { timeout: IDLE_MS * 2 }, async () => {
    const entry = fileURLToPath(new URL('../../main/cli/main.ts', import.meta.url));
    const child = spawn(process.execPath, [entry, 'check-image', screenPath, '--redact', '--json'], { env: { ...process.env, OLLAMA_HOST: server.url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let answeredAt = 0;
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      if (out.includes('\n')) answeredAt ||= performance.now();
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code).toBe(0);
    expect((JSON.parse(out) as { redactions: unknown[] }).redactions.length).toBeGreaterThan(0);
    // Left open, the workers end IDLE_MS after the last reading, a moment before the answer is printed.
    expect(performance.now() - answeredAt).toBeLessThan(IDLE_MS / 2);
  });
});
