import { useState } from 'react';

/** "Copy message": the text on the clipboard, and a word that it happened (or why not). */
export function CopyButton({ text }: { text: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <button
      type="button"
      className="ghost small"
      aria-label="Copy message"
      onClick={() =>
        void navigator.clipboard.writeText(text).then(
          () => setState('copied'),
          () => setState('failed'),
        )
      }
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}

const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "10:42" today, else "Jan 3, 2026, 10:42"; the full date in the tooltip. */
export function MessageTime({ iso }: { iso: string }) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  const today = new Date().toDateString() === at.toDateString();
  return (
    <time dateTime={iso} title={DATE_TIME.format(at)}>
      {today ? TIME.format(at) : DATE_TIME.format(at)}
    </time>
  );
}
