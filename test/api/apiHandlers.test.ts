// The typed API over the real core, through the real IPC router (zod-validated both ways),
// against the seeing fixture model server: what the app and the harness both expose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatEvent } from '../../common/events.ts';
import { TesseractReader } from '../../main/ocr/tesseractReader.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { SVG } from '../fixtures/images.ts';
import { countedReader } from '../fixtures/ocr.ts';
import { invoiceLines, textImage } from '../fixtures/textImage.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { apiHarness, value, type ApiHarness } from './apiHarness.ts';

let server: ModelServer;
let api: ApiHarness;
let dataDir: string;
let call: ApiHarness['call'];
const ocr = countedReader(new TesseractReader());
const turnEvents = (turnId: string) => api.turnEvents(turnId);

beforeAll(async () => {
  server = await createModelServer();
  api = await apiHarness({ providers: { ollama: { host: server.url }, openai: [{ name: 'local', baseUrl: server.openaiBaseUrl }] }, ocr });
  ({ call, dataDir } = api);
});

afterAll(async () => {
  await api?.close();
  await server.close();
});

describe('API handlers', () => {
  it('attach → send → streamed events → the conversation replays with its image', async () => {
    const att = value<{ id: string; width: number }>(await call('attachments:add', { source: { kind: 'bytes', name: 'chart.png', bytes: await makeBarChart() }, model: { provider: 'ollama', name: 'llava-seer' } }));
    expect(att.width).toBe(240);
    const sent = value<{ conversationId: string }>(await call('chat:send', { turnId: 't1', text: 'What is this?', attachmentIds: [att.id], model: { provider: 'ollama', name: 'llava-seer' } }));
    const events = await turnEvents('t1');
    const done = events.at(-1) as Extract<ChatEvent, { type: 'done' }>;
    expect(done.text).toContain('red, green, blue');
    expect(done.conversationId).toBe(sent.conversationId);
    const view = value<{ turns: { events: ChatEvent[]; attachmentIds: string[] }[] }>(await call('conversations:get', { id: sent.conversationId }));
    expect(view.turns[0]!.attachmentIds).toEqual([att.id]);
    expect(view.turns[0]!.events.find((e) => e.type === 'image_attached')).toMatchObject({ attachmentId: att.id });
    // The replay carries the answer once, in its text events; its `done` does not repeat it.
    expect(view.turns[0]!.events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('')).toBe(done.text);
    expect(view.turns[0]!.events.at(-1)).toEqual({ type: 'done', conversationId: sent.conversationId });
    const thumb = value<{ dataUrl: string; width: number }>(await call('attachments:thumbnail', { id: att.id, maxEdge: 64 }));
    expect(thumb.width).toBe(64);
    expect(value<{ id: string }[]>(await call('conversations:list')).map((c) => c.id)).toContain(sent.conversationId);
    const files = await readdir(join(dataDir, 'conversations'));
    for (const f of files) expect(await readFile(join(dataDir, 'conversations', f), 'utf8')).not.toMatch(/[A-Za-z0-9+/]{200,}/);
  });

  it('refuses an SVG and a blind model with plain words', async () => {
    const svg = await call('attachments:add', { source: { kind: 'bytes', name: 'x.png', bytes: new TextEncoder().encode(SVG) }, model: { provider: 'ollama', name: 'llava-seer' } });
    expect(svg).toMatchObject({ ok: false, code: 'not-an-image' });
    const blind = await call('attachments:add', { source: { kind: 'bytes', name: 'c.png', bytes: await makeBarChart() }, model: { provider: 'ollama', name: 'blind-llm' } });
    expect(blind).toMatchObject({ ok: false, code: 'model-blind' });
  });

  it('a blind model takes a text-bearing image (it will get its text by local OCR); the viewer gets the exact original', async () => {
    const page = await textImage({ lines: invoiceLines(6), width: 900, height: 300, fontPx: 16 });
    const att = value<{ id: string }>(await call('attachments:add', { source: { kind: 'bytes', name: 'invoice.png', bytes: page.png }, model: { provider: 'ollama', name: 'blind-llm' } }));
    const view = value<{ dataUrl: string; mime: string; width: number; original: { mime: string; bytes: number }; fromOriginal: boolean }>(await call('attachments:original', { id: att.id }));
    expect({ mime: view.mime, width: view.width, original: view.original, fromOriginal: view.fromOriginal }).toEqual({ mime: 'image/png', width: 900, original: { mime: 'image/png', bytes: page.png.byteLength }, fromOriginal: true });
    expect(Buffer.from(view.dataUrl.split(',')[1]!, 'base64').equals(page.png)).toBe(true);
    expect(await call('attachments:original', { id: 'f'.repeat(16) })).toMatchObject({ ok: false, code: 'not-found' });

    // Sent: the model gets the text; the image was read once, when it was attached, not again.
    const reads = ocr.reads;
    server.script({ text: 'It is an invoice.' });
    value(await call('chat:send', { turnId: 't-ocr', text: 'What does it say?', attachmentIds: [att.id], model: { provider: 'ollama', name: 'blind-llm' } }));
    const events = await turnEvents('t-ocr');
    expect(events.find((e) => e.type === 'image_transcribed')).toMatchObject({ attachmentId: att.id });
    const order = /^Order (\d+)/.exec(invoiceLines(6)[0]!)![1]!;
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain(order);
    expect(ocr.reads).toBe(reads);
    expect(reads).toBeGreaterThan(0);
  }, 60_000);

  it('lists models from Ollama and each OpenAI-compatible endpoint with their vision verdicts', async () => {
    const listed = value<{ models: { name: string; endpoint: string; capabilities: { vision: string } }[]; errors: unknown[] }>(await call('models:list'));
    expect(listed.errors).toEqual([]);
    const seer = listed.models.find((m) => m.endpoint === 'ollama' && m.name.startsWith('llava-seer'));
    expect(seer!.capabilities.vision).toBe('yes');
    expect(listed.models.some((m) => m.endpoint === 'local')).toBe(true);
  });

  it('a declared vision setting makes an unknown model usable', async () => {
    await call('settings:set', { patch: { vision: { ollama: { mystery: 'yes' } } } });
    const att = await call('attachments:add', { source: { kind: 'bytes', name: 'c.png', bytes: await makeBarChart() }, model: { provider: 'ollama', name: 'mystery' } });
    expect(att.ok).toBe(true);
  });

  it('cancel stops a running turn', async () => {
    server.script({ text: 'a b c d e f g h i j k l m n o p', chunkDelayMs: 200 });
    value(await call('chat:send', { turnId: 't2', text: 'count slowly', model: { provider: 'ollama', name: 'llava-seer' } }));
    await new Promise((r) => setTimeout(r, 300));
    expect(value<{ cancelled: boolean }>(await call('chat:cancel', { turnId: 't2' })).cancelled).toBe(true);
    const events = await turnEvents('t2');
    expect(events.some((e) => e.type === 'error' && e.code === 'cancelled')).toBe(true);
  });

  it('rejects malformed requests naming the field', async () => {
    const bad = await call('chat:send', { turnId: 't3', text: 42 });
    expect(bad).toMatchObject({ ok: false, code: 'bad-request' });
    expect(!bad.ok && bad.message).toMatch(/text/);
    expect(await call('capture:screenshot', {})).toMatchObject({ ok: false, code: 'capture-unavailable' });
  });
});
