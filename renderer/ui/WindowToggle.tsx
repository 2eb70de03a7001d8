import { useId, useState } from 'react';
import type { PendingAttachment } from '../state/attachmentsSlice.ts';
import { useApp } from '../state/store.ts';

type Ready = Extract<PendingAttachment, { status: 'ready' }>;

/**
 * The ask window's "This window" (architecture §11): a toggle between the display capture and the
 * window that was under the pointer at the hotkey, cut by main from that same capture (nothing is
 * captured again). A region drawn while it is on is a region of the window.
 */
export function WindowToggle({ item }: { item: Ready }) {
  const toggle = useApp((s) => s.toggleWindow);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();
  const under = item.underPointer;
  if (!under) return null;
  const on = Boolean(item.windowOf);
  const onClick = async () => {
    setBusy(true);
    setError(await toggle(item.key));
    setBusy(false);
  };
  return (
    <span className="window-toggle">
      <button type="button" className="small" aria-pressed={on} aria-describedby={nameId} disabled={busy} onClick={() => void onClick()}>
        This window
      </button>
      {/* The title is the window's own text: shown as text, never as markup. */}
      <span id={nameId} className="muted small">
        {under.title || 'Untitled window'} — {under.app || 'unknown app'}
      </span>
      {on && item.windowText && (
        <span className="muted small window-text-note" role="status">
          {'unavailable' in item.windowText
            ? item.windowText.unavailable
            : `Its own text goes with it: ${item.windowText.chars.toLocaleString()} characters read from accessibility, exact.`}
        </span>
      )}
      {error && (
        <span role="alert" className="error-text">
          Could not cut the window: {error}
        </span>
      )}
    </span>
  );
}
