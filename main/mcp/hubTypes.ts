// The MCP hub's types (architecture §6): what it offers a model, what it says about a server, how
// an entry configures it. Split from mcpHub.ts, which re-exports them.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { McpInput, RemoteServerConfig } from '../../common/mcpConfig.ts';
import type { ImageTarget } from '../images/types.ts';
import type { BinaryCapture } from './binaryCapture.ts';
import type { McpClientFeatures } from './clientFeatures.ts';
import type { McpConfig } from './config.ts';
import type { McpSignIn } from './mcpOAuth.ts';

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

/**
 * `${input:id}` to answer: the declaration from `inputs` when there is one. `asking()` is called
 * when the answer must come from the person (not from a store or the environment): from then on
 * chat turns stop waiting for this server.
 */
export type McpInputRequest = { server: string; id: string; input: McpInput | undefined; asking?: () => void };

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
  /** A chat turn waits for a server still starting until this long after that server's start (read at each turn). Default 5 s. */
  turnWaitMs?: number | (() => number);
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

export type HubOptions = Required<Pick<McpHubOptions, 'defaultTimeoutMs' | 'startTimeoutMs' | 'retryAfterMs' | 'maxMessageBytes' | 'features'>> & { turnWaitMs: () => number } &
  Pick<McpHubOptions, 'log' | 'capture' | 'resolveInput' | 'inputHint' | 'auth' | 'parentEnv' | 'onFailure'> & {
    inputs: McpConfig['inputs'];
    /** A server's state or tools changed (the hub announces it to its listeners). */
    changed?: (server: string) => void;
  };

/** What reconfigure() did, by server name. */
export type McpReconfigured = { added: string[]; removed: string[]; restarted: string[]; unchanged: string[] };
