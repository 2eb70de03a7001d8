// OpenAICompatibleProvider against the seeing fixture server over real loopback HTTP.
import { describe, expect, it } from 'vitest';
import { ModelInfo } from '../../common/models.ts';
import { createProvider } from '../../main/models/createProvider.ts';
import { OpenAICompatibleProvider } from '../../main/models/openaiProvider.ts';
import type { ModelRequest } from '../../main/models/provider.ts';
import { createModelServer } from '../fixtures/modelServer.ts';
import { ask, collect, failure, useFixtureServer } from './helpers.ts';

const fx = useFixtureServer();

describe('capabilities', () => {
  it('/v1/models with OpenRouter metadata → vision from architecture.input_modalities, tools from supported_parameters', async () => {
    const provider = new OpenAICompatibleProvider({ baseUrl: fx.server.openaiBaseUrl });
    expect(await provider.capabilities('llava-seer')).toEqual({ vision: 'yes', visionSource: 'openrouter-metadata', tools: 'yes', thinking: 'no' });
    expect(await provider.capabilities('blind-llm')).toEqual({ vision: 'no', visionSource: 'openrouter-metadata', tools: 'yes', thinking: 'no' });
  });

  it('/v1/models without metadata and no /props → unknown', async () => {
    const provider = new OpenAICompatibleProvider({ baseUrl: fx.server.openaiBaseUrl });
    expect(await provider.capabilities('mystery')).toEqual({ vision: 'unknown', visionSource: 'none', tools: 'unknown', thinking: 'unknown' });
    // It asked llama.cpp's /props at the server root, which this server does not have…
    expect(fx.server.log.filter((r) => r.method === 'GET' && r.path === '/props')).toHaveLength(1);
    // …and does not ask again for the next model.
    expect(await provider.capabilities('old-vision')).toMatchObject({ vision: 'unknown', visionSource: 'none' });
    expect(fx.server.log.filter((r) => r.path === '/props')).toHaveLength(1);
  });

  it('lists /v1/models as ModelInfo', async () => {
    const models = await new OpenAICompatibleProvider({ baseUrl: fx.server.openaiBaseUrl }).listModels();
    for (const m of models) ModelInfo.parse(m);
    expect(models.map((m) => [m.name, m.capabilities.vision, m.capabilities.visionSource])).toEqual([
      ['blind-llm', 'no', 'openrouter-metadata'],
      ['llava-seer', 'yes', 'openrouter-metadata'],
      ['mystery', 'unknown', 'none'],
      ['old-vision', 'unknown', 'none'],
    ]);
    expect(models.find((m) => m.name === 'llava-seer')?.details).toMatchObject({ contextLength: '8192' });
  });

  it('llama.cpp GET /props modalities.vision decides when /v1/models says nothing', async () => {
    const seeing = await createModelServer({ propsModel: 'old-vision' });
    const blind = await createModelServer({ propsModel: 'mystery' });
    try {
      expect(await new OpenAICompatibleProvider({ baseUrl: seeing.openaiBaseUrl }).capabilities('old-vision')).toEqual({
        vision: 'yes',
        visionSource: 'llamacpp-props',
        tools: 'unknown',
        thinking: 'unknown',
      });
      expect(await new OpenAICompatibleProvider({ baseUrl: blind.openaiBaseUrl }).capabilities('mystery')).toMatchObject({ vision: 'no', visionSource: 'llamacpp-props' });
    } finally {
      await seeing.close();
      await blind.close();
    }
  });

  it('a per-model declaration in settings wins over metadata and survives a dead server', async () => {
    const provider = createProvider({ kind: 'openai', baseUrl: fx.server.openaiBaseUrl, visionOverrides: { mystery: 'yes', 'llava-seer': 'no' } });
    expect(await provider.capabilities('mystery')).toEqual({ vision: 'yes', visionSource: 'settings', tools: 'unknown', thinking: 'unknown' });
    // Vision from settings; what metadata says about tools still counts.
    expect(await provider.capabilities('llava-seer')).toEqual({ vision: 'no', visionSource: 'settings', tools: 'yes', thinking: 'no' });
    await fx.server.setDown(true);
    try {
      const fresh = createProvider({ kind: 'openai', baseUrl: fx.server.openaiBaseUrl, visionOverrides: { mystery: 'yes' } });
      expect(await fresh.capabilities('mystery')).toMatchObject({ vision: 'yes', visionSource: 'settings' });
      expect((await failure(fresh.capabilities('blind-llm'))).code).toBe('unreachable');
    } finally {
      await fx.server.setDown(false);
    }
  });

  it('caches per model for the TTL on the injected clock', async () => {
    let now = 0;
    const provider = new OpenAICompatibleProvider({ baseUrl: fx.server.openaiBaseUrl, now: () => now });
    const listings = () => fx.server.log.filter((r) => r.path === '/v1/models').length;
    await provider.capabilities('llava-seer');
    await provider.capabilities('blind-llm');
    now += 30_000;
    await provider.capabilities('llava-seer');
    expect(listings()).toBe(1);
    now += 31_000;
    await provider.capabilities('llava-seer');
    expect(listings()).toBe(2);
  });
});

describe('chat stream', () => {
  it('sends the known-answer chart as a data-URI image_url part of the user message; the fixture reads the bars', async () => {
    const provider = new OpenAICompatibleProvider({ baseUrl: fx.server.openaiBaseUrl });
    const result = await collect(provider, {
      model: 'llava-seer',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Which bar is tallest?', images: [{ data: new Uint8Array(fx.chart), mime: 'image/png' }] },
      ],
    });
    expect(result.error).toBeUndefined();
    const request = fx.server.requests[0];
    expect(request?.api).toBe('openai');
    expect(request?.images).toHaveLength(1);
    const image = request?.images[0];
    expect(image).toMatchObject({ role: 'user', messageIndex: 1, mime: 'image/png', declaredMime: 'image/png', width: 240, height: 120 });
    expect(image?.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
    const body = request?.body as { messages: { content: unknown }[]; stream: boolean; stream_options?: { include_usage?: boolean } };
    expect(body.messages[1]?.content).toEqual([
      { type: 'text', text: 'Which bar is tallest?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${fx.chart.toString('base64')}` } },
    ]);
    expect(body.stream).toBe(true);
    expect(body.stream_options?.include_usage).toBe(true);
    expect(result.text).toContain('3 bars, left to right: red, green, blue; tallest green');
    expect(result.events.filter((e) => e.type === 'usage')).toHaveLength(1);
    expect(result.events.at(-1)).toEqual({ type: 'done', reason: 'stop' });
  });

  it('accumulates streamed tool-call fragments by index into complete calls with parsed arguments; collects reasoning', async () => {
    const region = { x: 12, y: 34, width: 560, height: 300, note: 'zoom on the "Save" button' };
    fx.server.script({
      thinking: 'I should look closer at the toolbar.',
      toolCalls: [
        { name: 'screenshot_desktop', arguments: { region } },
        { name: 'analyze_image', arguments: { attachmentId: 'a1b2c3d4e5f60718', prompt: 'Read the labels' } },
      ],
    });
    const tools = [
      { name: 'screenshot_desktop', description: 'Capture', parameters: { type: 'object', properties: {} } },
      { name: 'analyze_image', description: 'Analyze', parameters: { type: 'object', properties: {} } },
    ];
    const result = await collect(new OpenAICompatibleProvider({ baseUrl: fx.server.openaiBaseUrl }), ask('llava-seer', { tools }));
    expect(result.error).toBeUndefined();
    expect(result.thinking).toBe('I should look closer at the toolbar.');
    const calls = result.events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
    expect(calls.map((c) => c.name)).toEqual(['screenshot_desktop', 'analyze_image']);
    expect(calls[0]?.arguments).toEqual({ region });
    expect(calls[1]?.arguments).toEqual({ attachmentId: 'a1b2c3d4e5f60718', prompt: 'Read the labels' });
    expect(calls.every((c) => c.invalidArguments === undefined && /^call_/.test(c.id))).toBe(true);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    expect(result.events.at(-1)).toEqual({ type: 'done', reason: 'tool_calls' });
    const body = fx.server.requests[0]?.body as { tools: unknown[] };
    expect(body.tools[0]).toEqual({ type: 'function', function: { name: 'screenshot_desktop', description: 'Capture', parameters: { type: 'object', properties: {} } } });
  });

  it('a tool message is text only; the capture rides on the following user message', async () => {
    const provider = new OpenAICompatibleProvider({ baseUrl: fx.server.openaiBaseUrl });
    const result = await collect(provider, {
      model: 'llava-seer',
      messages: [
        { role: 'user', content: 'Look at my screen' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_7', name: 'screenshot_desktop', arguments: { display: 1 } }] },
        { role: 'tool', content: 'Captured display 1; shown to you in the next message.', toolCallId: 'call_7', name: 'screenshot_desktop' },
        { role: 'user', content: '[screenshot_desktop result]', images: [{ data: fx.chart, mime: 'image/png' }] },
      ],
    });
    expect(result.error).toBeUndefined();
    const request = fx.server.requests[0];
    expect(request?.messages.map((m) => [m.role, m.imageCount])).toEqual([
      ['user', 0],
      ['assistant', 0],
      ['tool', 0],
      ['user', 1],
    ]);
    expect(request?.messages[2]?.toolCallId).toBe('call_7');
    const raw = (request?.body as { messages: Record<string, unknown>[] }).messages;
    expect(typeof raw[2]?.content).toBe('string');
    expect(raw[1]?.tool_calls).toEqual([{ id: 'call_7', type: 'function', function: { name: 'screenshot_desktop', arguments: '{"display":1}' } }]);
    expect(request?.images.map((i) => [i.role, i.messageIndex])).toEqual([['user', 3]]);
    expect(request?.images[0]?.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  });

  it('sends the API key it was given; without one a keyed server answers auth', async () => {
    const keyed = await createModelServer({ apiKey: 'sk-fixture' });
    try {
      const ok = await collect(createProvider({ kind: 'openai', baseUrl: keyed.openaiBaseUrl, apiKey: 'sk-fixture' }), ask('llava-seer'));
      expect(ok.error).toBeUndefined();
      const missing = await collect(createProvider({ kind: 'openai', baseUrl: keyed.openaiBaseUrl }), ask('llava-seer'));
      expect(missing.error?.code).toBe('auth');
      expect(missing.error?.message).toMatch(/needs an API key \(HTTP 401\).*--api-key-env/);
      const wrong = await failure(createProvider({ kind: 'openai', baseUrl: keyed.openaiBaseUrl, apiKey: 'sk-wrong' }).listModels());
      expect(wrong.code).toBe('auth');
      expect(wrong.message).toMatch(/refused the API key/);
    } finally {
      await keyed.close();
    }
  });
});

describe('broken requests throw before anything is sent', () => {
  it('a tool message with non-text content (an image part) is refused', async () => {
    const provider = new OpenAICompatibleProvider({ baseUrl: fx.server.openaiBaseUrl });
    const parts = [{ type: 'image_url', image_url: { url: `data:image/png;base64,${fx.chart.toString('base64')}` } }];
    const request: ModelRequest = {
      model: 'llava-seer',
      messages: [{ role: 'tool', content: parts as unknown as string, toolCallId: 'call_1', name: 'screenshot_desktop' }],
    };
    await expect(collect(provider, request)).rejects.toThrow(/tool message carries text only/);
    expect(fx.server.log).toEqual([]);
  });
});

describe('failures map to codes a person can act on', () => {
  it('server down → unreachable naming the URL', async () => {
    await fx.server.setDown(true);
    try {
      const provider = new OpenAICompatibleProvider({ baseUrl: fx.server.openaiBaseUrl });
      const chat = await collect(provider, ask('llava-seer'));
      expect(chat.error?.code).toBe('unreachable');
      expect(chat.error?.message).toContain(`Can't reach the model server at ${fx.server.openaiBaseUrl}. Is it running`);
      expect((await failure(provider.listModels())).code).toBe('unreachable');
    } finally {
      await fx.server.setDown(false);
    }
  });

  it('unknown model → model-not-found pointing at `glance models`', async () => {
    const result = await collect(new OpenAICompatibleProvider({ baseUrl: fx.server.openaiBaseUrl }), ask('gpt-9'));
    expect(result.error?.code).toBe('model-not-found');
    expect(result.error?.message).toContain('`glance models --provider openai --base-url');
  });

  it('an image sent to a blind model → rejected-input', async () => {
    const result = await collect(new OpenAICompatibleProvider({ baseUrl: fx.server.openaiBaseUrl }), {
      model: 'blind-llm',
      messages: [{ role: 'user', content: 'see?', images: [{ data: fx.chart, mime: 'image/png' }] }],
    });
    expect(result.error?.code).toBe('rejected-input');
    expect(result.error?.message).toMatch(/rejected the image: Model "blind-llm" does not support image input/);
  });

  it.each([
    ['http-400-image', 'rejected-input', /rejected the image: This model does not support image input/],
    ['http-401', 'auth', /\(HTTP 401\): Incorrect API key provided/],
    ['http-429', 'rate-limited', /rate limiting requests \(HTTP 429\)/],
    ['http-500', 'provider-error', /failed \(HTTP 500\)/],
  ] as const)('cue %s → %s', async (fail, code, message) => {
    fx.server.script({ fail });
    const result = await collect(new OpenAICompatibleProvider({ baseUrl: fx.server.openaiBaseUrl }), ask('llava-seer'));
    expect(result.events).toEqual([]);
    expect(result.error?.code).toBe(code);
    expect(result.error?.message).toMatch(message);
    // No silent retry: one request per call.
    expect(fx.server.requests).toHaveLength(1);
  });
});
