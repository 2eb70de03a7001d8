// Roots (architecture §6) through the real composition: the allowed folders are offered — Glance's
// defaults when the person set none, together with the folders a server's own arguments name —
// and a change to them reaches running servers (roots/list_changed). The roots probe is the
// fixture's list_roots; the real peer is @modelcontextprotocol/server-filesystem, which replaces
// the directories it was started with by the client's roots.
import { createRequire } from 'node:module';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeServices, type Services } from '../../main/core/composeServices.ts';
import { defaultAllowedRoots } from '../../main/images/readLocalFile.ts';
import type { McpHub } from '../../main/mcp/mcpHub.ts';
import { EnvSecretStore } from '../../main/settings/secretStore.ts';
import { SettingsStore } from '../../main/settings/settingsStore.ts';
import { FIXTURE_SERVER, fixtureEntry, tempDataDir } from '../support/mcpSetup.ts';

function filesystemServer(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@modelcontextprotocol/server-filesystem/package.json');
  const bin = (require(pkg) as { bin: Record<string, string> }).bin;
  return join(dirname(pkg), bin['mcp-server-filesystem']!);
}

/** server-filesystem's own answer: "Allowed directories:\n/a\n/b". */
async function allowedDirectories(hub: McpHub): Promise<string[]> {
  const outcome = await hub.callServerTool('files', 'list_allowed_directories', {});
  expect(outcome.ok).toBe(true);
  return outcome.text.split('\n').slice(1).filter(Boolean);
}

describe('roots', () => {
  let data: Awaited<ReturnType<typeof tempDataDir>>;
  let settings: SettingsStore;
  let services: Services;
  let hub: McpHub;
  let project: string;
  let other: string;

  beforeAll(async () => {
    data = await tempDataDir();
    project = await realpath(await mkdir(join(data.dir, 'project'), { recursive: true }).then(() => join(data.dir, 'project')));
    other = await realpath(await mkdir(join(data.dir, 'other'), { recursive: true }).then(() => join(data.dir, 'other')));
    await writeFile(join(project, 'notes.txt'), 'from the configured folder');
    await writeFile(join(other, 'elsewhere.txt'), 'from the chosen folder');
    // One default folder that exists, so server-filesystem (which drops missing ones) keeps it.
    await mkdir(join(data.dir, 'attachments'), { recursive: true });
    settings = new SettingsStore({ dataDir: data.dir });
    await settings.load();
    const saved = await settings.update({
      mcpServers: {
        // Folders in its arguments: a bare path and a --flag=path count; a file, a missing path and a relative one do not.
        probe: fixtureEntry({ args: [FIXTURE_SERVER, project, `--extra=${other}`, join(project, 'notes.txt'), join(data.dir, 'missing'), 'project'] }),
        files: { command: process.execPath, args: [filesystemServer(), project] },
      },
    });
    expect(saved.ok).toBe(true);
    services = composeServices({ dataDir: data.dir, settings, secrets: new EnvSecretStore({}), log: () => undefined });
    hub = services.hub!;
  });
  afterAll(async () => {
    await services?.close();
    await data.remove();
  });

  it('with no folders set: the default allowed folders, plus the folders the server was started with', async () => {
    const outcome = await hub.callServerTool('probe', 'list_roots', {});
    expect(outcome.text.split('\n')).toEqual([...defaultAllowedRoots(data.dir), project, other].map((p) => pathToFileURL(p).href));
  });

  it('server-filesystem keeps the directory it was configured with, and gets the allowed folders beside it', async () => {
    // server-filesystem starts on its arguments and asks for the roots after initialize; until its
    // answer lands it lists only the folder it was started with (seen once under load).
    const attachments = await realpath(join(data.dir, 'attachments'));
    let allowed = await allowedDirectories(hub);
    for (let i = 0; i < 200 && !allowed.includes(attachments); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      allowed = await allowedDirectories(hub);
    }
    expect(allowed).toContain(project);
    expect(allowed).toContain(attachments);
    const read = await hub.callServerTool('files', 'read_text_file', { path: join(project, 'notes.txt') });
    expect(read.text).toBe('from the configured folder');
  });

  it('folders the person chose are offered as they are, and running servers hear of the change', async () => {
    expect((await settings.update({ allowedRoots: [other] })).ok).toBe(true);
    expect((await hub.callServerTool('probe', 'list_roots', {})).text).toBe(pathToFileURL(other).href);
    // server-filesystem asks for the roots again when told they changed; its answer follows.
    let allowed = await allowedDirectories(hub);
    while (allowed.includes(project)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      allowed = await allowedDirectories(hub);
    }
    expect(allowed).toEqual([other]);
    expect((await hub.callServerTool('files', 'read_text_file', { path: join(other, 'elsewhere.txt') })).text).toBe('from the chosen folder');
    const outside = await hub.callServerTool('files', 'read_text_file', { path: join(project, 'notes.txt') });
    expect(outside.ok).toBe(false);
    expect(outside.text).toMatch(/outside allowed directories/i);
  });
});
