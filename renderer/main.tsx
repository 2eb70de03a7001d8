import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectApi } from './api/connectApi.ts';
import { parseRoute } from './route.ts';
import { createAppStore, StoreContext } from './state/store.ts';
import { App } from './ui/App.tsx';
import './ui/styles.css';

// For bench:ui — when the app's own code starts, after the page and its scripts have loaded.
performance.mark('glance:start');
// The token leaves the address bar before anything else runs (connectApi).
const connection = connectApi();
const store = createAppStore(connection.api);
// A page opened on a conversation asks for it now, while React is still starting.
const route = parseRoute(location.hash);
if (route.name === 'chat' && route.conversationId) void store.getState().openConversation(route.conversationId);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <App connection={connection} />
    </StoreContext.Provider>
  </StrictMode>,
);
