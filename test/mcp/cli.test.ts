// `glance mcp list` and `glance mcp call` (architecture §10): in-process with a capturing io, and
// once as a real process.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandIO } from '../../main/cli/io.ts';
import { main } from '../../main/cli/main.ts';
import { readBars } from '../fixtures/chart.ts';
import { FAIL_TEXT, makeToneWav } from '../fixtures/mcpServer.ts';
import { REPO_ROOT, expectNoBase64, fixtureEntry, tempDataDir } from '../support/mcpSetup.ts';

function capturingIO(env: NodeJS.ProcessEnv = {}): CommandIO & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (t) => void (out += t), err: (t) => void (err += t), env, stdout: () => out, stderr: () => err };
}

describe('glance mcp', () => {
  let data: Awaited<ReturnType<typeof tempDataDir>>;
  let config: string;

  beforeAll(async () => {
    data = await tempDataDir();
    config = join(data.dir, 'servers.json');
    await writeFile(config, JSON.stringify({ mcpServers: { fx: fixtureEntry(), ghost: { command: join(data.dir, 'missing-binary') } } }));
  });
  afterAll(async () => data.remove());

  it('mcp list --json: servers with state, namespaced tools; a failed server gives exit 4', async () => {
    const io = capturingIO();
    const code = await main(['mcp', 'list', '--mcp-config', config, '--json'], io);
    const result = JSON.parse(io.stdout()) as { servers: { name: string; state: string; message?: string }[]; tools: { name: string; server: string }[] };
    expect(result.servers).toEqual([
      expect.objectContaining({ name: 'fx', state: 'ready' }),
      expect.objectContaining({ name: 'ghost', state: 'failed', message: expect.stringContaining('command was not found') }),
    ]);
    expect(result.tools.map((t) => t.name)).toContain('fx__chart_image');
    expect(code).toBe(4);
  });

  it('mcp list (text) with only working servers exits 0', async () => {
    const only = join(data.dir, 'only.json');
    await writeFile(only, JSON.stringify({ mcpServers: { fx: fixtureEntry() } }));
    const io = capturingIO();
    expect(await main(['mcp', 'list', '--mcp-config', only], io)).toBe(0);
    expect(io.stdout()).toMatch(/^fx \(stdio\): ready\n {2}fx__chart_image {2}Returns the known-answer bar chart/);
  });

  it("mcp list reads VS Code's servers/inputs: variables from the environment, ${input:…} from GLANCE_INPUT_<ID>, unknown keys warned", async () => {
    const vscode = join(data.dir, 'vscode-mcp.json');
    const entry = fixtureEntry({ type: 'stdio', env: { WHO: '${input:who}', FROM_ENV: '${env:FX_VALUE}' }, dev: { watch: 'src/**' } });
    await writeFile(vscode, JSON.stringify({ inputs: [{ type: 'promptString', id: 'who', description: 'Your name' }], servers: { fx: entry } }));
    const io = capturingIO({ FX_VALUE: 'from the environment', GLANCE_INPUT_WHO: 'ada' });
    expect(await main(['mcp', 'list', '--mcp-config', vscode, '--data-dir', data.dir], io)).toBe(0);
    expect(io.stdout()).toMatch(/^fx \(stdio\): ready\n {2}warning: "dev": not a setting Glance uses; ignored\n {2}fx__chart_image/);
    const call = capturingIO({ FX_VALUE: 'from the environment', GLANCE_INPUT_WHO: 'ada' });
    expect(await main(['mcp', 'call', 'fx', 'env_vars', '--args', '{"names":["WHO","FROM_ENV"]}', '--mcp-config', vscode, '--data-dir', data.dir], call)).toBe(0);
    expect(JSON.parse(call.stdout())).toEqual({ WHO: 'ada', FROM_ENV: 'from the environment' });
    const missing = capturingIO({ FX_VALUE: 'x' });
    expect(await main(['mcp', 'call', 'fx', 'echo', '--args', '{"text":"hi"}', '--mcp-config', vscode, '--data-dir', data.dir], missing)).toBe(4);
    expect(missing.stderr()).toContain('it needs a value for ${input:who} (set GLANCE_INPUT_WHO in the environment)');
  });

  it('mcp call --json prints what the model sees plus the captured attachments', async () => {
    const io = capturingIO();
    const code = await main(['mcp', 'call', 'fx', 'text_and_image', '--mcp-config', config, '--data-dir', data.dir, '--json'], io);
    expect(code).toBe(0);
    const result = JSON.parse(io.stdout()) as { ok: boolean; text: string; images: { id: string; path: string; width: number }[]; files: unknown[]; notes: string[] };
    expect(result.ok).toBe(true);
    expectNoBase64(result.text);
    expect(result.images).toHaveLength(1);
    expect(result.text).toContain(result.images[0]!.id);
    expect(result.images[0]!.path.startsWith(join(data.dir, 'attachments'))).toBe(true);
    expect((await readBars(await readFile(result.images[0]!.path))).bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  });

  it('mcp call with --args; audio lands under <data dir>/captures', async () => {
    const io = capturingIO();
    expect(await main(['mcp', 'call', 'fx', 'tone_audio', '--mcp-config', config, '--data-dir', data.dir], io)).toBe(0);
    expect(io.stdout()).toMatch(/^\[audio captured from fx__tone_audio: .*\.wav, audio\/wav, 4044 bytes, saved in Glance's captures folder\]/);
    // The model's text names no path; the person at the terminal gets it on stderr.
    expect(io.stdout()).not.toContain(data.dir);
    const path = /^file: audio\/wav, 4044 bytes → (.+)$/m.exec(io.stderr())![1]!;
    expect(path.startsWith(join(data.dir, 'captures'))).toBe(true);
    expect((await readFile(path)).equals(makeToneWav())).toBe(true);

    const echo = capturingIO();
    expect(await main(['mcp', 'call', 'fx', 'echo', '--args', '{"text":"hi there"}', '--mcp-config', config, '--data-dir', data.dir], echo)).toBe(0);
    expect(echo.stdout()).toBe('hi there\n');
  });

  it('exit codes: 1 tool failed, 4 crashed, 2 usage', async () => {
    const run = async (...argv: string[]) => {
      const io = capturingIO();
      return { code: await main(['mcp', ...argv], io), io };
    };
    const failed = await run('call', 'fx', 'fail_tool', '--mcp-config', config, '--data-dir', data.dir);
    expect(failed.code).toBe(1);
    expect(failed.io.stdout()).toBe(`${FAIL_TEXT}\n`);
    const crashed = await run('call', 'fx', 'crash', '--mcp-config', config, '--data-dir', data.dir);
    expect(crashed.code).toBe(4);
    expect(crashed.io.stdout()).toContain('stopped while running fx__crash');
    expect((await run('call', 'ghost', 'x', '--mcp-config', config, '--data-dir', data.dir)).code).toBe(4);
    expect((await run('call', 'fx', 'no_such_tool', '--mcp-config', config, '--data-dir', data.dir)).io.stderr()).toMatch(/has no tool "no_such_tool"/);
    expect((await run('call', 'nobody', 'x', '--mcp-config', config)).code).toBe(2);
    expect((await run('call', 'fx', 'echo', '--args', '[1]', '--mcp-config', config)).code).toBe(2);
    expect((await run('call', 'fx', 'echo', '--args', '{bad', '--mcp-config', config)).code).toBe(2);
    expect((await run('call', 'fx', '--mcp-config', config)).code).toBe(2);
    expect((await run('list', '--mcp-config', join(data.dir, 'nope.json'))).code).toBe(2);
    expect((await run('frobnicate')).code).toBe(2);
    expect((await run('--help')).code).toBe(0);
  });

  it('uses <data dir>/mcp.json when no --mcp-config is given', async () => {
    const dir = join(data.dir, 'home');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { fx: fixtureEntry() } }));
    const io = capturingIO({ GLANCE_DATA_DIR: dir });
    expect(await main(['mcp', 'call', 'fx', 'echo', '--args', '{"text":"from default"}'], io)).toBe(0);
    expect(io.stdout()).toBe('from default\n');
  });

  it('runs as a real process: node main/cli/main.ts mcp call … --json', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['main/cli/main.ts', 'mcp', 'call', 'fx', 'get_file_contents', '--args', '{"path":"docs/chart.png"}', '--mcp-config', config, '--data-dir', data.dir, '--json'],
      { cwd: REPO_ROOT, maxBuffer: 10 * 1024 * 1024 },
    );
    const result = JSON.parse(stdout) as { ok: boolean; text: string; images: { path: string }[] };
    expect(result.ok).toBe(true);
    expect(JSON.parse(result.text)).toMatchObject({ name: 'chart.png', url: expect.stringContaining('docs/chart.png') });
    expectNoBase64(result.text);
    expect((await readBars(await readFile(result.images[0]!.path))).bars.map((b) => b.color)).toEqual(['red', 'green', 'blue']);
  });
});
