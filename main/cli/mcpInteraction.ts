// What the `glance` CLI can do when an MCP server needs a person (architecture §6, §10):
// - `${input:id}` (VS Code inputs): read from GLANCE_INPUT_<ID> — a script has no dialog;
// - elicitation: a form is asked field by field on a TTY, declined otherwise; a URL is opened
//   only after the person says yes, with its host shown (mcp/elicitationGuard.ts refused the
//   rest before); a secret field is typed without echo;
// - sign-in: the authorization URL is opened with $BROWSER when set, else the OS opener.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { inputEnvName } from '../../common/mcpConfig.ts';
import { withDefaults, type ElicitationAnswer, type ElicitationField, type ElicitationRequest, type McpClientFeatures } from '../mcp/clientFeatures.ts';
import type { McpHubOptions } from '../mcp/mcpHub.ts';
import type { CommandIO } from './io.ts';

type CliInteraction = Pick<McpHubOptions, 'resolveInput' | 'inputHint'> & Pick<McpClientFeatures, 'elicit' | 'elicitModes'> & { openUrl: (url: string) => Promise<void> };

export function cliInteraction(io: CommandIO, tty: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; isTTY: boolean } = ttyStreams()): CliInteraction {
  return {
    resolveInput: async ({ id }) => io.env[inputEnvName(id)],
    inputHint: (id) => `set ${inputEnvName(id)} in the environment`,
    // A form needs a person at a terminal; URL mode needs one to say yes.
    ...(tty.isTTY ? { elicit: (request, signal) => askOnTerminal(request, tty, io, signal), elicitModes: ['form', 'url'] as const } : {}),
    openUrl: (url) => openInBrowser(url, io.env),
  };
}

function ttyStreams(): { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; isTTY: boolean } {
  return { input: process.stdin, output: process.stderr, isTTY: Boolean(process.stdin.isTTY && process.stderr.isTTY) };
}

async function askOnTerminal(
  request: ElicitationRequest,
  tty: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
  io: CommandIO,
  signal: AbortSignal,
): Promise<ElicitationAnswer> {
  // Echo goes through `shown`, so a secret field is typed with nothing drawn for it.
  let muted = false;
  const shown = new Writable({ write: (chunk, _enc, done) => (muted || tty.output.write(chunk), done()) });
  const rl = createInterface({ input: tty.input, output: shown, terminal: true });
  const ask = async (q: string, secret = false) => {
    if (!secret) return rl.question(q, { signal });
    tty.output.write(q);
    muted = true;
    try {
      return await rl.question('', { signal });
    } finally {
      muted = false;
      tty.output.write('\n');
    }
  };
  try {
    io.err(`\nMCP server "${request.server}" asks: ${request.message}\n`);
    if (request.mode === 'url') {
      // The host first, on its own line: the part of a URL a person can check.
      io.err(`  It wants to open a page on  ${request.host}\n  ${request.url}\n`);
      const yes = /^y(es)?$/i.test((await ask(`Open this page on ${request.host} in your browser? [y/N] `)).trim());
      if (!yes) return { action: 'decline' };
      await openInBrowser(request.url, io.env);
      return { action: 'accept' };
    }
    const content: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(request.fields)) {
      const required = request.required.includes(name);
      const value = await askField(name, field, required, (q) => ask(q, request.secret.includes(name)));
      if (value === CANCEL) return { action: 'cancel' };
      if (value !== undefined) content[name] = value;
    }
    return { action: 'accept', content: withDefaults(request.fields, content) };
  } catch (error) {
    if (signal.aborted) return { action: 'cancel' };
    throw error;
  } finally {
    rl.close();
  }
}

const CANCEL = Symbol('cancel');

/** One field: "." cancels, empty keeps the default (or skips an optional field). */
async function askField(name: string, field: ElicitationField, required: boolean, ask: (q: string) => Promise<string>): Promise<unknown> {
  const choices = field.enum?.map(String) ?? field.oneOf?.map((o) => o.const);
  const hint = [field.type ?? 'string', choices ? `one of ${choices.join(', ')}` : '', field.default !== undefined ? `default ${JSON.stringify(field.default)}` : '', required ? 'required' : 'optional']
    .filter(Boolean)
    .join('; ');
  for (;;) {
    const answer = (await ask(`  ${field.title ?? name}${field.description ? ` — ${field.description}` : ''} (${hint}; "." cancels): `)).trim();
    if (answer === '.') return CANCEL;
    if (answer === '') {
      if (field.default !== undefined || !required) return undefined;
      continue;
    }
    const value = coerce(answer, field, choices);
    if (value !== undefined) return value;
  }
}

function coerce(answer: string, field: ElicitationField, choices: string[] | undefined): unknown {
  if (field.type === 'boolean') return /^(y|yes|true|1)$/i.test(answer) ? true : /^(n|no|false|0)$/i.test(answer) ? false : undefined;
  if (field.type === 'number' || field.type === 'integer') {
    const n = Number(answer);
    if (!Number.isFinite(n) || (field.type === 'integer' && !Number.isInteger(n))) return undefined;
    return n;
  }
  if (field.type === 'array') return answer.split(',').map((s) => s.trim()).filter(Boolean);
  if (choices && !choices.includes(answer)) return undefined;
  return answer;
}

/** $BROWSER (may hold "%s" for the URL, as xdg and Python's webbrowser read it), else the OS opener. */
async function openInBrowser(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const browser = env.BROWSER?.split(':')[0]?.trim();
  const [command, args] = browser
    ? browser.includes('%s')
      ? ['/bin/sh', ['-c', browser.replaceAll('%s', shellQuote(url))]]
      : ['/bin/sh', ['-c', `${browser} ${shellQuote(url)}`]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true, env });
    child.once('error', (error) => reject(new Error(`cannot open a browser (${(error as Error).message}); open ${url} yourself`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
