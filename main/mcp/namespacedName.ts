// Tool names a model may call: `server__tool`, valid for OpenAI and Ollama, unique within the hub.
import { createHash } from 'node:crypto';

const NAME_RE = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * `server__tool`, with anything outside [a-zA-Z0-9_-] made "_". Too long (> 64) or already
 * taken by another tool → shortened and suffixed with a hash of the real pair, so names are
 * stable across runs and unique within the hub.
 */
export function namespacedName(server: string, tool: string, taken: ReadonlyMap<string, unknown>): string {
  const base = `${cleanName(server)}__${cleanName(tool)}`;
  if (NAME_RE.test(base) && !taken.has(base)) return base;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex');
  for (let n = 8; n <= 16; n++) {
    const name = `${base.slice(0, 64 - n - 1)}_${hash.slice(0, n)}`;
    if (!taken.has(name)) return name;
  }
  return `${base.slice(0, 64 - 33)}_${hash.slice(0, 32)}`;
}

export function cleanName(s: string): string {
  return s.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/**
 * A title a server gives itself or its tools (serverInfo.title, tool.title), shown only beside
 * the configured name. Untrusted (architecture §5): one that names Glance, or is empty, is
 * dropped, so no server's card or event reads as the app's own.
 */
export function claimedTitle(title: string | undefined): string | undefined {
  const t = title?.replace(/\s+/g, ' ').trim().slice(0, 80);
  if (!t || /glance/i.test(t.normalize('NFKC').replace(/[\u200b-\u200f\u2060\ufeff]/g, ''))) return undefined;
  return t;
}
