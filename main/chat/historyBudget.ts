// History within the context (architecture §4a "History stays within the model's context window"): a request must fit the model's context
// window, or the server cuts it without a word — Ollama drops the *front* of the prompt (the
// system prompt and the oldest turns) when num_ctx is exceeded. So Glance estimates the request,
// drops the oldest whole turns first with a stub that says what they were about, and for
// Ollama sets num_ctx to what the request needs, within the model's maximum.
import { estimateTextTokens, fallbackImageTokens } from '../../common/tokens.ts';
import type { ProviderKind } from '../../common/models.ts';
import { knownContextWindow } from '../images/modelRules.ts';
import type { ModelDetails, ModelMessage } from '../models/provider.ts';
import { transcriptSpans } from './transcriptText.ts';

export type ContextWindow = {
  /** Tokens a request may use (the history budget); null when unknown: nothing is dropped. */
  tokens: number | null;
  /** The model's maximum context, when known. */
  max: number | null;
  source: 'ollama-model-info' | 'ollama-default' | 'server-metadata' | 'known-model' | 'none';
  /** Ollama: num_ctx is set per request (else the server's own window applies). */
  setsNumCtx: boolean;
  /** Ollama: the context the model runs with unless told (Modelfile num_ctx, else Ollama's 4096). */
  defaultContext?: number;
};

/**
 * Ollama's KV cache grows with num_ctx (a 27B model at 128k needs tens of GB), so the budget
 * stops at 32k even for models that take more; past it the oldest turns go. Requests that need
 * less get less: num_ctx steps in powers of two so the runner is not reloaded on every turn.
 */
export const OLLAMA_CONTEXT_CAP = 32_768;
const OLLAMA_DEFAULT_CONTEXT = 4096;
/** Per message: role and separator tokens of the chat template. */
const MESSAGE_OVERHEAD = 4;

export function contextWindowFor(kind: ProviderKind, model: string, details: ModelDetails = {}): ContextWindow {
  if (kind === 'ollama') {
    const defaultContext = details.defaultContext ?? OLLAMA_DEFAULT_CONTEXT;
    if (details.contextLength !== undefined) {
      return { tokens: Math.min(details.contextLength, OLLAMA_CONTEXT_CAP), max: details.contextLength, source: 'ollama-model-info', setsNumCtx: true, defaultContext };
    }
    // An older server that does not say: stay within what the model runs with anyway.
    return { tokens: defaultContext, max: null, source: 'ollama-default', setsNumCtx: true, defaultContext };
  }
  if (details.contextLength !== undefined) return { tokens: details.contextLength, max: details.contextLength, source: 'server-metadata', setsNumCtx: false };
  const known = knownContextWindow(model);
  if (known !== undefined) return { tokens: known, max: known, source: 'known-model', setsNumCtx: false };
  return { tokens: null, max: null, source: 'none', setsNumCtx: false };
}

/** Room kept for the answer (Ollama's num_ctx holds prompt and answer): a quarter of a small window, at most 2048 tokens. */
export function answerReserve(window: number): number {
  return Math.min(2048, Math.floor(window / 4));
}

export function estimateMessageTokens(m: ModelMessage): number {
  let tokens = MESSAGE_OVERHEAD + estimateTextTokens(m.content);
  if (m.role === 'assistant') {
    for (const call of m.toolCalls ?? []) tokens += MESSAGE_OVERHEAD + estimateTextTokens(call.name + JSON.stringify(call.arguments));
    if (m.thinking) tokens += estimateTextTokens(m.thinking);
  }
  if (m.role === 'user') for (const image of m.images ?? []) tokens += imageTokens(image);
  return tokens;
}

/** One image's share of a request: its model's estimate, else one from its size (the Context meter's "Images" counts the same). */
export function imageTokens(image: { data: Uint8Array; tokens?: number | null }): number {
  return image.tokens ?? unknownImageTokens(image.data);
}

/** An image without an estimate: its size from the PNG/JPEG/WebP/GIF header when readable, else a 1568×882 screen's. */
function unknownImageTokens(data: Uint8Array): number {
  const size = headerSize(data) ?? { width: 1568, height: 882 };
  return fallbackImageTokens(size.width, size.height);
}

function headerSize(d: Uint8Array): { width: number; height: number } | undefined {
  const u16be = (i: number) => ((d[i] ?? 0) << 8) | (d[i + 1] ?? 0);
  const u32be = (i: number) => ((u16be(i) << 16) | u16be(i + 2)) >>> 0;
  if (d[0] === 0x89 && d[1] === 0x50 && d.length >= 24) return { width: u32be(16), height: u32be(20) };
  if (d[0] === 0x47 && d[1] === 0x49 && d.length >= 10) return { width: (d[6] ?? 0) | ((d[7] ?? 0) << 8), height: (d[8] ?? 0) | ((d[9] ?? 0) << 8) };
  if (d[0] === 0xff && d[1] === 0xd8) {
    for (let i = 2; i + 9 < d.length; ) {
      if (d[i] !== 0xff) return undefined;
      const marker = d[i + 1] ?? 0;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { width: u16be(i + 7), height: u16be(i + 5) };
      i += 2 + u16be(i + 2);
    }
  }
  return undefined;
}

type FittedHistory = {
  messages: ModelMessage[];
  /** The request's estimate after fitting (messages plus tool definitions). */
  estimatedTokens: number;
  /** Whole older turns left out (a stub says so). */
  droppedTurns: number;
  /** Ollama: the num_ctx to send (what the request needs, within the model's maximum). */
  numCtx?: number;
  /** Even the current turn alone, its tool results and image readings cut, is larger than the window (sent anyway, at the largest num_ctx). */
  overBudget: boolean;
  /** Image readings (local OCR for a blind model) cut to fit: characters sent, by attachment id. */
  cutReadings?: Record<string, number>;
};

/** A turn starts at a user message that does not follow a tool result (deliveries do). */
function turnStarts(messages: ModelMessage[]): number[] {
  const starts: number[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'user' && messages[i - 1]?.role !== 'tool') starts.push(i);
  });
  return starts;
}

const STUB_QUOTE_CHARS = 100;
const STUB_MAX_QUOTES = 8;

/** The first line of each user question (not a delivery after a tool result), quoted for a stub, with its index. */
function quotable(messages: ModelMessage[]): Array<{ index: number; quote: string }> {
  const out: Array<{ index: number; quote: string }> = [];
  messages.forEach((m, i) => {
    if (m.role !== 'user' || messages[i - 1]?.role === 'tool') return;
    const t = m.content.split('\n')[0]?.trim() ?? '';
    if (t.length > 0) out.push({ index: i, quote: JSON.stringify(t.length > STUB_QUOTE_CHARS ? `${t.slice(0, STUB_QUOTE_CHARS - 1)}…` : t) });
  });
  return out;
}

/** The words that stand for `turns` dropped turns, quoting the last questions among them. */
function droppedStub(quotes: readonly string[], turns: number, window: number): string {
  const asked = quotes.slice(-STUB_MAX_QUOTES);
  const about = asked.length ? ` The user had asked: ${asked.join('; ')}.` : '';
  return `[${turns} earlier turn${turns === 1 ? '' : 's'} of this conversation ${turns === 1 ? 'was' : 'were'} left out to fit the model's context window (${window} tokens).${about} If something from them matters, ask the user.]`;
}

/** An image's OCR reading is not cut below this many characters. */
const READING_KEPT = 1000;

/** Shortens a long text to its head and tail, saying how much was cut. */
function cutText(text: string, keepChars: number): string {
  if (text.length <= keepChars) return text;
  const head = Math.ceil(keepChars * 0.7);
  const tail = keepChars - head;
  return `${text.slice(0, head)}\n[… ${text.length - keepChars} characters cut to fit the model's context window …]\n${text.slice(text.length - tail)}`;
}

/**
 * Fits the messages into the window: oldest whole turns first (replaced by one stub on the
 * system message), then the current turn's long tool results, then its images' local-OCR
 * readings for a blind model (head and tail kept; three readings of a 4K editor screen are
 * ~19k estimated tokens). The person's own words are never cut. Never silent: every cut
 * leaves words saying so. `extraTokens` counts what rides beside the messages (tool definitions).
 */
export function fitHistory(messages: ModelMessage[], window: ContextWindow, options: { extraTokens?: number } = {}): FittedHistory {
  const extra = options.extraTokens ?? 0;
  const sum = (list: ModelMessage[]) => list.reduce((n, m) => n + estimateMessageTokens(m), extra);
  const total = sum(messages);
  const size = window.tokens;
  if (size === null) return { messages, estimatedTokens: total, droppedTurns: 0, overBudget: false };
  const budget = size - answerReserve(size);
  const numCtx = (estimate: number) => (window.setsNumCtx ? ollamaNumCtx(estimate + answerReserve(size), window) : undefined);
  const done = (list: ModelMessage[], droppedTurns: number, overBudget = false): FittedHistory => {
    const estimatedTokens = sum(list);
    const result: FittedHistory = { messages: list, estimatedTokens, droppedTurns, overBudget };
    const ctx = numCtx(estimatedTokens);
    if (ctx !== undefined) result.numCtx = ctx;
    return result;
  };
  if (total <= budget) return done(messages, 0);

  const system = messages[0]?.role === 'system' ? messages[0] : undefined;
  const body = system ? messages.slice(1) : messages;
  const starts = turnStarts(body);
  const lastStart = starts.at(-1) ?? 0;
  const quotes = quotable(body);
  // Quotes from the messages before `cut`, at most the last few (binary search: not O(cut)).
  const quotesBefore = (cut: number) => {
    let end = 0;
    for (let hi = quotes.length; end < hi; ) {
      const mid = (end + hi) >> 1;
      if (quotes[mid]!.index < cut) end = mid + 1;
      else hi = mid;
    }
    return quotes.slice(Math.max(0, end - STUB_MAX_QUOTES), end).map((q) => q.quote);
  };
  const headWith = (cut: number, turns: number): ModelMessage => {
    const stub = droppedStub(quotesBefore(cut), turns, size);
    return system ? { role: 'system', content: `${system.content}\n\n${stub}` } : { role: 'system', content: stub };
  };
  const withStub = (cut: number, turns: number): ModelMessage[] => [headWith(cut, turns), ...body.slice(cut)];
  // Each message's estimate once, and the sums of every tail: trying k dropped turns costs
  // O(1) estimates instead of re-estimating the whole history (100 turns: 300 messages a try).
  const tail = new Array<number>(body.length + 1).fill(0);
  for (let i = body.length - 1; i >= 0; i--) tail[i] = tail[i + 1]! + estimateMessageTokens(body[i]!);
  // Drop the oldest whole turns until the rest fits; the current turn always stays.
  for (let k = 1; k < starts.length; k++) {
    const cut = starts[k]!;
    if (extra + estimateMessageTokens(headWith(cut, k)) + tail[cut]! <= budget) return done(withStub(cut, k), k);
  }
  const droppedTurns = Math.max(0, starts.length - 1);
  let current = droppedTurns > 0 ? withStub(lastStart, droppedTurns) : [...messages];
  // Still too big: the current turn's tool results, longest first, down to a few thousand characters.
  const toolIndexes = current.map((m, i) => (m.role === 'tool' ? i : -1)).filter((i) => i >= 0);
  toolIndexes.sort((a, b) => current[b]!.content.length - current[a]!.content.length);
  for (const i of toolIndexes) {
    const over = sum(current) - budget;
    if (over <= 0) break;
    const m = current[i]!;
    const keep = Math.max(2000, m.content.length - Math.ceil(over * 3.5) - 200);
    current = current.map((x, j) => (j === i ? { ...x, content: cutText(x.content, keep) } : x)) as ModelMessage[];
  }
  // Still too big: the readings, all to one length (a fair share each), at least a thousand characters.
  const over = sum(current) - budget;
  if (over <= 0) return done(current, droppedTurns);
  const readings = cutReadings(current, Math.ceil(over * 3.5));
  const result = done(readings.messages, droppedTurns, sum(readings.messages) > budget);
  if (Object.keys(readings.sent).length) result.cutReadings = readings.sent;
  return result;
}

/**
 * Shortens the image readings in user messages by about `chars` characters in all: every reading
 * longer than a common length is cut to it (head and tail kept), so three screenshots keep equal
 * shares instead of one whole and two gone.
 */
function cutReadings(messages: ModelMessage[], chars: number): { messages: ModelMessage[]; sent: Record<string, number> } {
  const sent: Record<string, number> = {};
  const spans = messages.flatMap((m, i) => (m.role === 'user' ? transcriptSpans(m.content).map((s) => ({ i, ...s, length: s.end - s.start })) : []));
  if (spans.length === 0) return { messages, sent };
  const slack = 200; // the cut note, and rounding
  let keep = spans.reduce((n, s) => n + s.length, 0) - chars - slack * spans.length;
  // The common length: the short readings stay whole, the rest share what is left evenly.
  let cap = Infinity;
  let left = spans.length;
  for (const length of spans.map((s) => s.length).sort((a, b) => a - b)) {
    if (length <= keep / left) {
      keep -= length;
      left--;
    } else {
      cap = Math.max(READING_KEPT, Math.floor(keep / left));
      break;
    }
  }
  if (cap === Infinity) return { messages, sent };
  const out = [...messages];
  // From the end of each message, so the spans before a cut stay where they were.
  for (const s of spans.sort((a, b) => a.i - b.i || b.start - a.start)) {
    if (s.length <= cap) continue;
    const text = out[s.i]!.content;
    out[s.i] = { ...out[s.i]!, content: text.slice(0, s.start) + cutText(text.slice(s.start, s.end), cap) + text.slice(s.end) } as ModelMessage;
    sent[s.id] = cap;
  }
  return { messages: out, sent };
}

/** num_ctx: the next power of two that holds the request (at least the model's default), capped by the window. */
export function ollamaNumCtx(needed: number, window: ContextWindow): number {
  const floor = Math.min(window.defaultContext ?? OLLAMA_DEFAULT_CONTEXT, window.tokens ?? Number.MAX_SAFE_INTEGER);
  let n = 2048;
  while (n < needed) n *= 2;
  const ceiling = window.tokens ?? n;
  return Math.max(floor, Math.min(n, ceiling));
}
