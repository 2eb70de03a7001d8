import { useMemo, useState, type KeyboardEvent } from 'react';
import type { ConversationSummary } from '../../common/ipc.ts';
import type { Route } from '../route.ts';
import { filterConversations } from '../state/chatSlice.ts';
import { useApp } from '../state/store.ts';
import { PencilIcon, TrashIcon } from './icons.tsx';
import { useLocaleFormatters } from './localeTime.ts';

/** "10:42" today, "yesterday", "Tue" this week, else "Jan 3" (empty for the window's first frame: localeTime.ts). */
function RelativeDay({ iso }: { iso: string }) {
  const format = useLocaleFormatters();
  const then = new Date(iso);
  const days = Math.floor((Date.now() - then.getTime()) / 86_400_000);
  const text = days === 1 ? 'yesterday' : !format ? '' : days <= 0 ? format.time.format(then) : days < 7 ? format.weekday.format(then) : format.day.format(then);
  return <span className="meta">{text}</span>;
}

function ConversationItem({ item, active, tabbable, navigate }: { item: ConversationSummary; active: boolean; tabbable: boolean; navigate: (route: Route) => void }) {
  const rename = useApp((s) => s.renameConversation);
  const remove = useApp((s) => s.deleteConversation);
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm-delete'>('view');
  const [title, setTitle] = useState(item.title);
  const [error, setError] = useState<string | null>(null);

  const submitRename = async () => {
    const trimmed = title.trim();
    if (!trimmed || trimmed === item.title) {
      setMode('view');
      return;
    }
    const problem = await rename(item.id, trimmed);
    setError(problem);
    if (!problem) setMode('view');
  };
  const onRenameKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') void submitRename();
    if (e.key === 'Escape') {
      setTitle(item.title);
      setMode('view');
    }
  };

  return (
    <li className={`conversation ${active ? 'active' : ''}`}>
      {mode === 'rename' ? (
        <input
          className="rename"
          aria-label={`New title for ${item.title}`}
          value={title}
          autoFocus
          onChange={(e) => setTitle(e.target.value)}
          onKeyDown={onRenameKey}
          onBlur={() => void submitRename()}
        />
      ) : (
        <a
          href={`#/c/${item.id}`}
          aria-current={active ? 'page' : undefined}
          // The list is one tab stop: arrows move between conversations, F2 renames, Delete deletes.
          tabIndex={tabbable ? 0 : -1}
          aria-keyshortcuts="F2 Delete"
          onKeyDown={(e) => {
            if (e.key !== 'F2' && e.key !== 'Delete') return;
            e.preventDefault();
            setTitle(item.title);
            setMode(e.key === 'F2' ? 'rename' : 'confirm-delete');
          }}
          onClick={(e) => {
            e.preventDefault();
            navigate({ name: 'chat', conversationId: item.id });
          }}
        >
          <span className="title">{item.title || 'Untitled'}</span>
          <RelativeDay iso={item.updatedAt} />
        </a>
      )}
      {mode === 'confirm-delete' ? (
        <span className="confirm">
          <button type="button" className="danger small" autoFocus onClick={async () => setError(await remove(item.id))}>
            Delete “{item.title}”
          </button>
          <button type="button" className="ghost small" onClick={() => setMode('view')}>
            Keep
          </button>
        </span>
      ) : (
        mode === 'view' && (
          <span className="item-actions">
            <button type="button" className="ghost small" tabIndex={-1} aria-label={`Rename ${item.title}`} onClick={() => (setTitle(item.title), setMode('rename'))}>
              <PencilIcon />
            </button>
            <button type="button" className="ghost small" tabIndex={-1} aria-label={`Delete ${item.title}`} onClick={() => setMode('confirm-delete')}>
              <TrashIcon />
            </button>
          </span>
        )
      )}
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </li>
  );
}

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
  const shown = useMemo(() => filterConversations(conversations, search), [conversations, search]);
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
      <input type="search" className="search" aria-label="Search conversations" placeholder="Search by title" value={search} onChange={(e) => setSearch(e.target.value)} />
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <nav aria-label="Conversation list">
        <ul className="conversations" onKeyDown={moveFocus}>
          {shown.map((c) => (
            <ConversationItem key={c.id} item={c} active={c.id === activeId} tabbable={c.id === tabbableId} navigate={go} />
          ))}
        </ul>
        {shown.length === 0 && <p className="muted small-text">{search ? 'No conversation has that in its title.' : 'No conversations yet.'}</p>}
      </nav>
    </aside>
  );
}
