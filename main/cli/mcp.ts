// `glance mcp list [--mcp-config FILE] [--json]`
// `glance mcp call SERVER TOOL [--args JSON] [--yes] [--mcp-config FILE] [--data-dir DIR] [--json]`
// (architecture §10): the MCP hub from the command line, through the same binary capture the chat
// uses, so `mcp call --json` shows exactly what a model would get. The app's tool policy
// (Settings → Tool approval) and the consent a tool that can change things needs bind a direct
// call as they bind a model's.
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { emptyMcpConfig, formatConfigError, loadMcpConfig, type McpConfig } from '../mcp/config.ts';
import type { McpHub, McpHubTool, McpServerHealth } from '../mcp/mcpHub.ts';
import { needsConsent, readOnlyClaim } from '../chat/toolApproval.ts';
import { defaultDataDir } from '../settings/paths.ts';
import type { Services } from '../core/composeServices.ts';
import type { ToolPolicy } from '../../common/settings.ts';
import { ruleFor } from '../../common/toolPolicy.ts';
import { cliApprover, parseAllowTools } from './cliApprover.ts';
import { cliContext } from './cliContext.ts';
import { serveCommand } from './mcpServe.ts';
import { EXIT, type CommandIO, UsageError, parseCommandArgs } from './io.ts';

const OPTIONS = {
  'mcp-config': { type: 'string' },
  'data-dir': { type: 'string' },
  args: { type: 'string' },
  'allow-tools': { type: 'string', multiple: true, default: [] as string[] },
  yes: { type: 'boolean', short: 'y', default: false },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Exit code 4: the other side (here an MCP server) could not be reached, crashed or hung. */
const UNREACHABLE = EXIT.modelFailed;

const HELP = `Usage: glance mcp list [--mcp-config FILE] [--json]
       glance mcp call SERVER TOOL [--args JSON] [--yes] [--mcp-config FILE] [--data-dir DIR] [--json]
       glance mcp serve [--http] [--port N] [--host H] [--data-dir DIR] [--redact always|remote|never]

list   starts every configured MCP server and lists its tools as a model is offered them
       (namespaced server__tool), with each server's state.
serve  serves Glance's screen tools to another MCP client (glance mcp serve --help).
call   calls one tool and prints its result as the model would see it: images and other
       binaries are captured (images into the attachment store, the rest under
       <data dir>/captures) and replaced by one-line descriptors. It asks as a model's call
       would: a tool that can change things (no readOnlyHint, a destructiveHint, or a server
       not marked trusted) and one set to "Ask every time" ask at a terminal, else need --yes
       or --allow-tools; a tool set to "Never run" is refused (--yes does not change that).

  --mcp-config  the {"mcpServers": {...}} file; default <data dir>/mcp.json
  --args        the tool's arguments as a JSON object (default {})
  --yes, --allow-tools NAME[,NAME…]
                consent in a run with no terminal (never over "Never run")
  --data-dir    where captures are stored; default the app's data directory
  --json        list: {servers, tools, errors}; call: {ok, text, images, files, notes}

Exit codes: 0 ok; 1 the tool failed; 2 usage or configuration; 4 a server could not be
reached, crashed or did not answer; 6 not run: the tool approval rules refused the call.
`;

export const mcpCommand = {
  summary: 'List or call MCP tools as a model would, or serve Glance’s screen tools to other agents',
  async run(argv: string[], io: CommandIO): Promise<number> {
    // serve has flags of its own (mcpServe.ts).
    if (argv[0] === 'serve') return serveCommand(argv.slice(1), io);
    const { values, positionals } = parseCommandArgs(argv, OPTIONS);
    const [sub, ...rest] = positionals;
    if (values.help || sub === 'help') {
      io.out(HELP);
      return EXIT.ok;
    }
    if (sub === 'list') return list(rest, values, io);
    if (sub === 'call') return call(rest, values, io);
    throw new UsageError(sub ? `unknown subcommand "${sub}": use "list", "call" or "serve"` : 'give a subcommand: "list", "call" or "serve"');
  },
};

type Values = { 'mcp-config'?: string; 'data-dir'?: string; args?: string; 'allow-tools': string[]; yes: boolean; json: boolean };

async function list(rest: string[], values: Values, io: CommandIO): Promise<number> {
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
  if (values.args !== undefined) throw new UsageError('--args belongs to "mcp call"');
  if (values.yes || values['allow-tools'].length > 0) throw new UsageError('--yes and --allow-tools belong to "mcp call"');
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir(io.env);
  const config = await readConfig(values['mcp-config'], dataDir, io);
  if (!config) return EXIT.usage;
  const { services } = await cliContext(io, values, { mcpConfig: config, noMcp: false });
  const hub = hubOf(services);
  try {
    const tools = await hub.listTools();
    const servers = hub.status();
    const errors = config.errors.filter((e) => e.server === undefined).map(formatConfigError);
    const warnings = config.warnings.filter((w) => w.server === undefined).map(formatConfigError);
    if (values.json) {
      io.out(JSON.stringify({ servers, tools, errors, warnings }, null, 2) + '\n');
    } else {
      if (servers.length === 0) io.out('No MCP servers are configured.\n');
      for (const warning of warnings) io.out(`warning: ${warning}\n`);
      for (const server of servers) {
        io.out(`${server.name} (${server.transport ?? 'config'}): ${server.state}${server.message ? ` — ${server.message}` : ''}\n`);
        for (const warning of server.warnings ?? []) io.out(`  warning: ${warning}\n`);
        for (const tool of tools.filter((t) => t.server === server.name)) {
          io.out(`  ${tool.name}${tool.description ? `  ${firstLine(tool.description)}` : ''}\n`);
        }
        for (const hidden of server.hiddenTools ?? []) io.out(`  (not offered: ${hidden.tool} — ${hidden.reason})\n`);
      }
    }
    if (servers.some((s) => s.state === 'failed' || s.state === 'crashed')) return UNREACHABLE;
    return servers.some((s) => s.state === 'invalid') ? EXIT.usage : EXIT.ok;
  } finally {
    await hub.close();
  }
}

async function call(rest: string[], values: Values, io: CommandIO): Promise<number> {
  const [serverName, toolName, extra] = rest;
  if (!serverName || !toolName) throw new UsageError('mcp call needs SERVER and TOOL');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  let args: Record<string, unknown> = {};
  if (values.args !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(values.args);
    } catch (error) {
      throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--args must be a JSON object');
    args = parsed as Record<string, unknown>;
  }
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir(io.env);
  const config = await readConfig(values['mcp-config'], dataDir, io, serverName);
  if (!config) return EXIT.usage;
  const serverConfig = config.servers.get(serverName);
  if (!serverConfig) {
    const bad = config.errors.find((e) => e.server === serverName);
    if (bad) throw new UsageError(formatConfigError(bad));
    const known = [...config.servers.keys()];
    throw new UsageError(`no MCP server named "${serverName}"${known.length ? ` (configured: ${known.join(', ')})` : ' (none are configured)'}`);
  }

  // Only the server asked for is started; images go through the same intake (and limits) as the app's.
  const { services, settings } = await cliContext(io, values, { mcpConfig: { ...config, servers: new Map([[serverName, serverConfig]]), errors: [], warnings: config.warnings.filter((w) => w.server === serverName) }, noMcp: false });
  const store = services.attachments;
  const hub = hubOf(services);
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onSigint);
  try {
    // Decided before the server starts: a refused call never runs anything of the server's.
    const refused = await policyRefusal(settings.toolApproval, serverName, toolName, args, values, io, controller.signal);
    if (refused) {
      io.err(`glance mcp: ${refused}\n`);
      return EXIT.policyRefused;
    }
    const tools = await hub.listTools(controller.signal);
    const server = hub.status().find((s) => s.name === serverName) as McpServerHealth;
    if (server.state !== 'ready') {
      io.err(`glance mcp: ${server.message ?? `server "${serverName}" is ${server.state}`}\n`);
      return UNREACHABLE;
    }
    const offered = tools.filter((t) => t.server === serverName);
    const target = offered.find((t) => t.tool === toolName);
    if (!target) {
      throw new UsageError(`server "${serverName}" has no tool "${toolName}" (it has: ${offered.map((t) => t.tool).join(', ') || 'none'})`);
    }
    // As a model's call of it would: a tool that can change things runs only with consent.
    const unconsented = await consentRefusal(target, settings.toolApproval, args, values, io, controller.signal);
    if (unconsented) {
      io.err(`glance mcp: ${unconsented}\n`);
      return EXIT.policyRefused;
    }
    const outcome = await hub.callServerTool(serverName, toolName, args, {
      signal: controller.signal,
      onProgress: (p) => {
        if (!values.json) io.err(`progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ''}${p.message ? ` ${p.message}` : ''}\n`);
      },
    });
    if (values.json) {
      const images = outcome.images.map((info) => ({ ...info, path: store.pathOf(info) }));
      io.out(JSON.stringify({ ...outcome, images }, null, 2) + '\n');
    } else {
      io.out(outcome.text.endsWith('\n') ? outcome.text : `${outcome.text}\n`);
      for (const info of outcome.images) io.err(`image ${info.id}: ${info.width}×${info.height} ${info.mime}, ${info.bytes} bytes → ${store.pathOf(info)}\n`);
      for (const file of outcome.files) io.err(`file: ${file.mime}, ${file.bytes} bytes → ${file.path}\n`);
      for (const note of outcome.notes) io.err(`note: ${note}\n`);
    }
    if (outcome.ok) return EXIT.ok;
    const unreachable = outcome.failure === 'server-crashed' || outcome.failure === 'server-unavailable' || outcome.failure === 'timeout';
    return unreachable ? UNREACHABLE : EXIT.failure;
  } finally {
    process.off('SIGINT', onSigint);
    await hub.close();
  }
}

/**
 * Why the tool approval rules refuse this call, or undefined when it may run (as far as a rule
 * says: consentRefusal then asks for a tool no rule names). "Never run" holds whatever the flags
 * say, and "Ask every time" asks at a terminal or takes --yes / --allow-tools.
 */
async function policyRefusal(policy: ToolPolicy, server: string, tool: string, args: Record<string, unknown>, values: Values, io: CommandIO, signal: AbortSignal): Promise<string | undefined> {
  const name = `${server}__${tool}`;
  const rule = ruleFor(policy, name);
  const quoted = rule && rule.pattern !== name ? ` (the rule "${rule.pattern}")` : '';
  if (rule?.value === 'deny') {
    return `not run: Settings → Tool approval says ${name} never runs${quoted}. --yes does not override a "Never run" rule; change it in Settings to call this tool.`;
  }
  if (rule?.value !== 'ask') return undefined;
  const approver = cliApprover({ io, policy, allowTools: parseAllowTools(values['allow-tools']), yes: values.yes });
  const answer = await approver.decide({ conversationId: 'glance mcp call', callId: 'call', name, arguments: args, server, tool }, { signal, pending: () => undefined });
  if (answer.decision !== 'deny') return undefined;
  if (answer.by === 'user') return `not run: you declined ${name}.`;
  return `not run: Settings → Tool approval says ${name} asks every time${quoted}, and there is no terminal to ask at. Run again with --yes or --allow-tools ${name} to allow it.`;
}

/**
 * Why a tool that can change things may not run, or undefined when it may. The same test as a
 * model's call (needsConsent: no readOnlyHint, a destructiveHint, or a read-only claim from a
 * server not marked trusted), answered by the same approver: a terminal question, --yes,
 * --allow-tools. A rule in Settings → Tool approval was applied before the server started.
 */
async function consentRefusal(target: McpHubTool, policy: ToolPolicy, args: Record<string, unknown>, values: Values, io: CommandIO, signal: AbortSignal): Promise<string | undefined> {
  const name = `${target.server}__${target.tool}`;
  if (ruleFor(policy, name) !== undefined || !needsConsent(target)) return undefined;
  const claim = readOnlyClaim(target.annotations);
  const approver = cliApprover({ io, policy, allowTools: parseAllowTools(values['allow-tools']), yes: values.yes });
  const request = { conversationId: 'glance mcp call', callId: 'call', name, arguments: args, server: target.server, tool: target.tool, ...(claim ? { claim } : {}) };
  const answer = await approver.decide(request, { signal, pending: () => undefined });
  if (answer.decision !== 'deny') return undefined;
  if (answer.by === 'user') return `not run: you declined ${name}.`;
  const why = target.annotations?.destructiveHint === true
    ? 'the server marks it destructive'
    : claim
      ? `it says it only reads, but server "${target.server}" is not marked trusted`
      : 'the server does not mark it read-only';
  return `not run: ${name} can change things (${why}), so it needs your consent, as a model's call of it would, and there is no terminal to ask at. Run again with --yes or --allow-tools ${name} to allow it.`;
}

/** The config file, or undefined after printing why it cannot be used. Default: <data dir>/mcp.json. */
async function readConfig(file: string | undefined, dataDir: string, io: CommandIO, only?: string): Promise<McpConfig | undefined> {
  let path = file;
  if (path === undefined) {
    path = join(dataDir, 'mcp.json');
    if (!existsSync(path)) return emptyMcpConfig();
  }
  const config = await loadMcpConfig(isAbsolute(path) ? path : resolve(path), { env: io.env });
  const fatal = config.errors.filter((e) => e.server === undefined);
  for (const error of config.errors) if (only === undefined || error.server === undefined) io.err(`glance mcp: ${formatConfigError(error)}\n`);
  return fatal.length > 0 ? undefined : config;
}

function hubOf(services: Services): McpHub {
  if (!services.hub) throw new Error('composeServices builds a hub for every config it is given');
  return services.hub;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 97)}…` : line;
}
