// Electron 45's systemPreferences as a fresh Mac answers it: "denied" for the screen before anyone
// was asked (it never says "not-determined"), the same answer for the whole process; only a capture
// attempt brings up macOS's prompt. The fake records the attempts.
import { describe, expect, it } from 'vitest';
import { macScreenPermission } from './screenPermission.ts';

function freshMac(answer: 'granted' | 'denied' | 'restricted') {
  const attempts: unknown[] = [];
  return {
    attempts,
    systemPreferences: { getMediaAccessStatus: (media: string) => (media === 'screen' ? answer : 'granted') as never },
    desktopCapturer: {
      getSources: async (options: unknown) => {
        attempts.push(options);
        return [];
      },
    },
  };
}

describe('macOS Screen Recording permission (Electron 45)', () => {
  it('a Mac never asked ("denied"): the first capture asks macOS once, and says to allow and reopen', async () => {
    const mac = freshMac('denied');
    const permission = macScreenPermission(mac);
    expect(await permission()).toBe('asked');
    expect(mac.attempts).toEqual([{ types: ['screen'], thumbnailSize: { width: 1, height: 1 } }]);
    // Electron keeps "denied" for the process: later captures refuse with the way to grant it, without asking again.
    expect(await permission()).toBe('denied');
    expect(await permission()).toBe('denied');
    expect(mac.attempts).toHaveLength(1);
  });

  it('granted: no prompt, the capture goes ahead', async () => {
    const mac = freshMac('granted');
    expect(await macScreenPermission(mac)()).toBe('granted');
    expect(mac.attempts).toEqual([]);
  });

  it('restricted (a managed Mac): refused without a prompt the person cannot answer', async () => {
    const mac = freshMac('restricted');
    expect(await macScreenPermission(mac)()).toBe('denied');
    expect(mac.attempts).toEqual([]);
  });
});
