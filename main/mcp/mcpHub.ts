// The MCP hub (architecture §6): one SDK Client per configured server, tools namespaced
// `server__tool`, every call with a timeout and an abort, results through binary capture.
//
// Servers start on first use (listTools, turnTools or callTool); the app and the harness also start
// them in the background at launch (startAll), so a broken one shows in Settings before first use
// and never blocks the window. A chat turn (turnTools) never waits for a person or for a server
// that does not answer: it gets the tools of the servers that are ready (turnReadiness.ts). reconfigure() applies a new config live: new servers start,
// removed ones stop, changed ones restart, unchanged ones keep running; onChange() announces
// every state change (the Settings list follows it). A server that crashes or hangs fails the call in progress (as a
// failed outcome, never a throw) and is restarted on its next use; close() shuts every child
// down (stdin closed, then SIGTERM, then SIGKILL — the SDK transport's sequence) and ends
// streamable HTTP sessions with DELETE.
//
// Protocol: the SDK's (2025-11-25, with fallback to the 2024-11-05 HTTP+SSE transport).
import type { McpToolOutcome } from './binaryCapture.ts';
import type { McpConfig, McpConfigError } from './config.ts';
import { failed } from './mcpErrors.ts';
import { ElicitationLedger } from './elicitationGuard.ts';
import { ServerConnection } from './serverConnection.ts';
import { invalidServers, sameConfig } from './configDiff.ts';
import { claimedTitle, cleanName, namespacedName } from './namespacedName.ts';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { readinessWords, type ServerReadiness } from '../../common/toolServers.ts';
import { readiness, waitForStarting } from './turnReadiness.ts';
import type { HubOptions, McpCallOptions, McpHubOptions, McpHubTool, McpReconfigured, McpServerHealth } from './hubTypes.ts';

export { namespacedName } from './namespacedName.ts';

export type { McpToolOutcome, McpFailureCode } from './binaryCapture.ts';

export type { HubOptions, McpCallOptions, McpHubOptions, McpHubTool, McpInputRequest, McpProgress, McpReconfigured, McpServerHealth, McpServerState } from './hubTypes.ts';

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
      turnWaitMs: typeof options.turnWaitMs === 'function' ? options.turnWaitMs : () => (options.turnWaitMs as number | undefined) ?? DEFAULT_LIMITS.mcpTurnWaitMs,
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

  /**
   * The tools a chat turn gets. Every server is started if it is not running (in the background:
   * nothing here waits for a start to finish); the turn waits only for a server that began
   * starting less than `turnWaitMs` ago without asking anyone. `pending` names the servers whose
   * tools it goes without — still starting, waiting for the person's answer, or failed.
   */
  async turnTools(signal?: AbortSignal): Promise<{ tools: McpHubTool[]; pending: ServerReadiness[] }> {
    if (this.#closed) return { tools: [], pending: [] };
    const servers = [...this.#servers.values()];
    const started = servers.map((server) => ({ server, done: server.ensure(undefined, { respectBackoff: true }).then(() => undefined, () => undefined) }));
    await waitForStarting(started, this.#opts.turnWaitMs(), signal);
    const { names, tools } = this.#offered();
    this.#names = names;
    return { tools, pending: this.pending() };
  }

  /** Starts every enabled server that is not running, without waiting for any (the CLI, as a command begins). */
  startInBackground(): void {
    if (this.#closed) return;
    for (const server of this.#servers.values()) void server.ensure(undefined, { respectBackoff: true }).catch(() => undefined);
  }

  /** Configured servers whose tools are not offered now: still starting, waiting for the person, failed. */
  pending(skipServers: readonly string[] = []): ServerReadiness[] {
    const invalid = this.#invalid.map((h): ServerReadiness => ({ name: h.name, state: 'failed', ...(h.message ? { message: h.message } : {}) }));
    return [...readiness([...this.#servers.values()]), ...invalid].filter((r) => !skipServers.includes(r.name));
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
    const server = target || this.#closed ? undefined : this.#serverNamed(name);
    if (server) {
      // Its server starts (or its tools are read again) first, but a start waiting for the person is not waited for.
      const started = server.ensure(options.signal, { respectBackoff: true }).then(() => undefined, () => undefined);
      await Promise.race([started, server.whenAsking()]);
      this.#names = this.#offered().names;
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

  /** The server a namespaced tool name belongs to (the longest name that prefixes it). */
  #serverNamed(name: string): ServerConnection | undefined {
    const candidates = [...this.#servers.values()].filter((s) => name.startsWith(`${cleanName(s.name)}__`));
    return candidates.sort((a, b) => b.name.length - a.name.length)[0];
  }

  /** The model asked for a tool that is not there: which server failed and why, if one did. */
  whyNoTool(name: string): string | undefined {
    const server = this.#serverNamed(name);
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
    const waiting = this.pending(skipServers).filter((r) => r.state !== 'failed');
    if (waiting.length) {
      parts.push(`These MCP servers are not ready yet, so their tools are not offered in this answer (they may be later): ${waiting.map(readinessWords).join(', ')}.`);
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
