// Which `GlanceApi` this page talks to: the preload's `window.glance` in Electron, else the
// harness's WebSocket. The harness hands the page its per-launch token in the URL fragment
// (`#token=…`, never sent to a server in a request line); the page moves it to sessionStorage
// (so a reload keeps it, per tab) and takes it out of the address bar before anything renders.
import type { GlanceApi } from '../../common/ipc.ts';
import { createWsApi, type ConnectionState } from './wsAdapter.ts';

const TOKEN_KEY = 'glance.harnessToken';
const TOKEN_IN_HASH = /(^#|&)token=([0-9a-f]{32,128})(?=&|$)/;

export type Connection = {
  api: GlanceApi;
  kind: 'electron' | 'harness';
  /** Harness only: the WebSocket's state, for a banner. */
  onState(listener: (state: ConnectionState, message?: string) => void): () => void;
};

/**
 * Takes the token out of the fragment (keeping the route). `remember` keeps it for reloads: a
 * separate step, because the first sessionStorage write can block for several ms and the
 * WebSocket should not wait for it.
 */
function takeHarnessToken(): { token: string | undefined; remember(): void } {
  const match = TOKEN_IN_HASH.exec(location.hash);
  if (!match) return { token: sessionStorage.getItem(TOKEN_KEY) ?? undefined, remember: () => undefined };
  let rest = location.hash.replace(TOKEN_IN_HASH, '$1').replace(/^#&/, '#').replace(/&$/, '');
  if (rest === '#') rest = '';
  history.replaceState(null, '', `${location.pathname}${location.search}${rest}`);
  const token = match[2]!;
  return { token, remember: () => sessionStorage.setItem(TOKEN_KEY, token) };
}

export function connectApi(): Connection {
  const preload = (window as unknown as { glance?: GlanceApi }).glance;
  if (preload) return { api: preload, kind: 'electron', onState: () => () => undefined };
  const listeners = new Set<(state: ConnectionState, message?: string) => void>();
  let last: [ConnectionState, string | undefined] = ['connecting', undefined];
  const { token, remember } = takeHarnessToken();
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const api = createWsApi({
    url: `${scheme}://${location.host}/api?token=${encodeURIComponent(token ?? '')}`,
    onState: (state, message) => {
      last = [state, message];
      for (const l of listeners) l(state, message);
    },
  });
  remember();
  return {
    api,
    kind: 'harness',
    onState(listener) {
      listeners.add(listener);
      listener(...last);
      return () => void listeners.delete(listener);
    },
  };
}
