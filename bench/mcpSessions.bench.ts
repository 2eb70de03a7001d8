// npm run bench:mcp-sessions — what clients that initialize and never DELETE cost `glance mcp serve --http`
// (issue 43), written to docs/benchmarks-mcp.md. The real command is started as a client starts it
// (bin/glance.js, so with the launcher's malloc settings), `initialize` requests are sent without
// DELETE, and the server's VmRSS is read from /proc before and at checkpoints (1,000 … --count), and 3 s
// after the last. Two variants alternate: the defaults (sessions capped at 32, closed when idle), and
// the cap and idle time lifted out of reach — the server as it was before they existed.
//   node bench/mcpSessions.bench.ts [--runs 2] [--count 5000] [--no-write]
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { markdownTable, writeSection } from './lib/report.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '2' }, count: { type: 'string', default: '5000' }, 'no-write': { type: 'boolean', default: false } } });
const RUNS = Math.max(1, Number(args.runs) || 2);
const COUNT = Math.max(10, Number(args.count) || 1000);
const BIN = join(import.meta.dirname, '..', 'bin', 'glance.js');
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'leaky', version: '1' } } };

const rssMb = async (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const CHECKPOINTS = [...new Set([1000, Math.round(COUNT / 2), COUNT])].filter((n) => n <= COUNT).sort((a, b) => a - b);
type Run = { before: number; at: Record<number, number>; settled: number };

async function once(extra: string[]): Promise<Run> {
  const dataDir = await mkdtemp(join(tmpdir(), 'glance-bench-sessions-'));
  const child = spawn(process.execPath, [BIN, 'mcp', 'serve', '--http', '--port', '0', '--data-dir', dataDir, ...extra], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, DISPLAY: ':404' } });
  try {
    let err = '';
    const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
      child.stderr.on('data', (c: Buffer) => {
        err += c.toString();
        const url = /MCP server at (\S+)/.exec(err)?.[1];
        const token = /bearer token \(shown once, kept in [^)]+\): (\S+)/.exec(err)?.[1];
        if (url && token) resolve({ url, token });
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` };
    // The launcher may start the server again with its malloc settings: the server is the newest glance process under it.
    const pid = await serverPid(child.pid!);
    await new Promise((r) => setTimeout(r, 1000));
    const before = await rssMb(pid);
    const at: Record<number, number> = {};
    for (let i = 1; i <= COUNT; i++) {
      const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(INIT) });
      await res.text();
      if (res.status !== 200) throw new Error(`initialize ${i}: ${res.status}`);
      if (CHECKPOINTS.includes(i)) at[i] = await rssMb(pid);
    }
    await new Promise((r) => setTimeout(r, 3000));
    return { before, at, settled: await rssMb(pid) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The process that serves: the launcher's child when it relaunched itself, else the launcher. */
async function serverPid(pid: number): Promise<number> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  const first = children.trim().split(/\s+/).filter(Boolean)[0];
  return first ? serverPid(Number(first)) : pid;
}

const variants = [
  { name: 'defaults (32 sessions, closed after 30 min idle)', extra: [] as string[] },
  { name: 'no cap, no idle expiry (as before)', extra: ['--max-sessions', '1000000', '--session-idle-minutes', '1000000'] },
];
const started = new Date();
const load = loadavg();
const results = new Map<string, Run[]>();
for (let r = 0; r < RUNS; r++) {
  for (const v of r % 2 ? [...variants].reverse() : variants) {
    const got = await once(v.extra);
    (results.get(v.name) ?? results.set(v.name, []).get(v.name)!).push(got);
    console.log(v.name, JSON.stringify(got));
  }
}
const rows = variants.map((v) => {
  const list = results.get(v.name)!;
  const before = median(list.map((x) => x.before));
  const at = (n: number) => median(list.map((x) => x.at[n]!));
  return [v.name, before.toFixed(0), ...CHECKPOINTS.map((n) => at(n).toFixed(0)), median(list.map((x) => x.settled)).toFixed(0), `+${(at(COUNT) - before).toFixed(0)}`];
});
const section = `## Sessions a client never closes (\`npm run bench:mcp-sessions\`)

Measured ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores, Node ${process.versions.node}, load average ${load.map((l) => l.toFixed(2)).join(' / ')} at the start. \`bin/glance.js mcp serve --http\` on loopback; ${COUNT} \`initialize\` requests one after another, none followed by DELETE; the serving process's VmRSS in MB before, after the nth, and 3 s after the last; medians of ${RUNS} runs per variant, alternating.

${markdownTable(['sessions', 'before', ...CHECKPOINTS.map((n) => `after ${n}`), '3 s later', 'growth'], rows)}
`;
console.log(section);
if (!args['no-write']) await writeSection(join(import.meta.dirname, '..', 'docs', 'benchmarks-mcp.md'), 'bench:mcp-sessions', section);
