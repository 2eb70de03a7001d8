// Electron's globalShortcut stands in as a small fake (its binary cannot run here): it holds
// keys like the OS does, and some are "taken by another app".
import { describe, expect, it } from 'vitest';
import { describeAccelerator, rebindHotkey, registerHotkey } from './hotkey.ts';

function shortcuts(takenByOthers: string[] = []) {
  const held = new Map<string, () => void>();
  return {
    held,
    register(accelerator: string, callback: () => void) {
      if (/^\+|\+$|\+\+/.test(accelerator)) throw new Error(`Error processing argument at index 0, conversion failure from ${accelerator}`);
      if (takenByOthers.includes(accelerator) || held.has(accelerator)) return false;
      held.set(accelerator, callback);
      return true;
    },
    unregister(accelerator: string) {
      held.delete(accelerator);
    },
    unregisterAll() {
      held.clear();
    },
    isRegistered(accelerator: string) {
      return held.has(accelerator);
    },
  };
}

const X11 = { platform: 'linux' as const, wayland: false };

describe('hotkey', () => {
  it('names keys the way the platform does', () => {
    expect(describeAccelerator('CommandOrControl+Shift+Space', 'linux')).toBe('Ctrl+Shift+Space');
    expect(describeAccelerator('CommandOrControl+Shift+Space', 'darwin')).toBe('Cmd+Shift+Space');
    expect(describeAccelerator('Alt+Super+G', 'win32')).toBe('Alt+Super+G');
    expect(describeAccelerator('Alt+G', 'darwin')).toBe('Option+G');
  });

  it('registers, and the press reaches the callback', () => {
    const s = shortcuts();
    let pressed = 0;
    expect(registerHotkey(s, 'CommandOrControl+Shift+Space', () => pressed++, X11)).toEqual({ accelerator: 'CommandOrControl+Shift+Space', registered: true });
    s.held.get('CommandOrControl+Shift+Space')!();
    expect(pressed).toBe(1);
  });

  it('reports a key taken by another app in words the user can act on', () => {
    const state = registerHotkey(shortcuts(['CommandOrControl+Shift+Space']), 'CommandOrControl+Shift+Space', () => undefined, X11);
    expect(state).toEqual({ accelerator: 'CommandOrControl+Shift+Space', registered: false, message: 'Ctrl+Shift+Space is taken by another app — pick another in Settings.' });
  });

  it('explains the Wayland portal, and a malformed accelerator', () => {
    const wayland = registerHotkey(shortcuts(['Alt+G']), 'Alt+G', () => undefined, { platform: 'linux', wayland: true });
    expect(wayland.message).toContain('Wayland');
    expect(registerHotkey(shortcuts(), 'Shift+', () => undefined, X11).message).toBe('"Shift+" is not a shortcut Glance understands — pick another in Settings.');
    expect(registerHotkey(shortcuts(), '', () => undefined, X11)).toEqual({ accelerator: '', registered: false });
  });

  it('rebinding keeps the old key when the new one is taken, and says so', () => {
    const s = shortcuts(['Alt+T']);
    const first = registerHotkey(s, 'Alt+G', () => undefined, X11);
    const next = rebindHotkey(s, first, 'Alt+T', () => undefined, X11);
    expect(next.registered).toBe(true);
    expect(next.accelerator).toBe('Alt+G');
    expect(next.message).toBe('Alt+T is taken by another app — pick another in Settings. Keeping Alt+G.');
    expect([...s.held.keys()]).toEqual(['Alt+G']);
    const moved = rebindHotkey(s, next, 'Alt+H', () => undefined, X11);
    expect(moved).toEqual({ accelerator: 'Alt+H', registered: true });
    expect([...s.held.keys()]).toEqual(['Alt+H']);
  });
});

describe('the Wayland GlobalShortcuts portal as Electron 45 drives it', () => {
  /** register answers true at once (the desktop has not said anything yet); unregister leaves a portal binding in place; unregisterAll clears them. */
  function portal() {
    const bound = new Set<string>();
    return {
      bound,
      register(accelerator: string) {
        bound.add(accelerator);
        return true;
      },
      unregister() {
        // a portal binding is not released this way
      },
      unregisterAll() {
        bound.clear();
      },
      isRegistered(accelerator: string) {
        return bound.has(accelerator);
      },
    };
  }
  const env = { platform: 'linux' as const, wayland: true };

  it('says a binding was only handed to the portal, and where to look when the key does nothing', () => {
    const state = registerHotkey(portal(), 'CommandOrControl+Shift+Space', () => undefined, env);
    expect(state.registered).toBe(true);
    expect(state.message).toMatch(/handed to your desktop's shortcut portal.*If the key does nothing/);
  });

  it('a new key replaces the old one: the old binding does not keep capturing', () => {
    const shortcuts = portal();
    const first = registerHotkey(shortcuts, 'Alt+Shift+G', () => undefined, env);
    rebindHotkey(shortcuts, first, 'Alt+Shift+H', () => undefined, env);
    expect([...shortcuts.bound]).toEqual(['Alt+Shift+H']);
  });
});
