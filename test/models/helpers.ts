import type { ModelEvent, ModelProvider, ModelRequest } from '../../main/models/provider.ts';
import { ProviderError } from '../../main/models/provider.ts';

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
