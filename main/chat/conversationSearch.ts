// Search across the stored conversations' titles and message text, for the conversation list.
// Each file's words are read once and kept while its modification time and size stand still;
// while the folder's own mtime stands still (every save is an atomic rename into it, every
// delete removes a name) not even a stat is needed. docs/benchmarks-perf.md has the figures.
import { statSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** A conversation whose title or text holds every word searched for. */
export type ConversationMatch = {
  id: string;
  /** Where the words are: the title, or a message (its text around the first word found). */
  inTitle: boolean;
  snippet?: string;
};

type Indexed = { mtimeMs: number; size: number; title: string; text: string; lower: string };

/** Characters of message text shown on each side of the first word found. */
const AROUND = 40;
/** Files read at once when the index catches up. */
const READS_AT_ONCE = 16;

export class ConversationSearch {
  readonly #dir: string;
  readonly #index = new Map<string, Indexed>();
  #dirMtimeMs = -1;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** Conversations holding every word of `query` (case-insensitive), at most `limit`, with where each matched. */
  async search(query: string, limit = 200): Promise<ConversationMatch[]> {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return [];
    await this.#catchUp();
    const out: ConversationMatch[] = [];
    for (const [id, c] of this.#index) {
      const title = c.title.toLowerCase();
      if (!words.every((w) => title.includes(w) || c.lower.includes(w))) continue;
      const inTitle = words.every((w) => title.includes(w));
      out.push(inTitle ? { id, inTitle } : { id, inTitle, snippet: snippetOf(c, words.find((w) => !title.includes(w))!) });
      if (out.length >= limit) break;
    }
    return out;
  }

  async #catchUp(): Promise<void> {
    let dirMtime: number;
    try {
      dirMtime = (await stat(this.#dir)).mtimeMs;
    } catch {
      this.#index.clear();
      return;
    }
    if (dirMtime === this.#dirMtimeMs) return;
    const names = (await readdir(this.#dir)).filter((n) => n.endsWith('.json'));
    const ids = new Set(names.map((n) => n.slice(0, -5)));
    for (const id of this.#index.keys()) if (!ids.has(id)) this.#index.delete(id);
    // One stat per file, synchronously: for a thousand files a few milliseconds, where a thousand
    // trips through libuv's thread pool took a hundred or more (docs/benchmarks-perf.md).
    const changed: { id: string; mtimeMs: number; size: number }[] = [];
    for (const id of ids) {
      const s = statSync(join(this.#dir, `${id}.json`), { throwIfNoEntry: false });
      const known = this.#index.get(id);
      if (!s) this.#index.delete(id);
      else if (!known || known.mtimeMs !== s.mtimeMs || known.size !== s.size) changed.push({ id, mtimeMs: s.mtimeMs, size: s.size });
    }
    const work = async () => {
      for (let next = changed.pop(); next !== undefined; next = changed.pop()) await this.#read(next.id, next.mtimeMs, next.size);
    };
    await Promise.all(Array.from({ length: READS_AT_ONCE }, work));
    this.#dirMtimeMs = dirMtime;
  }

  async #read(id: string, mtimeMs: number, size: number): Promise<void> {
    const file = join(this.#dir, `${id}.json`);
    try {
      const entry = wordsOf(JSON.parse(await readFile(file, 'utf8')));
      if (entry) this.#index.set(id, { mtimeMs, size, ...entry });
      else this.#index.delete(id);
    } catch {
      // Gone meanwhile, or damaged: the list skips it too (ConversationStore.list).
      this.#index.delete(id);
    }
  }
}

/** The title and what the person and the model wrote (not tool results or image stubs). */
function wordsOf(raw: unknown): { title: string; text: string; lower: string } | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { title, messages } = raw as { title?: unknown; messages?: unknown };
  if (typeof title !== 'string' || !Array.isArray(messages)) return undefined;
  const parts: string[] = [];
  for (const m of messages as { role?: unknown; text?: unknown }[]) {
    if ((m?.role === 'user' || m?.role === 'assistant') && typeof m.text === 'string' && m.text) parts.push(m.text.replace(/\s+/g, ' '));
  }
  const text = parts.join(' \u2022 ');
  return { title, text, lower: text.toLowerCase() };
}

/** The message text around the first place `word` is found, cut at word boundaries. */
function snippetOf(c: Indexed, word: string): string {
  const at = c.lower.indexOf(word);
  // toLowerCase keeps the length for all but a few letters (İ): then the lowered text is shown.
  const source = c.lower.length === c.text.length ? c.text : c.lower;
  let start = Math.max(0, at - AROUND);
  let end = Math.min(source.length, at + word.length + AROUND);
  if (start > 0) start = source.indexOf(' ', start) + 1 || start;
  if (end < source.length) end = source.lastIndexOf(' ', end) > at + word.length ? source.lastIndexOf(' ', end) : end;
  return `${start > 0 ? '…' : ''}${source.slice(start, end).trim()}${end < source.length ? '…' : ''}`;
}
