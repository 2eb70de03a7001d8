// The official conformance suite's server scenarios that apply to glance mcp serve
// (@modelcontextprotocol/conformance, pinned), run against the real --http server. The suite
// cannot send a bearer token, so a loopback proxy here adds the Authorization header and points a
// localhost Host at the server's port; any other Host (the DNS-rebinding scenario's) passes
// through unchanged, so the server's own check answers it. Scenarios that call the suite's own
// test tools, prompts or resources (tools-call-*, prompts-*, resources-read-*) or need
// capabilities Glance does not offer (logging, completion, subscriptions) do not apply.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startHttpServe, type HttpServer } from './serveHelpers.ts';

const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SERVER_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

let serve: HttpServer;
let proxy: http.Server;
let proxyUrl: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'glance-serve-conformance-'));
  serve = await startHttpServe({ env: process.env, dataDir });
  const target = new URL(serve.url);
  proxy = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${serve.token}` };
    if (/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i.test(headers.host ?? '')) headers.host = target.host;
    const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
}, 60_000);

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r));
  await serve?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function scenario(name: string): Promise<{ passed: number; failed: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SUITE, 'server', '--url', proxyUrl, '--scenario', name], { cwd: dataDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', () => {
      const m = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(out);
      resolve({ passed: m ? Number(m[1]) : 0, failed: m ? Number(m[3]) : 1, out });
    });
  });
}

describe('MCP conformance: server scenarios against glance mcp serve --http', () => {
  it.each(SERVER_SCENARIOS)('%s passes', async (name) => {
    const result = await scenario(name);
    expect(result.failed, result.out.slice(-3000)).toBe(0);
    expect(result.passed).toBeGreaterThan(0);
  }, 120_000);

  it("straight to the server, without the proxy's token, the suite is refused (401)", async () => {
    const direct = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, [SUITE, 'server', '--url', serve.url, '--scenario', 'server-initialize'], { cwd: dataDir, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      child.on('close', () => resolve(out));
    });
    expect(direct).toMatch(/Passed: 0\/1, 1 failed|401|Unauthorized/);
  }, 120_000);
});
