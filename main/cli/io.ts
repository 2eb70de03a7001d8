import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorMessage } from '../errors.ts';

/**
 * Exit codes scripts rely on (architecture §10, README): 5 a stored conversation or the data
 * directory is unusable (an answer that could not be stored was printed in full first); 130 / 143 the run was stopped by SIGINT / SIGTERM (what streamed is kept).
 */
export const EXIT = Object.freeze({ ok: 0, failure: 1, usage: 2, imageRefused: 3, modelFailed: 4, storage: 5, policyRefused: 6, interrupted: 130, terminated: 143 });

/** Where a command writes; tests pass their own to capture output. */
export type CommandIO = {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Asks a person one line (a TTY prompt); absent when nobody is at the terminal. */
  ask?: (question: string) => Promise<string>;
};

export function stdio(): CommandIO {
  const io: CommandIO = {
    out: (t) => void process.stdout.write(t),
    err: (t) => void process.stderr.write(t),
    env: process.env,
  };
  // Only a person at a terminal can answer: a pipe or a script gets no prompt.
  if (process.stdin.isTTY && process.stderr.isTTY) io.ask = askOnTerminal;
  return io;
}

async function askOnTerminal(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** parseArgs that turns its errors into UsageError (exit code 2 with the message). */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
  allowPositionals = true,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
}

/** Options shared by commands that talk to a model server. */
export const MODEL_OPTIONS = {
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key-env': { type: 'string' },
  vision: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** `--redact always|remote|never`; a bare `--redact` (check-image) means `always`. */
const REDACT_POLICIES = ['always', 'remote', 'never'] as const;

/** argv with a bare `--redact` (at the end, or before another option) read as `--redact always`. */
export function bareRedact(argv: readonly string[]): string[] {
  const out: string[] = [];
  argv.forEach((arg, i) => {
    out.push(arg);
    const next = argv[i + 1];
    if (arg === '--redact' && (next === undefined || next.startsWith('-') || !(REDACT_POLICIES as readonly string[]).includes(next))) out.push('always');
  });
  return out;
}

export function parseRedact(value: string | undefined): (typeof REDACT_POLICIES)[number] | undefined {
  if (value === undefined) return undefined;
  if ((REDACT_POLICIES as readonly string[]).includes(value)) return value as (typeof REDACT_POLICIES)[number];
  throw new UsageError(`--redact takes always, remote or never, not "${value}"`);
}
