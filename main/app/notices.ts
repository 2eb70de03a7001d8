// Things the user must be told that no request asked about: the hotkey could not be
// registered, keys are stored without a keyring, settings were recovered. Kept so a window
// that opens later still shows them (`app:info`), and pushed as they happen (`app:notice`).
import type { Notice } from '../../common/ipc.ts';

export class Notices {
  readonly #items = new Map<string, Notice>();
  readonly #listeners = new Set<(notice: Notice) => void>();

  /** One notice per code: a newer one replaces the older (the hotkey's latest state, say). */
  add(level: Notice['level'], code: string, message: string): Notice {
    const notice: Notice = { id: `${code}-${Date.now().toString(36)}`, level, code, message };
    this.#items.set(code, notice);
    for (const listener of this.#listeners) listener(notice);
    return notice;
  }

  clear(code: string): void {
    this.#items.delete(code);
  }

  list(): Notice[] {
    return [...this.#items.values()];
  }

  onAdd(listener: (notice: Notice) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
