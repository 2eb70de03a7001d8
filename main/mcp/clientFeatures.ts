// What Glance offers a server as a client (architecture §6): roots, elicitation, sampling, logging.
// Declaring `{}` made servers hide features; each capability here is declared only when the
// entry that composes the hub can serve it (the CLI without a TTY declares no form dialog it
// could not show). The hub stays transport- and UI-neutral: the entries pass functions.
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type ClientCapabilities,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { safeFileName } from '../../common/fileNames.ts';
import { errorMessage } from '../errors.ts';
import { checkElicitationUrl, formNote, secretFieldNames, type ElicitationLedger } from './elicitationGuard.ts';
import type { RootsAsker } from './serverRoots.ts';

/** A field of an elicitation form: the spec's restricted JSON Schema (flat, primitive). */
export type ElicitationField = {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  oneOf?: { const: string; title?: string }[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  items?: unknown;
  [key: string]: unknown;
};

/**
 * What a person is asked: a form, or a URL to open (with consent). `secret` names the fields
 * typed without echo and never kept; `host` is what the person must see before saying yes.
 * A URL reaches an entry only after checkElicitationUrl() allowed it.
 */
export type ElicitationRequest =
  | { server: string; mode: 'form'; message: string; fields: Record<string, ElicitationField>; required: string[]; secret: string[] }
  | { server: string; mode: 'url'; message: string; url: string; host: string; elicitationId: string };

export type ElicitationAnswer = ElicitResult;

export type SamplingRequest = { server: string; params: CreateMessageRequest['params'] };

export type McpClientFeatures = {
  /** Absolute paths offered to a server as `roots` (serverRoots.ts), read at each roots/list. */
  roots?: (server: RootsAsker) => readonly string[] | Promise<readonly string[]>;
  /** Asks the person; undefined means no one can be asked here (the capability is not declared). */
  elicit?: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;
  /** Which elicitation modes `elicit` can serve. Default both. */
  elicitModes?: readonly ('form' | 'url')[];
  /** A completion through the user's chosen model, with their consent. */
  sample?: (request: SamplingRequest, signal: AbortSignal) => Promise<CreateMessageResult>;
  /** Folder for per-server logs (`notifications/message`), e.g. <dataDir>/logs/mcp. */
  logDir?: string;
  /** What was asked and the secrets typed (the hub's own, so its results and logs hide them). */
  answered?: ElicitationLedger;
};

export function clientCapabilities(features: McpClientFeatures): ClientCapabilities {
  const caps: ClientCapabilities = {};
  if (features.roots) caps.roots = { listChanged: true };
  if (features.elicit) {
    const modes = features.elicitModes ?? ['form', 'url'];
    caps.elicitation = {
      // SEP-1034: fields the person leaves empty get the schema's defaults.
      ...(modes.includes('form') ? { form: { applyDefaults: true } } : {}),
      ...(modes.includes('url') ? { url: {} } : {}),
    };
  }
  if (features.sample) caps.sampling = {};
  return caps;
}

/** The per-server log file (one line per `notifications/message`). */
export function serverLogFile(logDir: string, server: string): string {
  return join(logDir, `${safeFileName(server, 'server')}.log`);
}

/** Registers the handlers for what clientCapabilities() declared. `args`: a stdio server's own arguments. */
export function installClientHandlers(client: Client, server: string, features: McpClientFeatures, log?: (line: string) => void, args: readonly string[] = []): void {
  if (features.roots) {
    const roots = features.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: (await roots({ name: server, args })).map((path) => ({ uri: pathToFileURL(path).href, name: path.split(/[\\/]/).filter(Boolean).pop() ?? path })),
    }));
  }
  if (features.elicit) {
    const elicit = features.elicit;
    const ledger = features.answered;
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const p = request.params;
      if (p.mode === 'url') {
        const verdict = checkElicitationUrl(p.url);
        if (!verdict.ok) {
          // Refused before anyone is asked: the server is told declined, the person why.
          const line = `MCP server "${server}" asked to open ${JSON.stringify(p.url.slice(0, 200))}; not opened: ${verdict.reason}.`;
          log?.(line);
          ledger?.record(server, `[${line}]`);
          return { action: 'decline' };
        }
        const answer = await elicit({ server, mode: 'url', message: p.message, url: verdict.url, host: verdict.host, elicitationId: p.elicitationId }, extra.signal);
        ledger?.record(server, `[MCP server "${server}" asked to open a page on ${verdict.host}: ${answer.action === 'accept' ? 'opened' : 'not opened'}]`);
        return answer;
      }
      const fields = p.requestedSchema.properties as Record<string, ElicitationField>;
      const secret = secretFieldNames(fields);
      const answer = await elicit({ server, mode: 'form', message: p.message, fields, required: p.requestedSchema.required ?? [], secret }, extra.signal);
      const typed = secret.map((name) => answer.content?.[name]).filter((v): v is string => typeof v === 'string');
      ledger?.record(server, formNote(server, Object.keys(fields), secret, answer.action), typed);
      return answer;
    });
  }
  if (features.sample) {
    const sample = features.sample;
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => sample({ server, params: request.params }, extra.signal));
  }
  if (features.logDir) {
    const file = serverLogFile(features.logDir, server);
    const dir = features.logDir;
    let ready: Promise<unknown> | undefined;
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
      const { level, logger, data } = n.params;
      const raw = typeof data === 'string' ? data : JSON.stringify(data);
      const text = features.answered ? features.answered.scrub(raw) : raw;
      const line = `${new Date().toISOString()} ${level}${logger ? ` ${logger}` : ''}: ${text.length > 10_000 ? `${text.slice(0, 10_000)}… [${text.length} characters]` : text}\n`;
      ready ??= mkdir(dir, { recursive: true });
      try {
        await ready;
        await appendFile(file, line);
      } catch (error) {
        log?.(`mcp ${server}: cannot write its log ${file}: ${errorMessage(error)}`);
      }
    });
  }
}

/**
 * Answers a form with the schema's defaults where the person gave nothing, and checks the
 * required fields — for entries that cannot ask (decline) or that ask on a terminal.
 */
export function withDefaults(fields: Record<string, ElicitationField>, content: Record<string, unknown>): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = content[name] ?? field.default;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[name] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) out[name] = value as string[];
  }
  return out;
}
