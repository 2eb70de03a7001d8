import { Ollama } from 'ollama';
import { fetchWithSignal, isConnectFailure } from './callGuard.ts';
import { resolveOllamaHost } from './ollamaHost.ts';
import { ProviderError } from './provider.ts';
import { codeForStatus, errorDetail } from './providerErrors.ts';

type PullProgress = { status: string; completed?: number; total?: number };

/** `ollama pull NAME` with progress from Ollama's pull stream; cancellable. */
export async function pullOllamaModel(host: string, name: string, options: { signal: AbortSignal; onProgress: (p: PullProgress) => void }): Promise<void> {
  const client = new Ollama({ host: resolveOllamaHost(host), fetch: fetchWithSignal(globalThis.fetch, options.signal) });
  try {
    for await (const part of await client.pull({ model: name, stream: true })) {
      const progress: PullProgress = { status: part.status };
      if (part.total) progress.total = part.total;
      if (part.completed) progress.completed = part.completed;
      options.onProgress(progress);
    }
  } catch (error) {
    if (options.signal.aborted) throw new ProviderError('cancelled', `Stopped pulling ${name}.`);
    if (isConnectFailure(error)) throw new ProviderError('unreachable', `Can't reach Ollama at ${host}. Is Ollama running? Start it with \`ollama serve\`.`, { cause: error });
    const message = errorDetail(error);
    // Ollama's pull stream reports a missing model as an error message, without a status.
    const status = (error as { status_code?: unknown }).status_code;
    const code = typeof status === 'number' ? codeForStatus(status) : /not found|does not exist/i.test(message) ? 'model-not-found' : 'provider-error';
    throw new ProviderError(code, `Pulling ${name} failed: ${message}`, { cause: error });
  }
}
