// One configured MCP server: its SDK Client, its process or session, its state (architecture §6).
// Started lazily; a crash or hang marks it for restart on next use; a remote server that
// answers 4xx to streamable HTTP is retried over legacy SSE (and remembered); one that needs
// sign-in goes through OAuth and is retried with the token. A start runs on its own: whoever
// asked for it only waits (and may stop waiting), so a cancelled turn never withdraws a question
// the start is asking, and stop() ends a start wherever it is — a question, a sign-in, initialize.
import type { Readable } from 'node:stream';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { configSecretValues, substituteInputs, type McpServerConfig } from '../../common/mcpConfig.ts';
import { abortable } from '../abortable.ts';
import type { McpFailureCode, McpToolOutcome } from './binaryCapture.ts';
import { clientCapabilities, installClientHandlers, serverLogFile } from './clientFeatures.ts';
import { describeError, errorLine, failed, seconds } from './mcpErrors.ts';
import type { HubOptions, McpCallOptions, McpServerHealth, McpServerState } from './hubTypes.ts';
import type { McpSignIn } from './mcpOAuth.ts';
import { endSession, hasAuthorization, meansLegacySse, remoteTransport, type RemoteKind } from './remoteTransport.ts';
import { stdioEnvironment } from './serverEnvironment.ts';
import { createStdioTransport } from './stdioTransport.ts';
import { deliverResponsesAfterNotifications } from './deliverResponsesAfterNotifications.ts';
import { OutputSchemas } from './outputSchemas.ts';
import { claimedTitle } from './namespacedName.ts';
import { StartRun } from './startRun.ts';
import { errorMessage } from '../errors.ts';
import { scrubSecrets } from '../scrubSecrets.ts';

// Loose on purpose: the SDK's strict schema would reject a whole result for one malformed
// block (or atob() a 7 MB string just to validate it); binary capture judges blocks itself.
const LooseCallToolResult = z.looseObject({
  content: z.array(z.unknown()).optional(),
  isError: z.boolean().optional(),
  structuredContent: z.unknown().optional(),
});
const LooseReadResourceResult = z.looseObject({ contents: z.array(z.unknown()) });

/** Server `instructions` go into the system prompt; bounded so one server cannot crowd it. */
const MAX_INSTRUCTIONS_CHARS = 2000;

export class ServerConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly #opts: HubOptions;
  /** The tools a model is offered (disabledTools and task-only tools left out). */
  tools: SdkTool[] | undefined;
  /** Tools not offered, and why ("disabled in the config", "needs task support"). */
  hidden: { tool: string; reason: string }[] = [];
  instructions: string | undefined;
  /** The server's display name (serverInfo.title), once it has started. */
  title: string | undefined;
  #state: McpServerState;
  #message: string | undefined;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #starting: Promise<Client> | undefined;
  /** The start under way: when it began, how stop() ends it, whether it waits for the person. */
  #run: StartRun | undefined;
  /** Learned by fallback: this server speaks legacy SSE. */
  #remoteKind: RemoteKind | undefined;
  /** Set after a crash or a timeout: the next use starts a fresh process. */
  #needsRestart = false;
  #restarts = 0;
  #failedAt = 0;
  #stderr = '';
  /** Connecting over streamable HTTP, which may fall back to SSE: the transport's errors are not logged. */
  #probing = false;
  #lastError: string | undefined;
  /** Why we closed the connection ourselves (so onclose is not taken for a crash). */
  #stopping: string | undefined;
  #toolsStale = false;
  /** The hub closed: nothing starts again (also stops a start that was under way). */
  #final = false;
  /** The sign-in for this server, once one was needed (a later request may need it again: step-up). */
  #signIn: McpSignIn | undefined;
  readonly #outputSchemas = new OutputSchemas();
  /** This server's own secrets (its config's tokens and headers, the inputs it was given): scrubbed from every error made here. */
  #secrets: string[];

  constructor(name: string, config: McpServerConfig, opts: HubOptions) {
    this.name = name;
    this.config = config;
    this.#opts = opts;
    this.#state = config.disabled ? 'disabled' : 'idle';
    this.#secrets = configSecretValues(config);
  }

  #failed(failure: McpFailureCode, text: string): McpToolOutcome {
    return failed(failure, text, this.#secrets);
  }

  #log(line: string): void {
    this.#opts.log?.(scrubSecrets(line, this.#secrets));
  }

  /** Every state change is announced (the hub coalesces them into one status event). */
  #setState(state: McpServerState): void {
    this.#state = state;
    this.#opts.changed?.(this.name);
  }

  /** Starting it may ask the person (an input, an OAuth sign-in): not started unattended, at launch. */
  get mayAsk(): boolean {
    return this.config.inputs.length > 0 || (this.config.kind !== 'stdio' && Boolean(this.#opts.auth) && !hasAuthorization(this.config));
  }

  /** Starting, and since when (Date.now()); undefined when it is not starting. */
  get startedAt(): number | undefined {
    return this.#state === 'starting' ? this.#run?.at : undefined;
  }

  /** Its start waits for the person: an answer to a question, or a sign-in. */
  get asking(): boolean {
    return this.#state === 'starting' && this.#run?.asking === true;
  }

  /** Resolves once the start under way waits for the person, or ends (now when none is under way). */
  whenAsking(): Promise<void> {
    return this.#state === 'starting' && this.#run ? this.#run.whenAsking() : Promise.resolve();
  }

  /** Settles when the start under way ends, either way (now when none is). */
  settled(): Promise<void> {
    return (this.#starting ?? Promise.resolve()).then(
      () => undefined,
      () => undefined,
    );
  }

  get ready(): Client | undefined {
    return this.#state === 'ready' ? this.#client : undefined;
  }

  status(): McpServerHealth {
    const pid = this.#transport instanceof StdioClientTransport ? (this.#transport.pid ?? undefined) : undefined;
    const transport = this.config.kind === 'stdio' ? 'stdio' : (this.#remoteKind ?? this.config.kind);
    return {
      name: this.name,
      ...(this.title ? { title: this.title } : {}),
      transport,
      state: this.#state,
      ...(this.#message ? { message: this.#message } : {}),
      tools: this.tools?.length ?? 0,
      restarts: this.#restarts,
      ...(pid !== undefined && this.#state === 'ready' ? { pid } : {}),
      ...(this.hidden.length ? { hiddenTools: this.hidden } : {}),
      ...(this.#opts.features.logDir ? { logFile: serverLogFile(this.#opts.features.logDir, this.name) } : {}),
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
    if (how.respectBackoff && this.#state === 'failed' && Date.now() - this.#failedAt < this.#opts.retryAfterMs) {
      throw new Error(this.#message ?? 'failed to start');
    }
    // The start is not the caller's: its signal only ends the caller's wait.
    this.#starting = this.#start().finally(() => (this.#starting = undefined));
    return abortable(this.#starting, signal);
  }

  async #start(): Promise<Client> {
    if (this.#client) {
      // A crash or a hang: replace the old process.
      await this.stop(this.#state === 'hung' ? 'restarted after a hang' : 'restarted after a crash');
      this.#restarts++;
    }
    if (this.#final) throw new Error('the hub is shut down');
    const run = new StartRun(() => this.#opts.changed?.(this.name));
    this.#run = run;
    const signal = run.signal;
    this.#needsRestart = false;
    this.#setState('starting');
    this.#message = undefined;
    this.#stderr = '';
    this.#lastError = undefined;
    try {
      const config = await this.#withInputs(run);
      const client = config.kind === 'stdio' ? await this.#connectStdio(config, signal) : await this.#connectRemote(config, run);
      deliverResponsesAfterNotifications(this.#transport as Transport);
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        this.#toolsStale = true;
      });
      this.title = claimedTitle(client.getServerVersion()?.title);
      const instructions = client.getInstructions()?.trim();
      this.instructions = instructions ? (instructions.length > MAX_INSTRUCTIONS_CHARS ? `${instructions.slice(0, MAX_INSTRUCTIONS_CHARS)}…` : instructions) : undefined;
      await this.#refreshTools(client, signal);
      if (this.#final) throw new Error('the hub is shut down');
      this.#setState('ready');
      return client;
    } catch (error) {
      await new Promise((resolve) => setImmediate(resolve)); // let the last stderr lines arrive
      if (signal.aborted) {
        // stop() ended it (shutdown, reconfigure, restart): not a failure of the server.
        await this.#discard(this.#client);
        if (this.#client && this.#run === run) this.#client = undefined;
        throw new Error(`MCP server "${this.name}" was stopped while starting`, { cause: error });
      }
      const message = scrubSecrets(`MCP server "${this.name}" could not start: ${describeError(error, this.#lastError)}${this.#stderrTail()}`, this.#secrets);
      await this.#discard(this.#client);
      this.#client = undefined;
      this.#transport = undefined;
      this.#setState(this.#final ? 'closed' : 'failed');
      this.tools = undefined; // a server that does not start offers nothing
      this.instructions = undefined;
      this.#message = message;
      this.#failedAt = Date.now();
      this.#log(message);
      if (!this.#final) this.#opts.onFailure?.(this.status());
      throw new Error(message, { cause: error });
    } finally {
      run.end();
      if (this.#run === run) this.#run = undefined;
    }
  }

  /** `${input:id}` answered (once per start) by the entry: a dialog in the app, the environment in the CLI. */
  async #withInputs(run: StartRun): Promise<McpServerConfig> {
    const signal = run.signal;
    if (this.config.inputs.length === 0) return this.config;
    const values = new Map<string, string>();
    for (const id of this.config.inputs) {
      const asking = () => run.setAsking(true);
      const value = await this.#opts.resolveInput?.({ server: this.name, id, input: this.#opts.inputs.get(id), asking }, signal).finally(() => run.setAsking(false));
      if (signal?.aborted) throw new Error('the start was stopped');
      if (value === undefined) throw new Error(`it needs a value for \${input:${id}}${this.#opts.inputHint ? ` (${this.#opts.inputHint(id)})` : ''}`);
      values.set(id, value);
    }
    this.#secrets = [...configSecretValues(this.config), ...values.values()];
    return substituteInputs(this.config, values);
  }

  /** `args`: a stdio server's arguments with its inputs answered (the folders it names can be roots). */
  #newClient(args: readonly string[] = []): Client {
    const client = new Client({ name: 'glance', version: '0.1.0' }, { capabilities: clientCapabilities(this.#opts.features) });
    installClientHandlers(client, this.name, this.#opts.features, this.#opts.log, args);
    client.onerror = (error) => {
      this.#lastError = error.message;
      const line = errorLine(error.message);
      // A streamable-HTTP attempt that falls back to legacy SSE says so in one line of its own; what
      // our own close aborts (the SSE stream of a session we end) is not news.
      if (line && !this.#probing && this.#stopping === undefined) this.#log(`mcp ${this.name}: ${line}`);
    };
    client.onclose = () => this.#onClose(client);
    this.#client = client;
    return client;
  }

  async #connectStdio(c: McpServerConfig & { kind: 'stdio' }, signal: AbortSignal): Promise<Client> {
    const transport = createStdioTransport({
      command: c.command,
      args: c.args,
      env: await stdioEnvironment(c, this.#opts.parentEnv),
      ...(c.cwd ? { cwd: c.cwd } : {}),
      stderr: 'pipe',
      maxBufferSize: this.#opts.maxMessageBytes,
    });
    // Keep the tail of stderr for error messages (and drain the pipe so the child never blocks).
    (transport.stderr as Readable | null)?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-2000);
    });
    const client = this.#newClient(c.args);
    this.#transport = transport;
    await client.connect(transport, { timeout: this.#opts.startTimeoutMs, signal });
    return client;
  }

  async #connectRemote(c: McpServerConfig & { kind: 'http' | 'sse' }, run: StartRun): Promise<Client> {
    const signal = run.signal;
    let kind: RemoteKind = this.#remoteKind ?? c.kind;
    const auth = hasAuthorization(c) ? undefined : await this.#opts.auth?.(this.name, c);
    this.#signIn = auth;
    let signIns = 0;
    for (;;) {
      const transport = remoteTransport(kind, c.url, { headers: c.headers, authProvider: auth?.provider });
      const client = this.#newClient();
      this.#transport = transport;
      this.#probing = kind === 'http' && c.kind === 'http';
      try {
        await client.connect(transport, { timeout: this.#opts.startTimeoutMs, ...(signal ? { signal } : {}) });
        if (kind !== c.kind) this.#remoteKind = kind;
        return client;
      } catch (error) {
        await this.#discard(client);
        if (kind === 'http' && c.kind === 'http' && meansLegacySse(error)) {
          this.#log(`mcp ${this.name}: streamable HTTP answered ${(error as StreamableHTTPError).code}; trying the legacy SSE transport`);
          kind = 'sse';
          continue;
        }
        if (error instanceof UnauthorizedError && auth && signIns < 2) {
          signIns++;
          const code = await run.askingWhile(() => auth.waitForCode(signal));
          await transport.finishAuth(code);
          continue;
        }
        throw error;
      } finally {
        this.#probing = false;
      }
    }
  }

  async #discard(client: Client | undefined): Promise<void> {
    if (!client) return;
    this.#stopping = 'start failed';
    await client.close().catch(() => undefined);
    this.#stopping = undefined;
  }

  /**
   * A request that the server may answer 401 (sign-in needed only past initialize) or 403
   * insufficient_scope (step-up): the SDK opens the authorization URL, we wait for the person,
   * hand the code to the transport and send the request again.
   */
  async #withSignIn<T>(request: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await request();
      } catch (error) {
        const transport = this.#transport;
        if (!(error instanceof UnauthorizedError) || !this.#signIn || attempt >= 2 || !transport || !('finishAuth' in transport)) throw error;
        const code = await this.#signIn.waitForCode(signal);
        await (transport as { finishAuth(code: string): Promise<void> }).finishAuth(code);
      }
    }
  }

  async #refreshTools(client: Client, signal: AbortSignal | undefined): Promise<void> {
    const tools: SdkTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#withSignIn(() => client.listTools(cursor ? { cursor } : undefined, { timeout: this.#opts.startTimeoutMs, ...(signal ? { signal } : {}) }), signal);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const hidden: { tool: string; reason: string }[] = [];
    const offered = tools.filter((tool) => {
      if (this.config.disabledTools.includes(tool.name)) hidden.push({ tool: tool.name, reason: 'disabled in the configuration (disabledTools)' });
      else if (tool.execution?.taskSupport === 'required') hidden.push({ tool: tool.name, reason: 'it runs only as a task, which Glance does not support yet' });
      else return true;
      return false;
    });
    this.#outputSchemas.compile(offered, (line) => this.#log(`mcp ${this.name}: ${line}`));
    this.tools = offered;
    this.hidden = hidden;
    this.#toolsStale = false;
    this.#opts.changed?.(this.name);
  }

  #onClose(client: Client): void {
    if (client !== this.#client || this.#stopping !== undefined) return;
    this.#needsRestart = true;
    if (this.#state === 'starting') return; // #start reports it
    this.#setState('crashed');
    this.#message = scrubSecrets(`the server's connection closed${this.#lastError ? ` (${this.#lastError})` : ''}; it will be restarted on next use`, this.#secrets);
    this.#log(`mcp ${this.name}: ${this.#message}${this.#stderrTail()}`);
    this.#opts.onFailure?.(this.status());
  }

  #stderrTail(): string {
    const tail = this.#stderr.trim().split('\n').slice(-5).join(' | ').slice(-500);
    return tail ? ` — server stderr: ${tail}` : '';
  }

  async stop(reason: string, final = false): Promise<void> {
    const client = this.#client;
    const transport = this.#transport;
    if (final) this.#final = true;
    // A start under way ends where it is (a question is withdrawn, initialize abandoned).
    const starting = this.#run;
    starting?.stop(reason);
    this.#stopping = reason;
    try {
      if (transport && this.#state === 'ready') await endSession(transport);
      if (client) await client.close().catch(() => undefined);
      if (starting) await this.settled();
    } finally {
      this.#stopping = undefined;
    }
    if (client === this.#client) {
      this.#client = undefined;
      this.#transport = undefined;
    }
    if (final) this.#setState('closed');
    else if (this.#state !== 'disabled') this.#setState('idle');
  }

  /** `origin` is the namespaced name the model called: captured images carry it. */
  async call(tool: string, origin: string, args: Record<string, unknown>, options: McpCallOptions): Promise<McpToolOutcome> {
    let client: Client;
    try {
      client = await this.ensure(options.signal, { respectBackoff: false });
    } catch (error) {
      if (options.signal?.aborted) return this.#failed('aborted', `The call to ${origin} was cancelled before the server was ready.`);
      return this.#failed(this.#state === 'closed' ? 'closed' : 'server-unavailable', errorMessage(error));
    }
    if (this.config.disabledTools.includes(tool)) return this.#failed('unknown-tool', `The tool ${origin} is disabled in the configuration of MCP server "${this.name}".`);
    const timeout = options.timeoutMs ?? this.config.timeoutMs ?? this.#opts.defaultTimeoutMs;
    const requestOptions = {
      timeout,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: timeout * 10,
      ...(options.signal ? { signal: options.signal } : {}),
    };
    let raw: z.infer<typeof LooseCallToolResult>;
    try {
      raw = await this.#withSignIn(
        () =>
          client.request({ method: 'tools/call', params: { name: tool, arguments: args } }, LooseCallToolResult, {
            ...requestOptions,
            onprogress: (p) => options.onProgress?.({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) }),
          }),
        options.signal,
      );
    } catch (error) {
      return this.#callFailure(error, client, origin, timeout, options.signal);
    }
    const outcome = await this.#opts.capture.process(raw, {
      server: this.name,
      tool,
      origin,
      rules: this.config.capture?.rules ?? [],
      readResource: async (uri, signal) => (await client.request({ method: 'resources/read', params: { uri } }, LooseReadResourceResult, { ...requestOptions, signal })).contents,
      ...(options.imageTarget ? { imageTarget: options.imageTarget } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return this.#outputSchemas.check(tool, origin, raw, outcome, this.#opts.log && ((line) => this.#log(`mcp ${this.name}: ${line}`)));
  }

  async #callFailure(error: unknown, client: Client, origin: string, timeout: number, signal: AbortSignal | undefined): Promise<McpToolOutcome> {
    if (signal?.aborted) return this.#failed('aborted', `The call to ${origin} was cancelled.`);
    const code = error instanceof McpError ? error.code : undefined;
    if (code === ErrorCode.RequestTimeout) {
      // A server that does not answer may be wedged: replace it on next use.
      if (client === this.#client) {
        this.#needsRestart = true;
        this.#setState('hung');
        this.#message = `a call to ${origin} timed out; the server will be restarted on next use`;
      }
      // The SDK's total-timeout error carries maxTotalTimeout in its data; an idle timeout does not.
      const total = hasTotalTimeout(error) ? ` (total limit ${seconds(timeout * 10)})` : '';
      return this.#failed('timeout', `The MCP tool ${origin} did not answer within ${seconds(timeout)}${total}; the call was abandoned and server "${this.name}" will be restarted on its next use.`);
    }
    // Closed under the call (ConnectionClosed), or never connected (the SDK's request has no transport).
    if (code === ErrorCode.ConnectionClosed || client.transport === undefined) {
      await new Promise((resolve) => setImmediate(resolve)); // stderr of a dying process
      const why = this.#stopping ?? this.#lastError;
      return this.#failed(
        'server-crashed',
        `MCP server "${this.name}" stopped while running ${origin}${why ? ` (${why})` : ' (the process exited)'}${this.#stderrTail()}. It will be restarted on next use.`,
      );
    }
    if (error instanceof StreamableHTTPError || error instanceof UnauthorizedError || (error instanceof TypeError && /fetch/i.test(error.message))) {
      this.#needsRestart = true; // a new session next time (the server may have restarted)
      return this.#failed('server-unavailable', `MCP server "${this.name}" could not be reached while calling ${origin}: ${describeError(error, undefined)}`);
    }
    return this.#failed('protocol', `The MCP tool ${origin} failed: ${errorMessage(error)}`);
  }
}

/** The SDK's McpError for a call past its total timeout (not the idle one): told by its data, not its wording. */
function hasTotalTimeout(error: unknown): boolean {
  const data = error instanceof McpError ? (error.data as { maxTotalTimeout?: unknown } | undefined) : undefined;
  return typeof data?.maxTotalTimeout === 'number';
}
