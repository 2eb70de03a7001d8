// The windows a capture hides come back, as Electron 45 behaves: on a native Wayland session
// `showInactive` does nothing (Electron's docs: not supported there), so a window restored with it
// stays hidden. A BrowserWindow stand-in with that rule; the Windows class is the real one.
import { describe, expect, it, vi } from 'vitest';

const session = vi.hoisted(() => ({ wayland: false }));

vi.mock('electron', () => {
  class BrowserWindow {
    visible = false;
    webContents = { isLoading: () => false, once: () => undefined, on: () => undefined, isDestroyed: () => false, send: () => undefined };
    on() {}
    once() {}
    loadURL() {
      return Promise.resolve();
    }
    show() {
      this.visible = true;
    }
    showInactive() {
      if (!session.wayland) this.visible = true;
    }
    hide() {
      this.visible = false;
    }
    focus() {}
    isVisible() {
      return this.visible;
    }
    isDestroyed() {
      return false;
    }
    isMinimized() {
      return false;
    }
    maximize() {}
  }
  return { BrowserWindow, shell: { openExternal: async () => undefined } };
});

const { Windows } = await import('./windows.ts');

function windows(wayland: boolean) {
  session.wayland = wayland;
  const display = { id: 1, workArea: { x: 0, y: 0, width: 1280, height: 800 } };
  const screen = { getAllDisplays: () => [display], getPrimaryDisplay: () => display, getCursorScreenPoint: () => ({ x: 0, y: 0 }), getDisplayNearestPoint: () => display };
  const state = { get: () => undefined, save: async () => undefined };
  return new Windows({ preloadPath: '/p.cjs', state: state as never, screen: screen as never, devTools: false, quitting: () => false, wayland });
}

describe('Windows.hideAll', () => {
  it.each([false, true])('brings back the windows it hid (Wayland: %s)', async (wayland) => {
    const w = windows(wayland);
    const main = await w.showMain();
    expect(main.isVisible()).toBe(true);
    const restore = await w.hideAll();
    expect(main.isVisible()).toBe(false);
    restore();
    expect(main.isVisible()).toBe(true);
  });
});
