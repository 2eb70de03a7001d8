// The screenshot-and-ask shortcut. Registration can fail (another app holds the keys, the
// Wayland portal refuses, the accelerator is malformed); that is reported in words the user
// can act on, never swallowed.
import type { GlobalShortcut } from 'electron';

export type HotkeyState = { accelerator: string; registered: boolean; message?: string };
type Shortcuts = Pick<GlobalShortcut, 'register' | 'unregister' | 'isRegistered' | 'unregisterAll'>;

const KEY_NAMES: Record<string, { mac: string; other: string }> = {
  commandorcontrol: { mac: 'Cmd', other: 'Ctrl' },
  cmdorctrl: { mac: 'Cmd', other: 'Ctrl' },
  command: { mac: 'Cmd', other: 'Cmd' },
  cmd: { mac: 'Cmd', other: 'Cmd' },
  control: { mac: 'Ctrl', other: 'Ctrl' },
  ctrl: { mac: 'Ctrl', other: 'Ctrl' },
  alt: { mac: 'Option', other: 'Alt' },
  option: { mac: 'Option', other: 'Alt' },
  altgr: { mac: 'AltGr', other: 'AltGr' },
  shift: { mac: 'Shift', other: 'Shift' },
  super: { mac: 'Cmd', other: 'Super' },
  meta: { mac: 'Cmd', other: 'Super' },
};

/** "CommandOrControl+Shift+Space" → "Ctrl+Shift+Space" (or "Cmd+Shift+Space" on macOS). */
export function describeAccelerator(accelerator: string, platform: NodeJS.Platform): string {
  return accelerator
    .split('+')
    .map((part) => {
      const known = KEY_NAMES[part.toLowerCase()];
      return known ? (platform === 'darwin' ? known.mac : known.other) : part;
    })
    .join('+');
}

type HotkeyEnvironment = { platform: NodeJS.Platform; wayland: boolean };

export function registerHotkey(shortcuts: Shortcuts, accelerator: string, onPress: () => void, env: HotkeyEnvironment): HotkeyState {
  if (accelerator.trim() === '') return { accelerator, registered: false };
  const keys = describeAccelerator(accelerator, env.platform);
  let registered: boolean;
  try {
    registered = shortcuts.register(accelerator, onPress) && shortcuts.isRegistered(accelerator);
  } catch {
    return { accelerator, registered: false, message: `"${accelerator}" is not a shortcut Glance understands — pick another in Settings.` };
  }
  // On Wayland the binding goes to the desktop's GlobalShortcuts portal: Electron answers true at once,
  // before the desktop has said anything (it may ask the person, or drop the binding), so "registered"
  // here only means "asked for" — said so, with where to look when the key does nothing.
  if (registered && env.wayland) {
    return { accelerator, registered: true, message: `${keys} was handed to your desktop's shortcut portal; your desktop may ask you to confirm it. If the key does nothing, allow or set it for Glance in your system's keyboard shortcut settings.` };
  }
  if (registered) return { accelerator, registered: true };
  const message = env.wayland
    ? `${keys} could not be registered: on Wayland global shortcuts go through the desktop's shortcut portal, which refused or is missing. Allow Glance in your system's shortcut settings, or pick another in Settings.`
    : `${keys} is taken by another app — pick another in Settings.`;
  return { accelerator, registered: false, message };
}

/** Swap the shortcut; the old one stays if the new one cannot be had. */
export function rebindHotkey(shortcuts: Shortcuts, current: HotkeyState, next: string, onPress: () => void, env: HotkeyEnvironment): HotkeyState {
  if (next === current.accelerator && current.registered) return current;
  // A portal binding is not released by unregister (Electron 45 only clears portal bindings with
  // unregisterAll): without it the old key and the new one would both capture. Glance holds one key.
  if (current.registered) {
    if (env.wayland) shortcuts.unregisterAll();
    else shortcuts.unregister(current.accelerator);
  }
  const state = registerHotkey(shortcuts, next, onPress, env);
  if (state.registered || next.trim() === '' || !current.registered) return state;
  const restored = registerHotkey(shortcuts, current.accelerator, onPress, env);
  return restored.registered ? { ...restored, message: `${state.message} Keeping ${describeAccelerator(current.accelerator, env.platform)}.` } : state;
}
