// One zustand store made of feature slices (chat, attachments, models, settings, mcp), built
// around an injected `GlanceApi` so the same UI runs on Electron's preload and the harness.
// Side effects (IPC calls, subscriptions) live in slice actions; components only select and call.
import { createContext, useContext } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import type { GlanceApi } from '../../common/ipc.ts';
import { createAttachmentsSlice, type AttachmentsSlice } from './attachmentsSlice.ts';
import { runningTurnId } from './chatReducer.ts';
import { createChatSlice, type ChatSlice } from './chatSlice.ts';
import { createContextSlice, type ContextSlice } from './contextSlice.ts';
import { createConversationsSlice, type ConversationsSlice } from './conversationsSlice.ts';
import { createDraftsSlice, type DraftsSlice } from './draftsSlice.ts';
import { createMcpSlice, type McpSlice } from './mcpSlice.ts';
import { createMarkupSlice, type MarkupSlice } from './markupSlice.ts';
import { watchReconnect } from './reconnect.ts';
import { watchDrafts } from './draftSync.ts';
import { watchImageRoute } from './imageRoute.ts';
import { createToolsSlice, type ToolsSlice } from './toolsSlice.ts';
import { createModelsSlice, type ModelsSlice } from './modelsSlice.ts';
import { createSettingsSlice, type SettingsSlice } from './settingsSlice.ts';

type WindowKind = 'main' | 'ask';

type AppSlice = {
  /**
   * Subscribes to main's pushes and loads what the window shows first. Returns the unsubscribe.
   * `afterFirstPaint` defers the rest (model list, settings, conversation list) until the window
   * has painted what it opened on (renderer/ui/windowOpened.ts); without it, they load at once.
   */
  init(kind: WindowKind, options?: { onShowConversation?: (conversationId: string) => void; afterFirstPaint?: (load: () => void) => void }): () => void;
  /** The ask window's "Open in Glance": main shows the main window on this conversation. */
  openMain(conversationId?: string): Promise<string | null>;
};

export type AppState = ChatSlice & ConversationsSlice & ContextSlice & DraftsSlice & AttachmentsSlice & ModelsSlice & SettingsSlice & McpSlice & ToolsSlice & MarkupSlice & AppSlice;
export type SliceCreator<T> = (set: StoreApi<AppState>['setState'], get: StoreApi<AppState>['getState'], api: GlanceApi) => T;

export function createAppStore(api: GlanceApi): StoreApi<AppState> {
  const store = createStore<AppState>()((set, get) => ({
    ...createChatSlice(set, get, api),
    ...createConversationsSlice(set, get, api),
    ...createDraftsSlice(set, get, api),
    ...createContextSlice(set, get, api),
    ...createAttachmentsSlice(set, get, api),
    ...createModelsSlice(set, get, api),
    ...createSettingsSlice(set, get, api),
    ...createMcpSlice(set, get, api),
    ...createToolsSlice(set, get, api),
    ...createMarkupSlice(set, get, api),
    init(kind, options) {
      const offs = [
        api.onAppShowConversation((p) => {
          if (kind === 'main') options?.onShowConversation?.(p.conversationId);
        }),
        api.onChatEvent((p) => get().receiveChatEvent(p)),
        api.onModelsPullProgress((p) => get().receivePullProgress(p)),
        api.onAttachmentsIncoming((p) => {
          if (p.target !== kind) return;
          // A new hotkey capture starts a new question in the ask window (unless one is still running).
          if (kind === 'ask' && runningTurnId(get().chat) === undefined) {
            get().newChat();
            set({ pending: [], refusals: [] });
          }
          get().receiveIncoming(p.result, p.id);
        }),
        api.onSettingsChanged((s) => get().receiveSettings(s)),
        api.onMcpChanged((servers) => set({ mcpServers: servers })),
        api.onMcpQuestion((q) => get().receiveMcpQuestion(q)),
        api.onAppNotice((n) => get().receiveNotice(n)),
        watchReconnect(store),
        watchImageRoute(store, api),
        commitDeleteOnLeave(() => void get().commitDelete()),
        // The ask window's box is one question at a time; the main window's drafts are kept.
        ...(kind === 'main' ? [watchDrafts(store, api)] : []),
      ];
      // Subscribed: main delivers what it held for this page (a hotkey's capture, a conversation to open).
      void api.appListening({});
      let cancelled = false;
      const loadRest = () => {
        if (cancelled) return;
        void get()
          .loadSettings()
          .then(() => get().loadModels(false));
        void get().loadAppInfo();
        // MCP status is loaded by Settings when shown: asking starts every server, which the first chat does anyway.
        if (kind === 'main') void get().loadConversations();
        // Opened mid-answer (a reload): what streamed before this window listened is fetched again.
        if (runningTurnId(get().chat) !== undefined) void get().refreshConversation();
      };
      // A window opened on a conversation shows it first; the rest (model list, settings) follows,
      // once that frame is drawn: their answers would otherwise each render on the way to it.
      const later = options?.afterFirstPaint ?? ((load: () => void) => load());
      let waiting: (() => void) | undefined;
      if (get().loadingConversation === null) later(loadRest);
      else {
        waiting = store.subscribe((state) => {
          if (state.loadingConversation !== null) return;
          waiting?.();
          waiting = undefined;
          later(loadRest);
        });
      }
      return () => {
        cancelled = true;
        waiting?.();
        offs.forEach((off) => off());
      };
    },
    async openMain(conversationId) {
      const result = await api.appOpenMain(conversationId ? { conversationId } : {});
      return result.ok ? null : result.message;
    },
  }));
  return store;
}

/** A delete still offered for undo is made when the window goes away (closed, reloaded). */
function commitDeleteOnLeave(commit: () => void): () => void {
  if (typeof window === 'undefined') return () => undefined;
  window.addEventListener('pagehide', commit);
  return () => window.removeEventListener('pagehide', commit);
}

export const StoreContext = createContext<StoreApi<AppState> | null>(null);

export function useApp<T>(selector: (state: AppState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useApp outside <StoreContext.Provider>');
  return useStore(store, selector);
}

export function useAppStore(): StoreApi<AppState> {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore outside <StoreContext.Provider>');
  return store;
}
