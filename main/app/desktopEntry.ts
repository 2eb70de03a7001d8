// Wayland's GlobalShortcuts portal knows an app by its reverse-DNS id, and only when a .desktop file of
// that name is installed (GNOME drops the binding silently otherwise). A packaged install may ship one
// under another name, and `npm start` installs none — so, on Wayland, Glance makes sure one exists: a
// user entry in $XDG_DATA_HOME/applications, hidden from menus (NoDisplay), left alone when any data
// dir already has one.
import { access, mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Glance's id (electron-builder's appId), the name the portal and the desktop know it by. */
export const DESKTOP_ID = 'dev.glance.app';
export const DESKTOP_FILE = `${DESKTOP_ID}.desktop`;

/** The applications folders the desktop reads, the person's own first (XDG Base Directory spec). */
function applicationDirs(env: NodeJS.ProcessEnv): { own: string; all: string[] } {
  const own = join(env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share'), 'applications');
  const shared = (env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').split(':').filter(Boolean).map((d) => join(d, 'applications'));
  return { own, all: [own, ...shared] };
}

/** A .desktop file's Exec value: each argument quoted as the spec asks. */
function execLine(command: readonly string[]): string {
  return command.map((arg) => (/[\s"'\\$`]/.test(arg) ? `"${arg.replace(/(["`$\\])/g, '\\$1')}"` : arg)).join(' ');
}

/** Writes the user entry when no applications folder has one; answers the path written, if any. */
export async function ensureDesktopEntry(env: NodeJS.ProcessEnv, command: readonly string[]): Promise<string | undefined> {
  const { own, all } = applicationDirs(env);
  for (const dir of all) {
    const found = await access(join(dir, DESKTOP_FILE)).then(
      () => true,
      () => false,
    );
    if (found) return undefined;
  }
  await mkdir(own, { recursive: true });
  const path = join(own, DESKTOP_FILE);
  const entry = ['[Desktop Entry]', 'Type=Application', 'Name=Glance', 'Comment=Show your screen and images to a vision model', `Exec=${execLine(command)}`, 'NoDisplay=true', 'StartupWMClass=glance', ''].join('\n');
  await writeFile(path, entry, { mode: 0o644 });
  return path;
}
