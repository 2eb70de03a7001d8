import { describe, expect, it } from 'vitest';
import { acceleratorFrom, acceleratorLabel, type KeyPress } from './accelerator.ts';

const press = (key: string, code: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key, code, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });

describe('acceleratorFrom', () => {
  it('names the default hotkey the way Electron does', () => {
    expect(acceleratorFrom(press(' ', 'Space', { ctrlKey: true, shiftKey: true }))).toBe('CommandOrControl+Shift+Space');
    expect(acceleratorFrom(press(' ', 'Space', { metaKey: true, shiftKey: true }))).toBe('CommandOrControl+Shift+Space');
  });

  it('uses the physical key, so Shift does not change the character', () => {
    expect(acceleratorFrom(press('@', 'Digit2', { ctrlKey: true, shiftKey: true }))).toBe('CommandOrControl+Shift+2');
    expect(acceleratorFrom(press('G', 'KeyG', { altKey: true, shiftKey: true }))).toBe('Alt+Shift+G');
    expect(acceleratorFrom(press('ArrowUp', 'ArrowUp', { ctrlKey: true }))).toBe('CommandOrControl+Up');
  });

  it('waits while only modifiers are down and refuses bare keys, except function keys', () => {
    expect(acceleratorFrom(press('Shift', 'ShiftLeft', { shiftKey: true }))).toBeUndefined();
    expect(acceleratorFrom(press('a', 'KeyA'))).toBeUndefined();
    expect(acceleratorFrom(press('F9', 'F9'))).toBe('F9');
    expect(acceleratorFrom(press('PrintScreen', 'PrintScreen'))).toBe('PrintScreen');
  });
});

describe('acceleratorLabel', () => {
  it('says the keys as they read on this computer, not as Electron stores them', () => {
    expect(acceleratorLabel('CommandOrControl+Shift+Space', false)).toBe('Ctrl+Shift+Space');
    expect(acceleratorLabel('CommandOrControl+Shift+Space', true)).toBe('Cmd+Shift+Space');
    expect(acceleratorLabel('Alt+Return', true)).toBe('Option+Enter');
    expect(acceleratorLabel('F12', false)).toBe('F12');
  });
});
