// Remote MCP servers: streamable HTTP (2025-03-26 and later) or the legacy HTTP+SSE transport
// (2024-11-05), which many servers still speak. The spec's backwards-compatibility rule: POST
// the initialize request; a 4xx answer means an old server, so open a GET for its SSE stream
// and wait for the `endpoint` event. A bare …/sse URL takes that path. 401/403 are sign-in, not
// an old server. The transport seam is the SDK's Transport interface, so the 2026-07-28
// revision (stateless HTTP, server/discover) slots in here when the SDK ships it.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export type RemoteKind = 'http' | 'sse';

type RemoteTransportOptions = {
  headers?: Record<string, string> | undefined;
  authProvider?: OAuthClientProvider | undefined;
};

export function remoteTransport(kind: RemoteKind, url: string, options: RemoteTransportOptions): StreamableHTTPClientTransport | SSEClientTransport {
  const requestInit = options.headers ? { headers: options.headers } : undefined;
  const common = { ...(requestInit ? { requestInit } : {}), ...(options.authProvider ? { authProvider: options.authProvider } : {}) };
  if (kind === 'http') return new StreamableHTTPClientTransport(new URL(url), common);
  // The SDK adds requestInit's headers to the SSE GET as well as to each POST.
  return new SSEClientTransport(new URL(url), common);
}

/** The initialize POST answered 4xx (not sign-in): the server speaks the legacy SSE transport. */
export function meansLegacySse(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError) || error.code === undefined) return false;
  return error.code >= 400 && error.code < 500 && error.code !== 401 && error.code !== 403;
}

/** Ends a streamable HTTP session with DELETE (spec: clients SHOULD), bounded so close never hangs. */
export async function endSession(transport: Transport, timeoutMs = 2000): Promise<void> {
  if (!(transport instanceof StreamableHTTPClientTransport) || !transport.sessionId) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([transport.terminateSession().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}

/** The config sends its own Authorization header (so no OAuth sign-in). */
export function hasAuthorization(config: { headers?: Record<string, string> | undefined }): boolean {
  return Object.keys(config.headers ?? {}).some((h) => h.toLowerCase() === 'authorization');
}
