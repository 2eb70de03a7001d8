// Time spent inside a provider's stream, so a bench can subtract the model server's own time
// and report what the engine itself costs per turn.
import type { ModelProvider } from '../../main/models/provider.ts';

export type TimedProvider = { provider: ModelProvider; /** ms inside the stream since the last reset. */ ms(): number; reset(): void };

export function timedProvider(base: ModelProvider): TimedProvider {
  let ms = 0;
  const provider: ModelProvider = {
    kind: base.kind,
    listModels: (o) => base.listModels(o),
    capabilities: (m, o) => base.capabilities(m, o),
    async *stream(request, options) {
      const iterator = base.stream(request, options)[Symbol.asyncIterator]();
      for (;;) {
        const t0 = performance.now();
        const next = await iterator.next();
        ms += performance.now() - t0;
        if (next.done) return;
        yield next.value;
      }
    },
  };
  return { provider, ms: () => ms, reset: () => void (ms = 0) };
}
