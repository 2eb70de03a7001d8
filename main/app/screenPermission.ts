// macOS Screen Recording as Electron 45 reports it (architecture §7): `getMediaAccessStatus('screen')`
// answers only "granted" or "denied" for the screen — never "not-determined" — so a Mac that was never
// asked says "denied", and Electron keeps that answer for the life of the process. Refusing on
// "denied" before any capture means the system's own prompt, which only a capture attempt brings up,
// never appears: Glance could never be allowed. So the first "denied" of a process makes one capture
// request through Electron (desktopCapturer, which macOS answers with its prompt) and says so; later
// ones refuse with the way to grant it. macOS applies a grant only after the app restarts.
import type { DesktopCapturer, SystemPreferences } from 'electron';
import type { PermissionStatus } from '../capture/nodeScreenshotsCapturer.ts';

export function macScreenPermission(electron: { systemPreferences: Pick<SystemPreferences, 'getMediaAccessStatus'>; desktopCapturer: Pick<DesktopCapturer, 'getSources'> }): () => Promise<PermissionStatus> {
  let asked = false;
  return async () => {
    const status = electron.systemPreferences.getMediaAccessStatus('screen');
    if (status === 'granted') return 'granted';
    if (status !== 'denied' && status !== 'restricted') return 'unknown';
    if (status === 'restricted' || asked) return 'denied';
    asked = true;
    // The attempt is what makes macOS show its prompt; its (blank) answer is not used.
    await electron.desktopCapturer.getSources({ types: ['screen'], thumbnailSize: { width: 1, height: 1 } }).catch(() => undefined);
    return 'asked';
  };
}
