// OLLAMA_HOST comes in the forms the Ollama CLI accepts: "host", "host:port", ":port",
// "http(s)://host[:port][/path]", IPv6 in brackets. It is also the *bind* address of
// `ollama serve`, so a wildcard (0.0.0.0, [::]) means "this machine" when we connect.

const DEFAULT_PORT = '11434';
const DEFAULT_OLLAMA_HOST = `http://127.0.0.1:${DEFAULT_PORT}`;

/** A connectable base URL without a trailing slash, e.g. "http://127.0.0.1:11434". */
export function resolveOllamaHost(value?: string): string {
  const raw = (value ?? '').trim();
  if (!raw) return DEFAULT_OLLAMA_HOST;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw);
  let url: URL;
  try {
    url = new URL(hasScheme ? raw : `http://${raw.startsWith(':') ? `127.0.0.1${raw}` : raw}`);
  } catch {
    throw new Error(`OLLAMA_HOST "${raw}" is not a host, host:port or URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`OLLAMA_HOST "${raw}" must use http or https.`);
  }
  // Without a scheme Ollama's own default port applies; with one, the scheme's (as Ollama does).
  const port = url.port || (hasScheme ? '' : DEFAULT_PORT);
  let host = url.hostname;
  if (host === '0.0.0.0') host = '127.0.0.1';
  if (host === '[::]') host = '[::1]';
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${host}${port ? `:${port}` : ''}${path}`;
}
