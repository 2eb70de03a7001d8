// npm run bench:capture-memory — resident memory over a session of captures (issue 28), written to
// docs/benchmarks-perf.md. A 4K Xvfb display shows the editor page in Chromium; a child process
// (bench/lib/captureMemoryWorker.ts) captures it and passes it through the gate (gemma3's rule)
// every --gap ms, --count times, and reports VmRSS at checkpoints. Each variant is a child started
// with its own environment, the way the launchers start Glance: as it is (glibc's defaults), and
// with the settings bin/glance.js and the harness now start with (main/capture/captureMalloc.ts).
// The variants alternate, --runs times each.
// With --serve (issue 43): the real `glance mcp serve` instead, started as a client starts it
// (bin/glance.js, over stdio, the SDK's client), asked for capture_screen --count times (default 100)
// while the page changes before each capture (every capture a new 4K original, so the capture store's
// byte cap is reached and trimmed); the serving process's VmRSS at checkpoints.
//   node bench/captureMemory.bench.ts [--runs 2] [--count 70] [--gap 500] [--serve [--redact always|never]] [--no-write]
import { execFile } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { CAPTURE_MALLOC } from '../main/capture/captureMalloc.ts';
import { editorHtml, showPage } from '../test/fixtures/screenPage.ts';
import { startXvfb } from '../test/fixtures/xvfb.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '2' }, count: { type: 'string' }, gap: { type: 'string', default: '500' }, serve: { type: 'boolean', default: false }, redact: { type: 'string', default: 'always' }, 'no-write': { type: 'boolean', default: false } } });
const RUNS = Math.max(1, Number(args.runs) || 2);
const COUNT = Math.max(5, Number(args.count) || (args.serve ? 100 : 70));
const W = 3840;
const H = 2160;
const run = promisify(execFile);

const x = await startXvfb({ width: W, height: H });
const screen = await showPage(x.env, editorHtml({ width: W, height: H, fontPx: 14 }).html, { monitor: x.monitors[0]! });
const started = new Date();
const loadStart = loadavg();
type Report = { after: Record<string, number>; malloc: Record<string, string> };
const variants = [
  { name: "glibc's defaults", env: {} as Record<string, string> },
  { name: Object.entries(CAPTURE_MALLOC).map(([k, v]) => `${k}=${v}`).join(' '), env: CAPTURE_MALLOC as Record<string, string> },
];
const results = new Map<string, Report[]>();
if (args.serve) {
  try {
    await serveBench();
  } finally {
    await screen.close();
    await x.stop();
  }
  process.exit(0);
}
try {
  for (let r = 0; r < RUNS; r++) {
    for (const v of r % 2 ? [...variants].reverse() : variants) {
      const env: NodeJS.ProcessEnv = { ...process.env, ...x.env, XDG_SESSION_TYPE: 'x11', ...v.env };
      delete env.WAYLAND_DISPLAY;
      for (const k of Object.keys(CAPTURE_MALLOC)) if (!(k in v.env)) delete env[k];
      const { stdout } = await run(process.execPath, [join(import.meta.dirname, 'lib', 'captureMemoryWorker.ts'), String(COUNT), String(args.gap)], { env, maxBuffer: 1 << 20 });
      const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as Report;
      (results.get(v.name) ?? results.set(v.name, []).get(v.name)!).push(report);
      console.log(v.name, JSON.stringify(report.after));
    }
  }
} finally {
  await screen.close();
  await x.stop();
}
const points = Object.keys(results.values().next().value![0]!.after).map(Number).sort((a, b) => a - b);
const rows = variants.map((v) => {
  const list = results.get(v.name)!;
  const at = (n: number) => median(list.map((rep) => rep.after[n]!));
  return [`\`${v.name}\``, ...points.map((n) => at(n).toFixed(0)), `**${(at(COUNT) / at(5)).toFixed(2)}×**`];
});
const section = `## Resident memory over a session of captures (\`npm run bench:capture-memory\`)

Measured ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores, Node ${process.versions.node}; load average ${loadStart.map((l) => l.toFixed(2)).join(' / ')} at the start (memory does not depend on load). Xvfb ${W}×${H} showing the editor page in Chromium; one child process per run captures the display (node-screenshots) and gates it for gemma3 (Ollama) ${COUNT} times, ${args.gap} ms apart; VmRSS in MB after the nth capture (0: before the first), medians of ${RUNS} runs per variant, the variants alternating.

${markdownTable(['started with', ...points.map(String), `after ${COUNT} / after 5`], rows)}
`;
console.log(section);
if (!args['no-write']) await writeSection(join(import.meta.dirname, '..', 'docs', 'benchmarks-perf.md'), 'bench:capture-memory', section);

/** capture_screen COUNT times from the real `glance mcp serve` (stdio, SDK client); the server's VmRSS at checkpoints. */
async function serveBench(): Promise<void> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { mkdtemp, readFile, readdir, rm, stat } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const checkpoints = [0, 1, 5, 10, 20, 35, 50, 70, COUNT].filter((n, i, a) => n <= COUNT && a.indexOf(n) === i);
  const runs: { after: Record<number, number>; storeMb: number; seconds: number }[] = [];
  for (let r = 0; r < RUNS; r++) {
    const dataDir = await mkdtemp(join(tmpdir(), 'glance-bench-serve-mem-'));
    const env: Record<string, string> = { ...(process.env as Record<string, string>), ...(x.env as Record<string, string>), XDG_SESSION_TYPE: 'x11' };
    delete env.WAYLAND_DISPLAY;
    const transport = new StdioClientTransport({ command: process.execPath, args: [join(import.meta.dirname, '..', 'bin', 'glance.js'), 'mcp', 'serve', '--data-dir', dataDir, '--redact', String(args.redact)], env, stderr: 'ignore' });
    const client = new Client({ name: 'bench-capture-memory', version: '1' });
    await client.connect(transport);
    const launcher = transport.pid!;
    const serving = async (pid: number): Promise<number> => {
      const kids = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).trim().split(/\s+/).filter(Boolean);
      return kids[0] ? serving(Number(kids[0])) : pid;
    };
    const pid = await serving(launcher);
    const rss = async () => Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
    const after: Record<number, number> = { 0: await rss() };
    const t0 = Date.now();
    try {
      for (let i = 1; i <= COUNT; i++) {
        // A changed screen each time: a new original, as over a working session.
        await screen.page.evaluate(`document.body.style.filter = 'hue-rotate(${(i * 37) % 360}deg)'; new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`);
        const result = await client.callTool({ name: 'capture_screen', arguments: {} }, undefined, { timeout: 300_000 });
        if (result.isError) throw new Error(JSON.stringify(result.content).slice(0, 300));
        if (checkpoints.includes(i)) {
          after[i] = await rss();
          console.log(`capture ${i}: ${after[i]!.toFixed(0)} MB`);
        }
        await new Promise((res) => setTimeout(res, Number(args.gap)));
      }
    } finally {
      await client.close();
    }
    let bytes = 0;
    for (const sub of ['attachments', join('attachments', 'originals')]) {
      for (const name of await readdir(join(dataDir, sub)).catch(() => [] as string[])) bytes += (await stat(join(dataDir, sub, name)).catch(() => ({ size: 0, isFile: () => false }))).isFile() ? (await stat(join(dataDir, sub, name))).size : 0;
    }
    runs.push({ after, storeMb: bytes / 1048576, seconds: (Date.now() - t0) / 1000 });
    await rm(dataDir, { recursive: true, force: true });
  }
  const at = (n: number) => median(runs.map((run) => run.after[n]!));
  const row = [`\`bin/glance.js mcp serve --redact ${args.redact}\` (stdio)`, ...checkpoints.map((n) => at(n).toFixed(0)), `**${(at(COUNT) / at(5)).toFixed(2)}×**`, median(runs.map((run) => run.storeMb)).toFixed(0)];
  const section = `## Resident memory of \`glance mcp serve\` over ${COUNT} captures (\`npm run bench:capture-memory -- --serve\`)

Measured ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores, Node ${process.versions.node}; load average ${loadStart.map((l) => l.toFixed(2)).join(' / ')} at the start. Xvfb ${W}×${H} showing the editor page in Chromium, its colours turned before each capture (a new 4K original every time). The SDK's client starts \`bin/glance.js mcp serve\` over stdio (the launcher's malloc settings, \`--redact ${args.redact}\`, the capture store's default cap of 1 GB) and calls capture_screen ${COUNT} times, ${args.gap} ms apart; the serving process's VmRSS in MB after the nth capture (0: before the first), medians of ${RUNS} run${RUNS === 1 ? '' : 's'}; the store's size on disk at the end. ${median(runs.map((run) => run.seconds)).toFixed(0)} s a run.

${markdownTable(['process', ...checkpoints.map(String), `after ${COUNT} / after 5`, 'store MB at the end'], [row])}
`;
  console.log(section);
  if (!args['no-write']) await writeSection(join(import.meta.dirname, '..', 'docs', 'benchmarks-perf.md'), 'bench:capture-memory-serve', section);
}
