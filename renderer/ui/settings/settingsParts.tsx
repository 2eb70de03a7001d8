// Pieces every Settings section uses: the section frame, save feedback, and a save hook.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { SettingsPatch } from '../../../common/settings.ts';
import { useApp } from '../../state/store.ts';
import { plainSettingsError } from './plainErrors.ts';

export type SaveState = { kind: 'idle' } | { kind: 'saved'; text?: string } | { kind: 'error'; text: string };

/** Save feedback: errors as alerts (they need attention), success as a polite status. */
/** A form's last row: its Save button and what the save said. */
export function SaveRow({ label, state }: { label: string; state: SaveState }) {
  return (
    <div className="field-row full">
      <button type="submit" className="primary">
        {label}
      </button>
      <Feedback state={state} />
    </div>
  );
}

export function Feedback({ state, id }: { state: SaveState; id?: string | undefined }) {
  if (state.kind === 'error') {
    return (
      <p role="alert" className="error-text" id={id}>
        {state.text}
      </p>
    );
  }
  return (
    <p role="status" className="ok-text">
      {state.kind === 'saved' ? (state.text ?? 'Saved.') : ''}
    </p>
  );
}

export function Section({ id, title, children, description }: { id: string; title: string; description?: string; children: ReactNode }) {
  return (
    <section id={`settings-${id}`} className="settings-section" aria-labelledby={`settings-${id}-title`}>
      <h2 id={`settings-${id}-title`}>{title}</h2>
      {description && <p className="muted">{description}</p>}
      {children}
    </section>
  );
}

const IDLE: SaveState = { kind: 'idle' };

/**
 * A form's save and what it said. `values`: what the form holds; once they change, what the last
 * save said is no longer shown (an error about a field that has been fixed since must not stay).
 */
export function useSave(values?: unknown): [SaveState, (patch: SettingsPatch, text?: string) => Promise<boolean>, (s: SaveState) => void] {
  const save = useApp((s) => s.saveSettings);
  const key = JSON.stringify(values ?? null);
  const current = useRef(key);
  current.current = key;
  const [said, setSaid] = useState<{ state: SaveState; key: string }>({ state: IDLE, key });
  const setState = (state: SaveState) => setSaid({ state, key: current.current });
  const run = async (patch: SettingsPatch, text?: string) => {
    const at = current.current;
    const problem = await save(patch);
    setSaid({ state: problem ? { kind: 'error', text: plainSettingsError(problem) } : { kind: 'saved', text }, key: at });
    return !problem;
  };
  return [said.key === key ? said.state : IDLE, run, setState];
}


/**
 * Tells the window this section holds edits not saved yet, so leaving Settings asks first instead
 * of throwing them away. `unsaved`: what the form holds differs from the stored settings.
 */
export function useUnsaved(section: string, unsaved: boolean): void {
  const mark = useApp((s) => s.markUnsaved);
  useEffect(() => mark(section, unsaved), [mark, section, unsaved]);
  useEffect(() => () => mark(section, false), [mark, section]);
}
