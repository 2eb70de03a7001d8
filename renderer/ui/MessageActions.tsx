import { useState } from 'react';
import { useLocaleFormatters } from './localeTime.ts';

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

/** "10:42" today, else "Jan 3, 2026, 10:42"; the full date in the tooltip (empty for the window's first frame: localeTime.ts). */
export function MessageTime({ iso }: { iso: string }) {
  const format = useLocaleFormatters();
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  if (!format) return <time dateTime={iso} />;
  const full = format.dateTime.format(at);
  const today = new Date().toDateString() === at.toDateString();
  return (
    <time dateTime={iso} title={full}>
      {today ? format.time.format(at) : full}
    </time>
  );
}
