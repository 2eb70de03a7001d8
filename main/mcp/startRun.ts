// One start of an MCP server (serverConnection.ts): when it began, how stop() ends it wherever it
// is (a question, a sign-in, initialize), and whether it now waits for the person — the hub's
// turns stop waiting for a server at that moment (turnReadiness.ts).

export class StartRun {
  /** Date.now() when the start began. */
  readonly at = Date.now();
  readonly #abort = new AbortController();
  readonly #changed: () => void;
  #asking = false;
  #ended = false;
  #waiters: (() => void)[] = [];

  /** `changed` is told each time `asking` flips (the hub announces the server's state). */
  constructor(changed: () => void) {
    this.#changed = changed;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get asking(): boolean {
    return this.#asking;
  }

  stop(reason: string): void {
    this.#abort.abort(new Error(reason));
  }

  /** Resolves once the start waits for the person, or has ended. */
  whenAsking(): Promise<void> {
    if (this.#asking || this.#ended) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  setAsking(asking: boolean): void {
    if (this.#asking === asking) return;
    this.#asking = asking;
    if (asking) this.#tell();
    this.#changed();
  }

  /** While `wait` runs, the start waits for the person. */
  async askingWhile<T>(wait: () => Promise<T>): Promise<T> {
    this.setAsking(true);
    try {
      return await wait();
    } finally {
      this.setAsking(false);
    }
  }

  end(): void {
    this.#ended = true;
    this.#asking = false;
    this.#tell();
  }

  #tell(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
