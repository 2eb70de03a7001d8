// OllamaProvider against the seeing fixture server over real loopback HTTP.
import { describe, expect, it } from 'vitest';
import { ModelInfo } from '../../common/models.ts';
import { createProvider } from '../../main/models/createProvider.ts';
import { OllamaProvider } from '../../main/models/ollamaProvider.ts';
import type { ModelRequest } from '../../main/models/provider.ts';
import { ask, collect, failure, useFixtureServer } from './helpers.ts';

const fx = useFixtureServer();

describe('capabilities via /api/show', () => {
  it('reads the capabilities field: vision, tools, thinking', async () => {
    const provider = new OllamaProvider({ host: fx.server.url });
    expect(await provider.capabilities('llava-seer')).toEqual({ vision: 'yes', visionSource: 'ollama-capabilities', tools: 'yes', thinking: 'yes' });
    expect(await provider.capabilities('blind-llm')).toEqual({ vision: 'no', visionSource: 'ollama-capabilities', tools: 'yes', thinking: 'no' });
  });

  it('falls back to projector_info on servers without the field, else unknown', async () => {
    const provider = new OllamaProvider({ host: fx.server.url });
    expect(await provider.capabilities('old-vision')).toMatchObject({ vision: 'yes', visionSource: 'ollama-projector' });
    expect(await provider.capabilities('mystery')).toEqual({ vision: 'unknown', visionSource: 'none', tools: 'unknown', thinking: 'unknown' });
  });

  it('a model the server does not have → model-not-found with the pull command', async () => {
    const error = await failure(new OllamaProvider({ host: fx.server.url }).capabilities('nope'));
    expect(error.code).toBe('model-not-found');
    expect(error.message).toContain('`ollama pull nope`');
  });

  it('caches per model for the TTL on the injected clock, then asks again', async () => {
    let now = 1_000_000;
    const provider = new OllamaProvider({ host: fx.server.url, now: () => now, capabilityTtlMs: 60_000 });
    const shows = () => fx.server.log.filter((r) => r.path === '/api/show').length;
    await provider.capabilities('llava-seer');
    now += 59_000;
    await provider.capabilities('llava-seer');
    expect(shows()).toBe(1);
    await provider.capabilities('blind-llm');
    expect(shows()).toBe(2);
    now += 2_000;
    await provider.capabilities('llava-seer');
    expect(shows()).toBe(3);
  });

  it('lists models from /api/tags with per-model capabilities', async () => {
    const models = await new OllamaProvider({ host: fx.server.url }).listModels();
    for (const m of models) ModelInfo.parse(m);
    const byName = Object.fromEntries(models.map((m) => [m.name, m.capabilities]));
    expect(Object.keys(byName).sort()).toEqual(['blind-llm:latest', 'llava-seer:latest', 'mystery:latest', 'old-vision:latest']);
    expect(byName['llava-seer:latest']?.vision).toBe('yes');
    expect(byName['blind-llm:latest']?.vision).toBe('no');
    expect(byName['mystery:latest']?.vision).toBe('unknown');
    expect(byName['old-vision:latest']?.visionSource).toBe('ollama-projector');
    expect(models[0]?.details).toMatchObject({ parameterSize: '7.2B', quantization: 'Q4_K_M', contextLength: '8192' });
  });

  it('reads the host from OLLAMA_HOST in host:port form', async () => {
    const port = new URL(fx.server.url).port;
    const provider = createProvider({ kind: 'ollama', env: { OLLAMA_HOST: `0.0.0.0:${port}` } });
    expect((provider as OllamaProvider).host).toBe(`http://127.0.0.1:${port}`);
    expect((await provider.listModels()).length).toBe(4);
  });
});

describe('chat stream', () => {
  it('sends the known-answer chart as raw base64 in the user message images; the fixture reads the bars', async () => {
    const provider = new OllamaProvider({ host: fx.server.url });
    const result = await collect(provider, {
      model: 'llava-seer',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Which bar is tallest?', images: [{ data: new Uint8Array(fx.chart), mime: 'image/png' }] },
      ],
    });
    expect(result.error).toBeUndefined();
    const request = fx.server.requests[0];
    expect(request?.api).toBe('ollama');
    expect(request?.images).toHaveLength(1);
    const image = request?.images[0];
    expect(image).toMatchObject({ role: 'user', messageIndex: 1, mime: 'image/png', width: 240, height: 120 });
    expect(image?.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
    expect(Math.max(...(image?.bars ?? []).map((b) => b.relativeHeight))).toBe(image?.bars[1]?.relativeHeight);
    // On the wire: exactly the PNG's bytes as plain base64 (no data: prefix, no path).
    const body = request?.body as { messages: { images?: string[] }[] };
    expect(body.messages[1]?.images).toEqual([fx.chart.toString('base64')]);
    expect(result.text).toContain('3 bars, left to right: red, green, blue; tallest green');
    expect(result.events.at(-1)).toEqual({ type: 'done', reason: 'stop' });
    expect(result.events.some((e) => e.type === 'usage' && (e.inputTokens ?? 0) > 0)).toBe(true);
  });

  it('collects thinking and a tool call that arrives before the final chunk', async () => {
    fx.server.script({ thinking: 'The user wants a look at the screen.', toolCalls: [{ name: 'screenshot_desktop', arguments: { region: { x: 10, y: 20, width: 300, height: 200 } } }] });
    const provider = new OllamaProvider({ host: fx.server.url });
    const tools = [{ name: 'screenshot_desktop', description: 'Capture the screen', parameters: { type: 'object', properties: { region: { type: 'object' } } } }];
    const result = await collect(provider, ask('llava-seer', { tools, think: true }));
    expect(result.error).toBeUndefined();
    expect(result.thinking).toBe('The user wants a look at the screen.');
    const calls = result.events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ name: 'screenshot_desktop', arguments: { region: { x: 10, y: 20, width: 300, height: 200 } } });
    expect(calls[0]?.id).toMatch(/\S/);
    expect(calls[0]?.invalidArguments).toBeUndefined();
    expect(result.events.at(-1)).toEqual({ type: 'done', reason: 'tool_calls' });
    const body = fx.server.requests[0]?.body as { think?: boolean; tools?: { type: string; function: { name: string } }[] };
    expect(body.think).toBe(true);
    expect(body.tools?.[0]).toMatchObject({ type: 'function', function: { name: 'screenshot_desktop' } });
  });

  it('maps assistant tool calls and tool results back (tool_name, text only); the image rides on a user turn', async () => {
    const provider = new OllamaProvider({ host: fx.server.url });
    const result = await collect(provider, {
      model: 'llava-seer',
      messages: [
        { role: 'user', content: 'Look at my screen' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'screenshot_desktop', arguments: {} }] },
        { role: 'tool', content: 'Captured display 1 (1568×882). It is shown to you in the next message.', toolCallId: 'call_1', name: 'screenshot_desktop' },
        { role: 'user', content: '[screenshot_desktop result]', images: [{ data: fx.chart, mime: 'image/png' }] },
      ],
    });
    expect(result.error).toBeUndefined();
    const request = fx.server.requests[0];
    expect(request?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(request?.messages[1]?.toolCallNames).toEqual(['screenshot_desktop']);
    expect(request?.messages[2]).toMatchObject({ toolName: 'screenshot_desktop', imageCount: 0 });
    const raw = (request?.body as { messages: Record<string, unknown>[] }).messages[2];
    expect(raw?.images).toBeUndefined();
    expect(typeof raw?.content).toBe('string');
    expect(request?.images.map((i) => [i.role, i.messageIndex])).toEqual([['user', 3]]);
    expect(request?.images[0]?.bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  });
});

describe('broken requests throw before anything is sent', () => {
  it('an image handed over as a string (which the client would read as a file path) is refused', async () => {
    const provider = new OllamaProvider({ host: fx.server.url });
    const request: ModelRequest = {
      model: 'llava-seer',
      // What a careless caller might do; the type forbids it, the provider checks anyway.
      messages: [{ role: 'user', content: 'see?', images: [{ data: '/etc/hostname' as unknown as Uint8Array, mime: 'image/png' }] }],
    };
    await expect(collect(provider, request)).rejects.toThrow(/ModelImage.data must be a Uint8Array/);
    expect(fx.server.log).toEqual([]);
  });
});

describe('failures map to codes a person can act on', () => {
  it('server down → unreachable with the `ollama serve` hint', async () => {
    await fx.server.setDown(true);
    try {
      const provider = new OllamaProvider({ host: fx.server.url });
      const chat = await collect(provider, ask('llava-seer'));
      expect(chat.error?.code).toBe('unreachable');
      expect(chat.error?.message).toBe(`Can't reach Ollama at ${fx.server.url}. Is Ollama running? Start it with \`ollama serve\`.`);
      const list = await failure(provider.listModels());
      expect(list.code).toBe('unreachable');
      expect((await failure(provider.capabilities('llava-seer'))).code).toBe('unreachable');
    } finally {
      await fx.server.setDown(false);
    }
  });

  it('a host that does not resolve → unreachable', async () => {
    // .invalid never resolves (RFC 6761); without any DNS the 15 s request timeout gives the same code.
    const error = await failure(new OllamaProvider({ host: 'http://glance-test.invalid:11434' }).listModels());
    expect(error.code).toBe('unreachable');
    expect(error.message).toContain('http://glance-test.invalid:11434');
  });

  it('unknown model → model-not-found with `ollama pull NAME`', async () => {
    const result = await collect(new OllamaProvider({ host: fx.server.url }), ask('llama9:70b'));
    expect(result.error?.code).toBe('model-not-found');
    expect(result.error?.status).toBe(404);
    expect(result.error?.message).toContain('Run `ollama pull llama9:70b`.');
  });

  it('an image sent to a blind model → rejected-input naming the image problem', async () => {
    const result = await collect(new OllamaProvider({ host: fx.server.url }), {
      model: 'blind-llm',
      messages: [{ role: 'user', content: 'see?', images: [{ data: fx.chart, mime: 'image/png' }] }],
    });
    expect(result.error?.code).toBe('rejected-input');
    expect(result.error?.message).toMatch(/rejected the image: this model is missing data required for image input/);
  });

  it.each([
    ['http-400-image', 'rejected-input', /rejected the image/],
    ['http-401', 'auth', /refused access \(HTTP 401\)/],
    ['http-429', 'rate-limited', /rate limiting/],
    ['http-500', 'provider-error', /failed \(HTTP 500\): llama runner process has terminated/],
  ] as const)('cue %s → %s', async (fail, code, message) => {
    fx.server.script({ fail });
    const result = await collect(new OllamaProvider({ host: fx.server.url }), ask('llava-seer'));
    expect(result.events).toEqual([]);
    expect(result.error?.code).toBe(code);
    expect(result.error?.message).toMatch(message);
  });
});
