// The one strict base64 and data: URL decoder, for images a person pastes (data: URLs, the
// image path) and for binary payloads MCP servers send. Strict means: characters outside the
// alphabet are refused, never skipped — Buffer.from(s, 'base64') silently drops them, and a
// payload "decoded" that way is garbage that only fails later, far from the cause.

type Base64Options = {
  /** Also accept the URL-safe alphabet (- and _) — MCP servers send both. Default false. */
  urlSafe?: boolean;
  /** Require padding to a multiple of 4 characters (data: URLs). Default false. */
  padded?: boolean;
  /** Whitespace allowed between characters: 'newlines' (default) or 'any' (mail, pastes). */
  whitespace?: 'newlines' | 'any';
};

const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE = /^[A-Za-z0-9_-]*={0,2}$/;

/** The bytes, or undefined when the text is not valid base64 under these rules. */
export function decodeBase64Strict(text: string, options: Base64Options = {}): Uint8Array | undefined {
  const compact = options.whitespace === 'any' ? text.replace(/[\t\n\f\r ]+/g, '') : text.includes('\n') || text.includes('\r') ? text.replace(/[\r\n]/g, '') : text;
  if (compact.length === 0 || compact.length % 4 === 1) return undefined;
  if (options.padded && compact.length % 4 !== 0) return undefined;
  const standard = STANDARD.test(compact);
  if (!standard && !(options.urlSafe && URL_SAFE.test(compact))) return undefined;
  if (compact.includes('=') && compact.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(compact, standard ? 'base64' : 'base64url');
  return bytes.length > 0 ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : undefined;
}

/** A data: URL's parts: the media type and parameters before the comma, the payload after it. */
export function splitDataUrl(url: string): { meta: string; payload: string; base64: boolean } | undefined {
  if (!/^data:/i.test(url)) return undefined;
  const comma = url.indexOf(',');
  if (comma < 0) return undefined;
  const meta = url.slice(5, comma);
  return { meta, payload: url.slice(comma + 1), base64: /;base64$/i.test(meta.trim()) };
}
