// A model stream that stalls must not hang the turn: a server that sends its
// headers and then nothing kept a turn waiting past 150 s. Each step's stream runs under two
// clocks — silence between events (`streamIdleMs`) and the whole answer (`maxAnswerMs`) — and
// either ends it as `interrupted`, keeping what arrived (the turn loop stores the partial).
import { ProviderError } from '../models/provider.ts';

type StreamClocks = { streamIdleMs: number; maxAnswerMs: number };

/**
 * Iterates `open(signal)` under the clocks. The signal given to `open` aborts when `parent`
 * does or a clock runs out; the stream is then left (its `return()` not awaited, as a stalled
 * body may never settle) and a ProviderError('interrupted') thrown.
 */
export async function* watchedStream<T>(open: (signal: AbortSignal) => AsyncIterable<T>, parent: AbortSignal, clocks: StreamClocks, who: string): AsyncGenerator<T> {
  const controller = new AbortController();
  const onParent = () => controller.abort(parent.reason);
  if (parent.aborted) onParent();
  parent.addEventListener('abort', onParent, { once: true });
  const iterator = open(controller.signal)[Symbol.asyncIterator]();
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  let clockRanOut = false;
  try {
    for (;;) {
      const left = clocks.maxAnswerMs - (Date.now() - started);
      const wait = Math.min(clocks.streamIdleMs, Math.max(0, left));
      const why = wait === clocks.streamIdleMs ? 'idle' : 'total';
      const clock = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), wait)));
      const next = await Promise.race([iterator.next(), clock]);
      clearTimeout(timer);
      if (next === 'late') {
        clockRanOut = true;
        throw new ProviderError(
          'interrupted',
          why === 'idle'
            ? `${who} sent nothing for ${seconds(clocks.streamIdleMs)}, so the answer was stopped; what arrived is kept. (Settings → Limits → Model silence timeout.)`
            : `${who} was still answering after ${seconds(clocks.maxAnswerMs)}, so the answer was stopped; what arrived is kept. (Settings → Limits → Longest answer time.)`,
        );
      }
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } catch (error) {
    if (!clockRanOut) finished = true; // the stream itself threw: it is over
    throw error;
  } finally {
    clearTimeout(timer);
    parent.removeEventListener('abort', onParent);
    // Left early (a clock, the answer cap, a cancel): the request is aborted and the stream closed.
    if (!finished) {
      controller.abort(new Error('stream left'));
      void Promise.resolve(iterator.return?.()).catch(() => undefined);
    }
  }
}

function seconds(ms: number): string {
  return ms >= 120_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} s`;
}
