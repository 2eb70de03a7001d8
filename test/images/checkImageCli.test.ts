// `glance check-image` (architecture §10): in-process through main(), against a loopback server that
// speaks Ollama's /api/show, and once as a real process.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../main/cli/main.ts';
import { SVG, quadrantImage, solidPng } from '../fixtures/images.ts';

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '../..');

let dir: string;
let pngPath: string;
let bigPath: string;
let svgPath: string;
let ollama: Server;
let ollamaUrl: string;
let deadUrl: string;
const shown: string[] = [];

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['check-image', ...argv], { out: (t) => out.push(t), err: (t) => err.push(t), env: {} });
  return { code, out: out.join(''), err: err.join('') };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-check-image-'));
  pngPath = join(dir, 'quad.png');
  bigPath = join(dir, 'screen.png');
  svgPath = join(dir, 'drawing.svg');
  await writeFile(pngPath, await quadrantImage('png'));
  await writeFile(bigPath, await solidPng(3840, 2160));
  await writeFile(svgPath, SVG);

  // Ollama's /api/show as real servers answer it: a `capabilities` list, or (older servers) none.
  const models: Record<string, object> = {
    gemma3: { capabilities: ['completion', 'vision'], details: { family: 'gemma3' }, model_info: {} },
    'my-gemma': {
      capabilities: ['completion', 'vision'],
      details: { family: 'gemma3' },
      model_info: { 'general.architecture': 'gemma3', 'gemma3.vision.image_size': 896, 'gemma3.vision.patch_size': 14, 'gemma3.context_length': 131072 },
    },
    'broken-qwen': {
      capabilities: ['completion', 'vision'],
      model_info: { 'general.architecture': 'qwen25vl', 'qwen25vl.vision.patch_size': 'fourteen', 'qwen25vl.vision.spatial_merge_size': 2 },
    },
    'llama3.2': { capabilities: ['completion', 'tools'], details: { family: 'llama' }, model_info: {} },
    oldmodel: { details: { family: 'llama' }, model_info: { 'general.architecture': 'llama' }, template: '{{ .Prompt }}' },
  };
  ollama = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/api/show') {
        const name = String((JSON.parse(body) as { model?: string }).model);
        shown.push(name);
        const model = models[name];
        res.writeHead(model ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(model ?? { error: `model '${name}' not found` }));
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"not found"}');
      }
    });
  });
  await new Promise<void>((r) => ollama.listen(0, '127.0.0.1', r));
  ollamaUrl = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
  const dead = createServer();
  await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
  deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
  await new Promise<void>((r) => dead.close(() => r()));
});

afterAll(async () => {
  ollama.closeAllConnections();
  await new Promise<void>((r) => ollama.close(() => r()));
  await rm(dir, { recursive: true, force: true });
});

describe('glance check-image (in-process)', () => {
  it('prints one JSON object for an accepted image and exits 0', async () => {
    const { code, out } = await cli(bigPath, '--json', '--vision', 'yes');
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    // architecture §10's fields in its order, then legibility and the rule that applied.
    expect(Object.keys(result)).toEqual(['ok', 'mime', 'width', 'height', 'bytes', 'sha256', 'modelInput', 'tokens', 'source', 'legibility', 'rule']);
    // No model named: the provider's default profile, and nothing known about an encoder.
    expect(result).toMatchObject({ ok: true, width: 1568, height: 882, modelInput: null, tokens: null, rule: null, source: { mime: 'image/png', width: 3840, height: 2160 } });
    expect(result.sha256).toMatch(/^[a-f0-9]{64}$/);
    expect(['image/png', 'image/jpeg']).toContain(result.mime);
  });

  it('fits to the chosen provider', async () => {
    const { out } = await cli(bigPath, '--json', '--provider', 'openai');
    expect(JSON.parse(out)).toMatchObject({ ok: true, width: 2048, height: 1152 });
  });

  it('with --model, fits to that model’s rule and says what its encoder sees and costs', async () => {
    const gpt = JSON.parse((await cli(bigPath, '--json', '--provider', 'openai', '--model', 'gpt-4o', '--vision', 'yes')).out) as Record<string, unknown>;
    expect(gpt).toMatchObject({ ok: true, width: 1365, height: 768, modelInput: { width: 1365, height: 768 }, tokens: 1105, rule: { family: 'gpt-4o', from: 'model-id' } });
    const claude = JSON.parse((await cli(bigPath, '--json', '--provider', 'openai', '--model', 'anthropic/claude-sonnet-4.5', '--vision', 'yes')).out) as Record<string, unknown>;
    expect(claude).toMatchObject({ width: 1456, height: 819, tokens: 1560 });
    // From Ollama's model_info: gemma3 squashes to 896², so Glance sends exactly that (squashed once, here).
    const gemma = await cli(bigPath, '--json', '--model', 'my-gemma', '--base-url', ollamaUrl);
    expect(gemma.code).toBe(0);
    expect(JSON.parse(gemma.out)).toMatchObject({
      width: 896,
      height: 896,
      modelInput: { width: 896, height: 896 },
      tokens: 256,
      legibility: { smallText: true },
      rule: { family: 'gemma3', from: 'model-info', notes: [] },
    });
    const human = await cli(bigPath, '--model', 'my-gemma', '--base-url', ollamaUrl);
    expect(human.out).toMatch(/OK for my-gemma: image\/\w+ 896×896 .*; the model's encoder sees 896×896, ≈256 tokens/);
    expect(human.out).toMatch(/about 3\.3 px as the model sees it: likely unreadable/);
  });

  it('a nonsense model_info value falls back to the table with a note', async () => {
    const { code, out } = await cli(bigPath, '--json', '--model', 'broken-qwen', '--base-url', ollamaUrl);
    expect(code).toBe(0);
    const result = JSON.parse(out) as { width: number; tokens: number; rule: { family: string; notes: string[] } };
    expect(result.rule.family).toBe('qwen2.5-vl');
    expect(result.rule.notes).toEqual([expect.stringMatching(/qwen25vl\.vision\.patch_size × qwen25vl\.vision\.spatial_merge_size = "fourteen" × 2 is not usable; using 28/)]);
    expect(result.tokens).toBe(85 * 48);
    const human = await cli(bigPath, '--model', 'broken-qwen', '--base-url', ollamaUrl);
    expect(human.err).toMatch(/^note: model_info qwen25vl\.vision\.patch_size/m);
  });

  it('--out writes the exact payload bytes', async () => {
    const file = join(dir, 'payload.out');
    const { code, out } = await cli(bigPath, '--json', '--provider', 'openai', '--model', 'gpt-4o', '--vision', 'yes', '--out', file);
    expect(code).toBe(0);
    const result = JSON.parse(out) as { bytes: number; sha256: string; mime: string };
    const written = await readFile(file);
    expect(written.byteLength).toBe(result.bytes);
    expect(createHash('sha256').update(written).digest('hex')).toBe(result.sha256);
    const meta = await sharp(written).metadata();
    expect([meta.width, meta.height, `image/${meta.format}`]).toEqual([1365, 768, result.mime]);
    // Nowhere to write: a plain error, exit 1.
    const bad = await cli(bigPath, '--out', join(dir, 'no-such-dir', 'x.png'));
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/could not write --out/);
  });

  it('prints a short human line without --json', async () => {
    const { code, out } = await cli(pngPath);
    expect(code).toBe(0);
    expect(out).toMatch(/^OK for ollama: image\/(png|jpeg) 64×48 · .+ \(from image\/png 64×48 · .+\), sha256 [a-f0-9]{16}…\n$/);
  });

  it('refuses an SVG with exit 3 and a message naming it', async () => {
    const { code, out } = await cli(svgPath, '--json');
    expect(code).toBe(3);
    expect(JSON.parse(out)).toEqual({ ok: false, code: 'not-an-image', message: expect.stringMatching(/SVG drawing/) });
    const human = await cli(svgPath);
    expect(human.code).toBe(3);
    expect(human.err).toMatch(/^Refused \(not-an-image\): This is an SVG drawing/);
  });

  it('refuses a bare relative path with the hint to use an absolute one', async () => {
    const { code, out } = await cli('quad.png', '--json');
    expect(code).toBe(3);
    expect(JSON.parse(out)).toMatchObject({ ok: false, code: 'source-unreachable', message: expect.stringMatching(/absolute path/) });
  });

  it('--vision no refuses before reading anything (the source need not even exist)', async () => {
    const { code, out } = await cli(join(dir, 'does-not-exist.png'), '--json', '--model', 'llama3.2', '--vision', 'no');
    expect(code).toBe(3);
    expect(JSON.parse(out)).toMatchObject({ ok: false, code: 'model-blind', message: expect.stringMatching(/^llama3\.2 cannot see images/) });
  });

  describe('with --model, capability detection through the provider', () => {
    it('accepts for a vision model', async () => {
      const { code, out } = await cli(pngPath, '--json', '--model', 'gemma3', '--base-url', ollamaUrl);
      expect(code).toBe(0);
      expect(JSON.parse(out)).toMatchObject({ ok: true });
      expect(shown).toContain('gemma3');
    });

    it('refuses a blind model', async () => {
      const { code, out } = await cli(pngPath, '--json', '--model', 'llama3.2', '--base-url', ollamaUrl);
      expect(code).toBe(3);
      expect(JSON.parse(out)).toEqual({
        ok: false,
        code: 'model-blind',
        message: 'llama3.2 cannot see images. Pick a vision model such as gemma3, or set a vision helper model in Settings.',
      });
    });

    it('refuses when the server does not say, and says how to declare it', async () => {
      const { code, out } = await cli(pngPath, '--json', '--model', 'oldmodel', '--base-url', ollamaUrl);
      expect(code).toBe(3);
      expect(JSON.parse(out)).toMatchObject({ ok: false, code: 'capability-unknown', message: expect.stringMatching(/--vision yes/) });
    });

    it('--vision overrides detection without asking the server', async () => {
      const before = shown.length;
      const { code } = await cli(pngPath, '--json', '--model', 'llama3.2', '--vision', 'yes', '--base-url', ollamaUrl);
      expect(code).toBe(0);
      expect(shown.length).toBe(before);
    });

    it('exits 4 when the server is unreachable', async () => {
      const { code, out } = await cli(pngPath, '--json', '--model', 'gemma3', '--base-url', deadUrl);
      expect(code).toBe(4);
      expect(JSON.parse(out)).toMatchObject({ ok: false, code: 'unreachable' });
    });
  });

  it.each([
    [[]],
    [['a.png', 'b.png']],
    [['/x.png', '--vision', 'maybe']],
    [['/x.png', '--provider', 'gemini']],
    [['/x.png', '--bogus']],
  ])('exits 2 on bad usage %j', async (argv) => {
    const { code, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(err).toMatch(/^glance check-image: /);
  });

  it('--help prints usage', async () => {
    const { code, out } = await cli('--help');
    expect(code).toBe(0);
    expect(out).toMatch(/Usage: glance check-image SOURCE/);
  });
});

describe('glance check-image (real process)', () => {
  it('node main/cli/main.ts check-image /abs/path --json --vision yes', async () => {
    const { stdout } = await run(process.execPath, ['main/cli/main.ts', 'check-image', pngPath, '--json', '--vision', 'yes'], { cwd: REPO });
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, width: 64, height: 48, source: { mime: 'image/png', width: 64, height: 48 } });
  });

  it('exits 3 with the refusal for an SVG', async () => {
    const failure = await run(process.execPath, ['main/cli/main.ts', 'check-image', svgPath, '--json'], { cwd: REPO }).then(
      () => undefined,
      (error: { code?: number; stdout?: string }) => error,
    );
    expect(failure?.code).toBe(3);
    expect(JSON.parse(failure?.stdout ?? '')).toMatchObject({ ok: false, code: 'not-an-image' });
  });
});
