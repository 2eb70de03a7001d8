// The MCP hub (architecture §6): one SDK Client per configured server, tools namespaced
// `server__tool`, every call with a timeout and an abort, results through binary capture.
//
// Servers start on first use (listTools or callTool); the app and the harness also start them
// in the background at launch (startAll), so a broken one shows in Settings before first use
// and never blocks the window. reconfigure() applies a new config live: new servers start,
// removed ones stop, changed ones restart, unchanged ones keep running; onChange() announces
// every state change (the Settings list follows it). A server that crashes or hangs fails the call in progress (as a
// failed outcome, never a throw) and is restarted on its next use; close() shuts every child
// down (stdin closed, then SIGTERM, then SIGKILL — the SDK transport's sequence) and ends
// streamable HTTP sessions with DELETE.
//
// Protocol: the SDK's (2025-11-25, with fallback to the 2024-11-05 HTTP+SSE transport).
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { McpInput, RemoteServerConfig } from '../../common/mcpConfig.ts';
import type { ImageTarget } from '../images/types.ts';
import type { BinaryCapture, McpToolOutcome } from './binaryCapture.ts';
import type { McpClientFeatures } from './clientFeatures.ts';
import type { McpConfig, McpConfigError } from './config.ts';
import { failed } from './mcpErrors.ts';
import { ElicitationLedger } from './elicitationGuard.ts';
import type { McpSignIn } from './mcpOAuth.ts';
import { ServerConnection } from './serverConnection.ts';
import { invalidServers, sameConfig } from './configDiff.ts';
import { claimedTitle, cleanName, namespacedName } from './namespacedName.ts';

export { namespacedName } from './namespacedName.ts';

export type { McpToolOutcome, McpFailureCode } from './binaryCapture.ts';

/** A tool as the model is offered it. `name` matches ^[a-zA-Z0-9_-]{1,64}$ (OpenAI and Ollama). */
export type McpHubTool = {
  name: string;
  server: string;
  tool: string;
  /** The tool's display title (tool.title, else annotations.title), for the UI; never one naming Glance. */
  title?: string;
  /** The title the server gives itself (serverInfo.title): secondary to `server`, never one naming Glance. */
  serverTitle?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The server's hints (readOnlyHint, destructiveHint, idempotentHint, openWorldHint): for approval policy. */
  annotations?: ToolAnnotations;
  /** The config's `alwaysAllow` names this tool (or "*"): the user approved it ahead of time. */
  alwaysAllow: boolean;
  /** The person marked this server trusted (`trusted: true`): its readOnlyHint may skip approval. */
  trusted: boolean;
};

export type McpProgress = { progress: number; total?: number; message?: string };

export type McpCallOptions = {
  signal?: AbortSignal;
  onProgress?: (p: McpProgress) => void;
  /** Idle timeout: reset by each progress notification (total capped at 10×). */
  timeoutMs?: number;
  /** The model that will look at captured images (fits them to its profile). */
  imageTarget?: ImageTarget;
};

export type McpServerState = 'idle' | 'starting' | 'ready' | 'failed' | 'crashed' | 'hung' | 'disabled' | 'invalid' | 'closed';

/** The hub's own view of a server (9 states, restarts, pid); the UI gets McpServerStatus (common/ipc.ts). */
export type McpServerHealth = {
  name: string;
  /** The server's display name (serverInfo.title), once started. */
  title?: string;
  /** What it speaks: `sse` also when found by fallback from streamable HTTP. */
  transport: 'stdio' | 'http' | 'sse' | undefined;
  state: McpServerState;
  /** Why it is failed/crashed/hung/invalid, in words a person can act on. */
  message?: string;
  tools: number;
  /** Restarts after a crash, a hang or restart(). */
  restarts: number;
  pid?: number;
  /** Config keys Glance does not use, and the like. */
  warnings?: string[];
  /** Tools the server has that are not offered, and why. */
  hiddenTools?: { tool: string; reason: string }[];
  /** Where its `notifications/message` log lines go. */
  logFile?: string;
};

/** `${input:id}` to answer: the declaration from `inputs` when there is one. */
export type McpInputRequest = { server: string; id: string; input: McpInput | undefined };

export type McpHubOptions = {
  config: McpConfig;
  capture: BinaryCapture;
  log?: (message: string) => void;
  /** Per-call timeout when neither the call nor the server's config sets one. Default 60 s. */
  defaultTimeoutMs?: number;
  /** Start (spawn/connect + initialize + tools/list). Default 30 s. */
  startTimeoutMs?: number;
  /** A server whose start failed is not retried by listTools for this long. Default 30 s. */
  retryAfterMs?: number;
  /**
   * Largest single stdio message. The SDK's ReadBuffer closes the connection past 10 MB by
   * default; a 50 MB image (the intake's ingest cap) is ~67 MB of base64, so 96 MB here.
   */
  maxMessageBytes?: number;
  /** Roots, elicitation, sampling, logging: what this entry can serve. */
  features?: McpClientFeatures;
  /** Answers `${input:id}`; undefined leaves the server unstarted with a message. */
  resolveInput?: (request: McpInputRequest, signal?: AbortSignal) => Promise<string | undefined>;
  /** How the person supplies an input here ("set GLANCE_INPUT_TOKEN"), for the failure message. */
  inputHint?: (id: string) => string;
  /** OAuth for remote servers without an Authorization header (mcpOAuth.ts). */
  auth?: (server: string, config: RemoteServerConfig) => Promise<McpSignIn | undefined>;
  /** Glance's own environment, for the proxy and CA variables stdio servers inherit. Default process.env. */
  parentEnv?: NodeJS.ProcessEnv;
  /** A server failed to start, crashed or hung: for a notice the person sees. */
  onFailure?: (server: McpServerHealth) => void;
};

export type HubOptions = Required<Pick<McpHubOptions, 'defaultTimeoutMs' | 'startTimeoutMs' | 'retryAfterMs' | 'maxMessageBytes' | 'features'>> &
  Pick<McpHubOptions, 'log' | 'capture' | 'resolveInput' | 'inputHint' | 'auth' | 'parentEnv' | 'onFailure'> & {
    inputs: McpConfig['inputs'];
    /** A server's state or tools changed (the hub announces it to its listeners). */
    changed?: (server: string) => void;
  };

/** What reconfigure() did, by server name. */
export type McpReconfigured = { added: string[]; removed: string[]; restarted: string[]; unchanged: string[] };

const DEFAULT_MAX_MESSAGE_BYTES = 96 * 1024 * 1024;
/** All servers' instructions together in the system prompt stay under this. */
const MAX_ALL_INSTRUCTIONS_CHARS = 6000;

export class McpHub {
  readonly #answered = new ElicitationLedger();
  #servers = new Map<string, ServerConnection>();
  #invalid: McpServerHealth[] = [];
  readonly #opts: HubOptions;
  readonly #listeners = new Set<() => void>();
  #announcing = false;
  /** reconfigure() calls run one after another, in the order they were made. */
  #reconfiguring: Promise<unknown> = Promise.resolve();
  /** namespaced name → server + tool, rebuilt by listTools. */
  #names = new Map<string, { server: string; tool: string }>();
  #closed = false;
  #warnings: McpConfigError[] = [];

  constructor(options: McpHubOptions) {
    this.#opts = {
      capture: options.capture,
      log: options.log,
      defaultTimeoutMs: options.defaultTimeoutMs ?? 60_000,
      startTimeoutMs: options.startTimeoutMs ?? 30_000,
      retryAfterMs: options.retryAfterMs ?? 30_000,
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      // One ledger per hub: a secret typed for any server is hidden from every result and log.
      features: { ...options.features, answered: this.#answered },
      resolveInput: options.resolveInput,
      inputHint: options.inputHint,
      auth: options.auth,
      parentEnv: options.parentEnv,
      onFailure: options.onFailure,
      inputs: options.config.inputs,
      changed: () => this.#announce(),
    };
    for (const [name, config] of options.config.servers) this.#servers.set(name, new ServerConnection(name, config, this.#opts));
    this.#invalid = invalidServers(options.config);
    this.#warnings = options.config.warnings;
  }

  /** Called (at most once per tick) after any server's state or tools change. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #announce(): void {
    if (this.#announcing) return;
    this.#announcing = true;
    // Coalesced: a start sets state, message and tools in one go; listeners see the end of it.
    queueMicrotask(() => {
      this.#announcing = false;
      for (const listener of this.#listeners) listener();
    });
  }

  /**
   * Starts every enabled server now (never throws). `unattended` (at launch, no window yet):
   * servers that may ask the person something (an input, a sign-in) wait for first use.
   */
  async startAll(options: { unattended?: boolean } = {}): Promise<void> {
    if (!options.unattended) {
      await this.listTools().catch(() => undefined);
      return;
    }
    const quiet = [...this.#servers.values()].filter((s) => !s.mayAsk);
    await Promise.allSettled(quiet.map((s) => s.ensure(undefined, { respectBackoff: true })));
    this.#names = this.#offered().names;
  }

  /**
   * Applies a new config live. A server whose config is the same keeps running (its process,
   * session and tools untouched); a changed one is stopped and started again; a removed one is
   * stopped (stdin closed / SIGTERM, HTTP session DELETE); a new one starts. Resolves once the
   * old servers are stopped; the new ones start in the background and announce their state.
   */
  reconfigure(config: McpConfig): Promise<McpReconfigured> {
    const run = this.#reconfiguring.then(() => this.#apply(config));
    this.#reconfiguring = run.catch(() => undefined);
    return run;
  }

  async #apply(config: McpConfig): Promise<McpReconfigured> {
    const done: McpReconfigured = { added: [], removed: [], restarted: [], unchanged: [] };
    if (this.#closed) return done;
    const next = new Map<string, ServerConnection>();
    const stopping: Promise<void>[] = [];
    for (const [name, wanted] of config.servers) {
      const running = this.#servers.get(name);
      if (running && sameConfig(running.config, wanted)) {
        next.set(name, running);
        done.unchanged.push(name);
        continue;
      }
      if (running) stopping.push(running.stop('its configuration changed', true));
      (running ? done.restarted : done.added).push(name);
      next.set(name, new ServerConnection(name, wanted, this.#opts));
    }
    for (const [name, running] of this.#servers) {
      if (next.has(name)) continue;
      stopping.push(running.stop('it was removed from the configuration', true));
      done.removed.push(name);
    }
    this.#servers = next;
    this.#invalid = invalidServers(config);
    this.#warnings = config.warnings;
    this.#opts.inputs = config.inputs;
    this.#names = this.#offered().names;
    this.#announce();
    await Promise.allSettled(stopping);
    for (const name of [...done.added, ...done.restarted]) void next.get(name)?.ensure(undefined, { respectBackoff: false }).catch(() => undefined);
    return done;
  }

  /**
   * Every tool of every server that starts, namespaced `server__tool` in config order. A server
   * that fails to start is left out and reported by status(); the others are still listed.
   */
  async listTools(signal?: AbortSignal): Promise<McpHubTool[]> {
    if (this.#closed) return [];
    const servers = [...this.#servers.values()];
    await Promise.allSettled(servers.map((s) => s.ensure(signal, { respectBackoff: true })));
    const { names, tools } = this.#offered();
    this.#names = names;
    return tools;
  }

  /** The tools of the servers running now, without starting any (the context meter's view). */
  peekTools(): McpHubTool[] {
    return this.#closed ? [] : this.#offered().tools;
  }

  #offered(): { names: Map<string, { server: string; tool: string }>; tools: McpHubTool[] } {
    const names = new Map<string, { server: string; tool: string }>();
    const out: McpHubTool[] = [];
    for (const server of this.#servers.values()) {
      for (const tool of server.tools ?? []) {
        const name = namespacedName(server.name, tool.name, names);
        names.set(name, { server: server.name, tool: tool.name });
        const title = claimedTitle(tool.title ?? tool.annotations?.title);
        const allow = server.config.alwaysAllow;
        out.push({
          name,
          server: server.name,
          tool: tool.name,
          ...(title ? { title } : {}),
          ...(server.title ? { serverTitle: server.title } : {}),
          description: tool.description ?? title ?? '',
          inputSchema: tool.inputSchema as Record<string, unknown>,
          ...(tool.annotations ? { annotations: tool.annotations } : {}),
          alwaysAllow: allow.includes(tool.name) || allow.includes('*'),
          trusted: server.config.trusted === true,
        });
      }
    }
    return { names, tools: out };
  }

  /** The config's `alwaysAllow` covers this namespaced tool (the approver's standing policy). */
  preApproved(name: string): boolean {
    const target = this.#names.get(name);
    const allow = target ? this.#servers.get(target.server)?.config.alwaysAllow : undefined;
    return Boolean(target && allow && (allow.includes(target.tool) || allow.includes('*')));
  }

  /** Calls a tool by its namespaced name. Never throws: failures are `ok:false` outcomes. */
  async callTool(name: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<McpToolOutcome> {
    let target = this.#names.get(name);
    if (!target && !this.#closed) {
      await this.listTools(options.signal).catch(() => []);
      target = this.#names.get(name);
    }
    if (!target) return failed('unknown-tool', this.whyNoTool(name) ?? `There is no MCP tool named "${name}".`);
    return this.callServerTool(target.server, target.tool, args, options);
  }

  /** Calls a tool by server and the server's own tool name (the CLI's `mcp call SERVER TOOL`). */
  async callServerTool(serverName: string, tool: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<McpToolOutcome> {
    if (this.#closed) return failed('closed', 'The MCP hub is shut down.');
    const server = this.#servers.get(serverName);
    if (!server) {
      const invalid = this.#invalid.find((s) => s.name === serverName);
      return invalid
        ? failed('server-unavailable', `MCP server "${serverName}" has an invalid configuration: ${invalid.message}`)
        : failed('unknown-tool', `There is no MCP server named "${serverName}".`);
    }
    let origin = namespacedName(serverName, tool, new Map());
    for (const [name, t] of this.#names) if (t.server === serverName && t.tool === tool) origin = name;
    return this.#answered.apply(serverName, await server.call(tool, origin, args, options));
  }

  /** The model asked for a tool that is not there: which server failed and why, if one did. */
  whyNoTool(name: string): string | undefined {
    const down = [...this.#servers.values()].filter((s) => name.startsWith(`${cleanName(s.name)}__`));
    const server = down.sort((a, b) => b.name.length - a.name.length)[0];
    const health = server?.status();
    if (server && health && health.state !== 'ready') {
      return `There is no MCP tool named "${name}": its server "${server.name}" is ${health.state}${health.message ? ` — ${health.message}` : ''}.`;
    }
    const invalid = this.#invalid.find((s) => name.startsWith(`${s.name}__`));
    if (invalid) return `There is no MCP tool named "${name}": server "${invalid.name}" has an invalid configuration (${invalid.message}).`;
    return undefined;
  }

  status(): McpServerHealth[] {
    const warningsOf = (name: string) => this.#warnings.filter((w) => w.server === name).map((w) => `${w.field ? `"${w.field}": ` : ''}${w.message}`);
    return [...[...this.#servers.values()].map((s) => s.status()), ...this.#invalid].map((h) => {
      const warnings = warningsOf(h.name);
      return warnings.length ? { ...h, warnings } : h;
    });
  }

  /** Servers that could not start (or crashed), for a notice and for the model's system prompt. */
  unavailable(): McpServerHealth[] {
    return this.status().filter((s) => s.state === 'failed' || s.state === 'invalid' || s.state === 'crashed' || s.state === 'hung');
  }

  /**
   * What the model should know about MCP this turn: each ready server's `instructions`
   * (bounded), and which configured servers are unavailable and why.
   */
  promptNotes(skipServers: readonly string[] = []): string | undefined {
    const parts: string[] = [];
    let budget = MAX_ALL_INSTRUCTIONS_CHARS;
    for (const server of this.#servers.values()) {
      if (!server.instructions || !server.ready || budget <= 0 || skipServers.includes(server.name)) continue;
      const text = server.instructions.slice(0, budget);
      budget -= text.length;
      parts.push(`Instructions from MCP server "${server.name}" (its tools are named ${server.name}__…):\n${text}`);
    }
    const down = this.unavailable().filter((s) => !skipServers.includes(s.name));
    if (down.length) {
      parts.push(`These MCP servers are unavailable, so their tools are not offered: ${down.map((s) => `"${s.name}" (${s.state}${s.message ? `: ${s.message.slice(0, 300)}` : ''})`).join('; ')}.`);
    }
    return parts.length ? parts.join('\n\n') : undefined;
  }

  /** The allowed roots changed: tell every running server that asked for roots (roots/list_changed). */
  async rootsChanged(): Promise<void> {
    if (!this.#opts.features.roots) return;
    await Promise.allSettled([...this.#servers.values()].map((s) => s.ready?.sendRootsListChanged()));
  }

  /** Stops a server (if running) and starts it again now. */
  async restart(serverName: string, signal?: AbortSignal): Promise<McpServerHealth | undefined> {
    const server = this.#servers.get(serverName);
    if (!server || this.#closed) return server?.status();
    await server.stop('restarted on request');
    server.countRestart();
    await server.ensure(signal, { respectBackoff: false }).catch(() => undefined);
    return server.status();
  }

  /** Shuts every server down; later calls fail with code "closed". */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#servers.values()].map((s) => s.stop('the hub closed', true)));
  }
}
