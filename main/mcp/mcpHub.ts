// The MCP hub (DESIGN §6): one SDK Client per configured server, tools namespaced
// `server__tool`, every call with a timeout and an abort, results through binary capture.
//
// Servers start lazily, on first use (listTools or callTool), not at launch: the window opens
// without waiting for child processes, a broken server never blocks startup, and a server no
// conversation uses costs nothing. The app may warm them up by calling listTools() in the
// background after launch. A server that crashes or hangs fails the call in progress (as a
// failed outcome, never a throw) and is restarted on its next use; close() shuts every child
// down (stdin closed, then SIGTERM, then SIGKILL — the SDK transport's sequence).
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createStdioTransport } from './stdioTransport.ts';
import type { ImageTarget } from '../images/types.ts';
import type { BinaryCapture, McpFailureCode, McpToolOutcome } from './binaryCapture.ts';
import type { McpConfig, McpServerConfig } from './config.ts';
import { abortable } from '../abortable.ts';

export type { McpToolOutcome, McpFailureCode } from './binaryCapture.ts';

/** A tool as the model is offered it. `name` matches ^[a-zA-Z0-9_-]{1,64}$ (OpenAI and Ollama). */
export type McpHubTool = { name: string; server: string; tool: string; description: string; inputSchema: Record<string, unknown> };

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
  transport: 'stdio' | 'http' | undefined;
  state: McpServerState;
  /** Why it is failed/crashed/hung/invalid, in words a person can act on. */
  message?: string;
  tools: number;
  /** Restarts after a crash, a hang or restart(). */
  restarts: number;
  pid?: number;
};

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
};

type HubOptions = Required<Omit<McpHubOptions, 'log' | 'config' | 'capture'>> & Pick<McpHubOptions, 'log' | 'capture'>;

export const DEFAULT_MAX_MESSAGE_BYTES = 96 * 1024 * 1024;
const NAME_RE = /^[a-zA-Z0-9_-]{1,64}$/;

// Loose on purpose: the SDK's strict schema would reject a whole result for one malformed
// block (or atob() a 7 MB string just to validate it); binary capture judges blocks itself.
const LooseCallToolResult = z.looseObject({
  content: z.array(z.unknown()).optional(),
  isError: z.boolean().optional(),
  structuredContent: z.unknown().optional(),
});

export class McpHub {
  readonly #servers = new Map<string, ServerConnection>();
  readonly #invalid: McpServerHealth[] = [];
  readonly #opts: HubOptions;
  /** namespaced name → server + tool, rebuilt by listTools. */
  #names = new Map<string, { server: string; tool: string }>();
  #closed = false;

  constructor(options: McpHubOptions) {
    this.#opts = {
      capture: options.capture,
      log: options.log,
      defaultTimeoutMs: options.defaultTimeoutMs ?? 60_000,
      startTimeoutMs: options.startTimeoutMs ?? 30_000,
      retryAfterMs: options.retryAfterMs ?? 30_000,
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    };
    for (const [name, config] of options.config.servers) this.#servers.set(name, new ServerConnection(name, config, this.#opts));
    for (const error of options.config.errors) {
      if (error.server === undefined || this.#invalid.some((s) => s.name === error.server)) continue;
      this.#invalid.push({ name: error.server, transport: undefined, state: 'invalid', message: `${error.field ? `field "${error.field}": ` : ''}${error.message}`, tools: 0, restarts: 0 });
    }
  }

  /**
   * Every tool of every server that starts, namespaced `server__tool` in config order. A server
   * that fails to start is left out and reported by status(); the others are still listed.
   */
  async listTools(signal?: AbortSignal): Promise<McpHubTool[]> {
    if (this.#closed) return [];
    const servers = [...this.#servers.values()];
    await Promise.allSettled(servers.map((s) => s.ensure(signal, { respectBackoff: true })));
    const names = new Map<string, { server: string; tool: string }>();
    const out: McpHubTool[] = [];
    for (const server of servers) {
      for (const tool of server.tools ?? []) {
        const name = namespacedName(server.name, tool.name, names);
        names.set(name, { server: server.name, tool: tool.name });
        out.push({ name, server: server.name, tool: tool.name, description: tool.description ?? tool.title ?? '', inputSchema: tool.inputSchema as Record<string, unknown> });
      }
    }
    this.#names = names;
    return out;
  }

  /** Calls a tool by its namespaced name. Never throws: failures are `ok:false` outcomes. */
  async callTool(name: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<McpToolOutcome> {
    let target = this.#names.get(name);
    if (!target && !this.#closed) {
      await this.listTools(options.signal).catch(() => []);
      target = this.#names.get(name);
    }
    if (!target) return failed('unknown-tool', `There is no MCP tool named "${name}".`);
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
    return server.call(tool, origin, args, options);
  }

  status(): McpServerHealth[] {
    return [...[...this.#servers.values()].map((s) => s.status()), ...this.#invalid];
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

class ServerConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly #opts: HubOptions;
  tools: SdkTool[] | undefined;
  #state: McpServerState;
  #message: string | undefined;
  #client: Client | undefined;
  #transport: StdioClientTransport | StreamableHTTPClientTransport | undefined;
  #starting: Promise<Client> | undefined;
  /** Set after a crash or a timeout: the next use starts a fresh process. */
  #needsRestart = false;
  #restarts = 0;
  #failedAt = 0;
  #stderr = '';
  #lastError: string | undefined;
  /** Why we closed the connection ourselves (so onclose is not taken for a crash). */
  #stopping: string | undefined;
  #toolsStale = false;
  /** The hub closed: nothing starts again (also stops a start that was under way). */
  #final = false;

  constructor(name: string, config: McpServerConfig, opts: HubOptions) {
    this.name = name;
    this.config = config;
    this.#opts = opts;
    this.#state = config.disabled ? 'disabled' : 'idle';
  }

  status(): McpServerHealth {
    const pid = this.#transport instanceof StdioClientTransport ? (this.#transport.pid ?? undefined) : undefined;
    return {
      name: this.name,
      transport: this.config.kind,
      state: this.#state,
      ...(this.#message ? { message: this.#message } : {}),
      tools: this.tools?.length ?? 0,
      restarts: this.#restarts,
      ...(pid !== undefined && this.#state === 'ready' ? { pid } : {}),
    };
  }

  countRestart(): void {
    this.#restarts++;
  }

  /** A ready client: started now, reused, or restarted after a crash or hang. */
  async ensure(signal: AbortSignal | undefined, how: { respectBackoff: boolean }): Promise<Client> {
    if (this.#final) throw new Error('the hub is shut down');
    if (this.#state === 'disabled') throw new Error(`MCP server "${this.name}" is disabled in the configuration`);
    // A start in progress already holds #client, but not its tools yet: everyone waits for it.
    if (this.#starting) return abortable(this.#starting, signal);
    if (this.#client && !this.#needsRestart) {
      if (this.#toolsStale) await this.#refreshTools(this.#client, signal).catch(() => undefined);
      return this.#client;
    }
    if (!this.#starting) {
      if (how.respectBackoff && this.#state === 'failed' && Date.now() - this.#failedAt < this.#opts.retryAfterMs) {
        throw new Error(this.#message ?? 'failed to start');
      }
      this.#starting = this.#start().finally(() => (this.#starting = undefined));
    }
    return abortable(this.#starting, signal);
  }

  async #start(): Promise<Client> {
    if (this.#client) {
      // A crash or a hang: replace the old process.
      await this.stop(this.#state === 'hung' ? 'restarted after a hang' : 'restarted after a crash');
      this.#restarts++;
    }
    this.#needsRestart = false;
    this.#state = 'starting';
    this.#message = undefined;
    this.#stderr = '';
    this.#lastError = undefined;
    const transport = this.#makeTransport();
    const client = new Client({ name: 'glance', version: '0.1.0' }, { capabilities: {} });
    client.onerror = (error) => {
      this.#lastError = error.message;
      this.#opts.log?.(`mcp ${this.name}: ${error.message}`);
    };
    client.onclose = () => this.#onClose(client);
    this.#client = client;
    this.#transport = transport;
    try {
      await client.connect(transport, { timeout: this.#opts.startTimeoutMs });
      deliverResponsesAfterNotifications(transport);
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        this.#toolsStale = true;
      });
      await this.#refreshTools(client, undefined);
      if (this.#final) throw new Error('the hub is shut down');
      this.#state = 'ready';
      return client;
    } catch (error) {
      await new Promise((resolve) => setImmediate(resolve)); // let the last stderr lines arrive
      const message = `MCP server "${this.name}" could not start: ${describeError(error, this.#lastError)}${this.#stderrTail()}`;
      this.#stopping = 'start failed';
      await client.close().catch(() => undefined);
      this.#stopping = undefined;
      this.#client = undefined;
      this.#transport = undefined;
      this.#state = this.#final ? 'closed' : 'failed';
      this.tools = undefined; // a server that does not start offers nothing
      this.#message = message;
      this.#failedAt = Date.now();
      this.#opts.log?.(message);
      throw new Error(message, { cause: error });
    }
  }

  #makeTransport(): StdioClientTransport | StreamableHTTPClientTransport {
    const c = this.config;
    if (c.kind === 'http') {
      return new StreamableHTTPClientTransport(new URL(c.url), c.headers ? { requestInit: { headers: c.headers } } : undefined);
    }
    const transport = createStdioTransport({
      command: c.command,
      args: c.args,
      ...(c.env ? { env: c.env } : {}),
      ...(c.cwd ? { cwd: c.cwd } : {}),
      stderr: 'pipe',
      maxBufferSize: this.#opts.maxMessageBytes,
    });
    // Keep the tail of stderr for error messages (and drain the pipe so the child never blocks).
    (transport.stderr as Readable | null)?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-2000);
    });
    return transport;
  }

  async #refreshTools(client: Client, signal: AbortSignal | undefined): Promise<void> {
    const tools: SdkTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.#opts.startTimeoutMs, ...(signal ? { signal } : {}) });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = tools;
    this.#toolsStale = false;
  }

  #onClose(client: Client): void {
    if (client !== this.#client || this.#stopping !== undefined) return;
    this.#needsRestart = true;
    if (this.#state === 'starting') return; // #start reports it
    this.#state = 'crashed';
    this.#message = `the server's connection closed${this.#lastError ? ` (${this.#lastError})` : ''}; it will be restarted on next use`;
    this.#opts.log?.(`mcp ${this.name}: ${this.#message}${this.#stderrTail()}`);
  }

  #stderrTail(): string {
    const tail = this.#stderr.trim().split('\n').slice(-5).join(' | ').slice(-500);
    return tail ? ` — server stderr: ${tail}` : '';
  }

  async stop(reason: string, final = false): Promise<void> {
    const client = this.#client;
    if (final) this.#final = true;
    this.#stopping = reason;
    try {
      if (client) await client.close().catch(() => undefined);
    } finally {
      this.#stopping = undefined;
    }
    if (client === this.#client) {
      this.#client = undefined;
      this.#transport = undefined;
    }
    if (final) this.#state = 'closed';
    else if (this.#state !== 'disabled') this.#state = 'idle';
  }

  /** `origin` is the namespaced name the model called: captured images carry it. */
  async call(tool: string, origin: string, args: Record<string, unknown>, options: McpCallOptions): Promise<McpToolOutcome> {
    let client: Client;
    try {
      client = await this.ensure(options.signal, { respectBackoff: false });
    } catch (error) {
      if (options.signal?.aborted) return failed('aborted', `The call to ${origin} was cancelled before the server was ready.`);
      return failed(this.#state === 'closed' ? 'closed' : 'server-unavailable', errorText(error));
    }
    const timeout = options.timeoutMs ?? this.config.timeoutMs ?? this.#opts.defaultTimeoutMs;
    let raw: z.infer<typeof LooseCallToolResult>;
    try {
      raw = await client.request({ method: 'tools/call', params: { name: tool, arguments: args } }, LooseCallToolResult, {
        timeout,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: timeout * 10,
        onprogress: (p) => options.onProgress?.({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) }),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      return this.#callFailure(error, client, origin, timeout, options.signal);
    }
    return this.#opts.capture.process(raw, {
      server: this.name,
      tool,
      origin,
      rules: this.config.capture?.rules ?? [],
      ...(options.imageTarget ? { imageTarget: options.imageTarget } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  async #callFailure(error: unknown, client: Client, origin: string, timeout: number, signal: AbortSignal | undefined): Promise<McpToolOutcome> {
    if (signal?.aborted) return failed('aborted', `The call to ${origin} was cancelled.`);
    const code = error instanceof McpError ? error.code : undefined;
    if (code === ErrorCode.RequestTimeout) {
      // A server that does not answer may be wedged: replace it on next use.
      if (client === this.#client) {
        this.#needsRestart = true;
        this.#state = 'hung';
        this.#message = `a call to ${origin} timed out; the server will be restarted on next use`;
      }
      const total = /Maximum total timeout/.test(errorText(error)) ? ` (total limit ${seconds(timeout * 10)})` : '';
      return failed('timeout', `The MCP tool ${origin} did not answer within ${seconds(timeout)}${total}; the call was abandoned and server "${this.name}" will be restarted on its next use.`);
    }
    if (code === ErrorCode.ConnectionClosed || (error instanceof Error && /Not connected/.test(error.message))) {
      await new Promise((resolve) => setImmediate(resolve)); // stderr of a dying process
      const why = this.#stopping ?? this.#lastError;
      return failed(
        'server-crashed',
        `MCP server "${this.name}" stopped while running ${origin}${why ? ` (${why})` : ' (the process exited)'}${this.#stderrTail()}. It will be restarted on next use.`,
      );
    }
    if (error instanceof StreamableHTTPError || (error instanceof TypeError && /fetch/i.test(error.message))) {
      this.#needsRestart = true; // a new session next time (the server may have restarted)
      return failed('server-unavailable', `MCP server "${this.name}" could not be reached while calling ${origin}: ${describeError(error, undefined)}`);
    }
    return failed('protocol', `The MCP tool ${origin} failed: ${errorText(error)}`);
  }
}

/**
 * The SDK (1.32.2) runs notification handlers a microtask late but response handlers at once,
 * so a tool's last progress notification, read in the same chunk as its result, arrived after
 * the request was settled and was dropped ("unknown token"). Holding each response back by one
 * microtask restores the wire order.
 */
function deliverResponsesAfterNotifications(transport: Transport): void {
  const deliver = transport.onmessage?.bind(transport);
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    if ('id' in message && !('method' in message)) queueMicrotask(() => deliver(message, extra));
    else deliver(message, extra);
  };
}

/**
 * `server__tool`, with anything outside [a-zA-Z0-9_-] made "_". Too long (> 64) or already
 * taken by another tool → shortened and suffixed with a hash of the real pair, so names are
 * stable across runs and unique within the hub.
 */
export function namespacedName(server: string, tool: string, taken: ReadonlyMap<string, unknown>): string {
  const clean = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '_');
  const base = `${clean(server)}__${clean(tool)}`;
  if (NAME_RE.test(base) && !taken.has(base)) return base;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex');
  for (let n = 8; n <= 16; n++) {
    const name = `${base.slice(0, 64 - n - 1)}_${hash.slice(0, n)}`;
    if (!taken.has(name)) return name;
  }
  return `${base.slice(0, 64 - 33)}_${hash.slice(0, 32)}`;
}

function failed(failure: McpFailureCode, text: string): McpToolOutcome {
  return { ok: false, text, images: [], files: [], notes: [], failure };
}


function describeError(error: unknown, lastError: string | undefined): string {
  const e = error as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT' && e.syscall?.startsWith('spawn')) return `the command was not found (${e.path ?? e.message})`;
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return `the process exited during start${lastError ? ` (${lastError})` : ''}`;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return 'it did not answer the initialize request in time';
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return `${errorText(error)}${cause?.code ? ` (${cause.code})` : cause?.message ? ` (${cause.message})` : ''}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
