// Issue 45 item 5: `glance mcp call SERVER TOOL` asks for a tool that can change things as a model's
// call of it does (needsConsent, the same approver): with no terminal and no flag it is not run.
// Real processes where "no terminal" matters (stdin and stderr are pipes), in-process for a
// person's answer at the terminal; the fixture server (trusted, read-only tools plus write_note
// and delete_notes) and the lying server whose "read-only" read_file deletes a file.
import { execFile } from 'node:child_process';
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandIO } from '../../main/cli/io.ts';
import { main } from '../../main/cli/main.ts';
import { REPO_ROOT, fixtureEntry, tempDataDir } from '../support/mcpSetup.ts';

const HOSTILE = fileURLToPath(new URL('./hostileMcpServer.ts', import.meta.url));
type Run = { code: number; stdout: string; stderr: string };

let data: Awaited<ReturnType<typeof tempDataDir>>;
let config: string;
const victim = () => join(data.dir, 'precious.txt');

beforeAll(async () => {
  data = await tempDataDir();
  config = join(data.dir, 'servers.json');
  await writeFile(config, JSON.stringify({ mcpServers: { fx: fixtureEntry(), evil: { command: process.execPath, args: [HOSTILE], env: { VICTIM: victim() } } } }));
});
afterAll(async () => data.remove());

/** The CLI as a script runs it: no terminal. */
function glance(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['main/cli/main.ts', 'mcp', 'call', ...args, '--mcp-config', config, '--data-dir', data.dir], { cwd: REPO_ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}

describe('glance mcp call asks as a model\'s call does (issue 45 item 5)', () => {
  it('a destructive tool with no terminal and no flag is not run: exit 6 and why; --yes runs it', async () => {
    const refused = await glance(['fx', 'delete_notes']);
    expect(refused).toMatchObject({ code: 6, stdout: '' });
    expect(refused.stderr).toContain('not run: fx__delete_notes can change things (the server marks it destructive)');
    expect(refused.stderr).toContain('Run again with --yes or --allow-tools fx__delete_notes');
    expect(await glance(['fx', 'delete_notes', '--yes'])).toMatchObject({ code: 0, stdout: 'deleted 0 notes\n' });
  });

  it('a tool that declares no hints needs consent too; --allow-tools names it', async () => {
    const refused = await glance(['fx', 'write_note', '--args', '{"text":"x"}']);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('(the server does not mark it read-only)');
    expect(await glance(['fx', 'write_note', '--args', '{"text":"x"}', '--allow-tools', 'fx__write_*'])).toMatchObject({ code: 0, stdout: 'stored note 1: x\n' });
  });

  it('an untrusted server\'s "read-only" tool that deletes a file is not run, and the file stays', async () => {
    await writeFile(victim(), 'keep me');
    const refused = await glance(['evil', 'read_file']);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('(it says it only reads, but server "evil" is not marked trusted)');
    expect(await exists(victim())).toBe(true);
  });

  it('a trusted server\'s read-only tool runs as before, with no flag', async () => {
    expect(await glance(['fx', 'echo', '--args', '{"text":"hi"}'])).toMatchObject({ code: 0, stdout: 'hi\n' });
  });

  it('at a terminal the person is asked: "n" keeps the file, "o" runs the tool', async () => {
    await writeFile(victim(), 'keep me');
    const questions: string[] = [];
    const at = (answer: string): CommandIO & { err: (t: string) => void; errors: () => string } => {
      let err = '';
      return { out: () => undefined, err: (t) => void (err += t), errors: () => err, env: process.env, ask: async (q) => (questions.push(q), answer) };
    };
    const no = at('n');
    expect(await main(['mcp', 'call', 'evil', 'read_file', '--mcp-config', config, '--data-dir', data.dir], no)).toBe(6);
    expect(no.errors()).toContain('not run: you declined evil__read_file.');
    expect(questions[0]).toMatch(/Allow evil__read_file \(server "evil", tool "read_file"\) — it says it only reads, but this server is not marked trusted/);
    expect(await exists(victim())).toBe(true);
    expect(await main(['mcp', 'call', 'evil', 'read_file', '--mcp-config', config, '--data-dir', data.dir], at('o'))).toBe(0);
    expect(await exists(victim())).toBe(false);
  });
});
