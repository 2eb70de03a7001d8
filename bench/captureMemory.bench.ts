// npm run bench:capture-memory — resident memory over a session of captures (issue 28), written to
// docs/benchmarks-perf.md. A 4K Xvfb display shows the editor page in Chromium; a child process
// (bench/lib/captureMemoryWorker.ts) captures it and passes it through the gate (gemma3's rule)
// every --gap ms, --count times, and reports VmRSS at checkpoints. Each variant is a child started
// with its own environment, the way the launchers start Glance: as it is (glibc's defaults), and
// with the settings bin/glance.js and the harness now start with (main/capture/captureMalloc.ts).
// The variants alternate, --runs times each.
//   node bench/captureMemory.bench.ts [--runs 2] [--count 70] [--gap 500] [--no-write]
import { execFile } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { CAPTURE_MALLOC } from '../main/capture/captureMalloc.ts';
import { editorHtml, showPage } from '../test/fixtures/screenPage.ts';
import { startXvfb } from '../test/fixtures/xvfb.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '2' }, count: { type: 'string', default: '70' }, gap: { type: 'string', default: '500' }, 'no-write': { type: 'boolean', default: false } } });
const RUNS = Math.max(1, Number(args.runs) || 2);
const COUNT = Math.max(5, Number(args.count) || 70);
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
