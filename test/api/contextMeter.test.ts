// chat:context (the composer's "Context" meter) and attachments fitted per model, through the
// real router and core against the fixture model server's vision models.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextEstimate } from '../../common/ipc.ts';
import type { AttachmentInfo } from '../../common/images.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { createModelServer, DEFAULT_MODELS, VISION_MODELS, type ModelServer } from '../fixtures/modelServer.ts';
import { apiHarness, value, type ApiHarness } from './apiHarness.ts';

let server: ModelServer;
let api: ApiHarness;
let call: ApiHarness['call'];
let pushed: ApiHarness['pushed'];
const gemma = { provider: 'ollama', name: 'gemma3:4b' } as const;
const done = async (turnId: string) => void (await api.turnEvents(turnId));

beforeAll(async () => {
  server = await createModelServer({ models: [...DEFAULT_MODELS, ...VISION_MODELS] });
  api = await apiHarness({ providers: { ollama: { host: server.url }, openai: [{ name: 'router', baseUrl: server.openaiBaseUrl }] }, prefix: 'glance-context-' });
  ({ call, pushed } = api);
});

afterAll(async () => {
  await api?.close();
  await server.close();
});

describe('chat:context', () => {
  it('an attachment added for a model carries that model’s encoder size and tokens; the meter counts them', async () => {
    const screen = await sharp(await makeBarChart()).resize(3840, 2160, { kernel: 'nearest' }).png().toBuffer();
    const a = value<AttachmentInfo>(await call('attachments:add', { source: { kind: 'bytes', name: 'screen.png', bytes: screen }, model: gemma }));
    expect(a).toMatchObject({ width: 896, height: 896, modelInput: { width: 896, height: 896 }, tokens: 256, legibility: { smallText: true } });
    // The copy is squashed for gemma3's encoder; the thumbnail the user sees has the screen's shape again.
    const thumb = value<{ width: number; height: number }>(await call('attachments:thumbnail', { id: a.id, maxEdge: 256 }));
    expect([thumb.width, thumb.height]).toEqual([256, 144]);

    const empty = value<ContextEstimate>(await call('chat:context', { model: gemma }));
    // gemma3:4b: context_length 131072 from model_info, budgeted at 32k; a 4096 num_ctx holds this.
    expect(empty).toMatchObject({ contextWindow: 32_768, maxContext: 131_072, source: 'ollama-model-info', imageTokens: 0, droppedTurns: 0, numCtx: 4096 });
    const withImage = value<ContextEstimate>(await call('chat:context', { model: gemma, text: 'What does it say?', attachmentIds: [a.id] }));
    expect(withImage.imageTokens).toBe(256);
    expect(withImage.draftTokens).toBeGreaterThan(0);
    expect(withImage.estimatedTokens).toBeGreaterThanOrEqual(empty.estimatedTokens + 256);
  });

  it('fits the draft’s images for the model asked about, as a send to it would (a model switch before Send)', async () => {
    const screen = await makeBarChart({ width: 3000, height: 1500 });
    const a = value<AttachmentInfo>(await call('attachments:add', { source: { kind: 'bytes', name: 'screen.png', bytes: screen }, model: gemma }));
    expect(a.tokens).toBe(256);
    const qwen = { provider: 'ollama', name: 'qwen2.5vl:7b' } as const;
    const refit = value<AttachmentInfo>(await call('attachments:preview', { id: a.id, model: qwen }));
    expect(refit.tokens).toBeGreaterThan(1000);
    const estimate = value<ContextEstimate>(await call('chat:context', { model: qwen, text: 'What is it?', attachmentIds: [a.id] }));
    expect(estimate.imageTokens).toBe(refit.tokens);
    // The parts add up to the whole request.
    expect(estimate.systemTokens + estimate.historyTokens + estimate.draftTokens + estimate.imageTokens + (estimate.tools?.tokens ?? 0)).toBe(estimate.estimatedTokens);
    // A blind model gets no image: nothing is counted for it, and the preview says why it will not go.
    const blind = { provider: 'ollama', name: 'blind-llm' } as const;
    expect(value<ContextEstimate>(await call('chat:context', { model: blind, attachmentIds: [a.id] })).imageTokens).toBe(0);
    const refused = await call('attachments:preview', { id: a.id, model: blind });
    expect(refused).toMatchObject({ ok: false, code: 'model-blind' });
  });

  it('grows with the stored conversation, and says when older turns would be left out', async () => {
    // ≈ 1.7k tokens, echoed back by the fixture: a stored turn of ≈ 3.5k against llava-seer's 8192.
    const long = 'lorem ipsum '.repeat(500);
    value(await call('chat:send', { turnId: 'ctx-1', text: long, model: { provider: 'ollama', name: 'llava-seer' } }));
    await done('ctx-1');
    const conversationId = (pushed.find((p) => (p.payload as { turnId?: string }).turnId === 'ctx-1')!.payload as { conversationId: string }).conversationId;
    const small = value<ContextEstimate>(await call('chat:context', { model: { provider: 'ollama', name: 'llava-seer' }, text: 'hi' }));
    const grown = value<ContextEstimate>(await call('chat:context', { conversationId, model: { provider: 'ollama', name: 'llava-seer' }, text: 'hi' }));
    expect(grown.estimatedTokens).toBeGreaterThan(small.estimatedTokens + 3000);
    expect(grown).toMatchObject({ contextWindow: 8192, droppedTurns: 0 });
    const tooMuch = value<ContextEstimate>(await call('chat:context', { conversationId, model: { provider: 'ollama', name: 'llava-seer' }, text: long + long }));
    expect(tooMuch.droppedTurns).toBe(1);
    expect(tooMuch.estimatedTokens).toBeLessThanOrEqual(8192);
  });

  it('remote models: the server’s metadata (OpenRouter context_length), else the known window for the id', async () => {
    const claude = value<ContextEstimate>(await call('chat:context', { model: { provider: 'openai', endpoint: 'router', name: 'anthropic/claude-sonnet-4.5' } }));
    expect(claude).toMatchObject({ contextWindow: 200_000, source: 'server-metadata', numCtx: null });
    const gpt = value<ContextEstimate>(await call('chat:context', { model: { provider: 'openai', endpoint: 'router', name: 'gpt-4o' } }));
    expect(gpt).toMatchObject({ contextWindow: 128_000, source: 'known-model', numCtx: null });
    // A model nobody describes: no maximum for the meter.
    const unknown = value<ContextEstimate>(await call('chat:context', { model: { provider: 'openai', endpoint: 'router', name: 'mystery' } }));
    expect(unknown).toMatchObject({ contextWindow: null, source: 'none' });
  });
});
