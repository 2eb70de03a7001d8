// The capturer's side of the capture worker (captureWorker.ts): one worker, started on first
// use, answering grabs by id. It keeps the process alive only while a grab is in flight. A
// worker that cannot start (no worker threads, a packaging that cannot load it) answers
// undefined, and the capturer grabs in its own thread instead.
import { Worker } from 'node:worker_threads';
import type { WorkerMessage, WorkerRequest } from './captureWorker.ts';
import type { GrabRequest, GrabResult } from './nativeGrab.ts';

/** Long enough for a cold start on a busy machine (sharp and node-screenshots load there). */
const READY_TIMEOUT_MS = 20_000;

type Pending = { resolve: (result: GrabResult) => void; reject: (error: Error) => void };

export class CaptureWorkerClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #stopped: string | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
  }

  /** A started worker, or undefined (with nothing left running) when it cannot start. */
  static async start(): Promise<CaptureWorkerClient | undefined> {
    const here = import.meta.url;
    let worker: Worker;
    try {
      // Source (.ts, under Node's type stripping) and build (.js) each start their own sibling.
      worker = new Worker(new URL(here.endsWith('.ts') ? './captureWorker.ts' : './captureWorker.js', here));
    } catch {
      return undefined;
    }
    worker.unref();
    const client = new CaptureWorkerClient(worker);
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
      timer.unref();
      const settle = (ok: boolean) => {
        clearTimeout(timer);
        resolve(ok);
      };
      worker.on('message', (m: WorkerMessage) => {
        if (m.kind === 'ready') settle(true);
        else if (m.kind === 'unavailable') settle(false);
        else client.#answer(m);
      });
      worker.once('error', () => settle(false));
      worker.once('exit', () => settle(false));
    });
    if (!ready) {
      void worker.terminate();
      return undefined;
    }
    worker.on('error', (error) => client.#stop(error.message));
    worker.on('exit', (code) => client.#stop(`it exited with code ${code}`));
    return client;
  }

  /** False once the worker has stopped: start another. */
  get alive(): boolean {
    return this.#stopped === undefined;
  }

  /** Ends the worker; grabs in flight and later ones reject. */
  async close(): Promise<void> {
    this.#stop('closed');
    await this.#worker.terminate();
  }

  /**
   * One grab. Given up on when `signal` aborts (its answer, if it ever comes, is dropped), so a
   * grab stuck on a desktop's dialog never keeps the process alive.
   */
  grab(request: GrabRequest, signal?: AbortSignal): Promise<GrabResult> {
    if (this.#stopped) return Promise.reject(new Error(`the capture worker stopped (${this.#stopped})`));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.#nextId++;
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise<GrabResult>((resolve, reject) => {
      const onAbort = () => {
        this.#settle(id);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.#pending.set(id, {
        resolve: (result) => (done(), resolve(result)),
        reject: (error) => (done(), reject(error)),
      });
      this.#worker.postMessage({ id, request } satisfies WorkerRequest);
    });
  }

  /** The pending grab `id`, taken off the list (the worker is let go when none is left). */
  #settle(id: number): Pending | undefined {
    const pending = this.#pending.get(id);
    if (!pending) return undefined;
    this.#pending.delete(id);
    if (this.#pending.size === 0 && !this.#stopped) this.#worker.unref();
    return pending;
  }

  #answer(m: Extract<WorkerMessage, { id: number }>): void {
    const pending = this.#settle(m.id);
    if (!pending) return;
    if (m.kind === 'error') pending.reject(new Error(m.message));
    else pending.resolve(m.result);
  }

  #stop(reason: string): void {
    this.#stopped ??= reason;
    for (const { reject } of this.#pending.values()) reject(new Error(`the capture worker stopped (${reason})`));
    this.#pending.clear();
  }
}
