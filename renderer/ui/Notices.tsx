import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../state/store.ts';
import { CloseIcon } from './icons.tsx';

/** Things main wants the user to know (hotkey taken, keys stored insecurely, settings recovered). */
export function Notices() {
  const notices = useApp(useShallow((s) => s.notices));
  const dismiss = useApp((s) => s.dismissNotice);
  if (!notices.length) return null;
  return (
    <div className="notices">
      {notices.map((n) => (
        <div key={n.id} role="status" className={`banner ${n.level}`}>
          <span>{n.message}</span>
          <button type="button" className="ghost icon-button small" aria-label="Dismiss notice" onClick={() => dismiss(n.id)}>
            <CloseIcon />
          </button>
        </div>
      ))}
    </div>
  );
}
