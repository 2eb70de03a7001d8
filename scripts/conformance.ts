// Runs every client scenario of @modelcontextprotocol/conformance (pinned in package.json)
// against Glance's MCP client (scripts/conformanceClient.ts), one at a time — the suite's own
// `--suite all` runs 26 clients at once, which times out on a busy 2-core machine — and
// compares with .ci/conformance-baseline.yml: a new failure or a baseline entry that now passes
// is exit 1. Offline: every scenario's servers listen on localhost.
//   npm run conformance [-- --scenario auth/scope-step-up] [-- --json]
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const CLIENT = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'scripts/conformanceClient.ts'))}`;

export type ScenarioResult = { scenario: string; passed: number; failed: number; ok: boolean; seconds: number };

function run(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SUITE, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', () => resolve(out));
  });
}

/** The client scenarios the installed suite knows (`conformance list`). */
export async function clientScenarios(): Promise<string[]> {
  const out = await run(['list'], ROOT);
  const section = out.slice(out.indexOf('Client scenarios'));
  return [...section.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1] as string);
}

export async function runScenario(scenario: string, timeoutMs = 60_000): Promise<ScenarioResult> {
  const dir = await mkdtemp(join(tmpdir(), 'glance-conformance-run-'));
  const started = Date.now();
  try {
    const out = await run(['client', '--command', CLIENT, '--scenario', scenario, '--timeout', String(timeoutMs)], dir);
    const m = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(out);
    const passed = m ? Number(m[1]) : 0;
    const failed = m ? Number(m[3]) : 1;
    return { scenario, passed, failed, ok: /OVERALL: PASSED/.test(out) && failed === 0, seconds: (Date.now() - started) / 1000 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function baseline(): Promise<string[]> {
  const text = await readFile(join(ROOT, '.ci/conformance-baseline.yml'), 'utf8');
  return [...text.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1] as string);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  const only = argv.includes('--scenario') ? [argv[argv.indexOf('--scenario') + 1] as string] : await clientScenarios();
  const expected = new Set(await baseline());
  const results: ScenarioResult[] = [];
  for (const scenario of only) {
    const result = await runScenario(scenario);
    results.push(result);
    if (!argv.includes('--json')) process.stdout.write(`${result.ok ? 'pass' : 'FAIL'}  ${scenario}  (${result.passed} checks passed, ${result.failed} failed, ${result.seconds.toFixed(1)} s)\n`);
  }
  const passed = results.filter((r) => r.ok).length;
  const unexpected = results.filter((r) => !r.ok && !expected.has(r.scenario)).map((r) => r.scenario);
  const stale = results.filter((r) => r.ok && expected.has(r.scenario)).map((r) => r.scenario);
  if (argv.includes('--json')) process.stdout.write(JSON.stringify({ passed, total: results.length, results, unexpected, stale }, null, 2) + '\n');
  else process.stdout.write(`\n${passed} of ${results.length} client scenarios passed.\n`);
  if (unexpected.length) process.stdout.write(`Unexpected failures (not in .ci/conformance-baseline.yml): ${unexpected.join(', ')}\n`);
  if (stale.length) process.stdout.write(`Now passing, remove from the baseline: ${stale.join(', ')}\n`);
  process.exit(unexpected.length || stale.length ? 1 : 0);
}
