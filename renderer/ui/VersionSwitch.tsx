import type { Versions } from '../state/chatReducer.ts';
import { useApp } from '../state/store.ts';

const PREVIOUS = 'Previous version';
const NEXT = 'Next version';

/** After a switch the turn shown is another one (its own id): the focus goes to the same button on it. */
function focusOn(turnId: string, label: string): void {
  requestAnimationFrame(() => {
    const group = document.querySelector(`[data-versions="${CSS.escape(turnId)}"]`);
    const buttons = [...(group?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    (buttons.find((b) => b.getAttribute('aria-label') === label && !b.disabled) ?? buttons.find((b) => !b.disabled))?.focus();
  });
}

/** "‹ 2 / 3 ›": the versions Regenerate, Edit and Retry kept of this turn; each brings back its own answer and what followed it. */
export function VersionSwitch({ turnId, versions, disabled }: { turnId: string; versions: Versions; disabled: boolean }) {
  const switchVersion = useApp((s) => s.switchVersion);
  const go = async (index: number, label: string) => {
    const shown = await switchVersion(turnId, index);
    if (shown) focusOn(shown, label);
  };
  const { index, count } = versions;
  return (
    <span className="versions" role="group" aria-label={`Version ${index + 1} of ${count}`} data-versions={turnId}>
      <button type="button" className="ghost small" aria-label={PREVIOUS} title={PREVIOUS} disabled={disabled || index === 0} onClick={() => void go(index - 1, PREVIOUS)}>
        ‹
      </button>
      <span className="muted version-count" aria-hidden="true">
        {index + 1} / {count}
      </span>
      <button type="button" className="ghost small" aria-label={NEXT} title={NEXT} disabled={disabled || index === count - 1} onClick={() => void go(index + 1, NEXT)}>
        ›
      </button>
    </span>
  );
}
