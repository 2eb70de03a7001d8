// One writer per conversation, across processes (architecture §5: "two turns on one conversation
// never overwrite each other"). Each turn read the file, appended its messages in memory and
// wrote the whole file back, so of 20 concurrent `glance ask --conversation ID` 18 turns were
// silently overwritten. A lock file next to the conversation serialises them: created with
// O_EXCL, holding the owner's pid and host, its mtime refreshed while held. A lock whose owner
// is dead (same host, no such pid) or whose heartbeat stopped is stale and is broken — under a
// second, short-lived "breaker" lock, so two waiters never break each other's fresh lock.
import { hostname } from 'node:os';
import { mkdir, open, readFile, rm, stat, utimes } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export type LockOptions = {
  /** How long to wait for another turn to finish before answering "busy" (ms). */
  waitMs?: number;
  /** A lock not refreshed for this long is stale (ms); the holder refreshes it every third of it. */
  staleMs?: number;
  signal?: AbortSignal;
};

export type ConversationLock = { release(): Promise<void> };

/** Another turn holds the conversation for longer than we waited. */
export class ConversationBusyError extends Error {
  readonly code = 'conversation-busy';
  constructor(id: string, waitedMs: number) {
    super(`The conversation ${id} is busy: another turn on it (in this window or another Glance process) did not finish within ${Math.round(waitedMs / 1000)} s. Nothing was sent; try again when it is done.`);
    this.name = 'ConversationBusyError';
  }
}

const DEFAULT_WAIT_MS = 30_000;
const DEFAULT_STALE_MS = 30_000;
const BREAKER_STALE_MS = 5_000;
/** Lock files this process holds (a lock naming our own pid but not here is a dead predecessor's). */
const held = new Set<string>();

export async function acquireLock(path: string, id: string, options: LockOptions = {}): Promise<ConversationLock> {
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const started = Date.now();
  await mkdir(dirname(path), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    options.signal?.throwIfAborted();
    if (await tryCreate(path)) return holdLock(path, staleMs);
    if (await isStale(path, staleMs)) {
      await breakStale(path, staleMs);
      continue;
    }
    if (Date.now() - started >= waitMs) throw new ConversationBusyError(id, waitMs);
    // Jittered back-off, so 20 waiters do not wake in step.
    await sleep(Math.min(250, 20 + attempt * 10) * (0.5 + Math.random()), undefined, { signal: options.signal });
  }
}

async function tryCreate(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(JSON.stringify({ pid: process.pid, host: hostname(), at: new Date().toISOString() }));
    await handle.close();
  } catch (error) {
    // A full disk makes the file but not its owner line: left, it would read as a live lock for 30 s.
    await handle.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
  held.add(path);
  return true;
}

function holdLock(path: string, staleMs: number): ConversationLock {
  const beat = setInterval(() => {
    const now = new Date();
    utimes(path, now, now).catch(() => undefined);
  }, Math.max(50, Math.floor(staleMs / 3)));
  beat.unref();
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      clearInterval(beat);
      held.delete(path);
      await rm(path, { force: true });
    },
  };
}

type Owner = { pid?: number; host?: string };

async function isStale(path: string, staleMs: number): Promise<boolean> {
  let owner: Owner;
  let mtimeMs: number;
  try {
    [owner, mtimeMs] = await Promise.all([readOwner(path), stat(path).then((s) => s.mtimeMs)]);
  } catch (error) {
    // Gone between our create and our look: not stale, just free now.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if (Date.now() - mtimeMs > staleMs) return true;
  if (owner.host !== hostname() || typeof owner.pid !== 'number') return false;
  if (owner.pid === process.pid) return !held.has(path);
  return !processAlive(owner.pid);
}

async function readOwner(path: string): Promise<Owner> {
  const text = await readFile(path, 'utf8');
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Owner) : {};
  } catch {
    // Half-written by a process killed between create and write: judged by its age alone.
    return {};
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function breakStale(path: string, staleMs: number): Promise<void> {
  const breaker = `${path}.break`;
  if (!(await tryCreate(breaker))) {
    // Someone else is breaking it; clear a breaker left by a killed process.
    const age = await stat(breaker).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (age > BREAKER_STALE_MS) await rm(breaker, { force: true });
    await sleep(10);
    return;
  }
  try {
    // Judged again under the breaker: it may have been broken and re-taken meanwhile.
    if (await isStale(path, staleMs)) await rm(path, { force: true });
  } finally {
    held.delete(breaker);
    await rm(breaker, { force: true });
  }
}

