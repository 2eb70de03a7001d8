import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectApi } from './api/connectApi.ts';
import { createAppStore, StoreContext } from './state/store.ts';
import { App } from './ui/App.tsx';
import './ui/styles.css';

// The token leaves the address bar before anything else runs (connectApi).
const connection = connectApi();
const store = createAppStore(connection.api);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <App connection={connection} />
    </StoreContext.Provider>
  </StrictMode>,
);
