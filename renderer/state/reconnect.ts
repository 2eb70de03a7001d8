// Reconnecting by itself while a model endpoint does not answer, the model list is
// asked for again with a growing pause (2 s, 4 s, 8 s, then every 15 s), and at once when the window
// gets the focus back or the machine comes online — so starting Ollama is enough, no Retry.
// While every endpoint answers, the list is asked again every 10 s while the window is shown,
// so a server that goes away while nothing is sent is seen within seconds (it went unnoticed
// for 90 s and more) — and the window then says so and waits for it as above.
// When it answers, the last turn of the conversation on screen that failed only because the
// server could not be reached is sent again (the person asked it; it never got there).
import type { StoreApi } from 'zustand';
import type { AppState } from './store.ts';

const FIRST_DELAY_MS = 2000;
const MAX_DELAY_MS = 15_000;
/** Between checks while every endpoint answers (the model list: one small request per endpoint, capabilities cached). */
const HEALTH_MS = 10_000;

/** An endpoint did not answer (as opposed to a wrong key or a bad URL, which waiting won't fix). */
function isDown(errors: AppState['modelErrors']): boolean {
  return errors.some((e) => e.code === 'unreachable' || e.endpoint === 'all');
}

export type ReconnectTarget = Pick<Window, 'addEventListener' | 'removeEventListener' | 'setTimeout' | 'clearTimeout'> & { document?: Pick<Document, 'visibilityState'> };

export function watchReconnect(store: StoreApi<AppState>, target: ReconnectTarget = window): () => void {
  let delay = FIRST_DELAY_MS;
  let timer: number | undefined;
  let probing = false;
  let wasDown = isDown(store.getState().modelErrors);
  let health: number | undefined;

  const probe = async () => {
    timer = undefined;
    if (probing) return;
    probing = true;
    try {
      await store.getState().loadModels(true);
    } finally {
      probing = false;
      // The answer came while this attempt was running (no new timer then): still down, wait again.
      if (isDown(store.getState().modelErrors)) schedule();
      else watchHealth();
    }
  };
  /** While up: the next check. A hidden window (in the tray) is not checked; its next showing is. */
  const watchHealth = () => {
    if (health !== undefined) target.clearTimeout(health);
    health = target.setTimeout(() => {
      health = undefined;
      if (isDown(store.getState().modelErrors)) return;
      if (probing || store.getState().modelsLoading || target.document?.visibilityState === 'hidden') watchHealth();
      else void probe();
    }, HEALTH_MS);
  };
  const schedule = () => {
    if (timer !== undefined || probing) return;
    timer = target.setTimeout(() => void probe(), delay);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  };
  const now = () => {
    if (!isDown(store.getState().modelErrors)) return;
    if (timer !== undefined) target.clearTimeout(timer);
    timer = undefined;
    void probe();
  };

  let askedFor: string | undefined;
  const off = store.subscribe((state, before) => {
    // A send that found the server down says so before the model list does: ask it now.
    const unreached = unreachedTurn(state);
    if (unreached && unreached.id !== askedFor && !wasDown && !state.modelsLoading) {
      askedFor = unreached.id;
      void probe();
    }
    if (state.modelErrors === before.modelErrors && state.modelsLoading === before.modelsLoading) return;
    if (state.modelsLoading) return;
    const down = isDown(state.modelErrors);
    if (down) schedule();
    else {
      watchHealth();
      delay = FIRST_DELAY_MS;
      if (wasDown) resendUnreached(state);
    }
    wasDown = down;
  });
  target.addEventListener('focus', now);
  target.addEventListener('online', now);
  if (!wasDown) watchHealth();
  return () => {
    off();
    if (timer !== undefined) target.clearTimeout(timer);
    if (health !== undefined) target.clearTimeout(health);
    target.removeEventListener('focus', now);
    target.removeEventListener('online', now);
  };
}

/** The last turn on screen, when it failed before any answer because the server was down, goes again. */
function resendUnreached(state: AppState): void {
  const turn = unreachedTurn(state);
  if (turn) void state.retry(turn.id);
}

function unreachedTurn(state: AppState) {
  const lastId = state.chat.order.at(-1);
  const last = lastId ? state.chat.turns[lastId] : undefined;
  return last && last.status === 'failed' && last.error?.code === 'unreachable' && last.parts.length === 0 ? last : undefined;
}
