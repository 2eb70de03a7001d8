import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ChatEvent } from '../../common/events.ts';
import { main } from '../../main/cli/main.ts';
import type { CommandIO } from '../../main/cli/io.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { SVG } from '../fixtures/images.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';

const run = promisify(execFile);
let server: ModelServer;
let dir: string;
let chartPath: string;

beforeAll(async () => {
  server = await createModelServer();
  dir = await mkdtemp(join(tmpdir(), 'glance-ask-'));
  chartPath = join(dir, 'chart.png');
  await writeFile(chartPath, await makeBarChart());
  await writeFile(join(dir, 'drawing.png'), SVG);
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function capture(): { io: CommandIO; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { out: (t) => void (out += t), err: (t) => void (err += t), env: { ...process.env, OLLAMA_HOST: server.url } }, out: () => out, err: () => err };
}

const events = (text: string) => text.trim().split('\n').map((l) => ChatEvent.parse(JSON.parse(l)));

describe('glance ask', () => {
  it('--json prints the event stream; the attached chart is read by the model', async () => {
    const c = capture();
    const code = await main(['ask', 'What is in this chart?', '--attach', chartPath, '--model', 'llava-seer', '--data-dir', join(dir, 'data'), '--json'], c.io);
    expect(code).toBe(0);
    const stream = events(c.out());
    expect(stream[0]).toMatchObject({ type: 'image_attached', origin: 'user', name: 'chart.png' });
    const done = stream.at(-1)!;
    expect(done.type).toBe('done');
    expect(done.type === 'done' && done.text).toContain('red, green, blue');
    expect(stream.filter((e) => e.type === 'text').map((e) => (e.type === 'text' ? e.delta : '')).join('')).toContain('tallest green');
  });

  it('continues a stored conversation with --conversation', async () => {
    const c1 = capture();
    await main(['ask', 'first', '--model', 'llava-seer', '--data-dir', join(dir, 'data2'), '--json'], c1.io);
    const id = (events(c1.out()).at(-1) as { conversationId: string }).conversationId;
    const c2 = capture();
    expect(await main(['ask', 'second', '--model', 'llava-seer', '--data-dir', join(dir, 'data2'), '--conversation', id, '--json'], c2.io)).toBe(0);
    expect(server.requests.at(-1)!.messages.filter((m) => m.role === 'user').map((m) => m.text)).toEqual(['first', 'second']);
    const files = await readdir(join(dir, 'data2', 'conversations'));
    expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(1);
    const c3 = capture();
    expect(await main(['ask', 'third', '--model', 'llava-seer', '--data-dir', join(dir, 'data2'), '--conversation', 'nope', '--json'], c3.io)).toBe(2);
  });

  it('exit 3 when an image is refused, and nothing is sent', async () => {
    const before = server.requests.length;
    const c = capture();
    const code = await main(['ask', 'look', '--attach', join(dir, 'drawing.png'), '--model', 'llava-seer', '--data-dir', join(dir, 'data'), '--json'], c.io);
    expect(code).toBe(3);
    const refused = events(c.out()).find((e) => e.type === 'image_refused');
    expect(refused).toMatchObject({ code: 'not-an-image' });
    expect(server.requests.length).toBe(before);
    const blind = capture();
    expect(await main(['ask', 'look', '--attach', chartPath, '--model', 'blind-llm', '--data-dir', join(dir, 'data')], blind.io)).toBe(3);
    expect(blind.err()).toMatch(/blind-llm cannot see images/);
  });

  it('exit 4 when the model server is unreachable, with the hint', async () => {
    await server.setDown(true);
    try {
      const c = capture();
      const code = await main(['ask', 'hi', '--model', 'llava-seer', '--vision', 'yes', '--data-dir', join(dir, 'data')], c.io);
      expect(code).toBe(4);
      expect(c.err()).toMatch(/ollama serve/);
    } finally {
      await server.setDown(false);
    }
  });

  it("honours the app's settings file: the Ollama host and a declared vision verdict", async () => {
    const dataDir = join(dir, 'data-settings');
    await mkdir(dataDir, { recursive: true });
    // The user declared llava-seer blind in Settings: that wins over detection…
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, providers: { ollama: { host: server.url } }, vision: { ollama: { 'llava-seer': 'no' } } }));
    const env = { ...process.env };
    delete env.OLLAMA_HOST;
    const refused = capture();
    refused.io.env = env;
    expect(await main(['ask', 'What is it?', '--attach', chartPath, '--model', 'llava-seer', '--data-dir', dataDir], refused.io)).toBe(3);
    expect(refused.err()).toMatch(/llava-seer cannot see images/);
    // …and the flag wins over the setting; the host came from the settings file (no OLLAMA_HOST).
    const ok = capture();
    ok.io.env = env;
    expect(await main(['ask', 'What is it?', '--attach', chartPath, '--model', 'llava-seer', '--vision', 'yes', '--data-dir', dataDir], ok.io)).toBe(0);
    expect(server.requests.at(-1)!.images[0]!.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  });

  it('exit 2 on usage errors', async () => {
    expect(await main(['ask'], capture().io)).toBe(2);
    expect(await main(['ask', 'x', '--vision', 'maybe'], capture().io)).toBe(2);
    expect(await main(['ask', 'x', '--provider', 'claude'], capture().io)).toBe(2);
  });

  it('works as a real process over the OpenAI-compatible wire, picking the vision model itself', async () => {
    const { stdout } = await run(process.execPath, ['main/cli/main.ts', 'ask', 'Describe', '--attach', chartPath, '--provider', 'openai', '--base-url', server.openaiBaseUrl, '--data-dir', join(dir, 'data3')], {
      env: { ...process.env },
    });
    expect(stdout).toContain('red, green, blue');
    expect(server.requests.at(-1)!.api).toBe('openai');
    expect(server.requests.at(-1)!.model).toBe('llava-seer');
    const stored = await readdir(join(dir, 'data3', 'conversations'));
    const text = await readFile(join(dir, 'data3', 'conversations', stored.find((f) => f.endsWith('.json'))!), 'utf8');
    expect(text).not.toMatch(/[A-Za-z0-9+/]{200,}/);
  });
});
