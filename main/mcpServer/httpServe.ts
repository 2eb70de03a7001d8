// Streamable HTTP for `glance mcp serve --http` (architecture §14): loopback only, every request
// behind a bearer token, Host and Origin checked (a web page the person visits can reach
// 127.0.0.1 too: DNS rebinding), a session per client. The token lives in the data dir at 0600
// (serveToken.ts); a bind to anything but loopback is refused before a socket opens.
import { timingSafeEqual, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../errors.ts';

/** Largest JSON-RPC body accepted: tool arguments are small; images only ever go out. */
const MAX_BODY = 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Sessions kept at once by default: one per client window is a handful; a leaking client is cut off here. */
export const DEFAULT_MAX_SESSIONS = 32;
/** A session nobody used for this long is closed (its client re-initializes, as the spec says on 404). */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

export type HttpServing = {
  url: string;
  port: number;
  /** Sessions open now (each holds an McpServer and its transport). */
  sessionCount(): number;
  close(): Promise<void>;
};

type Session = { transport: StreamableHTTPServerTransport; server: McpServer; lastSeen: number; busy: number };

/** Undefined for a loopback host; else why it is refused, in words. */
export function loopbackRefusal(host: string): string | undefined {
  if (LOOPBACK.has(host.toLowerCase())) return undefined;
  return `--host ${host} is not loopback: glance mcp serve shows your screen, so it listens only on 127.0.0.1, ::1 or localhost. Use an SSH tunnel to reach it from elsewhere.`;
}

export type HttpServeOptions = {
  host: string;
  port: number;
  token: string;
  log: (line: string) => void;
  /** Most sessions at once; the least recently used idle one is closed to make room for a new client. */
  maxSessions?: number;
  /** A session without a request (and no stream open) for this long is closed. */
  idleMs?: number;
};

export async function serveHttp(makeServer: () => McpServer, options: HttpServeOptions): Promise<HttpServing> {
  const refusal = loopbackRefusal(options.host);
  if (refusal) throw new Error(refusal);
  const expected = Buffer.from(options.token);
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
  /** In order of last use, oldest first (a Map keeps insertion order: a use moves the session to the end). */
  const sessions = new Map<string, Session>();
  let allowedHosts: string[] = [];

  /** Closing the transport ends the session: onclose drops it from the map and closes its server, so its memory can go. */
  const expire = (id: string, why: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    options.log(`mcp serve: session ${id.slice(0, 8)}… closed (${why}).`);
    void session.transport.close().catch(() => undefined);
    void session.server.close().catch(() => undefined);
  };
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) if (session.busy === 0 && now - session.lastSeen >= idleMs) expire(id, `idle for ${Math.round(idleMs / 1000)} s`);
  }, Math.max(50, Math.min(idleMs / 4, 60_000)));
  sweeper.unref();

  /** Marks a session in use for the life of one request (a GET's event stream stays in use while it is open). */
  const use = (id: string, session: Session, res: http.ServerResponse) => {
    sessions.delete(id);
    sessions.set(id, session);
    session.busy++;
    session.lastSeen = Date.now();
    res.once('close', () => {
      session.busy--;
      session.lastSeen = Date.now();
    });
  };

  /** Room for one more session: the least recently used idle one goes; false when every session is in use. */
  const makeRoom = (): boolean => {
    if (sessions.size < maxSessions) return true;
    for (const [id, session] of sessions) {
      if (session.busy > 0) continue;
      expire(id, `over the cap of ${maxSessions} sessions, least recently used`);
      return true;
    }
    return false;
  };

  const httpServer = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      options.log(`mcp serve: ${errorMessage(error)}`);
      if (!res.headersSent) send(res, 500, 'Internal error.');
      else res.end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/mcp') return send(res, 404, 'Not found: the MCP endpoint is /mcp.');
    if (!allowedHosts.includes((req.headers.host ?? '').toLowerCase())) return send(res, 403, 'Forbidden: wrong Host header.');
    const pageOrigin = req.headers.origin;
    if (pageOrigin !== undefined && !isLoopbackOrigin(pageOrigin)) return send(res, 403, 'Forbidden: requests from web pages are refused.');
    // The scheme is case-insensitive (RFC 9110 §11.1): "bearer" and "BEARER" are "Bearer".
    const auth = Buffer.from(/^bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1] ?? '');
    if (auth.length !== expected.length || !timingSafeEqual(auth, expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="glance"');
      return send(res, 401, 'Unauthorized: send "Authorization: Bearer <token>" (the token glance mcp serve --http printed, kept in its data dir).');
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method === 'POST') {
      const body = await readJson(req);
      if (!body.ok) return send(res, body.status, body.message);
      if (existing) {
        use(sessionId as string, existing, res);
        return existing.transport.handleRequest(req, res, body.value);
      }
      if (sessionId !== undefined) return rpcError(res, 404, 'Session not found (closed when idle, or to make room for newer clients): initialize again.');
      if (!isInitializeRequest(body.value)) return rpcError(res, 400, 'No session: the first request must be initialize.');
      if (!makeRoom()) return rpcError(res, 503, `All ${maxSessions} sessions are in use: try again when one ends (glance mcp serve --max-sessions sets the cap).`);
      const server = makeServer();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, { transport, server, lastSeen: Date.now(), busy: 0 }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
        void server.close();
      };
      await server.connect(transport);
      return transport.handleRequest(req, res, body.value);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!existing) return rpcError(res, sessionId === undefined ? 400 : 404, sessionId === undefined ? 'Missing Mcp-Session-Id header.' : 'Session not found (closed when idle, or to make room for newer clients): initialize again.');
      use(sessionId as string, existing, res);
      return existing.transport.handleRequest(req, res);
    }
    res.setHeader('Allow', 'GET, POST, DELETE');
    return send(res, 405, 'Method not allowed.');
  }

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, options.host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const shown = options.host === '::1' ? '[::1]' : options.host;
  return {
    url: `http://${shown}:${port}/mcp`,
    port,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweeper);
      for (const { transport } of [...sessions.values()]) await transport.close().catch(() => undefined);
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

function isLoopbackOrigin(pageOrigin: string): boolean {
  try {
    const host = new URL(pageOrigin).hostname.replace(/^\[|\]$/g, '');
    return LOOPBACK.has(host);
  } catch {
    return false;
  }
}

function send(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
}

function rpcError(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: http.IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return { ok: false, status: 413, message: `Request body over ${MAX_BODY} bytes.` };
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, message: 'The request body is not JSON.' };
  }
}
