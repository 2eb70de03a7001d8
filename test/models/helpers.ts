import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ModelEvent, ModelProvider, ModelRequest } from '../../main/models/provider.ts';
import { ProviderError } from '../../main/models/provider.ts';
import { makeBarChart } from '../fixtures/chart.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';

/** The seeing fixture server and the known-answer chart for one test file: started before all, reset before each, closed after. */
export function useFixtureServer(): { readonly server: ModelServer; readonly chart: Buffer } {
  const fixture = {} as { server: ModelServer; chart: Buffer };
  beforeAll(async () => {
    fixture.server = await createModelServer();
    fixture.chart = await makeBarChart();
  });
  afterAll(async () => {
    await fixture.server?.close();
  });
  beforeEach(() => fixture.server.reset());
  return fixture;
}

/** A one-message request asking `model` what it sees. */
export const ask = (model: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model,
  messages: [{ role: 'user', content: 'What do you see?' }],
  ...extra,
});

export type Collected = { events: ModelEvent[]; text: string; thinking: string; error: ProviderError | undefined };

/** Drains one stream; a ProviderError is kept (with what streamed before it), anything else rethrown. */
export async function collect(
  provider: ModelProvider,
  request: ModelRequest,
  options: { signal?: AbortSignal; onEvent?: (event: ModelEvent) => void } = {},
): Promise<Collected> {
  const events: ModelEvent[] = [];
  let error: ProviderError | undefined;
  try {
    for await (const event of provider.stream(request, { signal: options.signal })) {
      events.push(event);
      options.onEvent?.(event);
    }
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    error = e;
  }
  const join = (type: 'text' | 'thinking') =>
    events.map((e) => (e.type === type ? e.delta : '')).join('');
  return { events, text: join('text'), thinking: join('thinking'), error };
}

export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a ProviderError, got success');
}

export const KNOWN_BARS = [
  { color: 'red', relativeHeight: 0.63 },
  { color: 'green', relativeHeight: 1 },
  { color: 'blue', relativeHeight: 0.42 },
];
