// Putting a `glance` command on PATH, as editors offer "Install command in PATH": MCP clients
// start `glance mcp serve` by name, and nothing else puts it there (`npx glance` is another package).
// A small launcher is written into a folder — ~/.local/bin by default, or the one given — that runs
// this Glance with an absolute path to its runtime, so it works from a shell whose `node` is another
// version and from a client that does not inherit the shell's PATH (give it the launcher's absolute
// path). From a checkout the runtime is this Node and the script bin/glance.js; from the app it is the
// app's own binary run as Node (ELECTRON_RUN_AS_NODE). The app's menu calls installCommand with
// appLauncher() (the tray's "Install command in PATH"); the logic lives here, below every layer that
// needs it, so it is tested without Electron.
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every launcher written here carries this line: one that does not is someone else's file, left alone. */
const MARK = 'Written by "glance install-command"';

export type Launcher = {
  /** The program that runs Glance's CLI script: Node, or the app's binary run as Node. */
  runtime: string;
  /** This Glance's CLI: bin/glance.js, or the built dist/main/cli/main.js inside the app. */
  script: string;
  /** Set before the runtime starts (the app's binary needs ELECTRON_RUN_AS_NODE=1). */
  env?: Record<string, string>;
};

/** From a checkout (or an npm install): this Node and this copy's bin/glance.js. */
export function checkoutLauncher(): Launcher {
  // main/installCommand.ts in a checkout, dist/main/installCommand.js once built: bin/ is at the top of either.
  const script = ['../bin/glance.js', '../../bin/glance.js'].map((p) => fileURLToPath(new URL(p, import.meta.url))).find((p) => existsSync(p));
  if (!script) throw new InstallCommandError('bin/glance.js is not beside this Glance: run install-command from a checkout or an installed Glance.');
  return { runtime: process.execPath, script };
}

/** From the app: its own binary as Node, on the built CLI inside the app (app.getAppPath(); the package holds dist/, not bin/). */
export function appLauncher(execPath: string, appPath: string): Launcher {
  return { runtime: execPath, script: join(appPath, 'dist', 'main', 'cli', 'main.js'), env: { ELECTRON_RUN_AS_NODE: '1' } };
}

/** Where the command goes by default: ~/.local/bin (the XDG user bin, on PATH in most shells), or Glance's own folder on Windows. */
export function defaultCommandDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Programs', 'Glance', 'bin');
  return join(homedir(), '.local', 'bin');
}

export type Installed = { path: string; onPath: boolean; replaced: boolean; message: string };

/** A launcher that cannot be written, said in words. */
export class InstallCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InstallCommandError';
  }
}

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function launcherText(launcher: Launcher, platform: NodeJS.Platform = process.platform): { name: string; text: string } {
  if (platform === 'win32') {
    const env = Object.entries(launcher.env ?? {}).map(([k, v]) => `set "${k}=${v}"\r\n`).join('');
    return { name: 'glance.cmd', text: `@echo off\r\nrem ${MARK}: runs this Glance.\r\nsetlocal\r\n${env}"${launcher.runtime}" "${launcher.script}" %*\r\n` };
  }
  const env = Object.entries(launcher.env ?? {}).map(([k, v]) => `${k}=${shQuote(v)} `).join('');
  return { name: 'glance', text: `#!/bin/sh\n# ${MARK}: runs this Glance (${launcher.script}).\nexec ${env}${shQuote(launcher.runtime)} ${shQuote(launcher.script)} "$@"\n` };
}

export async function installCommand(options: { dir?: string; launcher?: Launcher; env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform; force?: boolean } = {}): Promise<Installed> {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const dir = resolve(options.dir ?? defaultCommandDir(env, platform));
  const launcher = options.launcher ?? checkoutLauncher();
  if (!isAbsolute(launcher.runtime) || !isAbsolute(launcher.script)) throw new InstallCommandError('The launcher needs absolute paths to the runtime and to bin/glance.js.');
  const { name, text } = launcherText(launcher, platform);
  const path = join(dir, name);
  const dirStat = await lstat(dir).catch(() => undefined);
  if (dirStat && !dirStat.isDirectory() && !(dirStat.isSymbolicLink() && (await stat(dir).then((s) => s.isDirectory(), () => false)))) {
    throw new InstallCommandError(`${dir} is not a folder: give --dir a folder for the glance command.`);
  }
  await mkdir(dir, { recursive: true });
  const existing = await lstat(path).catch(() => undefined);
  let replaced = false;
  if (existing) {
    if (!existing.isFile()) throw new InstallCommandError(`${path} is already there and is not a file Glance wrote (${existing.isSymbolicLink() ? 'a symbolic link' : existing.isDirectory() ? 'a folder' : 'not a regular file'}): remove it, or give --dir another folder.`);
    const before = await readFile(path, 'utf8').catch(() => '');
    if (!before.includes(MARK) && !options.force) throw new InstallCommandError(`${path} is already there and was not written by glance install-command: Glance leaves it alone. Remove it, give --dir another folder, or pass --force to replace it.`);
    replaced = true;
  }
  // Written beside it and renamed over: a shell running the old launcher never sees half a file.
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, text, { mode: 0o755 });
  await chmod(temp, 0o755);
  await rename(temp, path);
  const onPath = (env.PATH ?? env.Path ?? '').split(delimiter).some((p) => p && resolve(p) === dir);
  const message =
    `${replaced ? 'Replaced' : 'Wrote'} ${path}: it runs ${launcher.script} with ${launcher.runtime}.` +
    (onPath
      ? ` ${dir} is on your PATH, so "glance mcp serve" works from a shell and from clients that inherit its PATH.`
      : ` ${dir} is not on your PATH: add it (${platform === 'win32' ? `setx PATH "%PATH%;${dir}"` : `export PATH="${dir}:$PATH" in your shell's profile`}), or give clients the full path.`) +
    ` Clients that do not inherit your shell's PATH (Claude Desktop) need the full path: "command": ${JSON.stringify(path)}.`;
  return { path, onPath, replaced, message };
}
