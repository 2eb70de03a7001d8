// One guard per provider call: links the caller's AbortSignal to an internal controller the
// HTTP client sees, and adds an inactivity timeout (reset on every chunk), so a silent server
// cannot hang a turn and a cancel reaches the socket even while we still wait for headers.
import { ProviderError } from './provider.ts';

export class CallGuard {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly caller: AbortSignal | undefined;
  private readonly timeoutMs: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timedOutFlag = false;
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason);

  constructor(caller: AbortSignal | undefined, timeoutMs: number) {
    this.caller = caller;
    this.timeoutMs = timeoutMs;
    this.signal = this.controller.signal;
    if (caller?.aborted) this.controller.abort(caller.reason);
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.touch();
  }

  /** True when the caller cancelled (as opposed to our timeout firing). */
  get cancelled(): boolean {
    return this.caller?.aborted === true;
  }

  get timedOut(): boolean {
    return this.timedOutFlag && !this.cancelled;
  }

  /** Restart the inactivity clock: call on every chunk received. */
  touch(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timedOutFlag = true;
      this.controller.abort(new Error(`no response for ${Math.round(this.timeoutMs / 1000)} s`));
    }, this.timeoutMs);
    // A pending timeout must not keep a CLI process alive on its own.
    this.timer.unref?.();
  }

  /** Abort the underlying request (e.g. the consumer stopped reading). */
  abort(): void {
    if (!this.controller.signal.aborted) this.controller.abort();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

/** `fetch` with an extra signal that aborts the request along with any signal the client set. */
export function fetchWithSignal(base: typeof fetch, signal: AbortSignal): typeof fetch {
  return (input, init) =>
    base(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
}

/** Seconds, for messages. */
export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** The Node error code behind a failed fetch ("ECONNREFUSED", "ENOTFOUND", …), if any. */
export function networkErrorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) return code;
    // AggregateError (happy eyeballs: both IPv4 and IPv6 refused)
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      const inner = networkErrorCode(errors[0]);
      if (inner) return inner;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Codes that mean "we never got a connection", as opposed to one that broke mid-answer. */
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * The request got no response at all. A connection closed before any answer counts too:
 * that is what a pooled keep-alive socket to a server that since died looks like.
 */
export function isConnectFailure(error: unknown): boolean {
  const code = networkErrorCode(error);
  if (code) return CONNECT_CODES.has(code) || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED';
  // undici's bare "fetch failed" without a recognisable cause still means no response came.
  return error instanceof TypeError && /fetch failed/i.test(error.message);
}

/** A response body cut off by the network (undici says "terminated", with a socket error as cause). */
export function isDroppedConnection(error: unknown): boolean {
  return (error instanceof TypeError && /terminated|fetch failed|network/i.test(error.message)) || networkErrorCode(error) !== undefined;
}

/** The error every provider throws when its caller's signal aborted the call. */
export function cancelled(cause?: unknown): ProviderError {
  return new ProviderError('cancelled', 'Cancelled.', cause === undefined ? undefined : { cause });
}
