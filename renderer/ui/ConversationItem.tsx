import { Fragment, useRef, useState, type KeyboardEvent } from 'react';
import type { ListedConversation } from '../state/conversationsSlice.ts';
import type { Route } from '../route.ts';
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

/** `text` with each searched word marked, so the eye finds why it matched. */
export function Highlight({ text, words }: { text: string; words: readonly string[] }) {
  if (!words.length) return <>{text}</>;
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const parts = text.split(new RegExp(`(${escaped.join('|')})`, 'gi'));
  return (
    <>
      {parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : <Fragment key={i}>{part}</Fragment>))}
    </>
  );
}

/** One conversation in the list: its link, and rename and delete (with a confirmation that Escape cancels). */
export function ConversationItem({ item, active, tabbable, words, navigate }: { item: ListedConversation; active: boolean; tabbable: boolean; words: readonly string[]; navigate: (route: Route) => void }) {
  const rename = useApp((s) => s.renameConversation);
  const remove = useApp((s) => s.deleteConversation);
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm-delete'>('view');
  const [title, setTitle] = useState(item.title);
  const [error, setError] = useState<string | null>(null);
  const row = useRef<HTMLLIElement>(null);
  const name = item.title || 'Untitled';

  /** Back to the link, the focus with it (the confirmation or the title box had it). */
  const backToView = () => {
    setMode('view');
    requestAnimationFrame(() => row.current?.querySelector<HTMLAnchorElement>(':scope > a')?.focus());
  };
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
      // The narrow window's drawer closes on Escape too: this one only ends the rename.
      e.stopPropagation();
      setTitle(item.title);
      backToView();
    }
  };
  const confirmDelete = async () => {
    setError(await remove(item.id));
    if (active) navigate({ name: 'chat' });
  };

  return (
    <li className={`conversation ${active ? 'active' : ''}`} ref={row}>
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
          <span className="title">
            <Highlight text={name} words={words} />
          </span>
          {item.snippet && (
            <span className="snippet">
              <Highlight text={item.snippet} words={words} />
            </span>
          )}
          <RelativeDay iso={item.updatedAt} />
        </a>
      )}
      {mode === 'confirm-delete' ? (
        <div
          className="confirm"
          role="group"
          aria-label={`Delete ${name}?`}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.stopPropagation();
            backToView();
          }}
        >
          <span className="confirm-text">
            Delete “<span className="confirm-title">{name}</span>”?
          </span>
          <span className="confirm-buttons">
            <button type="button" className="danger small" autoFocus onClick={() => void confirmDelete()}>
              Delete<span className="visually-hidden"> “{name}”</span>
            </button>
            <button type="button" className="ghost small" onClick={backToView}>
              Keep
            </button>
          </span>
        </div>
      ) : (
        mode === 'view' && (
          <span className="item-actions">
            <button type="button" className="ghost small" tabIndex={-1} aria-label={`Rename ${item.title}`} title="Rename (F2)" onClick={() => (setTitle(item.title), setMode('rename'))}>
              <PencilIcon />
            </button>
            <button type="button" className="ghost small" tabIndex={-1} aria-label={`Delete ${item.title}`} title="Delete (Delete key)" onClick={() => setMode('confirm-delete')}>
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
