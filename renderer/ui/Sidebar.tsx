import { useMemo, type KeyboardEvent } from 'react';
import type { Route } from '../route.ts';
import { listedConversations } from '../state/conversationsSlice.ts';
import { useApp } from '../state/store.ts';
import { ConversationItem } from './ConversationItem.tsx';

/** Arrow keys, Home and End move the focus between the conversations' links. */
function moveFocus(e: KeyboardEvent<HTMLUListElement>) {
  const links = [...e.currentTarget.querySelectorAll<HTMLAnchorElement>(':scope > li > a')];
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (at < 0) return;
  const next = e.key === 'ArrowDown' ? at + 1 : e.key === 'ArrowUp' ? at - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? links.length - 1 : -2;
  if (next === -2) return;
  e.preventDefault();
  const target = links[Math.max(0, Math.min(links.length - 1, next))];
  if (!target) return;
  for (const link of links) link.tabIndex = link === target ? 0 : -1;
  target.focus();
}

export function Sidebar({ navigate, activeId, id, onNavigate }: { navigate: (route: Route) => void; activeId?: string; id?: string; onNavigate?: () => void }) {
  const conversations = useApp((s) => s.conversations);
  const search = useApp((s) => s.search);
  const setSearch = useApp((s) => s.setSearch);
  const error = useApp((s) => s.conversationsError);
  const newChat = useApp((s) => s.newChat);
  const matches = useApp((s) => s.searchMatches);
  const deleting = useApp((s) => s.deleting);
  const undo = useApp((s) => s.undoDelete);
  const shown = useMemo(() => listedConversations(conversations, search, matches, deleting), [conversations, search, matches, deleting]);
  const words = useMemo(() => search.split(/\s+/).filter(Boolean), [search]);
  // The text is searched by main: until it answers, "nothing found" would be early.
  const searching = search.trim() !== '' && matches?.query !== search;
  const tabbableId = shown.some((c) => c.id === activeId) ? activeId : shown[0]?.id;
  const go = (route: Route) => {
    navigate(route);
    onNavigate?.();
  };
  return (
    <aside className="sidebar" aria-label="Conversations" id={id}>
      <div className="brand">
        <span className="logo" aria-hidden="true">◉</span> Glance
      </div>
      <button
        type="button"
        className="primary wide"
        title="New chat (Ctrl+Shift+O)"
        onClick={() => {
          // Reset now, not when the address change arrives: a message typed at once must start the new chat.
          newChat();
          go({ name: 'chat' });
        }}
      >
        New chat
      </button>
      <input type="search" className="search" aria-label="Search conversations" placeholder="Search titles and messages" value={search} onChange={(e) => setSearch(e.target.value)} />
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <nav aria-label="Conversation list">
        <ul className="conversations" onKeyDown={moveFocus}>
          {shown.map((c) => (
            <ConversationItem key={c.id} item={c} active={c.id === activeId} tabbable={c.id === tabbableId} words={words} navigate={go} />
          ))}
        </ul>
        {shown.length > 0 && (
          <p className="list-keys muted small-text" aria-hidden="true">
            ↑↓ move · Enter opens · F2 renames · Delete deletes
          </p>
        )}
        {shown.length === 0 && !searching && <p className="muted small-text">{search.trim() ? 'No conversation has all of these words.' : 'No conversations yet.'}</p>}
      </nav>
      {deleting && (
        <div className="undo-bar" role="status">
          <span className="undo-text">
            Deleted “<span className="confirm-title">{deleting.title || 'Untitled'}</span>”
          </span>
          <button type="button" className="small" autoFocus onClick={undo}>
            Undo
          </button>
        </div>
      )}
    </aside>
  );
}
