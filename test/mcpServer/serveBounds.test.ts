// `glance mcp serve` stays bounded (DESIGN §6a, issue 43): HTTP sessions are capped and expired
// when idle (both settable), and an expired session's server is closed so its memory can go —
// 1,000 initialize without DELETE used to keep 1,000 servers (+190 MB); and the captures the
// server makes are capped in bytes and in age in the store, the app's own images untouched.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAttachmentStore } from '../../main/images/attachmentStore.ts';
import type { PreparedImage } from '../../main/images/types.ts';
import { CaptureShelf } from '../../main/mcpServer/captureShelf.ts';
import { serveHttp, type HttpServing } from '../../main/mcpServer/httpServe.ts';
import { CLI, ROOT } from './serveHelpers.ts';

const TOKEN = 't'.repeat(43);
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}` };
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'leaky', version: '1' } } };

/** A client that initializes and walks away (no DELETE): the session id it got. */
async function initialize(url: string): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(INIT) });
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get('mcp-session-id')!;
}

async function listTools(url: string, session: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
}

function serverFactory() {
  const made: McpServer[] = [];
  const make = () => {
    const server = new McpServer({ name: 'bounded', version: '1' }, { capabilities: { tools: {} } });
    server.registerTool('noop', { description: 'nothing', inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    made.push(server);
    return server;
  };
  return { made, make };
}

describe('HTTP sessions are capped and expired when idle', () => {
  let serving: HttpServing | undefined;
  afterAll(async () => {
    await serving?.close();
  });

  it('past the cap, the least recently used session is closed, its server with it, and the map stays at the cap', async () => {
    const { made, make } = serverFactory();
    const logged: string[] = [];
    serving = await serveHttp(make, { host: '127.0.0.1', port: 0, token: TOKEN, log: (l) => logged.push(l), maxSessions: 4, idleMs: 3_600_000 });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      ids.push(await initialize(serving.url));
      // The first session is used between the others: least recently used is not the oldest.
      if (i >= 1 && i <= 3) expect((await listTools(serving.url, ids[0]!)).status).toBe(200);
    }
    expect(serving.sessionCount()).toBe(4);
    expect(made).toHaveLength(10);
    expect(made.filter((s) => s.isConnected())).toHaveLength(4);
    // The newest four are kept; an old one is told in words to initialize again.
    for (const id of ids.slice(-4)) expect((await listTools(serving.url, id)).status).toBe(200);
    const gone = await listTools(serving.url, ids[1]!);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toMatch(/Session not found \(closed when idle, or to make room for newer clients\): initialize again/);
    expect(logged.some((l) => /over the cap of 4 sessions, least recently used/.test(l))).toBe(true);
    await serving.close();
    serving = undefined;
  });

  it('a session unused for the idle time is closed, its server with it; the map empties', async () => {
    const { made, make } = serverFactory();
    serving = await serveHttp(make, { host: '127.0.0.1', port: 0, token: TOKEN, log: () => undefined, maxSessions: 100, idleMs: 300 });
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await initialize(serving.url));
    expect(serving.sessionCount()).toBeGreaterThan(0);
    for (let i = 0; i < 200 && serving.sessionCount() > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(serving.sessionCount()).toBe(0);
    expect(made.filter((s) => s.isConnected())).toHaveLength(0);
    expect((await listTools(serving.url, ids[0]!)).status).toBe(404);
    // A new client is served as before.
    expect((await listTools(serving.url, await initialize(serving.url))).status).toBe(200);
    await serving.close();
    serving = undefined;
  });

  it('the flags are checked: a cap of 0 or an idle time without --http is a usage error', () => {
    const run = (args: string[]) => spawnSync(process.execPath, [CLI, 'mcp', 'serve', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000, input: '' });
    const zero = run(['--http', '--max-sessions', '0']);
    expect(zero.status).toBe(2);
    expect(zero.stderr).toMatch(/--max-sessions must be a positive whole number, not "0"/);
    const stdio = run(['--session-idle-minutes', '5']);
    expect(stdio.status).toBe(2);
    expect(stdio.stderr).toMatch(/go with --http/);
    const mb = run(['--keep-captures-mb', 'lots']);
    expect(mb.status).toBe(2);
    expect(mb.stderr).toMatch(/--keep-captures-mb must be a positive number, not "lots"/);
  }, 60_000);
});

describe('the captures the server keeps are capped in bytes and age', () => {
  let dataDir: string;
  let store: FileAttachmentStore;
  let clock = Date.parse('2026-12-01T00:00:00Z');
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'glance-serve-bounds-'));
    store = new FileAttachmentStore(dataDir, { now: () => new Date(clock) });
  });
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** An attachment of `bytes` with an original of `originalBytes`, made `origin`, at the store's clock. */
  async function put(origin: string, bytes: number, originalBytes: number) {
    const data = randomBytes(bytes);
    const image: PreparedImage = {
      data, mime: 'image/jpeg', width: 100, height: 100, bytes, sha256: createHash('sha256').update(data).digest('hex'), name: 'shot.jpg',
      source: { mime: 'image/png', width: 3840, height: 2160, bytes: originalBytes }, modelInput: null, tokens: null, legibility: { textPx: 14, smallText: false },
    };
    const info = await store.put(image, origin);
    return store.keepOriginal(info.id, Promise.resolve({ data: randomBytes(originalBytes), mime: 'image/png' }));
  }

  it('the oldest captures go past the byte cap, with their originals; the newest and the app\'s own images stay', async () => {
    const app = await put('hotkey', 1000, 200_000);
    const captures = [];
    for (let i = 0; i < 8; i++) {
      clock += 60_000;
      captures.push(await put('glance-mcp:capture_screen', 10_000, 100_000));
    }
    const shelf = new CaptureShelf(store);
    // Room for three captures (110,000 bytes each with its original).
    const trimmed = await shelf.trim({ maxBytes: 350_000, maxAgeMs: 86_400_000 }, clock);
    expect(trimmed).toEqual({ removed: 5, bytes: 330_000 });
    const left = (await store.list()).map((i) => i.id).sort();
    expect(left).toEqual([app.id, ...captures.slice(-3).map((c) => c.id)].sort());
    const originals = (await readdir(store.originalsDirectory)).filter((n) => !n.endsWith('.json'));
    expect(originals).toHaveLength(4);
    expect(await store.original(app)).toBeDefined();
    for (const c of captures.slice(0, 5)) expect(await store.original(c)).toBeUndefined();
  });

  it('captures older than the age go, but the newest one always stays', async () => {
    const shelf = new CaptureShelf(store);
    clock += 3 * 3_600_000;
    const trimmed = await shelf.trim({ maxBytes: 1e9, maxAgeMs: 3_600_000 }, clock);
    expect(trimmed.removed).toBe(2);
    expect((await shelf.list()).length).toBe(1);
    expect((await store.list()).some((i) => i.origin === 'hotkey')).toBe(true);
  });
});
