import { useState, type KeyboardEvent } from 'react';
import type { Settings } from '../../../common/settings.ts';
import { useApp } from '../../state/store.ts';
import { acceleratorFrom, acceleratorLabel } from '../accelerator.ts';
import { Feedback, Section, useSave, useUnsaved } from './settingsParts.tsx';

export function HotkeySection({ settings }: { settings: Settings }) {
  const info = useApp((s) => s.appInfo);
  const [value, setValue] = useState(settings.hotkey);
  const [state, save] = useSave(value);
  useUnsaved('hotkey', value !== settings.hotkey);
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Tab') return;
    e.preventDefault();
    if (e.key === 'Backspace' || e.key === 'Delete') {
      setValue('');
      return;
    }
    const accelerator = acceleratorFrom(e);
    if (accelerator) setValue(accelerator);
  };
  const hotkey = info?.hotkey;
  return (
    <Section id="hotkey" title="Screenshot hotkey" description="Captures the display under the pointer, then opens the ask window with it attached.">
      <form
        className="field-row"
        onSubmit={(e) => {
          e.preventDefault();
          void save({ hotkey: value }, value ? `Hotkey set to ${acceleratorLabel(value)}.` : 'Hotkey turned off.');
        }}
      >
        <label className="field grow">
          <span>Shortcut (press the keys; Backspace clears)</span>
          <input value={value && acceleratorLabel(value)} onKeyDown={onKey} onChange={() => undefined} aria-describedby="hotkey-state" spellCheck={false} />
        </label>
        <button type="submit" className="primary" disabled={value === settings.hotkey}>
          Save hotkey
        </button>
      </form>
      <Feedback state={state} />
      {hotkey && (
        <p id="hotkey-state" role={hotkey.registered || !hotkey.accelerator ? 'status' : 'alert'} className={hotkey.registered ? 'ok-text' : 'warning-text'}>
          {!hotkey.accelerator
            ? 'The hotkey is off.'
            : hotkey.registered
              ? `${acceleratorLabel(hotkey.accelerator)} is active.`
              : `${acceleratorLabel(hotkey.accelerator)} is not active: ${hotkey.message ?? 'another application may be using it; choose another shortcut'}.`}
        </p>
      )}
    </Section>
  );
}

