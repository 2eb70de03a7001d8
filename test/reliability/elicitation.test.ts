// Issue 30 item 4: what a hostile MCP server may ask through elicitation. The real `glance ask`
// runs at a real terminal (a pty from util-linux `script`), against hostileMcpServer.ts over
// stdio and the fixture model server; $BROWSER is a script that records what it was asked to open.
// The driver answers "y" to every yes/no question, so a URL that is not refused is opened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';

const REPO = resolve(import.meta.dirname, '../..');
const HOSTILE = join(REPO, 'test/reliability/hostileMcpServer.ts');
const PASSWORD = 'hunter2-Correct-Horse';
const TOKEN = 'tok-9f8e7d6c5b4a';
let server: ModelServer;
let dir: string;
let run = 0;

beforeAll(async () => {
  server = await createModelServer();
  dir = await mkdtemp(join(tmpdir(), 'glance-elicit-'));
  await writeFile(join(dir, 'browser.sh'), `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> "${dir}/opened.txt"; done\n`);
  await chmod(join(dir, 'browser.sh'), 0o755);
  await writeFile(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { evil: { command: process.execPath, args: [HOSTILE] } } }));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `glance ask` at a pty; each [prompt, reply] is typed once the prompt is on the screen. */
async function askAtTerminal(steps: [RegExp, string][]): Promise<{ code: number | null; screen: string; dataDir: string }> {
  const dataDir = join(dir, `data-${++run}`);
  const argv = [process.execPath, join(REPO, 'main/cli/main.ts'), 'ask', 'sign me in', '--model', 'llava-seer', '--mcp-config', join(dir, 'mcp.json'), '--data-dir', dataDir, '--yes'];
  const child = spawn('script', ['-qefc', argv.map(quote).join(' '), '/dev/null'], {
    env: { ...process.env, OLLAMA_HOST: server.url, BROWSER: join(dir, 'browser.sh'), TERM: 'dumb' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let seen = 0;
  const pending = [...steps];
  const onData = (chunk: Buffer) => {
    screen += chunk.toString('utf8');
    const next = pending[0];
    if (next && next[0].test(screen.slice(seen))) {
      pending.shift();
      seen = screen.length;
      child.stdin.write(`${next[1]}\r`);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, screen, dataDir };
}

/** Every file under the data directory, as text (conversations, logs, settings). */
async function everythingStored(dataDir: string): Promise<string> {
  const files = (await readdir(dataDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  return (await Promise.all(files.map((f) => readFile(join(f.parentPath, f.name), 'utf8')))).join('\n');
}

const opened = () => readFile(join(dir, 'opened.txt'), 'utf8').catch(() => '');

describe('URL-mode elicitation (issue 30 item 4)', () => {
  for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'http://203.0.113.9/login', 'x-evil://run']) {
    it(`${url} is refused in plain words, never opened, and the server is told declined`, { timeout: 60_000 }, async () => {
      server.reset();
      server.script({ toolCalls: [{ name: 'evil__open_page', arguments: { url } }] }, { text: 'done' });
      const { code, screen } = await askAtTerminal([[/\[y\/N\]/i, 'y']]);
      expect(code).toBe(0);
      expect(await opened()).toBe('');
      expect(screen).toMatch(/not opened: it is a .*only https: pages, or http: on this computer, are opened/);
      expect(JSON.stringify(server.requests.at(-1)!.body)).toMatch(/open_page: decline/);
    });
  }

  it('an https page is opened after a yes, with its host shown before the question', { timeout: 60_000 }, async () => {
    const url = 'https://login.example.test/device?code=42';
    server.reset();
    server.script({ toolCalls: [{ name: 'evil__open_page', arguments: { url } }] }, { text: 'done' });
    const { code, screen } = await askAtTerminal([[/\[y\/N\]/i, 'y']]);
    expect(code).toBe(0);
    expect(screen).toMatch(/It wants to open a page on +login\.example\.test\r?\n/);
    expect(screen).toMatch(/Open this page on login\.example\.test in your browser\? \[y\/N\]/);
    expect(await opened()).toBe(`${url}\n`);
    await rm(join(dir, 'opened.txt'), { force: true });
  });
});

describe('form elicitation with secret fields (issue 30 item 4)', () => {
  it('a password and a token are typed without echo and kept nowhere: not on the terminal, in the data dir, its logs or the model request', { timeout: 60_000 }, async () => {
    server.reset();
    server.script({ toolCalls: [{ name: 'evil__sign_in', arguments: {} }] }, { text: 'done' });
    const { code, screen, dataDir } = await askAtTerminal([
      [/User .*: $/m, 'ada'],
      [/Password .*: $/m, PASSWORD],
      [/api_token .*: $/m, TOKEN],
    ]);
    expect(code).toBe(0);
    expect(screen).toMatch(/ada/); // a plain field is echoed as typed
    expect(screen).not.toContain(PASSWORD);
    expect(screen).not.toContain(TOKEN);
    const stored = await everythingStored(dataDir);
    expect(stored).toMatch(/asked the person to fill in a form \(user, password \(secret, not kept\), api_token \(secret, not kept\)\): answered/);
    expect(stored).toMatch(/got .*\[a secret you typed, hidden\]/); // the server's log line, scrubbed
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain(TOKEN);
    const sent = JSON.stringify(server.requests.at(-1)!.body);
    const toolMessage = (server.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'tool')!;
    expect(toolMessage.content).toMatch(/^sign_in: \{"action":"accept","content":\{"user":"ada","password":"\[a secret you typed, hidden\]"/);
    expect(sent).not.toContain(PASSWORD);
    expect(sent).not.toContain(TOKEN);
  });
});
