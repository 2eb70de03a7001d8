import { describe, expect, it } from 'vitest';
import type { ModelMessage } from '../models/provider.ts';
import { answerReserve, contextWindowFor, estimateMessageTokens, fitHistory, ollamaNumCtx, OLLAMA_CONTEXT_CAP, type ContextWindow } from './historyBudget.ts';
import { transcriptSpans, transcriptText } from './transcriptText.ts';

const turn = (n: number, chars: number): ModelMessage[] => [
  { role: 'user', content: `question ${n}: ${'q'.repeat(chars)}` },
  { role: 'assistant', content: `answer ${n}: ${'a'.repeat(chars)}` },
];

const ollama8k: ContextWindow = { tokens: 8192, max: 8192, source: 'ollama-model-info', setsNumCtx: true, defaultContext: 4096 };

describe('context window of a model', () => {
  it('Ollama: model_info context_length, capped for memory; the Modelfile num_ctx is the floor', () => {
    expect(contextWindowFor('ollama', 'gemma3', { contextLength: 131_072, defaultContext: 8192 })).toEqual({
      tokens: OLLAMA_CONTEXT_CAP,
      max: 131_072,
      source: 'ollama-model-info',
      setsNumCtx: true,
      defaultContext: 8192,
    });
    expect(contextWindowFor('ollama', 'x', { contextLength: 2048 })).toMatchObject({ tokens: 2048, max: 2048 });
    // An old server that says nothing: stay inside Ollama's default window.
    expect(contextWindowFor('ollama', 'x', {})).toMatchObject({ tokens: 4096, max: null, source: 'ollama-default' });
  });

  it('remote: the server’s metadata, else the known window for the id, else unknown', () => {
    expect(contextWindowFor('openai', 'anything', { contextLength: 65_536 })).toMatchObject({ tokens: 65_536, source: 'server-metadata', setsNumCtx: false });
    expect(contextWindowFor('openai', 'anthropic/claude-sonnet-4.5')).toMatchObject({ tokens: 200_000, source: 'known-model' });
    expect(contextWindowFor('openai', 'my-local-model')).toEqual({ tokens: null, max: null, source: 'none', setsNumCtx: false });
  });
});

describe('fitHistory', () => {
  it('leaves a request that fits alone, and asks Ollama for the power of two that holds it (at least its default)', () => {
    const messages: ModelMessage[] = [{ role: 'system', content: 'be brief' }, ...turn(1, 100)];
    const fitted = fitHistory(messages, ollama8k);
    expect(fitted).toMatchObject({ messages, droppedTurns: 0, overBudget: false, numCtx: 4096 });
    expect(fitted.estimatedTokens).toBe(messages.reduce((n, m) => n + estimateMessageTokens(m), 0));
    // A remote model: no num_ctx.
    expect(fitHistory(messages, { tokens: 128_000, max: 128_000, source: 'known-model', setsNumCtx: false }).numCtx).toBeUndefined();
  });

  it('drops the oldest whole turns first, with a stub naming what they asked; the current turn stays whole', () => {
    const messages: ModelMessage[] = [{ role: 'system', content: 'be brief' }];
    for (let n = 1; n <= 12; n++) messages.push(...turn(n, 2400)); // ~700 tokens a message
    messages.push({ role: 'user', content: 'the current question' });
    const fitted = fitHistory(messages, ollama8k);
    expect(fitted.droppedTurns).toBeGreaterThan(0);
    expect(fitted.estimatedTokens).toBeLessThanOrEqual(8192 - answerReserve(8192));
    const [system, ...rest] = fitted.messages;
    expect(system?.role).toBe('system');
    expect(system?.content).toMatch(/^be brief\n\n\[\d+ earlier turns of this conversation were left out to fit the model's context window \(8192 tokens\)\. The user had asked: "question 1: q+…"/);
    // What is kept is the newest turns, in order, ending with the current question.
    expect(rest.at(-1)).toEqual({ role: 'user', content: 'the current question' });
    const kept = rest.filter((m) => m.role === 'user').map((m) => Number(/question (\d+)/.exec(m.content)?.[1] ?? 13));
    expect(kept).toEqual([...kept].sort((a, b) => a - b));
    expect(kept[0]).toBe(fitted.droppedTurns + 1);
    expect(kept).toHaveLength(13 - fitted.droppedTurns);
    expect(fitted.numCtx).toBe(8192);
  });

  it('in a 100-turn history drops the fewest turns that fit, quoting the last 8 questions among them', () => {
    const messages: ModelMessage[] = [{ role: 'system', content: 'be brief' }];
    for (let n = 1; n <= 100; n++) messages.push(...turn(n, 300 + (n % 7) * 40));
    messages.push({ role: 'user', content: 'the current question' });
    const fitted = fitHistory(messages, ollama8k);
    const budget = 8192 - answerReserve(8192);
    expect(fitted.estimatedTokens).toBeLessThanOrEqual(budget);
    // One turn fewer dropped would not fit: its stub quotes as many questions (8), so it is as long, give or take a digit.
    const kept = messages.slice(1 + 2 * (fitted.droppedTurns - 1));
    const head = estimateMessageTokens(fitted.messages[0]!);
    expect(kept.reduce((n, m) => n + estimateMessageTokens(m), head)).toBeGreaterThan(budget - 2);
    const quoted = [...(fitted.messages[0]?.content.matchAll(/"question (\d+)/g) ?? [])].map((m) => Number(m[1]));
    expect(quoted).toEqual(Array.from({ length: 8 }, (_, i) => fitted.droppedTurns - 7 + i));
  });

  it('keeps tool calls with their results: a turn goes whole or not at all', () => {
    const messages: ModelMessage[] = [{ role: 'system', content: 's' }];
    for (let n = 1; n <= 6; n++) {
      messages.push({ role: 'user', content: `q${n} ${'x'.repeat(5000)}` });
      messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${n}`, name: 'screenshot_desktop', arguments: {} }] });
      messages.push({ role: 'tool', content: 'captured', toolCallId: `c${n}`, name: 'screenshot_desktop' });
      messages.push({ role: 'user', content: 'Here is the image captured by screenshot_desktop (shown for this turn only):' });
      messages.push({ role: 'assistant', content: `a${n}` });
    }
    const fitted = fitHistory(messages, ollama8k);
    expect(fitted.droppedTurns).toBeGreaterThan(0);
    const ids = fitted.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
    const results = fitted.messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []));
    expect(results).toEqual(ids);
    expect(fitted.messages[1]?.role).toBe('user');
  });

  it('counts images by their token estimate', () => {
    const image = { data: new Uint8Array(10), mime: 'image/png' as const, tokens: 3500 };
    const messages: ModelMessage[] = [
      { role: 'user', content: 'old', images: [image] },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'new', images: [image] },
    ];
    const fitted = fitHistory(messages, ollama8k);
    expect(fitted.droppedTurns).toBe(1);
    expect(fitted.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(fitted.estimatedTokens).toBeGreaterThan(3500);
  });

  it('a current turn larger than the window: long tool results are cut (head and tail, said so), then it is flagged', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'read the log' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', arguments: {} }] },
      { role: 'tool', content: `START${'L'.repeat(60_000)}END`, toolCallId: 'c1', name: 'read' },
    ];
    const fitted = fitHistory(messages, ollama8k);
    const tool = fitted.messages[2]!;
    expect(tool.content).toMatch(/^START/);
    expect(tool.content).toMatch(/END$/);
    expect(tool.content).toMatch(/\[… \d+ characters cut to fit the model's context window …\]/);
    expect(fitted.overBudget).toBe(false);
    expect(fitted.estimatedTokens).toBeLessThanOrEqual(8192 - answerReserve(8192));
    const hopeless = fitHistory([{ role: 'user', content: 'u'.repeat(100_000) }], ollama8k);
    expect(hopeless).toMatchObject({ overBudget: true, numCtx: 8192 });
  });

  it("a blind model's turn with long OCR readings: the readings are cut (head and tail, said so), never the person's words", () => {
    // Three 4K editor screens read by local OCR are ~25,000 characters each (~19k estimated tokens together).
    const reading = (n: number) => `READ${n}-START ${`line ${n} of code, read by OCR ${'x'.repeat(40)}\n`.repeat(450)}READ${n}-END`;
    const typed = `Which of these files defines fitProfile? ${'Please be thorough. '.repeat(20)}`;
    const content = [typed, ...[1, 2, 3].map((n) => transcriptText({ id: `a${n}`, name: `shot${n}.png` }, { text: reading(n), engine: 'tesseract.js 7 (eng)' }))].join('\n\n');
    const messages: ModelMessage[] = [{ role: 'system', content: 'You are Glance.' }, { role: 'user', content }];
    expect(estimateMessageTokens(messages[1]!)).toBeGreaterThan(8192);

    const fitted = fitHistory(messages, ollama8k);
    const sent = fitted.messages[1]!.content;
    expect(fitted.overBudget).toBe(false);
    expect(fitted.estimatedTokens).toBeLessThanOrEqual(8192 - answerReserve(8192));
    expect(sent.startsWith(typed)).toBe(true);
    const spans = transcriptSpans(sent);
    expect(spans).toHaveLength(3);
    for (const [k, span] of spans.entries()) {
      const text = sent.slice(span.start, span.end);
      // Each reading keeps its beginning and end, or is whole; a cut says how much went.
      expect(text.startsWith(`READ${k + 1}-START`)).toBe(true);
      expect(text.endsWith(`READ${k + 1}-END`)).toBe(true);
    }
    // Cut to one length: equal shares, not one reading whole and the others gone.
    const lengths = spans.map((span) => span.end - span.start);
    expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThan(20);
    expect(Math.min(...lengths)).toBeGreaterThan(4000);
    expect(sent.match(/\[… \d+ characters cut to fit the model's context window …\]/g)).toHaveLength(3);
    // Each cut reading is named, with the characters of it that went.
    expect(Object.keys(fitted.cutReadings ?? {}).sort()).toEqual(['a1', 'a2', 'a3']);
    expect(new Set(Object.values(fitted.cutReadings ?? {})).size).toBe(1);
    expect(sent).toContain('[image a2: shot2.png — not shown: this model cannot see images]');

    // A short reading beside long ones stays whole; the long ones share the rest.
    const short = `SHORT-START ${'s'.repeat(1500)} SHORT-END`;
    const mixed = [typed, transcriptText({ id: 'b1', name: 'big.png' }, { text: reading(1), engine: 'ocr' }), transcriptText({ id: 'b2', name: 'small.png' }, { text: short, engine: 'ocr' }), transcriptText({ id: 'b3', name: 'big2.png' }, { text: reading(3), engine: 'ocr' })].join('\n\n');
    const mixedSent = fitHistory([{ role: 'user', content: mixed }], ollama8k).messages[0]!.content;
    const [a, b, c] = transcriptSpans(mixedSent).map((span) => mixedSent.slice(span.start, span.end));
    expect(b).toBe(short);
    expect(fitHistory([{ role: 'user', content: mixed }], ollama8k).cutReadings).not.toHaveProperty('b2');
    expect(a!.length).toBe(c!.length);
    expect(a!.length).toBeLessThan(reading(1).length);

    // Words the person typed are never cut: too long with nothing else to cut, it is flagged.
    const typedOnly = fitHistory([{ role: 'user', content: `${typed}${'y'.repeat(40_000)}` }], ollama8k);
    expect(typedOnly.overBudget).toBe(true);
    expect(typedOnly.messages[0]!.content).toBe(`${typed}${'y'.repeat(40_000)}`);
  });

  it('unknown window: nothing is dropped', () => {
    const messages = [...turn(1, 100_000), { role: 'user' as const, content: 'now' }];
    expect(fitHistory(messages, { tokens: null, max: null, source: 'none', setsNumCtx: false })).toMatchObject({ messages, droppedTurns: 0 });
  });

  it('num_ctx steps in powers of two between the default and the window', () => {
    expect(ollamaNumCtx(100, ollama8k)).toBe(4096);
    expect(ollamaNumCtx(5000, ollama8k)).toBe(8192);
    expect(ollamaNumCtx(50_000, ollama8k)).toBe(8192);
    expect(ollamaNumCtx(5000, { ...ollama8k, tokens: 32_768, defaultContext: 2048 })).toBe(8192);
    expect(ollamaNumCtx(100, { ...ollama8k, tokens: 2048 })).toBe(2048);
  });

  it('reads an unknown image’s size from its header for the estimate', () => {
    // A PNG header of 2800×1400: 100 × 50 28-px squares.
    const png = new Uint8Array(24);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    new DataView(png.buffer).setUint32(16, 2800);
    new DataView(png.buffer).setUint32(20, 1400);
    const tokens = estimateMessageTokens({ role: 'user', content: '', images: [{ data: png, mime: 'image/png' }] });
    expect(tokens - estimateMessageTokens({ role: 'user', content: '' })).toBe(5000);
  });
});
