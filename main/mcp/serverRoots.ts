// The roots one server is offered (architecture §6): the allowed folders — the person's, or
// Glance's defaults when they set none — and, when they set none, the folders the server's own
// arguments name. server-filesystem replaces the directories it was started with by the
// client's roots, so the defaults alone would take away the folder it was configured for; a
// list the person chose is theirs to narrow with and is offered as it is.
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, normalize } from 'node:path';

/** What a server is, for its roots: its name and (stdio) the arguments it was started with. */
export type RootsAsker = { name: string; args: readonly string[] };

export async function serverRoots(allowed: { chosen: readonly string[]; defaults: readonly string[] }, server: RootsAsker): Promise<string[]> {
  if (allowed.chosen.length > 0) return [...allowed.chosen];
  const own = await argumentFolders(server.args);
  return [...new Set([...allowed.defaults, ...own])];
}

/**
 * The existing folders an argument list names: absolute paths, `~/…`, and `--flag=/path`.
 * Anything else (flags, package names, files) is not a folder the server was given.
 */
async function argumentFolders(args: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const arg of args) {
    const value = /^--?[\w-]+=/.test(arg) ? arg.slice(arg.indexOf('=') + 1) : arg;
    const path = value === '~' ? homedir() : value.startsWith('~/') ? join(homedir(), value.slice(2)) : value;
    if (!isAbsolute(path)) continue;
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) found.push(normalize(path));
  }
  return found;
}
