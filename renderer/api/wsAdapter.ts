// `GlanceApi` over the harness's WebSocket (main/harness), for when there is no preload
// (`window.glance`): a browser under Playwright, or `npm run harness` as a dev mode.
//
// Wire format (JSON text frames):
//   page → harness  { id, channel, payload }      payload bytes travel as { "$bytes": base64 }
//   harness → page  { id, result }                result is the IpcResult, as over Electron IPC
//                   { event, payload }            a push on one of EVENT_CHANNELS
// Like the preload, every call answers `{ ok:false }` rather than rejecting.
import type { GlanceApi, IpcResult } from '../../common/ipc.ts';
import { EVENT_CHANNELS, INVOKE_CHANNELS, eventMethodName, invokeMethodName } from '../../common/ipcChannels.ts';
import { errorMessage } from '../../common/errors.ts';

export type ConnectionState = 'connecting' | 'open' | 'closed' | 'refused';

type WsApiOptions = {
  /** ws://127.0.0.1:PORT/api?token=… */
  url: string;
  onState?: (state: ConnectionState, message?: string) => void;
  /** A call unanswered this long fails (a turn's events are pushes and are not bound by it). */
  timeoutMs?: number;
};

/**
 * Why the harness refused a connection that never opened, or undefined (it was not answering):
 * a browser's WebSocket hides the HTTP status of a refused upgrade, so the same address is asked
 * over plain HTTP, where a wrong token is a 401 that says so (main/harness/startHarness.ts).
 */
async function refusal(wsUrl: string): Promise<string | undefined> {
  try {
    const res = await fetch(wsUrl.replace(/^ws/, 'http'), { cache: 'no-store' });
    return res.status === 401 ? (await res.text()) || 'The harness refused this page.' : undefined;
  } catch {
    return undefined;
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Uint8Arrays (a dropped file's bytes) become `{ $bytes }`: JSON has no bytes. */
export function encodePayload(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $bytes: toBase64(value) };
  if (Array.isArray(value)) return value.map(encodePayload);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encodePayload(v)]));
  }
  return value;
}

type Pending = { resolve: (r: IpcResult<unknown>) => void; timer: ReturnType<typeof setTimeout> };

export function createWsApi(options: WsApiOptions): GlanceApi & { close(): void } {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let queue: string[] = [];
  let socket: WebSocket | undefined;
  let nextId = 1;
  let stopped = false;
  let retryMs = 250;

  const failAll = (message: string) => {
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      p.resolve({ ok: false, code: 'ipc-failed', message });
      pending.delete(id);
    }
  };

  const connect = () => {
    if (stopped) return;
    options.onState?.('connecting');
    const ws = new WebSocket(options.url);
    socket = ws;
    let opened = false;
    ws.addEventListener('open', () => {
      opened = true;
      retryMs = 250;
      options.onState?.('open');
      for (const frame of queue) ws.send(frame);
      queue = [];
    });
    ws.addEventListener('message', (e) => {
      let message: { id?: unknown; result?: unknown; event?: unknown; payload?: unknown };
      try {
        message = JSON.parse(String(e.data)) as typeof message;
      } catch {
        return;
      }
      if (typeof message.id === 'number') {
        const p = pending.get(message.id);
        if (!p) return;
        clearTimeout(p.timer);
        pending.delete(message.id);
        p.resolve(message.result as IpcResult<unknown>);
      } else if (typeof message.event === 'string') {
        for (const listener of listeners.get(message.event) ?? []) listener(message.payload);
      }
    });
    ws.addEventListener('close', () => {
      if (socket !== ws) return;
      socket = undefined;
      failAll('Lost the connection to Glance.');
      const retry = () => {
        options.onState?.('closed');
        if (!stopped) {
          setTimeout(connect, retryMs);
          retryMs = Math.min(retryMs * 2, 4000);
        }
      };
      if (opened) return retry();
      void refusal(options.url).then((reason) => {
        if (reason === undefined) return retry();
        stopped = true;
        options.onState?.('refused', reason);
      });
    });
  };

  const invoke = (channel: string) => (request: unknown = {}) =>
    new Promise<IpcResult<unknown>>((resolve) => {
      if (stopped) {
        resolve({ ok: false, code: 'ipc-failed', message: `${channel}: not connected to Glance` });
        return;
      }
      const id = nextId++;
      let frame: string;
      try {
        frame = JSON.stringify({ id, channel, payload: encodePayload(request) });
      } catch (error) {
        resolve({ ok: false, code: 'ipc-failed', message: `${channel}: ${errorMessage(error)}` });
        return;
      }
      const timer = setTimeout(() => {
        pending.delete(id);
        resolve({ ok: false, code: 'ipc-failed', message: `${channel}: Glance did not answer in ${Math.round(timeoutMs / 1000)} s` });
      }, timeoutMs);
      pending.set(id, { resolve, timer });
      if (socket?.readyState === WebSocket.OPEN) socket.send(frame);
      else queue.push(frame);
    });

  const subscribe = (channel: string) => (listener: (payload: unknown) => void) => {
    if (typeof listener !== 'function') throw new TypeError(`${channel}: the listener must be a function`);
    let set = listeners.get(channel);
    if (!set) listeners.set(channel, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  };

  const api: Record<string, unknown> = {};
  for (const channel of INVOKE_CHANNELS) api[invokeMethodName(channel)] = invoke(channel);
  for (const channel of EVENT_CHANNELS) api[eventMethodName(channel)] = subscribe(channel);
  // A browser gives no file paths: drops and the picker send bytes.
  api.pathForFile = () => '';
  api.close = () => {
    stopped = true;
    failAll('Closed.');
    socket?.close();
  };
  connect();
  return api as GlanceApi & { close(): void };
}
