import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DESKTOP_FILE, ensureDesktopEntry } from './desktopEntry.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'glance-desktop-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the .desktop file the Wayland shortcut portal needs', () => {
  it('is reverse-DNS named after the app id, and written for the person when none is installed (npm start)', async () => {
    expect(DESKTOP_FILE).toMatch(/^[a-z]+(\.[a-z0-9]+){2,}\.desktop$/);
    const env = { XDG_DATA_HOME: join(root, 'home'), XDG_DATA_DIRS: join(root, 'usr') };
    const written = await ensureDesktopEntry(env, ['/opt/node modules/electron', '/work/glance']);
    expect(written).toBe(join(root, 'home', 'applications', DESKTOP_FILE));
    const text = await readFile(written!, 'utf8');
    expect(text).toContain('[Desktop Entry]');
    expect(text).toContain('Exec="/opt/node modules/electron" /work/glance');
    expect(text).toContain('NoDisplay=true');
    // Once there, not written again.
    expect(await ensureDesktopEntry(env, ['/x'])).toBeUndefined();
  });

  it('leaves an installed entry alone', async () => {
    await mkdir(join(root, 'usr', 'applications'), { recursive: true });
    await writeFile(join(root, 'usr', 'applications', DESKTOP_FILE), '[Desktop Entry]\n');
    const env = { XDG_DATA_HOME: join(root, 'home'), XDG_DATA_DIRS: join(root, 'usr') };
    expect(await ensureDesktopEntry(env, ['/x'])).toBeUndefined();
  });
});
