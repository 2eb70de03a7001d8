// Transport-neutral IPC dispatch: validate the sender and the request with the channel's
// zod schema, run the handler, validate what it answers, and turn any throw into a redacted
// `{ ok:false }`. No electron import: Electron's ipcMain binding (ipcElectron.ts) and the
// harness's WebSocket both call `handle`, and tests call it under plain Node.
import { fileURLToPath } from 'node:url';
import { relative, isAbsolute } from 'node:path';
import type { z } from 'zod';
import {
  IPC,
  IPC_ERROR,
  IPC_EVENTS,
  INVOKE_CHANNELS,
  describeIssues,
  type EventChannel,
  type IpcEventPayload,
  type IpcRequest,
  type IpcResult,
  type InvokeChannel,
} from '../../common/ipc.ts';
import { ProviderError } from '../models/provider.ts';
import { boundText, scrubSecrets } from '../scrubSecrets.ts';
import { errorMessage } from '../errors.ts';

/** Who sent a request: the sending frame's URL, as Electron's `event.senderFrame` reports it. */
export type SenderInfo = { url: string; isMainFrame: boolean; windowId?: number };
type IpcContext = { sender: SenderInfo };

/** What a handler may answer: the response schema's input (defaults are applied on the way out). */
type IpcValueInput<C extends InvokeChannel> = z.input<(typeof IPC)[C]['response']>;
type IpcHandler<C extends InvokeChannel> = (request: IpcRequest<C>, context: IpcContext) => Promise<IpcResult<IpcValueInput<C>>>;
export type IpcHandlers = { [C in InvokeChannel]: IpcHandler<C> };

export type IpcRouter = {
  readonly channels: readonly InvokeChannel[];
  handle(channel: string, sender: SenderInfo, payload: unknown): Promise<IpcResult<unknown>>;
};

type IpcRouterOptions = {
  handlers: IpcHandlers;
  isTrustedSender: (sender: SenderInfo) => boolean;
  /** Strips keys and image payloads from error text; defaults to the pattern-based `scrubSecrets`. */
  scrubSecrets?: (text: string) => string;
  /** Where handler crashes and invalid responses are reported (already redacted). */
  log?: (line: string) => void;
};

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail(code: string, message: string): { ok: false; code: string; message: string } {
  return { ok: false, code, message };
}

/** A provider's failure (server down, model missing…) as a result; anything else is a bug and throws. */
export function providerFailure(error: unknown): { ok: false; code: string; message: string } {
  if (error instanceof ProviderError) return fail(error.code, error.message);
  throw error;
}

const isInvokeChannel = (c: string): c is InvokeChannel => (INVOKE_CHANNELS as readonly string[]).includes(c);

/** A thrown error's own code when it is one of ours ("unreachable", "model-not-found"), else "internal". */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z][a-z-]{1,40}$/.test(code) ? code : IPC_ERROR.internal;
}

export function createIpcRouter(options: IpcRouterOptions): IpcRouter {
  // Redacted, then bounded: a failure message is a few hundred characters, never a whole echoed request.
  const scrub = options.scrubSecrets ?? ((t: string) => scrubSecrets(t));
  const clean = (t: string) => boundText(scrub(t));
  const log = options.log ?? (() => undefined);

  async function dispatch<C extends InvokeChannel>(channel: C, sender: SenderInfo, payload: unknown): Promise<IpcResult<unknown>> {
    const { request: requestSchema, response: responseSchema } = IPC[channel];
    const parsed = requestSchema.safeParse(payload);
    if (!parsed.success) return fail(IPC_ERROR.badRequest, clean(describeIssues(channel, parsed.error)));
    const handler = options.handlers[channel] as IpcHandler<C>;
    let result: IpcResult<unknown>;
    try {
      result = await handler(parsed.data as IpcRequest<C>, { sender });
    } catch (error) {
      const message = clean(errorMessage(error));
      log(`ipc ${channel} failed: ${message}`);
      return fail(codeOf(error), message);
    }
    if (!result.ok) return fail(result.code, clean(result.message));
    // Parsing the answer also strips any field the contract does not name (a key, a path…).
    const checked = responseSchema.safeParse(result.value);
    if (!checked.success) {
      log(`ipc ${channel} produced an invalid response: ${clean(describeIssues(channel, checked.error))}`);
      return fail(IPC_ERROR.internal, `${channel}: Glance produced an invalid answer`);
    }
    return ok(checked.data);
  }

  return {
    channels: INVOKE_CHANNELS,
    async handle(channel, sender, payload) {
      if (!isInvokeChannel(channel)) return fail(IPC_ERROR.badRequest, `unknown channel "${channel}"`);
      if (!options.isTrustedSender(sender)) {
        log(`ipc ${channel} refused: untrusted sender ${clean(sender.url)}`);
        return fail(IPC_ERROR.forbiddenSender, `${channel}: refused a request from ${clean(sender.url) || 'an unknown frame'}`);
      }
      return dispatch(channel, sender, payload);
    },
  };
}

/** Validate a push event before it leaves main; a bad one is a bug in main, so it throws. */
export function checkedEvent<E extends EventChannel>(channel: E, payload: IpcEventPayload<E>): IpcEventPayload<E> {
  return IPC_EVENTS[channel].parse(payload) as IpcEventPayload<E>;
}

type TrustedOrigins = {
  /** The app's own scheme and host, e.g. "app://glance". */
  appOrigin: string;
  /** A Vite dev server during development ("http://localhost:5173"). */
  devServerUrl?: string;
  /** If the renderer is loaded from files: the folder it lives in. */
  fileRoot?: string;
};

/** Only the app's own pages, in their top frame, may call main. */
export function createSenderCheck(origins: TrustedOrigins): (sender: SenderInfo) => boolean {
  const app = new URL(origins.appOrigin);
  const dev = origins.devServerUrl ? new URL(origins.devServerUrl).origin : undefined;
  return (sender) => {
    if (!sender.isMainFrame) return false;
    let url: URL;
    try {
      url = new URL(sender.url);
    } catch {
      return false;
    }
    if (url.protocol === app.protocol && url.host === app.host) return true;
    if (dev !== undefined && url.origin === dev) return true;
    if (origins.fileRoot !== undefined && url.protocol === 'file:') {
      let path: string;
      try {
        path = fileURLToPath(url);
      } catch {
        return false; // a file URL with a remote host
      }
      const rel = relative(origins.fileRoot, path);
      return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
    }
    return false;
  };
}
