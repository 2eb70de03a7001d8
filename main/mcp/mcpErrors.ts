// One error map for the MCP hub: every failure a person reads says what happened in plain
// words — never a server's raw HTML page, never a JSON body dumped into a sentence.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpFailureCode, McpToolOutcome } from './binaryCapture.ts';
import { scrubSecrets } from '../scrubSecrets.ts';
import { errorMessage } from '../errors.ts';

/**
 * A failed call, clean at birth: the server's own secret values (`known`: its config's tokens and
 * headers, the inputs it was given), key shapes and payloads are scrubbed from its words here — a
 * server's error or stderr may echo them, and a config given on the command line is in no settings.
 */
export function failed(failure: McpFailureCode, text: string, known: readonly string[] = []): McpToolOutcome {
  return { ok: false, text: scrubSecrets(text, known), images: [], files: [], notes: [], failure };
}

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

const STATUS_WORDS: Record<number, string> = {
  400: 'bad request',
  401: 'sign-in required',
  403: 'forbidden',
  404: 'not found',
  405: 'method not allowed',
  406: 'not acceptable',
  415: 'unsupported media type',
  429: 'too many requests',
  500: 'server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
};

/**
 * A server's error body, made fit for a sentence: HTML pages become their title (or nothing),
 * JSON-RPC / OAuth error JSON becomes its message, anything else is cut to one short line.
 */
function plainBody(body: string): string {
  const text = body.trim();
  if (!text) return '';
  if (/^<(!doctype|html|head|body)\b/i.test(text) || /<\/(html|body|div|p|h1)>/i.test(text)) {
    const title = /<title[^>]*>([^<]{1,120})<\/title>/i.exec(text)?.[1]?.trim() ?? /<h1[^>]*>([^<]{1,120})<\/h1>/i.exec(text)?.[1]?.trim();
    return title ? `the server answered with a web page ("${title}")` : 'the server answered with a web page';
  }
  if (text.startsWith('{')) {
    try {
      const json = JSON.parse(text) as { error?: unknown; message?: unknown; error_description?: unknown };
      const e = json.error;
      const message =
        typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string'
          ? (e as { message: string }).message
          : typeof json.error_description === 'string'
            ? json.error_description
            : typeof json.message === 'string'
              ? json.message
              : typeof e === 'string'
                ? e
                : undefined;
      if (message) return oneLine(message);
    } catch {
      // not JSON after all: fall through
    }
  }
  return oneLine(text);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}

/** "HTTP 404 (not found)" plus the body's gist, from the SDK's transport errors. */
function httpErrorText(error: StreamableHTTPError | Error, code: number | undefined): string {
  const raw = error.message.replace(/^(Error POSTing to endpoint( \(HTTP \d+\))?|Failed to open SSE stream|Error connecting to SSE stream|SSE error|Non-200 status code \(\d+\)):?\s*/i, '');
  const gist = plainBody(raw);
  const status = code !== undefined && code > 0 ? `HTTP ${code}${STATUS_WORDS[code] ? ` (${STATUS_WORDS[code]})` : ''}` : '';
  return [status, gist && !/^\d+$/.test(gist) && gist.toLowerCase() !== STATUS_WORDS[code ?? 0] ? gist : ''].filter(Boolean).join(': ') || 'the request failed';
}

/** The start failure in words, with the cause the person can act on. */
export function describeError(error: unknown, lastError: string | undefined): string {
  const e = error as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT' && e.syscall?.startsWith('spawn')) return `the command was not found (${e.path ?? e.message})`;
  if (error instanceof UnauthorizedError) return `the server needs sign-in and it did not complete${error.message && error.message !== 'Unauthorized' ? ` (${error.message})` : ''}`;
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return `the process exited during start${lastError ? ` (${lastError})` : ''}`;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return 'it did not answer the initialize request in time';
  if (error instanceof StreamableHTTPError) return httpErrorText(error, error.code);
  const sse = /Non-200 status code \((\d+)\)|HTTP (\d{3})/.exec(errorMessage(error));
  if (sse) return httpErrorText(error as Error, Number(sse[1] ?? sse[2]));
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return `${plainBody(errorMessage(error))}${cause?.code ? ` (${cause.code})` : cause?.message ? ` (${cause.message})` : ''}`;
}

/**
 * What a transport error says in a log line, or undefined for noise: "Failed to send response:
 * Error: Not connected" is the SDK answering a request from a server that has just gone (every
 * stdio server's last ping or roots/list), and a web page in an error body becomes its title.
 */
export function errorLine(message: string): string | undefined {
  if (/^Failed to send response: Error: Not connected\b/.test(message)) return undefined;
  const page = /<(!doctype html|html)[\s>]/i.exec(message);
  if (!page) return message.length > 500 ? `${message.slice(0, 500)}…` : message;
  const title = /<title>([^<]{0,120})<\/title>/i.exec(message)?.[1]?.trim();
  return `${message.slice(0, page.index).trim()} (an HTML page${title ? `: "${title}"` : ''})`;
}
