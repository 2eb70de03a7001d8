// The web harness (architecture §9): the same core and the same typed API as the Electron app,
// under plain Node, for the browser tests and as a dev mode. It serves the built renderer
// and carries IPC over a WebSocket on 127.0.0.1 only.
//
// Who may drive it — three checks, all on the WebSocket upgrade:
//   1. Host must be 127.0.0.1:<port> (a DNS-rebinding page arrives under its own host name);
//   2. Origin must be http://127.0.0.1:<port> (a page from any other origin is refused before
//      the upgrade completes: it learns nothing, not even whether the token was right);
//   3. a per-launch random token (32 bytes) in the `token` query parameter. The page gets it
//      from the fragment of the URL the harness prints (`/#token=…`): a fragment is never
//      sent in a request, the page moves it to sessionStorage and clears the address bar.
//      A page without it (a stale tab after a restart) is refused with 401 before the upgrade;
//      it learns why from `GET /api?token=…` and stops reconnecting.
// Then every message goes through the same router (zod validation, sender check) as
// Electron's ipcMain, with the harness page as the sender.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventChannel, IncomingAttachment, IpcEventPayload, IpcResult } from '../../common/ipc.ts';
import type { AttachmentInfo } from '../../common/images.ts';
import type { OpenAIEndpoint, SettingsPatch } from '../../common/settings.ts';
import { checkedEvent, createIpcRouter, type SenderInfo } from '../api/ipcRouter.ts';
import type { ScreenCapturer } from '../capture/screenCapturer.ts';
import type { TextReader } from '../ocr/textReader.ts';
import { composeApi } from '../api/composeApi.ts';
import { maskSettings } from '../settings/maskSettings.ts';
import { EnvSecretStore } from '../settings/secretStore.ts';
import { SettingsStore } from '../settings/settingsStore.ts';

export type HarnessEndpoint = Pick<OpenAIEndpoint, 'name' | 'baseUrl'> & { apiKey?: string };

export type HarnessOptions = {
  dataDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Written into the settings' Ollama host. */
  ollamaHost?: string;
  /** OpenAI-compatible endpoints, written into settings; keys stay in memory. */
  openaiEndpoints?: HarnessEndpoint[];
  capturer?: ScreenCapturer;
  /** `{ mcpServers: {…} }` (Claude-desktop shape), written into settings. */
  mcpConfig?: { mcpServers: Record<string, unknown> };
  /** Test-only: http(s) image sources may reach loopback fixture servers. */
  allowLoopbackFetch?: boolean;
  /**
   * The local OCR reader (default tesseract.js). Tests give one that fails, to show in the page what
   * happens when an image cannot be checked for secrets — real tesseract cannot be made to time out on demand.
   */
  ocr?: TextReader;
  /** The built renderer (default: dist/renderer of this checkout). */
  rendererDir?: string;
  log?: (line: string) => void;
};

export type Harness = {
  /** The page to open, token included in the fragment. */
  url: string;
  /** The ask window's page, token included. */
  askUrl: string;
  pageOrigin: string;
  port: number;
  token: string;
  /** The hotkey's flow: capture (as `capture:screenshot`), then push it to the ask window. */
  screenshotAndAsk(): Promise<IncomingAttachment>;
  close(): Promise<void>;
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

const DEFAULT_RENDERER_DIR = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
/** A dropped 50 MB image is ~67 MB of base64 in a frame. */
const MAX_FRAME_BYTES = 100 * 1024 * 1024;
/**
 * Why a page was refused. A browser's WebSocket does not show the HTTP status of a refused
 * upgrade, so the page asks `GET /api?token=…` (no upgrade) after a connection that never
 * opened: 401 with this text means "stop reconnecting" (renderer/api/wsAdapter.ts).
 */
const BAD_TOKEN = 'not the token of this harness run';

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `{ $bytes: base64 }` → Uint8Array: how the page sends a dropped file's bytes. */
function decodeBytes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeBytes);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 1 && entries[0]![0] === '$bytes' && typeof entries[0]![1] === 'string') {
      return new Uint8Array(Buffer.from(entries[0]![1], 'base64'));
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, decodeBytes(v)]));
  }
  return value;
}

function csp(pageOrigin: string): string {
  const ws = pageOrigin.replace(/^http/, 'ws');
  return [
    "default-src 'self'",
    "img-src 'self' data: blob:",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `connect-src 'self' ${ws}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const log = options.log ?? ((line: string) => console.error(`[harness] ${line}`));
  const rendererDir = options.rendererDir ?? DEFAULT_RENDERER_DIR;
  try {
    await stat(join(rendererDir, 'index.html'));
  } catch {
    throw new Error(`The renderer is not built (${join(rendererDir, 'index.html')} is missing): run \`npm run build:renderer\` first.`);
  }

  // ---- the services, composed as for the app (keys from memory/env, not safeStorage)
  const secrets = new EnvSecretStore(process.env);
  for (const e of options.openaiEndpoints ?? []) if (e.apiKey) await secrets.set(e.name, e.apiKey);
  const settings = new SettingsStore({ dataDir: options.dataDir, secrets });
  const loaded = await settings.load();
  for (const warning of loaded.warnings) log(warning);
  const patch: SettingsPatch = {};
  if (options.ollamaHost || options.openaiEndpoints) {
    patch.providers = {
      ollama: { host: options.ollamaHost ?? settings.current().providers.ollama.host },
      openai: options.openaiEndpoints?.map((e) => ({ name: e.name, baseUrl: e.baseUrl, ...(e.apiKey ? { apiKeyRef: e.name } : {}) })) ?? settings.current().providers.openai,
    };
  }
  if (options.mcpConfig) patch.mcpServers = options.mcpConfig.mcpServers as SettingsPatch['mcpServers'];
  if (Object.keys(patch).length) {
    const updated = await settings.update(patch);
    if (!updated.ok) throw new Error(`harness options: ${updated.message}`);
  }
  // ---- pushes go to every connected page (an ask page and a main page may share a harness)
  const clients = new Set<WebSocket>();
  /** Incoming images wait for a page when none is connected yet (the ask page may still be loading). */
  const undelivered: string[] = [];
  const push = <E extends EventChannel>(channel: E, payload: IpcEventPayload<E>) => {
    const frame = JSON.stringify({ event: channel, payload: checkedEvent(channel, payload) });
    if (clients.size === 0 && channel === 'attachments:incoming') undelivered.push(frame);
    for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(frame);
  };

  let pageOrigin = '';
  // The page answers MCP servers' questions (elicitation, `${input:…}`) in a dialog.
  const { services, handlers, close: closeApi } = composeApi({
    dataDir: options.dataDir,
    settings,
    secrets,
    ...(options.capturer ? { capturer: options.capturer } : {}),
    ...(options.allowLoopbackFetch ? { allowLoopbackFetch: true } : {}),
    ...(options.ocr ? { ocr: options.ocr } : {}),
    log,
    emit: push,
    // A damaged conversation, drafts.json or image: said in the page, as the app says it.
    onDamaged: (damage) => {
      log(damage.message);
      push('app:notice', { id: `${damage.code}-${Date.now().toString(36)}`, level: 'warning', code: damage.code, message: damage.message });
    },
    shell: {
      // One browser tab plays both windows: the page itself moves to the conversation.
      openMain: async (conversationId) => {
        if (conversationId) push('app:showConversation', { conversationId });
      },
      hotkey: () => ({ accelerator: settings.current().hotkey, registered: false, message: 'the harness has no global hotkey (it runs in a browser)' }),
      version: process.env.npm_package_version ?? '0.0.0',
      platform: `${process.platform} (harness)`,
    },
  });
  const scrubLine = services.scrubSecrets;
  const offSettings = settings.onChange((s) => push('settings:changed', maskSettings(s)));
  // A hand edit of settings.json applies as a save from Settings does; one that cannot be read is said.
  const stopWatching = settings.watch({
    onProblem: (message) => {
      log(message);
      push('app:notice', { id: `settings-edit-${Date.now().toString(36)}`, level: 'warning', code: 'settings-edit', message });
    },
    onApplied: (warnings) => log(`settings.json edited: applied${warnings.length ? ` (${warnings.join('; ')})` : ''}`),
  });

  // ---- HTTP: the built renderer, read-only
  const server = createServer((req, res) => void serveStatic(req, res));
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  pageOrigin = `http://127.0.0.1:${port}`;
  const host = `127.0.0.1:${port}`;
  const token = randomBytes(32).toString('hex');
  const policy = csp(pageOrigin);
  const sender: SenderInfo = { url: `${pageOrigin}/index.html`, isMainFrame: true };
  const router = createIpcRouter({
    handlers,
    isTrustedSender: (s) => s.isMainFrame && new URL(s.url).origin === pageOrigin,
    scrubSecrets: scrubLine,
    log: (line) => log(line),
  });

  async function serveStatic(req: IncomingMessage, res: ServerResponse) {
    if (req.headers.host !== host) {
      res.writeHead(421, { 'Content-Type': 'text/plain' }).end('Misdirected request');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', pageOrigin).pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (path === '/api') {
      // The page's question after a WebSocket that never opened: is my token still this run's?
      const given = new URL(req.url ?? '/', pageOrigin).searchParams.get('token') ?? '';
      if (sameSecret(given, token)) res.writeHead(426, { 'Content-Type': 'text/plain', Upgrade: 'websocket' }).end('Upgrade Required');
      else res.writeHead(401, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' }).end(BAD_TOKEN);
      return;
    }
    if (path === '/' || path === '') path = '/index.html';
    const file = normalize(join(rendererDir, path));
    if (!file.startsWith(rendererDir.endsWith(sep) ? rendererDir : rendererDir + sep)) {
      res.writeHead(404).end();
      return;
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Length': body.length,
      'Content-Security-Policy': policy,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  // ---- WebSocket: the typed API
  // Every check runs before the upgrade completes: a client that fails one never gets a WebSocket,
  // so ws's frame parser never reads a byte from it (one malformed frame from a wrong-token client
  // killed the process, and six sending 90 MB frames held 720 MB, while the upgrade came first).
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  server.on('upgrade', (req, socket, head) => {
    // The HTTP server lets go of the socket on an upgrade: a reset now would be an unhandled error.
    socket.on('error', () => socket.destroy());
    const refuse = (status: 400 | 401 | 403, why: string, body = '') => {
      log(`refused a WebSocket: ${why}`);
      const text = status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Bad Request';
      // Closed once the answer is out, as ws's own refusals are: a client that keeps writing is not read.
      socket.once('finish', () => socket.destroy());
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    };
    let url: URL;
    try {
      url = new URL(req.url ?? '/', pageOrigin);
    } catch {
      refuse(400, 'bad request line');
      return;
    }
    if (url.pathname !== '/api') return refuse(400, `unknown path ${url.pathname}`);
    if (req.headers.host !== host) return refuse(403, `foreign Host ${String(req.headers.host)}`);
    if (req.headers.origin !== pageOrigin) return refuse(403, `foreign Origin ${String(req.headers.origin ?? '(none)')}`);
    if (!sameSecret(url.searchParams.get('token') ?? '', token)) return refuse(401, 'a page without the current token', BAD_TOKEN);
    wss.handleUpgrade(req, socket, head, (ws) => {
      // A bad frame (a length over maxPayload, RSV bits, an unmasked frame) is an 'error' on the
      // socket, then a close: said in the log, never thrown.
      ws.on('error', (error) => log(`closed a WebSocket after a bad frame: ${error.message}`));
      clients.add(ws);
      ws.on('close', () => clients.delete(ws));
      ws.on('message', (data, isBinary) => void onMessage(ws, data, isBinary));
      for (const frame of undelivered.splice(0)) ws.send(frame);
    });
  });

  async function onMessage(ws: WebSocket, data: unknown, isBinary: boolean) {
    let message: { id?: unknown; channel?: unknown; payload?: unknown };
    try {
      if (isBinary) throw new Error('binary frame');
      message = JSON.parse(String(data)) as typeof message;
    } catch {
      ws.close(1003, 'frames are JSON text');
      return;
    }
    if (typeof message.id !== 'number' || typeof message.channel !== 'string') {
      ws.close(1008, 'a frame is { id, channel, payload }');
      return;
    }
    const result = await router.handle(message.channel, sender, decodeBytes(message.payload));
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id: message.id, result }));
  }

  let incomingCount = 0;
  return {
    url: `${pageOrigin}/#token=${token}`,
    askUrl: `${pageOrigin}/#ask&token=${token}`,
    pageOrigin,
    port,
    token,
    async screenshotAndAsk() {
      const id = `in-${Date.now().toString(36)}-${incomingCount++}`;
      // As the app's hotkey: held under the item's id if it cannot be checked, for the ask window's "Send anyway".
      const result = (await router.handle('capture:screenshot', sender, { display: 'under-cursor', hold: id })) as IpcResult<AttachmentInfo>;
      const item: IncomingAttachment = {
        id,
        target: 'ask',
        result: result.ok ? { ok: true, attachment: result.value } : { ok: false, origin: 'hotkey', code: result.code, message: result.message },
      };
      push('attachments:incoming', item);
      return item;
    },
    async close() {
      offSettings();
      stopWatching();
      for (const ws of clients) ws.terminate();
      wss.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
      await closeApi();
    },
  };
}
