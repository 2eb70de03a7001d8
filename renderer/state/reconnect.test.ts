import { describe, expect, it } from 'vitest';
import { watchReconnect, type ReconnectTarget } from './reconnect.ts';
import type { AppState } from './store.ts';

/** The store as watchReconnect takes it (zustand itself is not for tests to import: the layer lint). */
type StoreApi<_T> = Parameters<typeof watchReconnect>[0];

const DOWN = [{ endpoint: 'ollama', code: 'unreachable', message: "Can't reach Ollama." }];

/** The store's parts reconnect reads, with a model server that is down until `up` is set. */
function fixture() {
  const server = { up: false, probes: 0 };
  const retried: string[] = [];
  const store = tinyStore(
    (set) =>
      ({
        modelErrors: DOWN,
        modelsLoading: false,
        chat: { order: ['t1'], turns: { t1: { id: 't1', status: 'failed', error: { code: 'unreachable', message: 'down' }, parts: [] } } },
        async loadModels() {
          server.probes++;
          set({ modelsLoading: true });
          set({ modelsLoading: false, modelErrors: server.up ? [] : [...DOWN] });
        },
        async retry(id: string) {
          retried.push(id);
        },
      }) as unknown as AppState,
  );
  const timers: { delay: number; run: () => void }[] = [];
  const listeners = new Map<string, () => void>();
  const target = {
    setTimeout: (run: () => void, delay: number) => timers.push({ delay, run }) - 1,
    clearTimeout: () => undefined,
    addEventListener: (type: string, fn: () => void) => listeners.set(type, fn),
    removeEventListener: (type: string) => listeners.delete(type),
  } as unknown as ReconnectTarget;
  return { server, retried, store, timers, listeners, target };
}

/** zustand's store contract (getState, setState merging, subscribe with the state before), in a few lines. */
function tinyStore(init: (set: (patch: Partial<AppState>) => void) => AppState): StoreApi<AppState> {
  let state: AppState;
  const listeners = new Set<(s: AppState, before: AppState) => void>();
  const set = (patch: Partial<AppState>) => {
    const before = state;
    state = { ...state, ...patch };
    for (const l of listeners) l(state, before);
  };
  state = init(set);
  return {
    getState: () => state,
    getInitialState: () => state,
    setState: (patch) => set(typeof patch === 'function' ? patch(state) : patch),
    subscribe: (l) => (listeners.add(l), () => listeners.delete(l)),
  } as StoreApi<AppState>;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('watchReconnect', () => {
  it('asks again with a growing pause while the server is down, at once on focus, and resends the unreached turn when it answers', async () => {
    const f = fixture();
    const off = watchReconnect(f.store, f.target);
    // The first answer from main (errors) schedules the first attempt.
    f.store.setState({ modelErrors: [...DOWN] });
    for (let n = 0; n < 5; n++) {
      f.timers.at(-1)!.run();
      await tick();
    }
    expect(f.timers.map((t) => t.delay)).toEqual([2000, 4000, 8000, 15000, 15000, 15000]);
    expect(f.server.probes).toBe(5);
    expect(f.retried).toEqual([]);

    f.server.up = true;
    f.listeners.get('focus')!();
    await tick();
    expect(f.server.probes).toBe(6);
    expect(f.retried).toEqual(['t1']);
    off();
    expect(f.listeners.size).toBe(0);
  });

  it('does nothing on focus while the server answers', async () => {
    const f = fixture();
    f.store.setState({ modelErrors: [], chat: { order: [], turns: {} } as unknown as AppState['chat'] });
    watchReconnect(f.store, f.target);
    f.listeners.get('focus')!();
    await tick();
    expect(f.server.probes).toBe(0);
    // Only the next health check waits.
    expect(f.timers.map((t) => t.delay)).toEqual([10_000]);
  });

  it('checks an answering server every 10 s, so one that goes away while nothing is sent is seen and waited for', async () => {
    const f = fixture();
    f.server.up = true;
    f.store.setState({ modelErrors: [], chat: { order: [], turns: {} } as unknown as AppState['chat'] });
    watchReconnect(f.store, f.target);
    f.timers.at(-1)!.run();
    await tick();
    expect(f.server.probes).toBe(1);
    expect(f.timers.at(-1)!.delay).toBe(10_000);
    f.server.up = false;
    f.timers.at(-1)!.run();
    await tick();
    expect(f.server.probes).toBe(2);
    expect(f.store.getState().modelErrors).toEqual(DOWN);
    // Down: the growing pause takes over.
    expect(f.timers.at(-1)!.delay).toBe(2000);
  });

  it('does not check while the window is hidden', async () => {
    const f = fixture();
    f.store.setState({ modelErrors: [], chat: { order: [], turns: {} } as unknown as AppState['chat'] });
    watchReconnect(f.store, { ...f.target, document: { visibilityState: 'hidden' } } as ReconnectTarget);
    f.timers.at(-1)!.run();
    await tick();
    expect(f.server.probes).toBe(0);
    expect(f.timers.at(-1)!.delay).toBe(10_000);
  });
});
