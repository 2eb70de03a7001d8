// What a server may ask of a person through elicitation (architecture §6). The
// request is the server's, so it is untrusted: a URL is opened only when it is a web page
// (https:, or http: on this computer), and a form's secret fields (a password, a token) are
// typed without echo and never kept — the conversation keeps only that a form was answered and
// which fields it had, and whatever the server sends back has the secret values hidden.
import type { McpToolOutcome } from './binaryCapture.ts';

/** A URL-mode request Glance may put to the person, or why it is refused (in plain words). */
export type UrlVerdict = { ok: true; url: string; host: string } | { ok: false; reason: string };

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** https: anywhere; http: only on loopback. file:, javascript:, data:, custom schemes: never. */
export function checkElicitationUrl(raw: string): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'it is not a valid web address' };
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (url.protocol === 'https:' && url.hostname) return { ok: true, url: url.href, host: url.host };
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname.toLowerCase())) return { ok: true, url: url.href, host: url.host };
  if (url.protocol === 'http:') return { ok: false, reason: `it is a plain http: page on another computer (${url.host}); only https: pages, or http: on this computer, are opened` };
  return { ok: false, reason: `it is a ${scheme}: address, not a web page; only https: pages, or http: on this computer, are opened` };
}

const SECRET_NAME = /passw(or)?d|passphrase|passcode|pwd|token|secret|api[-_]?key|credential|private[-_]?key/i;

/** A field typed without echo and never kept: `format: "password"`, or a name (or title) that says secret. */
function isSecretField(name: string, field: { format?: unknown; title?: unknown }): boolean {
  if (field.format === 'password') return true;
  return SECRET_NAME.test(name) || (typeof field.title === 'string' && SECRET_NAME.test(field.title));
}

export function secretFieldNames(fields: Record<string, { format?: unknown; title?: unknown }>): string[] {
  return Object.entries(fields)
    .filter(([name, field]) => isSecretField(name, field))
    .map(([name]) => name);
}

/** Values shorter than this are not searched for in replies (hiding every "a" would wreck the text). */
const MIN_SCRUB_CHARS = 4;

/**
 * What people answered to the servers of one hub: the secret values (hidden from every later
 * result and log line) and, per server, notes of what was asked, for the call that was running.
 */
export class ElicitationLedger {
  readonly #secrets = new Set<string>();
  readonly #notes = new Map<string, string[]>();

  /** A form (or URL) question was settled; `secrets` are the values typed into secret fields. */
  record(server: string, note: string, secrets: readonly string[] = []): void {
    for (const s of secrets) if (s.length >= MIN_SCRUB_CHARS) this.#secrets.add(s);
    this.#notes.set(server, [...(this.#notes.get(server) ?? []), note]);
  }

  /** Text with every secret answered so far replaced by a marker. */
  scrub(text: string): string {
    let out = text;
    for (const s of this.#secrets) out = out.split(s).join('[a secret you typed, hidden]');
    return out;
  }

  /** A call's outcome, scrubbed, with what the server asked during it said at the end. */
  apply(server: string, outcome: McpToolOutcome): McpToolOutcome {
    const notes = this.#notes.get(server) ?? [];
    this.#notes.delete(server);
    if (this.#secrets.size === 0 && notes.length === 0) return outcome;
    const text = [this.scrub(outcome.text), ...notes].filter(Boolean).join('\n');
    return { ...outcome, text, notes: outcome.notes.map((n) => this.scrub(n)) };
  }
}

/** "asked for a form (name, password — secret, not kept): answered" — fields, never values. */
export function formNote(server: string, fields: readonly string[], secret: readonly string[], action: string): string {
  const list = fields.map((f) => (secret.includes(f) ? `${f} (secret, not kept)` : f)).join(', ');
  return `[MCP server "${server}" asked the person to fill in a form (${list || 'no fields'}): ${action === 'accept' ? 'answered' : action === 'decline' ? 'declined' : 'cancelled'}]`;
}
