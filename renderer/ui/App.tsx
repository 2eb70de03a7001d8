import { useEffect, useState } from 'react';
import type { Connection } from '../api/connectApi.ts';
import type { ConnectionState } from '../api/wsAdapter.ts';
import { parseRoute, routeHash, type Route } from '../route.ts';
import { useAppStore } from '../state/store.ts';
import { AskWindow } from './AskWindow.tsx';
import { MainWindow } from './MainWindow.tsx';
import { McpQuestionDialog } from './McpQuestionDialog.tsx';
import { afterWindowOpened } from './windowOpened.ts';

function useRoute(): [Route, (route: Route, replace?: boolean) => void] {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const navigate = (next: Route, replace = false) => {
    const hash = routeHash(next);
    if (hash === location.hash || (hash === '#/' && location.hash === '')) {
      setRoute(next);
      return;
    }
    if (replace) {
      history.replaceState(null, '', hash);
      setRoute(next);
    } else location.hash = hash;
  };
  return [route, navigate];
}

function ConnectionBanner({ connection }: { connection: Connection }) {
  const [state, setState] = useState<{ state: ConnectionState; message?: string }>({ state: 'open' });
  useEffect(() => connection.onState((s, message) => setState({ state: s, message })), [connection]);
  if (state.state === 'open') return null;
  if (state.state === 'refused') {
    return (
      <div role="alert" className="banner error">
        Glance refused this page: {state.message ?? 'no valid token'}. Open the address that <code>npm run harness</code> printed.
      </div>
    );
  }
  return (
    <div role="status" className="banner">
      {state.state === 'connecting' ? 'Connecting to Glance…' : 'Lost the connection to Glance; reconnecting…'}
    </div>
  );
}

export function App({ connection }: { connection: Connection }) {
  const store = useAppStore();
  const [route, navigate] = useRoute();
  const kind = route.name === 'ask' ? 'ask' : 'main';
  useEffect(() => store.getState().init(kind, { onShowConversation: (conversationId) => navigate({ name: 'chat', conversationId }), afterFirstPaint: afterWindowOpened }), [store, kind]);
  return (
    <>
      <ConnectionBanner connection={connection} />
      {route.name === 'ask' ? <AskWindow host={connection.kind} navigate={navigate} /> : <MainWindow route={route} navigate={navigate} />}
      <McpQuestionDialog />
    </>
  );
}
