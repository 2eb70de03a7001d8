// Leaving Settings with edits not saved: asked, not thrown away without a word. Keep editing
// (the default, and Escape) goes to the first section with unsaved edits; Leave without saving
// goes where the person was going.
import { useEffect, useRef } from 'react';
import { SETTINGS_PAGES } from '../route.ts';

/** "Limits", "Limits and Hotkey", "Providers, Limits and Hotkey". */
function sectionNames(ids: readonly string[]): string {
  const names = SETTINGS_PAGES.filter(([id]) => ids.includes(id)).map(([, label]) => label);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

export function LeaveSettingsDialog({ unsaved, onStay, onLeave }: { unsaved: readonly string[]; onStay: () => void; onLeave: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);
  const stay = () => {
    dialog.current?.close();
    onStay();
    // In page order, the first section with unsaved edits: in view, its heading focused.
    const first = SETTINGS_PAGES.find(([id]) => unsaved.includes(id))?.[0];
    if (!first) return;
    document.getElementById(`settings-${first}`)?.scrollIntoView({ block: 'start' });
    const heading = document.getElementById(`settings-${first}-title`);
    heading?.setAttribute('tabindex', '-1');
    heading?.focus({ preventScroll: true });
  };
  return (
    <dialog
      ref={dialog}
      className="mcp-question leave-settings"
      aria-labelledby="leave-settings-title"
      aria-describedby="leave-settings-text"
      onCancel={(e) => {
        e.preventDefault();
        stay();
      }}
    >
      <h2 id="leave-settings-title">Leave Settings without saving?</h2>
      <p id="leave-settings-text">
        Your changes in {sectionNames(unsaved)} are not saved. Leaving now throws them away.
      </p>
      <div className="actions">
        <button
          type="button"
          onClick={() => {
            dialog.current?.close();
            onLeave();
          }}
        >
          Leave without saving
        </button>
        <button type="button" className="primary" autoFocus onClick={stay}>
          Keep editing
        </button>
      </div>
    </dialog>
  );
}
