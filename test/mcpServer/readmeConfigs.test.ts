// The client configs README gives for `glance mcp serve` work as written (issue 43). Each block is read
// as its own client reads it — keys that client takes, variables in that client's syntax only
// (Claude Code `${VAR}`/`${VAR:-default}` with "type": "http"; Cursor `${env:VAR}`; VS Code
// `${env:VAR}` and declared `${input:id}`; Claude Desktop none, and a full path since it does not
// inherit the shell's PATH) — and the server is started from it: stdio through the SDK's client with
// `glance` found on PATH where `glance install-command` put it (and PATH without it, or without Node,
// for Claude Desktop), HTTP with the token from its file. `install-command` itself is checked here too.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appLauncher, installCommand, launcherText } from '../../main/installCommand.ts';
import { CLI, ROOT } from './serveHelpers.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('### Glance as an MCP server'), readme.indexOf('### Tools that can change things ask first'));
const blocks = [...section.matchAll(/<!-- glance-config: (\S+) (stdio|http) -->\n```json\n([\s\S]*?)```/g)].map((m) => ({ client: m[1]!, transport: m[2]!, json: m[3]! }));

type Launch = { kind: 'stdio'; command: string; args: string[]; env: Record<string, string> } | { kind: 'http'; url: string; headers: Record<string, string> };
type Vars = { env: Record<string, string>; inputs?: Record<string, string>; home: string };

/** Replaces the variables a client knows in every string; any `${` left is syntax this client does not read. */
function expand(value: unknown, client: string, sub: (name: string) => string | undefined): unknown {
  if (typeof value === 'string') {
    const out = value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => sub(name) ?? whole);
    if (out.includes('${')) throw new Error(`${client} does not read ${JSON.stringify(/\$\{[^}]*\}/.exec(out)![0])}`);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => expand(v, client, sub));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, client, sub)]));
  return value;
}

function onlyKeys(entry: Record<string, unknown>, allowed: string[], client: string) {
  const extra = Object.keys(entry).filter((k) => !allowed.includes(k));
  if (extra.length) throw new Error(`${client} does not take ${extra.join(', ')}`);
}

/** One parser per client: what it reads of a config, as its documentation says. */
const CLIENTS: Record<string, (json: Record<string, unknown>, vars: Vars) => Launch> = {
  'claude-desktop'(json) {
    onlyKeys(json, ['mcpServers'], 'Claude Desktop');
    const entry = (json.mcpServers as Record<string, Record<string, unknown>>).glance!;
    onlyKeys(entry, ['command', 'args', 'env'], 'Claude Desktop (stdio servers only)');
    expand(entry, 'Claude Desktop', () => undefined);
    if (!isAbsolute(String(entry.command))) throw new Error('Claude Desktop does not inherit the shell PATH: the command must be a full path');
    return { kind: 'stdio', command: String(entry.command), args: entry.args as string[], env: (entry.env as Record<string, string>) ?? {} };
  },
  'claude-code'(json, vars) {
    onlyKeys(json, ['mcpServers'], 'Claude Code');
    const raw = (json.mcpServers as Record<string, Record<string, unknown>>).glance!;
    const entry = expand(raw, 'Claude Code', (name) => {
      const [v, fallback] = name.split(':-');
      return /^[A-Za-z_][A-Za-z0-9_]*$/.test(v!) ? (vars.env[v!] ?? fallback) : undefined;
    }) as Record<string, unknown>;
    if (entry.url !== undefined) {
      if (entry.type !== 'http' && entry.type !== 'sse') throw new Error('Claude Code needs "type": "http" for a URL server');
      onlyKeys(entry, ['type', 'url', 'headers'], 'Claude Code (http)');
      return { kind: 'http', url: String(entry.url), headers: (entry.headers as Record<string, string>) ?? {} };
    }
    onlyKeys(entry, ['type', 'command', 'args', 'env'], 'Claude Code (stdio)');
    return { kind: 'stdio', command: String(entry.command), args: entry.args as string[], env: (entry.env as Record<string, string>) ?? {} };
  },
  cursor(json, vars) {
    onlyKeys(json, ['mcpServers'], 'Cursor');
    const raw = (json.mcpServers as Record<string, Record<string, unknown>>).glance!;
    const entry = expand(raw, 'Cursor', (name) => (name.startsWith('env:') ? vars.env[name.slice(4)] : name === 'userHome' ? vars.home : undefined)) as Record<string, unknown>;
    if (entry.url !== undefined) {
      onlyKeys(entry, ['type', 'url', 'headers'], 'Cursor (remote)');
      return { kind: 'http', url: String(entry.url), headers: (entry.headers as Record<string, string>) ?? {} };
    }
    onlyKeys(entry, ['type', 'command', 'args', 'env', 'envFile'], 'Cursor (stdio)');
    return { kind: 'stdio', command: String(entry.command), args: entry.args as string[], env: (entry.env as Record<string, string>) ?? {} };
  },
  vscode(json, vars) {
    onlyKeys(json, ['servers', 'inputs'], 'VS Code');
    const declared = new Set(((json.inputs as { id: string; type: string }[]) ?? []).map((i) => i.id));
    const raw = (json.servers as Record<string, Record<string, unknown>>).glance!;
    const entry = expand(raw, 'VS Code', (name) => {
      if (name.startsWith('env:')) return vars.env[name.slice(4)];
      if (name.startsWith('input:')) return declared.has(name.slice(6)) ? vars.inputs?.[name.slice(6)] : undefined;
      return name === 'userHome' ? vars.home : undefined;
    }) as Record<string, unknown>;
    if (entry.type === 'http' || entry.type === 'sse') {
      onlyKeys(entry, ['type', 'url', 'headers'], 'VS Code (http)');
      return { kind: 'http', url: String(entry.url), headers: (entry.headers as Record<string, string>) ?? {} };
    }
    if (entry.type !== 'stdio') throw new Error('VS Code needs "type" on every server');
    onlyKeys(entry, ['type', 'command', 'args', 'env', 'envFile', 'cwd'], 'VS Code (stdio)');
    return { kind: 'stdio', command: String(entry.command), args: entry.args as string[], env: (entry.env as Record<string, string>) ?? {} };
  },
};

let home: string;
let bin: string;
/** PATH for the test's children: the system's, without the Node 24 this test runs on. */
const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
let http: { child: ReturnType<typeof spawn>; port: number; token: string } | undefined;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'glance-readme-home-'));
  // install-command as a new user runs it: HOME is theirs, the launcher goes to ~/.local/bin.
  const run = spawnSync(process.execPath, [CLI, 'install-command'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, HOME: home, PATH: SYSTEM_PATH } });
  expect(run.status, run.stderr).toBe(0);
  bin = join(home, '.local', 'bin');
  expect(run.stdout).toContain(`Wrote ${join(bin, 'glance')}`);
  expect(run.stdout).toContain('is not on your PATH');
}, 60_000);

afterAll(async () => {
  if (http && http.child.exitCode === null) {
    const exited = new Promise((r) => http!.child.once('exit', r));
    http.child.kill('SIGTERM');
    await exited;
  }
  if (home) await rm(home, { recursive: true, force: true });
});

/** `glance mcp serve --http` started by name from the installed launcher, as a person would; its port and token. */
async function httpServer() {
  if (http) return http;
  const child = spawn('glance', ['mcp', 'serve', '--http', '--port', '0'], { env: { ...process.env, HOME: home, PATH: `${bin}:${SYSTEM_PATH}` }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /MCP server at http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(err);
      if (m && /bearer token/.test(err)) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  // The token file where README's table says it is (Linux: ~/.config/Glance/mcp-serve-token).
  const token = (await readFile(join(home, '.config', 'Glance', 'mcp-serve-token'), 'utf8')).trim();
  http = { child, port, token };
  return http;
}

describe('README: every glance mcp serve config works as its client reads it', () => {
  it('has a stdio config for Claude Desktop, Claude Code, Cursor and VS Code, and an HTTP one for the last three', () => {
    expect(blocks.map((b) => `${b.client} ${b.transport}`).sort()).toEqual(['claude-code http', 'claude-code stdio', 'claude-desktop stdio', 'cursor http', 'cursor stdio', 'vscode http', 'vscode stdio']);
  });

  it('each parser refuses the syntax of another client (the old Claude Code entry used Cursor\'s)', () => {
    const cursorStyle = { mcpServers: { glance: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer ${env:T}' } } } };
    expect(() => CLIENTS['claude-code']!(cursorStyle, { env: { T: 'x' }, home: '/h' })).toThrow(/Claude Code does not read "\$\{env:T\}"/);
    expect(() => CLIENTS['claude-code']!({ mcpServers: { glance: { url: 'http://127.0.0.1:1/mcp' } } }, { env: {}, home: '/h' })).toThrow(/needs "type": "http"/);
    expect(() => CLIENTS['cursor']!({ mcpServers: { glance: { url: 'u', headers: { A: 'Bearer ${T}' } } } }, { env: { T: 'x' }, home: '/h' })).toThrow(/Cursor does not read/);
    expect(() => CLIENTS['claude-desktop']!({ mcpServers: { glance: { command: 'glance', args: [] } } }, { env: {}, home: '/h' })).toThrow(/must be a full path/);
  });

  it.each(blocks.filter((b) => b.transport === 'stdio').map((b) => [b.client, b] as const))('%s (stdio) starts the server through the SDK client', async (client, block) => {
    let launch = CLIENTS[client]!(JSON.parse(block.json), { env: {}, home });
    if (launch.kind !== 'stdio') throw new Error('not stdio');
    // README's placeholder home is the person's own: here, the test's.
    const command = launch.command.replace(/^\/Users\/you\b/, home);
    launch = { ...launch, command };
    // Claude Desktop gets no shell PATH: not the launcher's folder, not Node 24. The others inherit the shell's.
    const path = client === 'claude-desktop' ? '/usr/bin:/bin' : `${bin}:${SYSTEM_PATH}`;
    const transport = new StdioClientTransport({ command: launch.command, args: launch.args, env: { ...launch.env, HOME: home, PATH: path }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const sdk = new Client({ name: `${client}-like`, version: '1' });
    try {
      await sdk.connect(transport);
      const { tools } = await sdk.listTools();
      expect(tools.map((t) => t.name), stderr).toContain('capture_screen');
      expect(sdk.getServerVersion()?.name).toBe('glance');
    } finally {
      await sdk.close();
    }
  }, 60_000);

  it.each(blocks.filter((b) => b.transport === 'http').map((b) => [b.client, b] as const))('%s (http) reaches the server with the token', async (client, block) => {
    const server = await httpServer();
    const launch = CLIENTS[client]!(JSON.parse(block.json), { env: { GLANCE_MCP_TOKEN: server.token }, inputs: { 'glance-token': server.token }, home });
    if (launch.kind !== 'http') throw new Error('not http');
    expect(launch.headers.Authorization).toBe(`Bearer ${server.token}`);
    // README's port is an example; the test's server took a free one.
    const url = new URL(launch.url.replace(':7337/', `:${server.port}/`));
    const sdk = new Client({ name: `${client}-like`, version: '1' });
    try {
      await sdk.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: launch.headers } }));
      const { tools } = await sdk.listTools();
      expect(tools.map((t) => t.name)).toContain('wait_for');
    } finally {
      await sdk.close();
    }
  }, 60_000);
});

describe('glance install-command', () => {
  it('writes an executable launcher that runs this Glance with an absolute Node, and says whether its folder is on PATH', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'glance-bin-'));
    try {
      const installed = await installCommand({ dir, env: { PATH: `${dir}:/usr/bin` } });
      expect(installed.onPath).toBe(true);
      expect(installed.message).toMatch(/is on your PATH/);
      expect((await stat(installed.path)).mode & 0o111).toBe(0o111);
      const run = spawnSync('glance', ['--help'], { encoding: 'utf8', env: { PATH: `${dir}:/usr/bin:/bin`, HOME: home } });
      expect(run.stdout).toMatch(/Usage: glance <command>/);
      // Again: its own launcher is replaced in place.
      expect((await installCommand({ dir, env: {} })).replaced).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("leaves someone else's file or a link there alone, in words (--force replaces a file)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'glance-bin-'));
    try {
      await writeFile(join(dir, 'glance'), '#!/bin/sh\necho another glance\n');
      await chmod(join(dir, 'glance'), 0o755);
      await expect(installCommand({ dir, env: {} })).rejects.toThrow(/was not written by glance install-command: Glance leaves it alone/);
      expect(await readFile(join(dir, 'glance'), 'utf8')).toContain('another glance');
      expect((await installCommand({ dir, env: {}, force: true })).replaced).toBe(true);
      const other = await mkdtemp(join(tmpdir(), 'glance-bin-'));
      await symlink('/bin/true', join(other, 'glance'));
      const cli = spawnSync(process.execPath, [CLI, 'install-command', '--dir', other], { cwd: ROOT, encoding: 'utf8' });
      expect(cli.status).toBe(1);
      expect(cli.stderr).toMatch(/glance install-command: .*glance is already there and is not a file Glance wrote \(a symbolic link\)/);
      await rm(other, { recursive: true, force: true });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("from the app: the app's binary run as Node on the app's built CLI (the launcher for Windows too)", () => {
    const launcher = appLauncher('/Applications/Glance.app/Contents/MacOS/Glance', '/Applications/Glance.app/Contents/Resources/app.asar');
    const sh = launcherText(launcher, 'darwin');
    expect(sh.text).toContain(`exec ELECTRON_RUN_AS_NODE='1' '/Applications/Glance.app/Contents/MacOS/Glance' '/Applications/Glance.app/Contents/Resources/app.asar/dist/main/cli/main.js' "$@"`);
    const cmd = launcherText({ runtime: 'C:\\Glance\\Glance.exe', script: 'C:\\Glance\\resources\\app\\bin\\glance.js', env: { ELECTRON_RUN_AS_NODE: '1' } }, 'win32');
    expect(cmd.name).toBe('glance.cmd');
    expect(cmd.text).toContain('set "ELECTRON_RUN_AS_NODE=1"\r\n"C:\\Glance\\Glance.exe" "C:\\Glance\\resources\\app\\bin\\glance.js" %*');
  });
});
