// npm run bench:mcp-start — what an MCP server that never answers `initialize`, or one whose
// config asks an unanswered `${input:…}` question, costs a chat, with real processes:
//   - CLI: `glance ask` with {fx} and with {fx, silent}: time from launch to the model request, and to exit;
//   - harness: a chat:send 2 s after launch with {fx, silent}: time from the send to the model request;
//   - harness: SIGTERM while a question waits: time from the signal to the process's exit.
//   node bench/mcpStart.bench.ts [--against DIR] [--runs N] [--harness-turn]
// DIR is another checkout (with node_modules and a built renderer) to measure the same way.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createModelServer, type ModelServer } from '../test/fixtures/modelServer.ts';
import { silentEntry } from '../test/fixtures/mcpStartFaults.ts';
import { fixtureEntry } from '../test/support/mcpSetup.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { against: { type: 'string' }, runs: { type: 'string', default: '3' }, 'harness-turn': { type: 'boolean', default: false } } });
const ROOT = resolve(args.against ?? join(import.meta.dirname, '..'));
const RUNS = Math.max(1, Number(args.runs) || 3);
const WAIT_CAP_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(test: () => boolean, capMs = WAIT_CAP_MS): Promise<number> {
  const t0 = performance.now();
  while (!test()) {
    if (performance.now() - t0 > capMs) return Number.POSITIVE_INFINITY;
    await sleep(5);
  }
  return performance.now() - t0;
}
const exited = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));

async function cliRun(model: ModelServer, dir: string, servers: Record<string, unknown>): Promise<{ request: number; exit: number }> {
  const config = join(dir, `cli-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(config, JSON.stringify({ mcpServers: servers }));
  model.reset();
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'main/cli/main.ts'), 'ask', 'hello', '--model', 'llava-seer', '--mcp-config', config, '--data-dir', join(dir, 'cli-data')], {
    env: { ...process.env, OLLAMA_HOST: model.url },
    stdio: 'ignore',
  });
  const request = await until(() => model.requests.length > 0);
  await exited(child);
  return { request, exit: performance.now() - t0 };
}

type Harness = { child: ChildProcess; send(channel: string, payload: unknown): void; frames: { event?: string; payload?: { kind?: string } }[] };

async function harness(model: ModelServer, dir: string, servers: Record<string, unknown>): Promise<Harness> {
  const config = join(dir, `h-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(config, JSON.stringify({ mcpServers: servers }));
  const child = spawn(process.execPath, [join(ROOT, 'main/harness/main.ts'), '--no-capture', '--data-dir', join(dir, `h-data-${Math.random().toString(36).slice(2)}`), '--ollama-host', model.url, '--mcp-config', config], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await until(() => /chat: (http:\/\/127\.0\.0\.1:\d+)\/#token=([0-9a-f]+)/.test(out));
  const [, origin, token] = /chat: (http:\/\/127\.0\.0\.1:\d+)\/#token=([0-9a-f]+)/.exec(out)!;
  // Node's WebSocket (undici) takes headers: the harness checks the page's Origin.
  const ws = new WebSocket(`${origin!.replace('http', 'ws')}/api?token=${token}`, { headers: { Origin: origin! } } as unknown as string[]);
  const frames: Harness['frames'] = [];
  ws.onmessage = (m) => frames.push(JSON.parse(String(m.data)) as Harness['frames'][number]);
  await new Promise((r, j) => ((ws.onopen = r), (ws.onerror = j)));
  let id = 0;
  return { child, frames, send: (channel, payload) => ws.send(JSON.stringify({ id: `b${id++}`, channel, payload })) };
}

async function harnessTurn(model: ModelServer, dir: string): Promise<number> {
  const h = await harness(model, dir, { fx: fixtureEntry(), silent: silentEntry() });
  await sleep(2000);
  model.reset();
  h.send('chat:send', { turnId: `t${Date.now()}`, text: 'hello', attachmentIds: [], model: { provider: 'ollama', name: 'llava-seer' } });
  const ms = await until(() => model.requests.length > 0);
  if (!Number.isFinite(ms)) console.log('harness frames:', JSON.stringify(h.frames).slice(0, 1500));
  h.child.kill('SIGKILL');
  await exited(h.child);
  return ms;
}

async function harnessShutdown(model: ModelServer, dir: string): Promise<number> {
  const h = await harness(model, dir, { asker: { ...fixtureEntry(), env: { TOKEN: '${input:bench-token}' } } });
  h.send('mcp:status', {});
  await until(() => h.frames.some((f) => f.event === 'mcp:question'));
  const t0 = performance.now();
  h.child.kill('SIGTERM');
  const done = await Promise.race([exited(h.child).then(() => performance.now() - t0), sleep(WAIT_CAP_MS).then(() => Number.POSITIVE_INFINITY)]);
  if (h.child.exitCode === null) h.child.kill('SIGKILL');
  return done;
}

const fmt = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : `> ${WAIT_CAP_MS / 1000} s`);
const dir = await mkdtemp(join(tmpdir(), 'glance-bench-mcpstart-'));
const model = await createModelServer();
try {
  console.log(`checkout: ${ROOT}; runs: ${RUNS}; load before: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const rows: [string, number[]][] = [];
  const cliFx: number[] = [], cliFxExit: number[] = [], cliSilent: number[] = [], cliSilentExit: number[] = [], turn: number[] = [], stop: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const a = await cliRun(model, dir, { fx: fixtureEntry() });
    cliFx.push(a.request);
    cliFxExit.push(a.exit);
    const b = await cliRun(model, dir, { fx: fixtureEntry(), silent: silentEntry() });
    cliSilent.push(b.request);
    cliSilentExit.push(b.exit);
    if (args['harness-turn']) turn.push(await harnessTurn(model, dir));
    stop.push(await harnessShutdown(model, dir));
  }
  rows.push(['CLI {fx}: launch → model request', cliFx], ['CLI {fx}: launch → exit', cliFxExit], ['CLI {fx, silent}: launch → model request', cliSilent], ['CLI {fx, silent}: launch → exit', cliSilentExit]);
  if (turn.length) rows.push(['harness {fx, silent}: chat:send 2 s after launch → model request', turn]);
  rows.push(['harness: SIGTERM with a pending ${input:…} question → exit', stop]);
  for (const [label, values] of rows) console.log(`${label}: median ${fmt(median(values))} (${values.map(fmt).join(', ')})`);
  console.log(`load after: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  await model.close();
  await rm(dir, { recursive: true, force: true });
}
