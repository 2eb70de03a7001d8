// A hostile model server against the real engine, providers and CLI (issue 12: items 1, 2, 7;
// issue 30: items 5, 7).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatEvent } from '../../common/events.ts';
import { main } from '../../main/cli/main.ts';
import { testServices } from '../support/testServices.ts';
import { resolveModel } from '../../main/core/modelResolver.ts';
import type { Tool } from '../../main/tools/tool.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { ofType } from '../chat/engineHarness.ts';
import { hasBase64Run } from '../support/storedText.ts';
import { createFaultModelServer, type FaultModelServer } from './faultModelServer.ts';

const KEY = 'sk-proj-FAULTKEY0123456789abcdefghij';
/** A key with no recognisable shape: only the known-secret list can catch it. */
const PLAIN_KEY = 'plain-secret-5f4e3d2c1b';
let server: FaultModelServer;
let dir: string;

beforeAll(async () => {
  server = await createFaultModelServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function core(limits = {}) {
  dir = await mkdtemp(join(tmpdir(), 'glance-fault-'));
  return testServices({ dataDir: dir, limits, secrets: [PLAIN_KEY] });
}

const counter: Tool = {
  needsVision: false,
  spec: { name: 'count', description: 'Counts.', parameters: { type: 'object', properties: {} } },
  async run() {
    runs++;
    return { ok: true, text: `counted ${runs}` };
  },
};
let runs = 0;

async function turn(c: Awaited<ReturnType<typeof core>>, kind: 'ollama' | 'openai', text: string, apiKey?: string, attach = false) {
  const chat = await resolveModel({ kind, model: kind === 'ollama' ? 'faulty' : 'faulty', baseUrl: kind === 'ollama' ? server.url : server.openaiBaseUrl, apiKey, vision: 'yes' });
  const events: ChatEvent[] = [];
  const attachments = attach ? [{ source: await makeBarChart(), name: 'chart.png', origin: 'user', requestedBy: 'user' as const }] : [];
  const outcome = await c.engine.runTurn({ text, chat, attachments }, (e) => events.push(e));
  return { outcome, events };
}

describe('error bodies that echo the request (item 1)', () => {
  for (const kind of ['openai', 'ollama'] as const) {
    for (const status of [400, 401, 404, 429, 500]) {
      it(`${kind} HTTP ${status}: the error event holds no key, no base64, a few hundred characters`, async () => {
        server.setFault({ kind: 'echo-error', status });
        const c = await core();
        const { outcome, events } = await turn(c, kind, `please use ${PLAIN_KEY}`, kind === 'openai' ? KEY : undefined, true);
        expect(outcome.status).toBe('failed');
        const [error] = ofType(events, 'error');
        expect(error).toBeDefined();
        const message = error!.message;
        expect(message).not.toContain(KEY);
        expect(message).not.toContain(KEY.slice(8, 24));
        expect(message).not.toContain(PLAIN_KEY);
        expect(hasBase64Run(message)).toBe(false);
        expect(message.length).toBeLessThan(500);
        // Ollama's client keeps no body for 404 and 429; every other answer quoted the request.
        if (!(kind === 'ollama' && (status === 404 || status === 429))) expect(message).toMatch(/more characters not shown/);
        expect(outcome.error!.message).toBe(message);
        console.log(`[reliability] echo-error ${kind} ${status}: request ${server.stats.lastBodyBytes} bytes, error shown ${message.length} chars`);
      });
    }
  }

  it('the CLI prints the redacted, bounded error and exits 4', async () => {
    server.setFault({ kind: 'echo-error', status: 400 });
    dir = await mkdtemp(join(tmpdir(), 'glance-fault-cli-'));
    let out = '';
    let err = '';
    const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t), env: { ...process.env, FAULT_KEY: KEY } };
    const chart = join(dir, 'chart.png');
    await (await import('node:fs/promises')).writeFile(chart, await makeBarChart());
    const code = await main(['ask', 'look', '--provider', 'openai', '--base-url', server.openaiBaseUrl, '--api-key-env', 'FAULT_KEY', '--model', 'faulty', '--vision', 'yes', '--attach', chart, '--data-dir', join(dir, 'data')], io);
    expect(code).toBe(4);
    expect(err + out).not.toContain(KEY);
    expect(hasBase64Run(err + out)).toBe(false);
    expect(err.length).toBeLessThan(700);
  });
});

describe('a model that calls tools forever (item 2)', () => {
  it('is stopped after maxStepsPerTurn steps with a clear message; the last step offers no tools and its calls are not run', async () => {
    server.setFault({ kind: 'tool-loop', tool: 'count' });
    runs = 0;
    const c = await core({ maxStepsPerTurn: 25 });
    c.tools.add(counter);
    const before = server.stats.chatRequests;
    server.stats.toolsOffered.length = 0;
    const { outcome, events } = await turn(c, 'ollama', 'count forever');
    expect(server.stats.chatRequests - before).toBe(25);
    expect(runs).toBe(24);
    expect(server.stats.toolsOffered.at(-1)).toBe(0);
    expect(server.stats.toolsOffered.slice(0, -1).every((n) => n > 0)).toBe(true);
    expect(outcome.status).toBe('failed');
    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'step-limit' });
    expect(ofType(events, 'error')[0]!.message).toMatch(/Stopped after 25 model steps/);
    // The conversation is well-formed: every stored tool call has its result.
    const stored = await c.conversations.get(outcome.conversationId);
    const calls = stored!.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((t) => t.id) : []));
    const results = new Set(stored!.messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
    expect(calls.every((id) => results.has(id))).toBe(true);
    const size = (await stat(c.conversations.fileOf(outcome.conversationId))).size;
    console.log(`[reliability] tool loop: ${server.stats.chatRequests - before} requests, ${runs} tool runs, last request ${server.stats.lastBodyBytes} bytes, conversation file ${size} bytes`);
  });

  it('the default limit is 25 steps', async () => {
    server.setFault({ kind: 'tool-loop', tool: 'count' });
    const c = await core();
    c.tools.add(counter);
    const before = server.stats.chatRequests;
    await turn(c, 'openai', 'count forever');
    expect(server.stats.chatRequests - before).toBe(25);
  });
});

describe('unbounded answers (item 7)', () => {
  it('an endless stream is stopped at maxAnswerChars with a note; the request is closed', async () => {
    server.setFault({ kind: 'endless' });
    const c = await core({ maxAnswerChars: 50_000 });
    const hangups = server.stats.clientHangups;
    const { outcome, events } = await turn(c, 'openai', 'talk');
    expect(outcome.status).toBe('done');
    const text = ofType(events, 'text').map((e) => e.delta).join('');
    expect(text.length).toBeLessThan(50_400);
    expect(text).toMatch(/Glance stopped this answer at 50,000 characters/);
    await expect.poll(() => server.stats.clientHangups).toBeGreaterThan(hangups);
  });

  for (const kind of ['ollama', 'openai'] as const) {
    it(`${kind}: a 20 MB answer is stored at the cap, not whole`, async () => {
      server.setFault({ kind: 'huge', chars: 20_000_000 });
      const c = await core({ maxAnswerChars: 100_000 });
      const { outcome } = await turn(c, kind, 'write a lot');
      expect(outcome.text.length).toBeLessThan(100_400);
      const file = c.conversations.fileOf(outcome.conversationId);
      expect((await stat(file)).size).toBeLessThan(150_000);
      console.log(`[reliability] huge answer ${kind}: 20,000,000 chars offered, ${outcome.text.length} kept, file ${(await stat(file)).size} bytes`);
    });
  }

  it('a stream dropped mid-answer keeps what arrived and says so', async () => {
    server.setFault({ kind: 'drop' });
    const c = await core();
    const { outcome, events } = await turn(c, 'openai', 'hi');
    expect(outcome.status).toBe('failed');
    expect(ofType(events, 'error')[0]!.code).toBe('interrupted');
    const stored = await c.conversations.get(outcome.conversationId);
    expect(stored!.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'Partial ans', interrupted: 'error' });
  });
});

describe('streams that stall (issue 30 item 5)', () => {
  for (const kind of ['ollama', 'openai'] as const) {
    it(`${kind}: headers, a few words, then nothing — stopped after the idle timeout as interrupted, the words kept`, async () => {
      server.setFault({ kind: 'stall', text: 'The first half of ' });
      const c = await core({ streamIdleMs: 1500 });
      const hangups = server.stats.clientHangups;
      const { outcome, events } = await turn(c, kind, 'hi');
      expect(outcome.status).toBe('failed');
      expect(ofType(events, 'error')[0]).toMatchObject({ code: 'interrupted' });
      expect(ofType(events, 'error')[0]!.message).toMatch(/sent nothing for 2 s.*what arrived is kept.*Model silence timeout/);
      const stored = await c.conversations.get(outcome.conversationId);
      expect(stored!.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'The first half of ', interrupted: 'error' });
      // The request was closed, not left hanging.
      await expect.poll(() => server.stats.clientHangups).toBeGreaterThan(hangups);
    });
  }

  it('headers and then nothing at all: interrupted, nothing stored as an answer', async () => {
    server.setFault({ kind: 'stall' });
    const c = await core({ streamIdleMs: 1000 });
    const { outcome, events } = await turn(c, 'ollama', 'hi');
    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'interrupted' });
    expect(outcome.status).toBe('failed');
  });

  it('a stream that never stops trickling is stopped at the overall limit per answer, the partial kept', async () => {
    server.setFault({ kind: 'trickle', everyMs: 100 });
    const c = await core({ streamIdleMs: 60_000, maxAnswerMs: 1500 });
    const { outcome, events } = await turn(c, 'openai', 'hi');
    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'interrupted' });
    expect(ofType(events, 'error')[0]!.message).toMatch(/still answering after 2 s.*Longest answer time/);
    const stored = await c.conversations.get(outcome.conversationId);
    expect(stored!.messages.at(-1)).toMatchObject({ role: 'assistant', interrupted: 'error' });
    expect((stored!.messages.at(-1) as { text: string }).text).toMatch(/^(tick )+$/);
  });
});

describe('an Ollama error whose `error` is an object (issue 30 item 7)', () => {
  it('is read for its message, not "[object Object]"', async () => {
    server.setFault({ kind: 'error-object', status: 400, message: 'model faulty does not support images' });
    const c = await core();
    const { events } = await turn(c, 'ollama', 'hi');
    const error = ofType(events, 'error')[0]!;
    expect(error.code).toBe('rejected-input');
    expect(error.message).toMatch(/model faulty does not support images/);
    expect(error.message).not.toMatch(/object Object/);
  });
});

describe('an unparseable line in an Ollama stream (issue 30 item 7)', () => {
  it('`glance ask` (a real process): nothing of the line reaches stderr or stdout, the answer goes on and says a line was skipped, exit 0', { timeout: 60_000 }, async () => {
    const base64 = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 37) % 256)).toString('base64');
    server.setFault({ kind: 'bad-line', line: `proxy debug: {"authorization": "Bearer ${KEY}", "images": ["${base64}"]` });
    dir = await mkdtemp(join(tmpdir(), 'glance-fault-'));
    const child = spawn(process.execPath, [join(import.meta.dirname, '../../main/cli/main.ts'), 'ask', 'hi', '--model', 'faulty', '--data-dir', dir], {
      env: { ...process.env, OLLAMA_HOST: server.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => void (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code).toBe(0);
    for (const leaked of [KEY, base64.slice(0, 80), 'invalid json', 'proxy debug']) {
      expect(stderr).not.toContain(leaked);
      expect(stdout).not.toContain(leaked);
    }
    expect(stdout).toMatch(/^Before after\.\n\n\[Glance: 1 line of the answer stream from Ollama at http:\/\/127\.0\.0\.1:\d+ could not be read and was skipped; the answer may be missing words\.\]/);
  });
});
