import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { Route } from '../route.ts';
import { useApp, useAppStore } from '../state/store.ts';
import { Composer } from './Composer.tsx';
import { ChevronIcon, GearIcon, MenuIcon } from './icons.tsx';
import { LiveAnnouncer } from './LiveAnnouncer.tsx';
import { windowOpened } from './windowOpened.ts';
import { DropZone } from './DropZone.tsx';
import { ImageViewer } from './ImageViewer.tsx';
import { MarkupDialog } from './MarkupEditor.tsx';
import { MessageList } from './MessageList.tsx';
import { ModelHints, ModelPicker } from './ModelPicker.tsx';
import { ServerState } from './ServerStatus.tsx';
import { Notices } from './Notices.tsx';
import { Sidebar } from './Sidebar.tsx';

// Settings is a chunk of its own (with zod, for checking an imported mcpServers file): the
// first screen is usually a chat and should not wait for it.
const SettingsView = lazy(() => import('./settings/SettingsView.tsx').then((m) => ({ default: m.SettingsView })));

/** The message box, once it is there (after a route change it mounts on the next frame). */
function focusMessageBox() {
  requestAnimationFrame(() => document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')?.focus());
}

export function MainWindow({ route, navigate }: { route: Route; navigate: (route: Route, replace?: boolean) => void }) {
  const store = useAppStore();
  const conversationId = useApp((s) => s.chat.conversationId);
  const loadError = useApp((s) => s.loadError);
  const title = useApp((s) => (s.chat.conversationId ? s.conversations.find((c) => c.id === s.chat.conversationId)?.title : undefined));

  // The address names the conversation: opening one from the address (reload, back)…
  useEffect(() => {
    if (route.name !== 'chat') return;
    const state = store.getState();
    if (route.conversationId) void state.openConversation(route.conversationId);
    else if (state.chat.conversationId !== null) state.newChat();
  }, [route, store]);
  // …and a new conversation getting its id puts it in the address, without reloading it.
  useEffect(() => {
    if (route.name === 'chat' && conversationId && route.conversationId !== conversationId) navigate({ name: 'chat', conversationId }, true);
    // Only when the id changes: a route change alone must not re-point the address.
  }, [conversationId]);

  const newChat = () => {
    store.getState().newChat();
    navigate({ name: 'chat' });
    focusMessageBox();
  };

  // Keyboard: Ctrl/Cmd+Shift+O new chat, Ctrl/Cmd+, settings, Escape stops a running answer.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.shiftKey && e.key.toLowerCase() === 'o') {
        e.preventDefault();
        newChat();
      } else if (mod && e.key === ',') {
        e.preventDefault();
        navigate({ name: 'settings' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate, store]);

  // Narrow windows: the list is a drawer the "Conversations" button opens (Escape closes it).
  const [navOpen, setNavOpen] = useState(false);
  useEffect(() => {
    if (!navOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setNavOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navOpen]);

  const inSettings = route.name === 'settings';
  // Escape leaves Settings for the chat, as it closes other windows' panels — unless something
  // inside took it (a menu, a dialog, the hotkey recorder).
  const back = () => navigate(conversationId ? { name: 'chat', conversationId } : { name: 'chat' });
  const backRef = useRef(back);
  backRef.current = back;
  useEffect(() => {
    if (!inSettings) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || document.querySelector('dialog[open]')) return;
      // Taken: a dialog this opens (unsaved edits) must not get the same key as its own cancel.
      e.preventDefault();
      backRef.current();
      focusMessageBox();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [inSettings]);
  // Settings has no message list to say when its first frame is drawn (MessageList does for a chat).
  useEffect(() => {
    if (inSettings) windowOpened();
  }, [inSettings]);
  return (
    <div className={`app ${navOpen ? 'nav-open' : ''}`}>
      {/* In a landmark of its own (axe: all content in landmarks). */}
      <nav aria-label="Skip link" className="skip-nav">
      <a
        className="skip-link"
        href="#/"
        onClick={(e) => {
          e.preventDefault();
          if (inSettings) navigate(conversationId ? { name: 'chat', conversationId } : { name: 'chat' });
          focusMessageBox();
        }}
      >
        Skip to message box
      </a>
      </nav>
      <Sidebar id="sidebar" navigate={navigate} onNavigate={() => setNavOpen(false)} activeId={route.name === 'chat' ? (conversationId ?? undefined) : undefined} />
      {navOpen && <div className="nav-backdrop" aria-hidden="true" onClick={() => setNavOpen(false)} />}
      <main className="pane" aria-label={inSettings ? 'Settings' : 'Chat'}>
        <header className="toolbar">
          <span className="narrow-only">
            <button type="button" className="ghost icon-button" aria-expanded={navOpen} aria-controls="sidebar" title="Conversations" onClick={() => setNavOpen((o) => !o)}>
              <MenuIcon /> <span className="visually-hidden">Conversations</span>
            </button>
            <button type="button" className="ghost small" onClick={newChat}>
              New chat
            </button>
          </span>
          <ModelPicker />
          <ServerState />
          <span className="spacer" />
          {inSettings ? (
            <button type="button" className="ghost" title="Back to chat" onClick={() => navigate(conversationId ? { name: 'chat', conversationId } : { name: 'chat' })}>
              <ChevronIcon dir="left" /> <span className="back-label">Back to chat</span>
            </button>
          ) : (
            <button type="button" className="ghost icon-button" aria-label="Settings" title="Settings (Ctrl+,)" onClick={() => navigate({ name: 'settings' })}>
              <GearIcon />
            </button>
          )}
        </header>
        <Notices />
        {/* The page's one h1 (Settings has its own): what the window shows, for screen readers' heading list. */}
        {!inSettings && <h1 className="visually-hidden">{title ?? 'New chat'}</h1>}
        {inSettings ? (
          <Suspense fallback={<p className="muted center">Loading settings…</p>}>
            <SettingsView section={route.section} />
          </Suspense>
        ) : (
          <DropZone>
            <ModelHints />
            {loadError && (
              <div role="alert" className="banner error">
                Could not open that conversation: {loadError}
              </div>
            )}
            <MessageList />
            <Composer autoFocus />
          </DropZone>
        )}
      </main>
      <ImageViewer />
      <MarkupDialog />
      <LiveAnnouncer />
    </div>
  );
}
