// `glance mcp call` obeys Settings → Tool approval (architecture §10), as a real process: a
// "Never run" rule refuses the call whatever the flags, "Ask every time" needs a terminal or --yes.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, fixtureEntry, tempDataDir } from '../support/mcpSetup.ts';

type Run = { code: number; stdout: string; stderr: string };

/** The CLI as a person's shell runs it (no terminal: stdin and stderr are pipes). */
function glance(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['main/cli/main.ts', ...args], { cwd: REPO_ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

describe('glance mcp call and the tool approval rules', () => {
  let data: Awaited<ReturnType<typeof tempDataDir>>;
  let config: string;
  /** The "probe" server writes here when it starts: a refused call must not start it at all. */
  let started: string;

  beforeAll(async () => {
    data = await tempDataDir();
    config = join(data.dir, 'servers.json');
    started = join(data.dir, 'started.txt');
    const probe = { command: process.execPath, args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(started)}, 'started')`] };
    await writeFile(config, JSON.stringify({ mcpServers: { fx: fixtureEntry(), probe } }));
    await writeFile(
      join(data.dir, 'settings.json'),
      JSON.stringify({ version: 1, toolApproval: { 'fx__*': 'deny', fx__pid: 'allow', fx__echo: 'ask', probe__write: 'deny' } }),
    );
  });
  afterAll(async () => data.remove());

  const call = (tool: string, ...extra: string[]) =>
    glance(['mcp', 'call', 'fx', tool, '--mcp-config', config, '--data-dir', data.dir, ...extra]);

  it('"Never run" refuses the call with words and exit 6, --yes included, and nothing of the server runs', async () => {
    for (const flags of [['--yes'], ['--allow-tools', 'fx__*']]) {
      const run = await call('chart_image', ...flags);
      expect(run.code).toBe(6);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('not run: Settings → Tool approval says fx__chart_image never runs (the rule "fx__*")');
      expect(run.stderr).toContain('--yes does not override a "Never run" rule');
    }
    const probe = await glance(['mcp', 'call', 'probe', 'write', '--yes', '--mcp-config', config, '--data-dir', data.dir]);
    expect(probe.code).toBe(6);
    expect(probe.stderr).toContain('says probe__write never runs.');
    await expect(readFile(started, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('an exact "Always allow" wins over the server-wide "Never run"', async () => {
    const run = await call('pid');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+\n$/);
  });

  it('"Ask every time" with nobody at a terminal needs --yes or --allow-tools', async () => {
    const refused = await call('echo', '--args', '{"text":"hello"}');
    expect(refused.code).toBe(6);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('fx__echo asks every time, and there is no terminal to ask at. Run again with --yes or --allow-tools fx__echo');
    expect(await call('echo', '--args', '{"text":"hello"}', '--yes')).toMatchObject({ code: 0, stdout: 'hello\n' });
    expect(await call('echo', '--args', '{"text":"again"}', '--allow-tools', 'fx__ech*')).toMatchObject({ code: 0, stdout: 'again\n' });
  });
});
