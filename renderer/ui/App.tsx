import { useEffect, useRef, useState } from 'react';
import type { Connection } from '../api/connectApi.ts';
import type { ConnectionState } from '../api/wsAdapter.ts';
import { parseRoute, routeHash, type Route } from '../route.ts';
import { useAppStore } from '../state/store.ts';
import { AskWindow } from './AskWindow.tsx';
import { LeaveSettingsDialog } from './LeaveSettingsDialog.tsx';
import { MainWindow } from './MainWindow.tsx';
import { McpQuestionDialog } from './McpQuestionDialog.tsx';
import { afterWindowOpened } from './windowOpened.ts';

/**
 * The window's place, from the address. Leaving Settings while a section holds unsaved edits
 * does not happen at once: `leaving` is where the person was going, until they say.
 */
function useRoute(): [Route, (route: Route, replace?: boolean) => void, { to: Route; replace: boolean } | null, (go: boolean) => void] {
  const store = useAppStore();
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  const [leaving, setLeaving] = useState<{ to: Route; replace: boolean } | null>(null);
  const current = useRef(route);
  current.current = route;
  const held = (next: Route) => current.current.name === 'settings' && next.name !== 'settings' && store.getState().unsavedSettings.length > 0;
  useEffect(() => {
    const onHash = () => {
      const next = parseRoute(location.hash);
      if (held(next)) {
        // Back, or an address typed: the address goes back to Settings until the person says.
        history.replaceState(null, '', routeHash(current.current));
        setLeaving({ to: next, replace: false });
        return;
      }
      setRoute(next);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const go = (next: Route, replace: boolean) => {
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
  const navigate = (next: Route, replace = false) => {
    if (held(next)) setLeaving({ to: next, replace });
    else go(next, replace);
  };
  const answer = (leave: boolean) => {
    const to = leaving;
    setLeaving(null);
    if (!leave || !to) return;
    // What was not saved is thrown away as asked: the sections go as the page changes.
    for (const section of store.getState().unsavedSettings) store.getState().markUnsaved(section, false);
    go(to.to, to.replace);
  };
  return [route, navigate, leaving, answer];
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
  const [route, navigate, leaving, answerLeaving] = useRoute();
  const kind = route.name === 'ask' ? 'ask' : 'main';
  useEffect(() => store.getState().init(kind, { onShowConversation: (conversationId) => navigate({ name: 'chat', conversationId }), afterFirstPaint: afterWindowOpened }), [store, kind]);
  return (
    <>
      <ConnectionBanner connection={connection} />
      {route.name === 'ask' ? <AskWindow host={connection.kind} navigate={navigate} /> : <MainWindow route={route} navigate={navigate} />}
      <McpQuestionDialog />
      {leaving && <LeaveSettingsDialog unsaved={store.getState().unsavedSettings} onStay={() => answerLeaving(false)} onLeave={() => answerLeaving(true)} />}
    </>
  );
}
