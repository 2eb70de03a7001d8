// A key press as an Electron accelerator ("CommandOrControl+Shift+Space"), for the hotkey field.

const NAMED: Record<string, string> = {
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  ' ': 'Space',
  Escape: 'Esc',
  Enter: 'Return',
};

export type KeyPress = { key: string; code: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean };

/** Undefined while only modifiers are down, and for a bare key that would fire while typing. */
export function acceleratorFrom(e: KeyPress): string | undefined {
  if (['Control', 'Meta', 'Alt', 'Shift', 'OS', 'AltGraph'].includes(e.key)) return undefined;
  const parts: string[] = [];
  if (e.ctrlKey || e.metaKey) parts.push('CommandOrControl');
  if (e.altKey) parts.push('Alt');
  if (e.shiftKey) parts.push('Shift');
  let key: string;
  // The physical key, so Shift+2 is "Shift+2" and not "Shift+@".
  if (e.code === 'Space') key = 'Space';
  else if (/^Key[A-Z]$/.test(e.code)) key = e.code.slice(3);
  else if (/^Digit\d$/.test(e.code)) key = e.code.slice(5);
  else if (/^F\d{1,2}$/.test(e.key)) key = e.key;
  else if (NAMED[e.key]) key = NAMED[e.key]!;
  else if (e.key.length === 1) key = e.key.toUpperCase();
  else key = e.key;
  const functionKey = /^F\d{1,2}$/.test(key) || key === 'PrintScreen';
  if (!parts.length && !functionKey) return undefined;
  return [...parts, key].join('+');
}

const WORDS: Record<string, (mac: boolean) => string> = {
  CommandOrControl: (mac) => (mac ? 'Cmd' : 'Ctrl'),
  CmdOrCtrl: (mac) => (mac ? 'Cmd' : 'Ctrl'),
  Command: () => 'Cmd',
  Cmd: () => 'Cmd',
  Control: () => 'Ctrl',
  Ctrl: () => 'Ctrl',
  Alt: (mac) => (mac ? 'Option' : 'Alt'),
  Option: () => 'Option',
  Super: (mac) => (mac ? 'Cmd' : 'Super'),
  Meta: (mac) => (mac ? 'Cmd' : 'Super'),
  Return: () => 'Enter',
};

/**
 * An accelerator as the keys read on this computer — "Ctrl+Shift+Space", "Cmd+Shift+Space" on a
 * Mac — not Electron's "CommandOrControl+Shift+Space" (what is stored and registered).
 */
export function acceleratorLabel(accelerator: string, mac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform)): string {
  return accelerator
    .split('+')
    .map((part) => WORDS[part]?.(mac) ?? part)
    .join('+');
}
