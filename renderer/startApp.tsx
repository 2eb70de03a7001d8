// The app proper — React, the store and the UI — loaded by main.tsx once the connection is
// on its way. index.html preloads this chunk, so it downloads and compiles meanwhile.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Connection } from './api/connectApi.ts';
import type { ConversationFetch } from './state/chatSlice.ts';
import { createAppStore, StoreContext } from './state/store.ts';
import { App } from './ui/App.tsx';

// For bench:ui — React and the UI are loaded (this chunk is evaluated).
performance.mark('glance:app');

export function startApp(connection: Connection, early?: { id: string; fetch: ConversationFetch }): void {
  const store = createAppStore(connection.api);
  // A page opened on a conversation shows the one main.tsx already asked for.
  if (early) void store.getState().openConversation(early.id, early.fetch);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <StoreContext.Provider value={store}>
        <App connection={connection} />
      </StoreContext.Provider>
    </StrictMode>,
  );
}
