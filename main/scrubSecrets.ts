// Scrubbing, not redaction: this cleans log lines and error text; `redact` means the image
// door's privacy stage (main/privacy).
/**
 * Strips API keys and image payloads from text bound for a log line or an error message
 * (architecture §8). Known secret values are removed verbatim; the patterns catch the rest:
 * auth headers, key-shaped tokens, `apiKey` fields and query parameters, data: URIs, long
 * base64 runs and long byte lists.
 */

const MIN_SECRET_LENGTH = 4;
/** base64 this long is a payload, not an identifier (a sha256 in hex is 64 characters). */
const BASE64_RUN = /[A-Za-z0-9+/]{200,}={0,2}|[A-Za-z0-9_-]{400,}/g;
const DATA_URI = /data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[\w.+-]+)*);base64,[A-Za-z0-9+/_=%-]*/gi;
const AUTH_HEADER = /\b(authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key)(["']?\s*[:=]\s*["']?)(bearer\s+|basic\s+|token\s+)?[^\s"',;}]+/gi;
const BEARER = /\b(bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const JSON_FIELD = /("(?:api[_-]?key|apiKey|access[_-]?token|refresh[_-]?token|secret|password|token|client[_-]?secret)"\s*:\s*")(?:[^"\\]|\\.)*"/gi;
const QUERY_PARAM = /([?&](?:api[_-]?key|key|token|access_token|secret|password|sig)=)[^&\s"'#]+/gi;
const KEY_SHAPES = [
  /\bsk-(?:ant-|or-v1-|proj-)?[A-Za-z0-9_-]{16,}/g, // OpenAI, Anthropic, OpenRouter
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g, // GitHub
  /\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  /\bAIza[0-9A-Za-z_-]{35}/g, // Google
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bhf_[A-Za-z0-9]{30,}/g, // Hugging Face
  /\bgsk_[A-Za-z0-9]{30,}/g, // Groq
];
/** `[137,80,78,71,…]`: bytes serialised as a JSON array. */
const BYTE_LIST = /\[\s*\d{1,3}(?:\s*,\s*\d{1,3}){63,}\s*\]/g;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function scrubSecrets(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  const known = [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  if (known.length > 0) out = out.replace(new RegExp(known.map(escapeRegExp).join('|'), 'g'), '[redacted]');
  out = out.replace(DATA_URI, (m, mime: string | undefined, params: string) => {
    const payload = m.length - m.indexOf(',') - 1;
    return `data:${mime ?? ''}${params};base64,[${payload} chars redacted]`;
  });
  out = out.replace(AUTH_HEADER, (_m, name: string, sep: string, scheme: string | undefined) => `${name}${sep}${scheme ?? ''}[redacted]`);
  out = out.replace(BEARER, (_m, word: string) => `${word} [redacted]`);
  out = out.replace(JSON_FIELD, '$1[redacted]"');
  out = out.replace(QUERY_PARAM, '$1[redacted]');
  for (const shape of KEY_SHAPES) out = out.replace(shape, '[redacted-key]');
  out = out.replace(BASE64_RUN, (m) => `[base64 ${m.length} chars redacted]`);
  out = out.replace(BYTE_LIST, (m) => `[${m.split(',').length} bytes redacted]`);
  return out;
}

/** Error text shown to a person or stored: a few hundred characters say what went wrong. */
const ERROR_TEXT_MAX = 400;

/**
 * Cuts text to `max` characters and says how much was left out. A server that echoes a
 * whole request in its error body must not fill a bubble, a terminal or a stored turn.
 */
export function boundText(text: string, max = ERROR_TEXT_MAX): string {
  if (text.length <= max) return text;
  const rest = text.length - max;
  return `${text.slice(0, max).trimEnd()}… [${rest} more characters not shown]`;
}

/**
 * The one cleaner for error text from providers, MCP servers and tools, wherever it surfaces
 * (`error` events, CLI output, the UI, tool results stored in conversations): redacted
 * first (so a cut never leaves half a key behind), then bounded.
 */
export function safeErrorText(text: string, secrets: Iterable<string> = [], max = ERROR_TEXT_MAX): string {
  return boundText(scrubSecrets(text, secrets), max);
}
