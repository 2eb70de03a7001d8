// The one map from an HTTP status or a transport failure to a ProviderErrorCode, for every
// provider (Ollama, OpenAI-compatible, Ollama pulls). Each provider extracts the status and
// the server's message from its client's error shape and supplies its own wording (where to
// look, what to run); which *code* a failure gets is decided here and nowhere else.
import { cancelled, isConnectFailure, isDroppedConnection, seconds, type CallGuard } from './callGuard.ts';
import type { ProviderErrorCode } from '../../common/models.ts';
import { ProviderError } from './provider.ts';
import { safeErrorText } from '../scrubSecrets.ts';
import { errorMessage } from '../errors.ts';

/** What a status means, whoever answered it. */
export function codeForStatus(status: number): ProviderErrorCode {
  if (status === 404) return 'model-not-found';
  // 400 with an image the model cannot take, 413 too large, 415 a type it refuses, 422 invalid.
  if (status === 400 || status === 413 || status === 415 || status === 422) return 'rejected-input';
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate-limited';
  return 'provider-error';
}

/** How one provider words its failures. */
export type ProviderWording = {
  /** "Ollama at http://…", "the model server at http://…/v1". */
  where: string;
  /** Nothing listens there. */
  unreachable: string;
  /** A 404 on the model listing: probably not that kind of server, or a wrong base URL. */
  noListing: string;
  modelNotFound(model: string, detail: string): string;
  /** What to do when the server refused an image. */
  imageRejectedHint: string;
  auth(status: number, detail: string): string;
  requestTimeoutMs: number;
  streamIdleTimeoutMs: number;
};

type FailureContext = {
  guard: CallGuard;
  /** The model asked about; undefined for the listing. */
  model: string | undefined;
  phase: 'request' | 'stream';
  what: 'chat' | 'metadata';
  /** The HTTP status, when the server answered. */
  status: number | undefined;
  /** The server's own message: scrubbed of keys and payloads and bounded here, where the error is made. */
  detail: string;
  /** Values that must never appear in the message (this provider's API key). */
  secrets?: readonly string[];
  /** The client's own timeout fired (besides the guard's). */
  timedOut?: boolean;
  /** The client says the connection could not be made. */
  connectFailed?: boolean;
  /** The stream ended without its final message. */
  incomplete?: boolean;
};

/**
 * The one map from a client's failure to a ProviderError. Clean at birth: the server's message
 * (which may echo the request, its key or an image's base64) is scrubbed and bounded before it
 * goes into any sentence, so no sink downstream has to remember to.
 */
export function mapProviderFailure(error: unknown, ctx: FailureContext, words: ProviderWording): ProviderError {
  return describeFailure(error, { ...ctx, detail: safeErrorText(ctx.detail, ctx.secrets ?? [], DETAIL_MAX) }, words);
}

/** The server's words inside a sentence: enough to act on, never the whole echoed body. */
const DETAIL_MAX = 300;

function describeFailure(error: unknown, ctx: FailureContext, words: ProviderWording): ProviderError {
  if (error instanceof ProviderError) return error;
  if (ctx.guard.cancelled) return cancelled(error);
  const { where } = words;
  if (ctx.guard.timedOut || ctx.timedOut) {
    if (ctx.what === 'metadata') return new ProviderError('unreachable', `${where} did not answer within ${seconds(words.requestTimeoutMs)}. Is it running and responsive?`, { cause: error });
    return new ProviderError(
      'interrupted',
      ctx.phase === 'request'
        ? `${where} sent nothing for ${seconds(words.streamIdleTimeoutMs)}; the model may still be loading. Try again.`
        : `The answer from ${where} stalled: nothing for ${seconds(words.streamIdleTimeoutMs)}.`,
      { cause: error },
    );
  }
  const { status, detail } = ctx;
  if (status !== undefined) {
    const model = ctx.model ?? 'the model';
    const code = codeForStatus(status);
    const options = { status, cause: error };
    switch (code) {
      case 'model-not-found':
        return ctx.model === undefined ? new ProviderError('provider-error', words.noListing, options) : new ProviderError(code, words.modelNotFound(model, detail), options);
      case 'rejected-input':
        return new ProviderError(
          code,
          /image|vision|multimodal|modalit/i.test(detail) ? `${model} rejected the image: ${detail}. ${words.imageRejectedHint}` : `${where} rejected the request for ${model}: ${detail}.`,
          options,
        );
      case 'auth':
        return new ProviderError(code, words.auth(status, detail), options);
      case 'rate-limited':
        return new ProviderError(code, `${where} is rate limiting requests (HTTP 429): ${detail}. Wait a moment and try again.`, options);
      default:
        return new ProviderError('provider-error', `${where} failed (HTTP ${status}): ${detail}.`, options);
    }
  }
  if (ctx.phase === 'request' && (ctx.connectFailed || isConnectFailure(error))) return new ProviderError('unreachable', words.unreachable, { cause: error });
  if (ctx.phase === 'stream') {
    const message = ctx.incomplete
      ? `The answer from ${where} ended before it was complete.`
      : isDroppedConnection(error)
        ? `The connection to ${where} dropped mid-answer.`
        : `${where} stopped mid-answer: ${detail}.`;
    return new ProviderError('interrupted', message, { cause: error });
  }
  return new ProviderError('provider-error', `${where} failed: ${detail}.`, { cause: error });
}

/** An error's message without a trailing full stop, never empty. */
export function errorDetail(error: unknown): string {
  const text = errorMessage(error);
  return text.replace(/[.\s]+$/, '') || 'unknown error';
}
