// The page's first script, kept small (no React): it connects to Glance and, for a page opened
// on a conversation, asks for its end at once — while the browser is still downloading and
// compiling the app (startApp.tsx, preloaded from index.html), rather than after.
import { connectApi } from './api/connectApi.ts';
import { parseRoute } from './route.ts';
import { FIRST_SCREEN_TURNS } from './state/firstScreen.ts';
import './ui/styles.css';
import './ui/layout.css';
import './ui/messages.css';
import './ui/sidebar.css';

/** How long a page opened on a conversation may wait for it before showing the window without it. */
const FIRST_RENDER_WAIT_MS = 150;

// For bench:ui — when the app's own code starts, after the page and this script have loaded.
performance.mark('glance:start');
// The token leaves the address bar before anything else runs (connectApi).
const connection = connectApi();
const route = parseRoute(location.hash);
const early = route.name === 'chat' && route.conversationId ? { id: route.conversationId, fetch: connection.api.conversationsGet({ id: route.conversationId, last: FIRST_SCREEN_TURNS }) } : undefined;
// For bench:ui — when the answer is here (the app may still be loading).
void early?.fetch.then(() => performance.mark('glance:conversation-fetched'));
const app = import('./startApp.tsx');
// One render with the conversation beats two (the empty window, then the conversation) when
// it is on its way anyway: wait for it, but no longer than a moment once the app is loaded.
if (early) await Promise.race([early.fetch, app.then(() => new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS)))]);
const { startApp } = await app;
startApp(connection, early);
