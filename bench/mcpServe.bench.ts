// npm run bench:mcp-serve — what a caller of `glance mcp serve` gets for a 4K screen against the
// plain full-PNG return peer screenshot servers use (bench/lib/plainScreenshotServer.ts), both
// real MCP servers over stdio, called by the SDK's client, alternating in one run on one Xvfb
// display showing a 14 px code editor. Per call: bytes of image, characters of base64 (what a
// client that counts tool output as text counts: Claude Code's 25k-token limit), Claude's image
// tokens (⌈w/28⌉·⌈h/28⌉ of what its server keeps), and the wall time of the call.
//   node bench/mcpServe.bench.ts [--runs N] [--no-write]
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import sharp from 'sharp';
import { modelView, sendSize } from '../main/images/imageRule.ts';
import { imageRuleFor } from '../main/images/modelRules.ts';
import { editorHtml, showPage } from '../test/fixtures/screenPage.ts';
import { startXvfb } from '../test/fixtures/xvfb.ts';
import { markdownTable, writeSection } from './lib/report.ts';
import { median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '11' }, 'no-write': { type: 'boolean', default: false } } });
const RUNS = Math.max(3, Number(args.runs) || 11);
const W = 3840;
const H = 2160;
const root = fileURLToPath(new URL('..', import.meta.url));

const x = await startXvfb({ width: W, height: H });
const screen = await showPage(x.env, editorHtml({ width: W, height: H, fontPx: 14 }).html, { monitor: x.monitors[0]! });
const dataDir = await mkdtemp(join(tmpdir(), 'glance-bench-serve-'));

async function connect(args: string[]): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, env: x.env as Record<string, string>, cwd: root, stderr: 'ignore' }));
  return client;
}

const glance = await connect([join(root, 'main/cli/main.ts'), 'mcp', 'serve', '--data-dir', dataDir]);
const plain = await connect([join(root, 'bench/lib/plainScreenshotServer.ts')]);
const claude = imageRuleFor('openai', 'claude')!.transform;

type Sample = { ms: number; bytes: number; chars: number; width: number; height: number; tokens: number; mime: string };

async function call(client: Client, name: string): Promise<Sample> {
  const started = performance.now();
  const result = await client.callTool({ name, arguments: {} });
  const ms = performance.now() - started;
  const image = (result.content as { type: string; data?: string; mimeType?: string }[]).find((c) => c.type === 'image');
  if (!image?.data) throw new Error(`${name} returned no image: ${JSON.stringify(result).slice(0, 300)}`);
  const bytes = Buffer.from(image.data, 'base64');
  const { width = 0, height = 0 } = await sharp(bytes).metadata();
  // What Claude's server keeps of it, and what that costs.
  const kept = sendSize(claude, { width, height });
  return { ms, bytes: bytes.length, chars: image.data.length, width, height, tokens: modelView(claude, kept).tokens ?? 0, mime: image.mimeType ?? '?' };
}

// One warm-up each (module loading, the first X connection), then alternating, the peer first on odd runs.
await call(glance, 'capture_screen');
await call(plain, 'screenshot');
const samples: { glance: Sample[]; plain: Sample[] } = { glance: [], plain: [] };
for (let i = 0; i < RUNS; i++) {
  const order = i % 2 ? (['plain', 'glance'] as const) : (['glance', 'plain'] as const);
  for (const who of order) samples[who].push(await call(who === 'glance' ? glance : plain, who === 'glance' ? 'capture_screen' : 'screenshot'));
  process.stderr.write(`run ${i + 1}/${RUNS}\n`);
}
await glance.close();
await plain.close();
await screen.close();
await x.stop();
await rm(dataDir, { recursive: true, force: true });

const m = (s: Sample[], k: 'ms' | 'bytes' | 'chars' | 'tokens') => median(s.map((v) => v[k]));
const g = samples.glance;
const p = samples.plain;
const n = (v: number) => Math.round(v).toLocaleString('en-US');
const textTokens = (chars: number) => n(chars / 4);
const table = markdownTable(
  ['per call (4K display, 14 px code)', 'glance mcp serve `capture_screen`', 'plain full PNG (peers)', 'ratio'],
  [
    ['image sent', `${g[0]!.width}×${g[0]!.height} ${g[0]!.mime}`, `${p[0]!.width}×${p[0]!.height} ${p[0]!.mime}`, ''],
    ['bytes of image (median)', n(m(g, 'bytes')), n(m(p, 'bytes')), `${(m(g, 'bytes') / m(p, 'bytes')).toFixed(3)}×`],
    ['characters of base64 (median)', n(m(g, 'chars')), n(m(p, 'chars')), `${(m(g, 'chars') / m(p, 'chars')).toFixed(3)}×`],
    ['as text tokens, if the client counts the payload (chars ÷ 4)', textTokens(m(g, 'chars')), textTokens(m(p, 'chars')), ''],
    ["Claude's image tokens (⌈w/28⌉·⌈h/28⌉ of what its server keeps)", n(m(g, 'tokens')), n(m(p, 'tokens')), ''],
    ['time per call, median (min–max)', `${n(m(g, 'ms'))} ms (${n(Math.min(...g.map((s) => s.ms)))}–${n(Math.max(...g.map((s) => s.ms)))})`, `${n(m(p, 'ms'))} ms (${n(Math.min(...p.map((s) => s.ms)))}–${n(Math.max(...p.map((s) => s.ms)))})`, `${(m(g, 'ms') / m(p, 'ms')).toFixed(2)}×`],
  ],
);
const section =
  `## glance mcp serve: a 4K capture against the plain full-PNG return\n\n` +
  `\`npm run bench:mcp-serve\` (bench/mcpServe.bench.ts), ${new Date().toISOString().slice(0, 10)}: both servers are real MCP servers over stdio, called by the SDK client, ` +
  `alternating, ${RUNS} runs each after one warm-up, on one ${W}×${H} Xvfb display showing a 14 px code editor. ` +
  `Machine: ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, load ${loadavg()[0]!.toFixed(2)} at the end (shared with other jobs: times are noisy), Node ${process.version}.\n\n` +
  `${table}\n\n` +
  'Both images cost Claude the same image tokens once its server has resized them, because it keeps at most 1568. ' +
  "The peer's payload is still base64 of the whole 4K PNG. Clients that count tool output as text refuse it " +
  "(Claude Code's limit is 25k tokens), and hosts drop it over 1 MB. Glance's capture time includes fitting to " +
  "Claude's rule, encoding, and storing the original as a `glance://captures/<sha256>` resource.\n";
process.stdout.write(`${section}\n`);
if (!args['no-write']) await writeSection(join(root, 'docs', 'benchmarks-mcp.md'), 'mcp-serve', section, 'MCP — benchmarks');
process.exit(0);
