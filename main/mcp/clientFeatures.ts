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

/** What a person is asked: a form, or a URL to open (with consent). */
export type ElicitationRequest =
  | { server: string; mode: 'form'; message: string; fields: Record<string, ElicitationField>; required: string[] }
  | { server: string; mode: 'url'; message: string; url: string; elicitationId: string };

export type ElicitationAnswer = ElicitResult;

export type SamplingRequest = { server: string; params: CreateMessageRequest['params'] };

export type McpClientFeatures = {
  /** Absolute paths the model may touch (the allowed roots), offered as `roots`. */
  roots?: () => readonly string[];
  /** Asks the person; undefined means no one can be asked here (the capability is not declared). */
  elicit?: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;
  /** Which elicitation modes `elicit` can serve. Default both. */
  elicitModes?: readonly ('form' | 'url')[];
  /** A completion through the user's chosen model, with their consent. */
  sample?: (request: SamplingRequest, signal: AbortSignal) => Promise<CreateMessageResult>;
  /** Folder for per-server logs (`notifications/message`), e.g. <dataDir>/logs/mcp. */
  logDir?: string;
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

/** Registers the handlers for what clientCapabilities() declared. */
export function installClientHandlers(client: Client, server: string, features: McpClientFeatures, log?: (line: string) => void): void {
  if (features.roots) {
    const roots = features.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: roots().map((path) => ({ uri: pathToFileURL(path).href, name: path.split(/[\\/]/).filter(Boolean).pop() ?? path })),
    }));
  }
  if (features.elicit) {
    const elicit = features.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const p = request.params;
      if (p.mode === 'url') return elicit({ server, mode: 'url', message: p.message, url: p.url, elicitationId: p.elicitationId }, extra.signal);
      const schema = p.requestedSchema;
      return elicit({ server, mode: 'form', message: p.message, fields: schema.properties as Record<string, ElicitationField>, required: schema.required ?? [] }, extra.signal);
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
      const text = typeof data === 'string' ? data : JSON.stringify(data);
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
