// npm run bench:tools — what tool descriptions cost a request, as offered and as shortened for
// small context windows (main/tools/toolSpecFit.ts), with real MCP servers over stdio:
// @modelcontextprotocol/server-everything, server-filesystem and Glance's MCP fixture server, plus the built-ins.
//   node bench/toolDescriptions.bench.ts [--no-write]
// Token figures are Glance's estimate (common/tokens.ts), the one the Context meter and the
// history budget use; the figures do not depend on the machine's load.
// Writes its table into docs/tool-descriptions.md between the bench:tools markers.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseMcpConfig } from '../common/mcpConfig.ts';
import { groupDigits } from '../common/imageFormat.ts';
import { answerReserve } from '../main/chat/historyBudget.ts';
import { fitToolSpecs, toolSpecTokens } from '../main/tools/toolSpecFit.ts';
import type { Tool } from '../main/tools/tool.ts';
import { everythingServer, filesystemServer } from '../test/fixtures/referenceServers.ts';
import { testServices } from '../test/support/testServices.ts';

const { values: args } = parseArgs({ options: { 'no-write': { type: 'boolean', default: false } } });
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const everything = everythingServer();
const dataDir = await mkdtemp(join(tmpdir(), 'glance-bench-tools-'));
const filesystem = filesystemServer(dataDir);
const config = parseMcpConfig({
  mcpServers: {
    everything: everything.entry,
    filesystem: filesystem.entry,
    fixture: { command: process.execPath, args: [join(root, 'test/fixtures/mcpServer.ts')] },
  },
});
if (config.errors.length) throw new Error(config.errors.map((e) => e.message).join('; '));

const services = testServices({ dataDir, mcp: { mcpConfig: config } });
const lines: string[] = [];
try {
  const tools = [...(await services.tools.forTurn(true)).values()];
  const sources = [...new Set(tools.map((t) => t.source ?? 'built-in'))];
  const windows = [4096, 8192, 16_384, 32_768, 128_000];
  const n = groupDigits;
  const cost = (list: readonly Tool[], window: number | null) => fitToolSpecs(list.map((t) => t.spec), window === null ? null : window - answerReserve(window)).tokens;
  lines.push(`server-everything ${everything.version}, server-filesystem ${filesystem.version}, the MCP fixture server and Glance's built-in tools (for a model that sees), ${tools.length} tools in all.`);
  lines.push('Tokens of the tool descriptions one request carries, by the context window of the model:');
  lines.push('');
  lines.push(`| source | tools | as given | ${windows.map((w) => `${n(w)} window`).join(' | ')} |`);
  lines.push(`| --- | ---: | ---: | ${windows.map(() => '---:').join(' | ')} |`);
  for (const source of [...sources, 'all']) {
    const own = source === 'all' ? tools : tools.filter((t) => (t.source ?? 'built-in') === source);
    const full = own.reduce((k, t) => k + toolSpecTokens(t.spec), 0);
    // Each source alone (as if the others were switched off), and all together.
    lines.push(`| ${source} | ${own.length} | ${n(full)} | ${windows.map((w) => `${n(cost(own, w))} (${Math.round((cost(own, w) / (w - answerReserve(w))) * 100)}% of the budget)`).join(' | ')} |`);
  }
  lines.push('');
  lines.push('"budget": what a request may use of the window, the answer\'s room (a quarter, at most 2,048 tokens) kept. Shortening starts when the tools would take more than a quarter of it.');
  console.log(lines.join('\n'));
} finally {
  await services.close();
  await rm(dataDir, { recursive: true, force: true });
}

if (!args['no-write']) {
  const doc = join(root, 'docs/tool-descriptions.md');
  const text = await readFile(doc, 'utf8');
  const start = '<!-- bench:tools -->';
  const end = '<!-- /bench:tools -->';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${doc} has no ${start} … ${end} markers`);
  await writeFile(doc, `${text.slice(0, a + start.length)}\n${lines.join('\n')}\n${text.slice(b)}`);
}
