// The token of `glance mcp serve --http` (DESIGN §6a, issue 43): what sits at its path is looked at,
// never followed — a symlink, a FIFO or a folder there is refused in words (the link's target is
// not chmod'ed, the FIFO does not hang the start), and so is a data dir that is a file. The
// command says it in a line, exit 5, no stack. The scheme of "Authorization: Bearer" is
// case-insensitive.
import { spawnSync, execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp } from '../../main/mcpServer/httpServe.ts';
import { SERVE_TOKEN_FILE, serveToken } from '../../main/mcpServer/serveToken.ts';
import { CLI, ROOT } from './serveHelpers.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-serve-token-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function fresh(name: string): Promise<string> {
  const d = join(dir, name);
  await mkdir(d, { recursive: true });
  return d;
}

/** `glance mcp serve --http` on a data dir: what it says and how it ends (it must end, not listen or hang). */
function serveOn(dataDir: string) {
  return spawnSync(process.execPath, [CLI, 'mcp', 'serve', '--http', '--port', '0', '--data-dir', dataDir], { cwd: ROOT, encoding: 'utf8', timeout: 30_000, env: { ...process.env, DISPLAY: ':404' } });
}

describe('the token file', () => {
  it('is made once at 0600 and read back', async () => {
    const d = await fresh('plain');
    const made = await serveToken(d);
    expect(made.created).toBe(true);
    expect((await stat(made.path)).mode & 0o777).toBe(0o600);
    const again = await serveToken(d);
    expect(again).toMatchObject({ token: made.token, created: false });
  });

  it('a loosened token file is tightened back to 0600', async () => {
    const d = await fresh('loose');
    const made = await serveToken(d);
    await chmod(made.path, 0o644);
    await serveToken(d);
    expect((await stat(made.path)).mode & 0o777).toBe(0o600);
  });

  it('a symlink at its path is refused in words, and its target is neither read as the token nor chmod-ed', async () => {
    const d = await fresh('link');
    const target = join(dir, 'someone-elses-file');
    const secret = 'A'.repeat(43);
    await writeFile(target, `${secret}\n`, { mode: 0o644 });
    await chmod(target, 0o644);
    await symlink(target, join(d, SERVE_TOKEN_FILE));
    await expect(serveToken(d)).rejects.toThrow(/is a symbolic link, not a file: Glance does not follow or replace it/);
    expect((await stat(target)).mode & 0o777).toBe(0o644);
    expect(await readFile(target, 'utf8')).toBe(`${secret}\n`);
    const run = serveOn(d);
    expect(run.status).toBe(5);
    expect(run.stderr).toMatch(/glance mcp serve: The token path .*mcp-serve-token is a symbolic link/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toMatch(/MCP server at/);
  }, 40_000);

  it('a FIFO at its path is refused in words at once (the start does not hang on it)', async () => {
    const d = await fresh('fifo');
    execFileSync('mkfifo', [join(d, SERVE_TOKEN_FILE)]);
    await expect(serveToken(d)).rejects.toThrow(/is a FIFO \(named pipe\), not a file/);
    const run = serveOn(d);
    expect(run.error).toBeUndefined(); // not killed by spawnSync's timeout
    expect(run.status).toBe(5);
    expect(run.stderr).toMatch(/mcp-serve-token is a FIFO \(named pipe\), not a file/);
  }, 40_000);

  it('a folder at its path is refused in words', async () => {
    const d = await fresh('folder');
    await mkdir(join(d, SERVE_TOKEN_FILE));
    await expect(serveToken(d)).rejects.toThrow(/is a folder, not a file/);
    const run = serveOn(d);
    expect(run.status).toBe(5);
    expect(run.stderr).toMatch(/mcp-serve-token is a folder, not a file/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 40_000);

  it('a data dir that is a file is refused in words, over HTTP and stdio', async () => {
    const file = join(dir, 'data-is-a-file');
    await writeFile(file, 'x');
    await expect(serveToken(file)).rejects.toThrow(/is a file, not a folder/);
    const run = serveOn(file);
    expect(run.status).toBe(5);
    expect(run.stderr).toMatch(/glance mcp serve: The data dir .*data-is-a-file is a file, not a folder/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const stdio = spawnSync(process.execPath, [CLI, 'mcp', 'serve', '--data-dir', join(file, 'below')], { cwd: ROOT, encoding: 'utf8', timeout: 30_000, input: '' });
    expect(stdio.status).toBe(5);
    expect(stdio.stderr).toMatch(/a part of its path is a file, not a folder/);
  }, 40_000);
});

describe('the bearer scheme', () => {
  it.each([['Bearer'], ['bearer'], ['BEARER']])('"%s <token>" is let in; a wrong token is not', async (scheme) => {
    const token = 'k'.repeat(43);
    const serving = await serveHttp(() => new McpServer({ name: 't', version: '1' }), { host: '127.0.0.1', port: 0, token, log: () => undefined });
    try {
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const ok = await fetch(serving.url, { method: 'POST', headers: { ...headers, authorization: `${scheme} ${token}` }, body: JSON.stringify(init) });
      expect(ok.status).toBe(200);
      await ok.body?.cancel();
      const wrong = await fetch(serving.url, { method: 'POST', headers: { ...headers, authorization: `${scheme} ${'j'.repeat(43)}` }, body: JSON.stringify(init) });
      expect(wrong.status).toBe(401);
      const noScheme = await fetch(serving.url, { method: 'POST', headers: { ...headers, authorization: token }, body: JSON.stringify(init) });
      expect(noScheme.status).toBe(401);
    } finally {
      await serving.close();
    }
  });
});
