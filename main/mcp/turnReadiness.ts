// What a chat turn waits for before its first model request (architecture §6): never a person,
// and never a server that does not answer. Every server starts in the background; a turn waits
// for a server still starting only until a short while after that server's own start
// (`turnWaitMs`, so a server begun with the app is never waited for by a later turn), and never
// for one whose start waits on the person (an `${input:…}` answer, a sign-in): that question
// waits in its own card, and the server's tools join a later step or turn once it is answered.
import type { ServerReadiness } from '../../common/toolServers.ts';
import type { ServerConnection } from './serverConnection.ts';

/**
 * Waits for the servers just asked to start (`done`: that start, or the refresh of a running
 * server's tools) — each at most until `waitMs` after its own start, none that waits for the
 * person, and not past the signal.
 */
export async function waitForStarting(started: readonly { server: ServerConnection; done: Promise<void> }[], waitMs: number, signal?: AbortSignal): Promise<void> {
  const timers: NodeJS.Timeout[] = [];
  const waits: Promise<void>[] = [];
  const now = Date.now();
  for (const { server, done } of started) {
    if (server.asking) continue;
    const until = (server.startedAt ?? now) + waitMs;
    const own = new Promise<void>((resolve) => timers.push(setTimeout(resolve, Math.max(0, until - now))));
    // A server that starts asking the person stops holding the turn at once.
    waits.push(Promise.race([done, server.whenAsking(), own]));
  }
  if (waits.length === 0 || signal?.aborted) return;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => signal?.addEventListener('abort', (onAbort = () => resolve()), { once: true }));
  try {
    await Promise.race([Promise.all(waits), aborted]);
  } finally {
    for (const timer of timers) clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** The servers (enabled, not switched off) a turn goes without, for the event stream and the system prompt. */
export function readiness(servers: readonly ServerConnection[]): ServerReadiness[] {
  const out: ServerReadiness[] = [];
  for (const server of servers) {
    const health = server.status();
    if (health.state === 'starting') out.push({ name: server.name, state: server.asking ? 'asking' : 'starting' });
    else if (health.state === 'failed') out.push({ name: server.name, state: 'failed', ...(health.message ? { message: health.message } : {}) });
  }
  return out;
}
