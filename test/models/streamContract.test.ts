// What every provider promises about a streamed answer, run against each one over real loopback
// HTTP to the fixture server's matching wire format: a stream cut off mid-answer is
// `interrupted` with the text so far, a stalled one times out, and an abort — mid-stream, before
// the first token, or before the request — is `cancelled` and leaves a concurrent request alone.
import { describe, expect, it } from 'vitest';
import { OllamaProvider } from '../../main/models/ollamaProvider.ts';
import { OpenAICompatibleProvider } from '../../main/models/openaiProvider.ts';
import type { ModelProvider } from '../../main/models/provider.ts';
import { ask, collect, useFixtureServer } from './helpers.ts';

const fx = useFixtureServer();

type Contender = { name: string; make: (options?: { streamIdleTimeoutMs?: number }) => ModelProvider; errorLine: RegExp };
const PROVIDERS: Contender[] = [
  { name: 'Ollama', make: (o = {}) => new OllamaProvider({ host: fx.server.url, ...o }), errorLine: /stopped mid-answer: an error was encountered while running the model: unexpected EOF/ },
  { name: 'OpenAI-compatible', make: (o = {}) => new OpenAICompatibleProvider({ baseUrl: fx.server.openaiBaseUrl, ...o }), errorLine: /stopped mid-answer: The server had an error/ },
];

describe.each(PROVIDERS)('$name stream', ({ make, errorLine }) => {
  it.each([
    ['drop', /dropped mid-answer/],
    ['truncate', /ended before it was complete/],
    ['error-line', errorLine],
  ] as const)('cue %s mid-stream → interrupted, the text before it already streamed', async (fail, message) => {
    const text = 'one two three four five six seven eight nine ten eleven twelve';
    // A pause between chunks lets the first ones leave the server before it cuts the stream.
    fx.server.script({ text, fail, chunkDelayMs: 20 });
    const result = await collect(make(), ask('llava-seer'));
    expect(result.error?.code).toBe('interrupted');
    expect(result.error?.message).toMatch(message);
    expect(result.text.length).toBeGreaterThan(0);
    expect(text.startsWith(result.text)).toBe(true);
    expect(result.text).not.toBe(text);
    expect(result.events.some((e) => e.type === 'done')).toBe(false);
  });

  it('a stalled stream → interrupted after the idle timeout, keeping what came', async () => {
    fx.server.script({ text: 'a b c d e f g h i j', chunkDelayMs: 60_000 });
    const result = await collect(make({ streamIdleTimeoutMs: 300 }), ask('llava-seer'));
    expect(result.error?.code).toBe('interrupted');
    expect(result.error?.message).toMatch(/stalled: nothing for 0.3 s/);
    expect(result.text.length).toBeGreaterThan(0);
  });

  it('abort mid-stream → cancelled, and a concurrent request on the same provider is not aborted', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    fx.server.script({ model: 'llava-seer', text: long, chunkDelayMs: 100 }, { model: 'blind-llm', text: long, chunkDelayMs: 20 });
    const provider = make();
    const controller = new AbortController();
    const aborted = collect(provider, ask('llava-seer'), {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'text') controller.abort();
      },
    });
    const other = collect(provider, ask('blind-llm'));
    const [a, b] = await Promise.all([aborted, other]);
    expect(a.error?.code).toBe('cancelled');
    expect(a.text.length).toBeGreaterThan(0);
    expect(b.error).toBeUndefined();
    expect(b.text).toBe(long);
    expect(b.events.at(-1)).toEqual({ type: 'done', reason: 'stop' });
  });

  it('abort while waiting for the first token (headers not yet sent) → cancelled', async () => {
    // The fixture would wait far longer than the test timeout: only a working abort ends this.
    fx.server.script({ firstTokenDelayMs: 600_000 });
    const controller = new AbortController();
    const pending = collect(make(), ask('llava-seer'), { signal: controller.signal });
    while (fx.server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const result = await pending;
    expect(result.error?.code).toBe('cancelled');
    expect(result.events).toEqual([]);
  });

  it('an already-aborted signal → cancelled without a request', async () => {
    const result = await collect(make(), ask('llava-seer'), { signal: AbortSignal.abort() });
    expect(result.error?.code).toBe('cancelled');
    expect(fx.server.log).toEqual([]);
  });
});
