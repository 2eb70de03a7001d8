// The harness's guard: only a page it served, with this run's token, drives the API. Checked
// with a raw WebSocket client (it can forge headers a browser cannot) and with Chromium
// (a page from another origin, a page without the token), plus a good client's chat turn.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import NodeWebSocket from 'ws';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { inPage, launchChromium, modelShown, openSession, type Session } from './browserHarness.ts';

let server: ModelServer;
let browser: Browser;
let s: Session;

beforeAll(async () => {
  [server, browser] = await Promise.all([createModelServer(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});
afterEach(async () => {
  await s?.close();
  server.reset();
});

type Outcome = { kind: 'http'; status: number } | { kind: 'closed'; code: number; reason: string; answered: boolean };

/** Connects, sends one request at once, and reports how the harness answered. */
function attempt(url: string, headers: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    const ws = new NodeWebSocket(url, { headers });
    let answered = false;
    ws.on('unexpected-response', (_req, res) => {
      resolve({ kind: 'http', status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, channel: 'conversations:list', payload: {} })));
    ws.on('message', () => (answered = true));
    ws.on('close', (code, reason) => resolve({ kind: 'closed', code, reason: reason.toString(), answered }));
    ws.on('error', () => undefined);
  });
}

function client(url: string, pageOrigin: string) {
  const ws = new NodeWebSocket(url, { headers: { Origin: pageOrigin } });
  const pushes: { event: string; payload: unknown }[] = [];
  const pending = new Map<number, (result: unknown) => void>();
  let next = 1;
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as { id?: number; result?: unknown; event?: string; payload?: unknown };
    if (typeof m.id === 'number') pending.get(m.id)?.(m.result);
    else if (m.event) pushes.push({ event: m.event, payload: m.payload });
  });
  return {
    ws,
    pushes,
    opened: new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    }),
    call: (channel: string, payload: unknown) =>
      new Promise<unknown>((resolve) => {
        const id = next++;
        pending.set(id, resolve);
        ws.send(JSON.stringify({ id, channel, payload }));
      }),
  };
}

describe('the harness guard', () => {
  it('refuses a connection without the token, with a wrong token, from a foreign Origin or Host', async () => {
    s = await openSession(browser, { ollamaHost: server.url });
    const { pageOrigin: origin, port, token } = s.harness;
    const api = `ws://127.0.0.1:${port}/api`;
    // Right origin, no or wrong token: refused before the upgrade; plain HTTP says why (the page asks it).
    expect(await attempt(api, { Origin: origin })).toEqual({ kind: 'http', status: 401 });
    expect(await attempt(`${api}?token=${'0'.repeat(64)}`, { Origin: origin })).toEqual({ kind: 'http', status: 401 });
    const why = await fetch(`http://127.0.0.1:${port}/api?token=${'0'.repeat(64)}`);
    expect([why.status, await why.text()]).toEqual([401, 'not the token of this harness run']);
    expect((await fetch(`http://127.0.0.1:${port}/api?token=${token}`)).status).toBe(426);
    // The right token from anywhere else: refused before the upgrade.
    expect(await attempt(`${api}?token=${token}`, { Origin: 'http://evil.example' })).toEqual({ kind: 'http', status: 403 });
    expect(await attempt(`${api}?token=${token}`, { Origin: 'http://127.0.0.1:1' })).toEqual({ kind: 'http', status: 403 });
    expect(await attempt(`${api}?token=${token}`, {})).toEqual({ kind: 'http', status: 403 });
    // DNS rebinding: a page of evil.example resolved to 127.0.0.1 sends its own Host.
    expect(await attempt(`${api}?token=${token}`, { Origin: 'http://evil.example:' + port, Host: `evil.example:${port}` })).toEqual({ kind: 'http', status: 403 });
    // The page itself is not served under a foreign Host either.
    const raw = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/', headers: { Host: `evil.example:${port}` } }, (res) => resolve(res.statusCode ?? 0));
      req.on('error', reject).end();
    });
    expect(raw).toBe(421);
    expect(server.requests).toHaveLength(0);
  });

  it('keeps a page from another origin out, even when it knows the token', async () => {
    s = await openSession(browser, { ollamaHost: server.url });
    let foreign: Server | undefined;
    try {
      foreign = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'));
      await new Promise<void>((resolve) => foreign!.listen(0, '127.0.0.1', resolve));
      const page = await s.open(`http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`);
      const result = await inPage<string>(
        page,
        `(url) => new Promise((resolve) => {
          const ws = new WebSocket(url);
          ws.onopen = () => ws.send(JSON.stringify({ id: 1, channel: 'conversations:list', payload: {} }));
          ws.onmessage = () => resolve('answered');
          ws.onclose = (e) => resolve('closed ' + e.code);
        })`,
        `ws://127.0.0.1:${s.harness.port}/api?token=${s.harness.token}`,
      );
      expect(result).toBe('closed 1006');
    } finally {
      await new Promise((resolve) => foreign?.close(resolve));
    }
  });

  it('tells a page without the token that it was refused', async () => {
    s = await openSession(browser, { ollamaHost: server.url });
    // A new tab with the bare address: no token in its fragment or its sessionStorage.
    const page = await (await browser.newContext()).newPage();
    try {
      await page.goto(`${s.harness.pageOrigin}/`);
      const alert = page.getByRole('alert').filter({ hasText: 'Glance refused this page' });
      await alert.waitFor();
      expect(await alert.textContent()).toContain('npm run harness');
    } finally {
      await page.context().close();
    }
  });

  it('takes the token out of the address bar and keeps it for reloads', async () => {
    s = await openSession(browser, { ollamaHost: server.url });
    await modelShown(s.page, 'llava-seer');
    expect(s.page.url()).not.toContain(s.harness.token);
    await s.page.reload();
    await modelShown(s.page, 'llava-seer');
    // The served page forbids framing, inline script and remote content.
    const res = await fetch(`${s.harness.pageOrigin}/`);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'(;|$)/);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect((await fetch(`${s.harness.pageOrigin}/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${s.harness.pageOrigin}/`, { method: 'POST' })).status).toBe(405);
  });

  it('lets a good client complete a chat turn over the same API, and checks every payload', async () => {
    s = await openSession(browser, { ollamaHost: server.url });
    const c = client(`ws://127.0.0.1:${s.harness.port}/api?token=${s.harness.token}`, s.harness.pageOrigin);
    await c.opened;
    try {
      expect(await c.call('chat:send', { turnId: 't1', text: 42 })).toMatchObject({ ok: false, code: 'bad-request', message: expect.stringMatching(/^chat:send: text: /) });
      expect(await c.call('nope:nothing', {})).toMatchObject({ ok: false, code: 'bad-request', message: 'unknown channel "nope:nothing"' });
      const sent = (await c.call('chat:send', { turnId: 't2', text: 'Hello over the wire', model: { provider: 'ollama', name: 'llava-seer' } })) as { ok: boolean; value: { conversationId: string } };
      expect(sent.ok).toBe(true);
      await expect.poll(() => c.pushes.some((p) => (p.payload as { event?: { type?: string } }).event?.type === 'done'), { timeout: 15_000 }).toBe(true);
      const events = c.pushes.filter((p) => p.event === 'chat:event').map((p) => p.payload as { turnId: string; conversationId: string; event: { type: string; delta?: string; text?: string } });
      expect(events.every((e) => e.turnId === 't2' && e.conversationId === sent.value.conversationId)).toBe(true);
      expect(events.at(-1)!.event).toMatchObject({ type: 'done', text: expect.stringContaining('You said: "Hello over the wire"') });
      expect(events.filter((e) => e.event.type === 'text').map((e) => e.event.delta).join('')).toBe(events.at(-1)!.event.text);
    } finally {
      c.ws.close();
    }
  });
});
