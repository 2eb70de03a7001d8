import { homedir, platform } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The app's data directory — the same folder Electron's `app.getPath('userData')` gives for
 * an app named "Glance" — so the CLI and the app share conversations, attachments and settings.
 * GLANCE_DATA_DIR overrides it; a relative one is taken from the working directory (Electron's
 * `app.setPath` throws on a relative path, and the app would not start).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GLANCE_DATA_DIR) return resolve(env.GLANCE_DATA_DIR);
  const home = homedir();
  switch (platform()) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Glance');
    case 'win32':
      return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Glance');
    default:
      return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Glance');
  }
}
