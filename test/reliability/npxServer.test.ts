// A CLI run whose stdio server is started with `npx -y …` (the config users paste most) exits, and
// leaves no server behind. The fixture is a real npx launch without the network: npx runs a local
// package folder (made here, no dependencies) whose server ignores the end of stdin and SIGTERM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';

const REPO = resolve(import.meta.dirname, '../..');
let dir: string;
let config: string;
let server: ModelServer;
const pids: number[] = [];

/** A minimal MCP server (hand-written JSON-RPC) that writes its pid and only SIGKILL ends. */
const SERVER = `#!/usr/bin/env node
require('node:fs').appendFileSync(process.env.PID_FILE, process.pid + '\\n');
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  for (let nl = buf.indexOf('\\n'); nl >= 0; nl = buf.indexOf('\\n')) {
    const line = buf.slice(0, nl); buf = buf.slice(nl + 1);
    let m; try { m = JSON.parse(line); } catch { continue; }
    const reply = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');
    if (m.method === 'initialize') reply({ protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'stubborn', version: '1.0.0' } });
    else if (m.method === 'tools/list') reply({ tools: [{ name: 'noop', description: 'Does nothing.', inputSchema: { type: 'object' } }] });
    else if (m.id !== undefined) reply({});
  }
});
process.stdin.on('end', () => {});
process.on('SIGTERM', () => {});
setInterval(() => {}, 1 << 30);
`;

beforeAll(async () => {
  server = await createModelServer();
  dir = await mkdtemp(join(tmpdir(), 'glance-npx-'));
  const pkg = join(dir, 'stubborn-mcp');
  await mkdir(pkg);
  await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: 'stubborn-mcp', version: '1.0.0', bin: { 'stubborn-mcp': 'server.js' } }));
  await writeFile(join(pkg, 'server.js'), SERVER, { mode: 0o755 });
  config = join(dir, 'claude_desktop_config.json');
  // "npx" found on PATH, as a pasted config has it; --offline: the local folder needs no registry.
  await writeFile(config, JSON.stringify({ mcpServers: { stubborn: { command: 'npx', args: ['-y', '--offline', pkg], env: { PID_FILE: join(dir, 'pids'), npm_config_cache: join(dir, 'npm-cache') } } } }));
});
afterAll(async () => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL'); // only the fixture servers this test started
    } catch {
      // gone, as it should be
    }
  }
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(REPO, 'main/cli/main.ts'), ...args], { env: { ...process.env, OLLAMA_HOST: server.url }, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => void (out += c.toString('utf8')));
    child.on('close', (code) => done({ code, out }));
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function serverPids(): Promise<number[]> {
  const text = await readFile(join(dir, 'pids'), 'utf8').catch(() => '');
  const found = text.split('\n').filter(Boolean).map(Number);
  for (const p of found) if (!pids.includes(p)) pids.push(p);
  return found;
}

describe('an npx-started stdio server (issue 30 item 11)', () => {
  it('glance mcp list reports it ready and exits; no server process is left', { timeout: 90_000 }, async () => {
    const { code, out } = await run(['mcp', 'list', '--mcp-config', config]);
    expect(code).toBe(0);
    expect(out).toMatch(/stubborn \(stdio\): ready/);
    const started = await serverPids();
    expect(started.length).toBe(1);
    await expect.poll(() => started.filter(alive), { timeout: 5000 }).toEqual([]);
  });

  it('glance ask with it exits too', { timeout: 90_000 }, async () => {
    server.script({ text: 'fine' });
    const before = (await serverPids()).length;
    const { code } = await run(['ask', 'hi', '--model', 'llava-seer', '--mcp-config', config, '--data-dir', join(dir, 'data')]);
    expect(code).toBe(0);
    const started = (await serverPids()).slice(before);
    expect(started.length).toBe(1);
    await expect.poll(() => started.filter(alive), { timeout: 5000 }).toEqual([]);
  });
});
