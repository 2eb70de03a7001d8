// npm run bench:redact-dense — detection (the rules, no OCR) over a page dense with labelled values,
// as anyone can write one (a web page, a document an agent opens), written to docs/benchmarks-redact.md.
//   node bench/redactDense.bench.ts [--runs 3] [--no-write] [--label TEXT]
// Each page is a grid of OCR words, 50 a line, in lines of 25, 50 and 100 (1250, 2500 and 5000
// words): repeated pairs such as "PIN 4821" or "Secret: <token>", each pair a finding, or words that
// name secrets with no value. What matters is how the time grows with the words: twice the words
// should cost about twice the time, not four times (one finding's work must not walk the page).
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { detectRedactions } from '../main/privacy/detect.ts';
import type { ReadWord } from '../main/privacy/locate.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, 'no-write': { type: 'boolean', default: false }, label: { type: 'string', default: 'now' } } });
const RUNS = Math.max(1, Number(args.runs) || 3);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const PAGES: ReadonlyArray<[string, readonly string[]]> = [
  ['PIN 4821 pairs', ['PIN', '4821']],
  ['Secret: token pairs', ['Secret:', 'Xk9fQ2mZ7pL4wR8tYu']],
  ['Password token pairs', ['Password', 'Xk9fQ2mZ7pL4']],
  ['API Key, no value', ['API', 'Key']],
];
const LINES = [25, 50, 100];

function page(texts: readonly string[], lines: number): ReadWord[] {
  const out: ReadWord[] = [];
  for (let r = 0; r < lines; r++) for (let c = 0; c < 50; c++) out.push({ text: texts[(r * 50 + c) % texts.length] as string, line: r, x: 10 + c * 75, y: 10 + r * 20, width: 60, height: 14 });
  return out;
}

const rows: string[][] = [];
const load = loadavg()[0] ?? 0;
for (const [name, texts] of PAGES) {
  const ms: number[] = [];
  let found = 0;
  for (const lines of LINES) {
    const words = page(texts, lines);
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t = performance.now();
      found = (await detectRedactions(words, { width: 3840, height: 2160 })).regions.length;
      times.push(performance.now() - t);
    }
    ms.push(median(times));
  }
  const [a, b, c] = ms as [number, number, number];
  rows.push([name, `${found}`, ...ms.map((m) => `${Math.round(m)} ms`), `${(b / a).toFixed(1)}×, ${(c / b).toFixed(1)}×`]);
  console.log(name, ms.map(Math.round).join(' / '), 'ms');
}
const section = [
  `### redact-dense-${args.label} (${new Date().toISOString().slice(0, 10)}, median of ${RUNS})`,
  '',
  `Machine: ${cpus().length} cores, 1-minute load ${load.toFixed(1)} at the start. Detection only (the rules over words given), no OCR.`,
  '',
  markdownTable(['page', 'regions (5000 words)', '1250 words', '2500 words', '5000 words', 'growth per doubling'], rows),
].join('\n');
console.log(section);
if (!args['no-write']) await writeSection(join(root, 'docs/benchmarks-redact.md'), `redact-dense-${args.label}`, `${section}\n`);
