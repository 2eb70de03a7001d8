// npm run bench:memory — peak RSS of one ImageIntake.prepare per input, each in a child process
// of its own, against the bound: file size + 2 × the decoded output + Node's base (the same
// process before it reads the file: Node, the modules, libvips loaded). Two readings of "the
// decoded output": the fitted pixels that are sent (strict), or the decoded input bitmap (width ×
// height × channels × bytes per sample of the file as decoded, loose). Peaks are each process's
// own (VmHWM: bench/lib/peakRss.ts), not inherited from this one.
//   node bench/memory.bench.ts [--baseline DIR] [--repeat N] [--no-write]
// --baseline DIR: a checkout of an earlier commit whose prepare is measured beside this one.
// Writes its figures into docs/benchmarks-perf.md (between the bench:memory markers).
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import sharp from 'sharp';
import { makeHeavyInputs } from './lib/heavyInputs.ts';
import type { MemoryReport } from './lib/memoryWorker.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { median } from './lib/stats.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: { baseline: { type: 'string' }, repeat: { type: 'string', default: '3' }, 'no-write': { type: 'boolean', default: false } },
});
const REPEAT = Math.max(1, Number(args.repeat) || 3);
const MB = 1024 * 1024;

const work = await mkdtemp(join(tmpdir(), 'glance-bench-memory-'));
try {
  const started = new Date();
  const loadStart = loadavg();
  log('generating inputs…');
  const inputs = await makeHeavyInputs(work);
  const roots = [{ key: 'new', dir: root }, { key: 'floor', dir: root, floor: true }, ...(args.baseline ? [{ key: 'base', dir: resolve(args.baseline) }] : [])];
  const lines: string[][] = [];
  let over = 0;
  let overLoose = 0;
  for (const input of inputs) {
    const meta = await sharp(input.path).metadata();
    const bitmap = meta.width * meta.height * meta.channels * (meta.depth === 'ushort' ? 2 : meta.depth === 'uchar' ? 1 : 4);
    for (const profile of ['ollama', 'openai'] as const) {
      const reports = new Map<string, MemoryReport[]>();
      for (let i = 0; i < REPEAT; i++) {
        for (const r of i % 2 ? [...roots].reverse() : roots) {
          const { stdout } = await run(process.execPath, [join(root, 'bench/lib/memoryWorker.ts'), r.dir, input.path, profile, ...('floor' in r ? ['--floor'] : [])], { timeout: 300_000, maxBuffer: 1024 * 1024 });
          const list = reports.get(r.key) ?? [];
          list.push(JSON.parse(stdout.trim().split('\n').at(-1)!) as MemoryReport);
          reports.set(r.key, list);
        }
      }
      const now = reports.get('new')!;
      const first = now[0]!;
      const decoded = first.result.ok ? first.result.width * first.result.height * first.result.channels : 0;
      const baseMb = median(now.map((r) => r.baseMb));
      const peakMb = median(now.map((r) => r.peakMb));
      const boundMb = first.fileBytes / MB + (2 * decoded) / MB + baseMb;
      const looseMb = first.fileBytes / MB + (2 * bitmap) / MB + baseMb;
      if (peakMb > boundMb) over++;
      if (peakMb > looseMb) overLoose++;
      const within = (bound: number) => (peakMb <= bound ? 'yes' : `**no** (+${(peakMb - bound).toFixed(0)})`);
      const basePeak = reports.get('base');
      lines.push([
        input.label,
        (first.fileBytes / MB).toFixed(1),
        profile,
        first.result.ok ? `${first.result.mime.replace('image/', '')} ${first.result.width}×${first.result.height}×${first.result.channels}` : first.result.code,
        baseMb.toFixed(0),
        `**${peakMb.toFixed(0)}**`,
        boundMb.toFixed(0),
        within(boundMb),
        `${meta.width}×${meta.height}×${meta.channels}${meta.depth === 'ushort' ? '×2 B' : ''}`,
        looseMb.toFixed(0),
        within(looseMb),
        median(reports.get('floor')!.map((r) => r.peakMb)).toFixed(0),
        ...(basePeak ? [median(basePeak.map((r) => r.peakMb)).toFixed(0)] : []),
      ]);
      log(`${input.key} / ${profile}: peak ${peakMb.toFixed(0)} MB, bound ${boundMb.toFixed(0)} MB (loose ${looseMb.toFixed(0)} MB)${basePeak ? `, baseline ${median(basePeak.map((r) => r.peakMb)).toFixed(0)} MB` : ''}`);
    }
  }
  const loadEnd = loadavg();
  const header = [
    'input',
    'file MB',
    'profile',
    'sent (w×h×channels)',
    'base RSS MB',
    'peak RSS MB',
    'bound MB, decoded = fitted output',
    'within',
    'decoded input bitmap',
    'bound MB, decoded = input bitmap',
    'within',
    'bare sharp floor peak MB', ...(args.baseline ? ['baseline peak MB'] : [])];
  const table = markdownTable(header, lines);
  const verdict = (n: number, reading: string) => (n === 0 ? `every input within the bound (${reading})` : `${n} of ${lines.length} over the bound (${reading})`);
  const summary = `${verdict(over, 'decoded output = the fitted pixels sent')}; ${verdict(overLoose, 'decoded output = the decoded input bitmap')}.`;
  process.stdout.write(`\n${table}\n\n${summary}\n`);
  const section = [
    '## Peak memory per input (`npm run bench:memory`)',
    '',
    `Measured ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores, Node ${process.versions.node}, sharp ${sharp.versions.sharp} / libvips ${sharp.versions.vips}; load average ${loadStart.map((l) => l.toFixed(2)).join(' / ')} at the start, ${loadEnd.map((l) => l.toFixed(2)).join(' / ')} at the end (memory does not depend on load). Each row: one \`ImageIntake.admit(path, { profile }, 'check')\` in a fresh child process, median of ${REPEAT}; peak RSS is the process's own high-water mark (VmHWM). **base**: that process's peak RSS before it reads the file (Node, the modules, libvips loaded). **bound**: file size + 2 × the decoded output + base, in two readings: *decoded output = fitted output* (width × height × channels of the pixels sent) and *decoded output = input bitmap* (width × height × channels × bytes per sample of the file as decoded). **bare sharp floor**: the same file through \`sharp(file).resize(w, h).jpeg({ quality: 80 })\` alone, in the same kind of process: what libvips itself needs for that decode.${args.baseline ? ' **baseline**: the same in the checkout before this work.' : ''} Inputs are generated in code (bench/lib/heavyInputs.ts).`,
    '',
    table,
    '',
    `${summary.charAt(0).toUpperCase()}${summary.slice(1)}`,
    '',
  ].join('\n');
  if (!args['no-write']) await writeSection(join(root, 'docs', 'benchmarks-perf.md'), 'bench:memory', section);
} finally {
  await rm(work, { recursive: true, force: true });
}

function log(message: string): void {
  process.stderr.write(`[bench:memory] ${message}\n`);
}
