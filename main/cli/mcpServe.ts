// `glance mcp serve [--http] [--port N] [--host H] [--data-dir DIR] [--redact always|remote|never]`
// (architecture §14, §10): Glance as an MCP server, so other agents see the screen through it. The
// flags are parsed here; the services come from the one composition (cliContext); the server
// itself lives in main/mcpServer.
import { NodeScreenshotsCapturer } from '../capture/nodeScreenshotsCapturer.ts';
import { DEFAULT_CAPTURE_BUDGET } from '../mcpServer/captureShelf.ts';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, loopbackRefusal } from '../mcpServer/httpServe.ts';
import { REDACT_POLICIES, type RedactPolicy } from '../mcpServer/serverImages.ts';
import { serveStdio, startHttp } from '../mcpServer/serveMcp.ts';
import { dataDirRefusal, serveToken, ServeTokenError } from '../mcpServer/serveToken.ts';
import { defaultDataDir } from '../settings/paths.ts';
import { resolve } from 'node:path';
import { cliContext } from './cliContext.ts';
import { EXIT, MODEL_OPTIONS, type CommandIO, UsageError, parseCommandArgs } from './io.ts';

const VERSION = '0.1.0';

const OPTIONS = {
  ...MODEL_OPTIONS,
  http: { type: 'boolean', default: false },
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  redact: { type: 'string' },
  'max-sessions': { type: 'string' },
  'session-idle-minutes': { type: 'string' },
  'keep-captures-mb': { type: 'string' },
  'keep-captures-hours': { type: 'string' },
  'serve-originals': { type: 'boolean' },
} as const;

/** A positive number flag, or a usage error naming it. */
function positive(values: Record<string, unknown>, name: string, integer: boolean): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new UsageError(`--${name} must be a positive ${integer ? 'whole ' : ''}number, not "${String(raw)}"`);
  return n;
}

const SERVE_HELP = `Usage: glance mcp serve [--http] [--port N] [--host H] [--data-dir DIR] [--redact always|remote|never] [--serve-originals]
                        [--max-sessions N] [--session-idle-minutes N] [--keep-captures-mb N] [--keep-captures-hours N]

Serves Glance's screen tools to another MCP client (Claude Desktop, Claude Code, Cursor, VS Code):
capture_screen, zoom, read_text, describe, list_displays, list_windows, and the captures as
glance://captures/<sha256> resources.

  (default)   stdio: the client starts "glance mcp serve" and talks over stdin/stdout
  --http      streamable HTTP at http://127.0.0.1:<port>/mcp, with a bearer token made once,
              printed once and kept in <data dir>/mcp-serve-token (mode 0600)
  --port      the port for --http (default 0: any free port, printed)
  --host      127.0.0.1 (default), ::1 or localhost; anything else is refused
  --redact    what to hide before an image leaves (default "always": the caller's model is unknown)
  --serve-originals
              capture resources give the original as captured, secrets in the clear (default:
              the original with the same regions filled as the capture's image)
  --provider, --base-url, --model, --api-key-env, --vision
              the vision model describe asks (default: Glance's settings, local first)
  --data-dir  where captures are kept (default the app's data directory)
  --max-sessions N           --http: most client sessions at once (default ${DEFAULT_MAX_SESSIONS}); the least
                             recently used idle one is closed to make room
  --session-idle-minutes N   --http: a session unused this long is closed (default ${DEFAULT_SESSION_IDLE_MS / 60_000})
  --keep-captures-mb N       most the captures made for callers may hold in the store (default ${DEFAULT_CAPTURE_BUDGET.maxBytes / 1048576});
                             the oldest go first
  --keep-captures-hours N    captures older than this go (default ${DEFAULT_CAPTURE_BUDGET.maxAgeMs / 3_600_000}); the app's retention applies too
`;

export async function serveCommand(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, OPTIONS);
  if (values.help) {
    io.out(SERVE_HELP);
    return EXIT.ok;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const redact = (values.redact ?? 'always') as RedactPolicy;
  if (!REDACT_POLICIES.includes(redact)) throw new UsageError(`--redact must be always, remote or never, not "${values.redact}"`);
  const host = values.host ?? '127.0.0.1';
  const refusal = loopbackRefusal(host);
  if (refusal) throw new UsageError(refusal);
  if ((values.port !== undefined || values.host !== undefined) && !values.http) throw new UsageError('--port and --host go with --http');
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number 0–65535, not "${values.port}"`);

  // A data dir that is a file (or a FIFO…) is said in a line before anything tries to make folders in it.
  const unusable = await dataDirRefusal(values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir(io.env));
  if (unusable) {
    io.err(`glance mcp serve: ${unusable}\n`);
    return EXIT.storage;
  }
  const maxSessions = positive(values, 'max-sessions', true);
  const idleMinutes = positive(values, 'session-idle-minutes', false);
  if ((maxSessions !== undefined || idleMinutes !== undefined) && !values.http) throw new UsageError('--max-sessions and --session-idle-minutes go with --http');
  const keepMb = positive(values, 'keep-captures-mb', false);
  const keepHours = positive(values, 'keep-captures-hours', false);
  const captureBudget = {
    maxBytes: keepMb === undefined ? DEFAULT_CAPTURE_BUDGET.maxBytes : Math.round(keepMb * 1048576),
    maxAgeMs: keepHours === undefined ? DEFAULT_CAPTURE_BUDGET.maxAgeMs : Math.round(keepHours * 3_600_000),
  };
  const { services, dataDir, flags } = await cliContext(io, values, { noMcp: true });
  const visionModel = values.model ? { provider: flags.kind, name: values.model } : undefined;
  const options = { capturer: new NodeScreenshotsCapturer(), redact, version: VERSION, captureBudget, ...(visionModel ? { visionModel } : {}), ...(values['serve-originals'] ? { serveOriginals: true } : {}) };
  try {
    if (!values.http) {
      io.err(`glance: MCP server on stdio (captures kept in ${dataDir}).\n`);
      await serveStdio(services, options);
      return EXIT.ok;
    }
    const kept = await serveToken(dataDir).catch((error: unknown) => {
      if (error instanceof ServeTokenError) return error;
      throw error;
    });
    if (kept instanceof ServeTokenError) {
      io.err(`glance mcp serve: ${kept.message}\n`);
      return EXIT.storage;
    }
    const { token, path, created } = kept;
    const serving = await startHttp(services, { ...options, host, port, token, ...(maxSessions ? { maxSessions } : {}), ...(idleMinutes ? { idleMs: idleMinutes * 60_000 } : {}) });
    io.err(`glance: MCP server at ${serving.url}\n`);
    io.err(created ? `glance: bearer token (shown once, kept in ${path}): ${token}\n` : `glance: bearer token kept in ${path}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await serving.close();
    return EXIT.ok;
  } finally {
    await services.close();
  }
}
