// No installed model can see: the chat offers to pull one, with progress from Ollama's pull
// stream, and the pull can be cancelled. The peer is a small loopback server speaking the
// Ollama endpoints involved (/api/tags, /api/show, /api/pull as NDJSON), whose pull streams
// known progress and, once finished, lists the pulled model as one that sees.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openSession, type Session } from './browserHarness.ts';

const TOTAL = 3_338_801_718;
const STEPS = 8;

type PullPeer = { url: string; pulled: Set<string>; pulls: { name: string; completed: boolean; aborted: boolean }[]; stepMs: number; close(): Promise<void> };

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

async function startPullPeer(): Promise<PullPeer> {
  const peer: Omit<PullPeer, 'url' | 'close'> = { pulled: new Set(), pulls: [], stepMs: 150 };
  const models = () => ['llama3:latest', ...peer.pulled];
  const json = (res: ServerResponse, status: number, value: unknown) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/api/tags') {
        return json(res, 200, { models: models().map((name) => ({ name, model: name, modified_at: '2026-01-01T00:00:00Z', size: 1, digest: 'd', details: { family: 'x', parameter_size: '4B', quantization_level: 'Q4_K_M' } })) });
      }
      if (path === '/api/show') {
        const { model, name } = await body(req);
        const id = String(model ?? name);
        if (!models().includes(id)) return json(res, 404, { error: `model "${id}" not found` });
        return json(res, 200, { capabilities: peer.pulled.has(id) ? ['completion', 'vision'] : ['completion'], details: {}, model_info: {} });
      }
      if (path === '/api/pull') {
        const { model, name } = await body(req);
        const record = { name: String(model ?? name), completed: false, aborted: false };
        peer.pulls.push(record);
        res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
        res.on('close', () => (record.aborted = !record.completed));
        const line = (v: unknown) => res.write(`${JSON.stringify(v)}\n`);
        line({ status: 'pulling manifest' });
        for (let i = 1; i <= STEPS && !res.destroyed; i++) {
          await new Promise((r) => setTimeout(r, peer.stepMs));
          line({ status: 'pulling aeda25e63ebd', digest: 'sha256:aeda25e63ebd', total: TOTAL, completed: Math.round((TOTAL * i) / STEPS) });
        }
        if (res.destroyed) return;
        line({ status: 'verifying sha256 digest' });
        line({ status: 'success' });
        peer.pulled.add(record.name.includes(':') ? record.name : `${record.name}:latest`);
        record.completed = true;
        res.end();
        return;
      }
      json(res, 404, { error: 'not found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(peer, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as PullPeer;
}

let peer: PullPeer;
let browser: Browser;
let s: Session | undefined;

beforeAll(async () => {
  [peer, browser] = await Promise.all([startPullPeer(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await peer?.close();
});
afterEach(async () => {
  await s?.close();
  s = undefined;
  peer.pulled.clear();
  peer.pulls.length = 0;
});

describe('getting a vision model', () => {
  it('offers gemma3:4b when no installed model sees, shows the pull’s progress, then selects it', async () => {
    s = await openSession(browser, { ollamaHost: peer.url });
    const { page, shot } = s;
    const offer = page.getByRole('region', { name: 'Get a vision model' });
    await offer.getByText('None of your Ollama models can see images').waitFor();
    expect(await page.getByRole('note', { name: 'Vision' }).textContent()).toMatch(/llama3:latest can't see images\. To use images, pull a vision model or set a vision helper/);
    await offer.getByRole('button', { name: 'Pull gemma3:4b' }).click();
    const bar = offer.getByRole('progressbar', { name: 'Pulling gemma3:4b' });
    await bar.waitFor();
    await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(Number(await bar.getAttribute('max'))).toBe(TOTAL);
    expect(await offer.textContent()).toMatch(/pulling aeda25e63ebd — \d+%/);
    await shot('pull-progress');
    await offer.getByText('gemma3:4b is ready.').waitFor();
    await page.getByRole('combobox', { name: 'Model' }).filter({ hasText: 'gemma3:4b' }).filter({ hasText: 'vision' }).waitFor();
    expect(peer.pulls).toEqual([{ name: 'gemma3:4b', completed: true, aborted: false }]);
  });

  it('cancels a pull', async () => {
    peer.stepMs = 2000;
    try {
      s = await openSession(browser, { ollamaHost: peer.url });
      const offer = s.page.getByRole('region', { name: 'Get a vision model' });
      await offer.getByRole('button', { name: 'Pull gemma3:4b' }).click();
      await offer.getByRole('progressbar', { name: 'Pulling gemma3:4b' }).waitFor();
      await offer.getByRole('button', { name: 'Cancel pull' }).click();
      await offer.getByText('Stopped pulling gemma3:4b.').waitFor();
      await expect.poll(() => peer.pulls[0]?.aborted, { timeout: 10_000 }).toBe(true);
      // The offer is back, to try again.
      await offer.getByRole('button', { name: 'Pull gemma3:4b' }).waitFor();
      expect(peer.pulled.size).toBe(0);
    } finally {
      peer.stepMs = 150;
    }
  });
});
