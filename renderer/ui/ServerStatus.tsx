import { InlineMarkdown } from '../markdown/Markdown.tsx';
import { useApp } from '../state/store.ts';

/**
 * Under the toolbar while a model endpoint does not answer. Ollama down with nothing else to
 * use is the first run for most people: what Ollama is, where to get it, how to start it, and
 * where to point Glance at another server instead (Settings → Providers). Glance keeps trying
 * on its own (state/reconnect.ts); "Try now" does not wait for the next attempt.
 */
// common/settings.ts's OLLAMA_ENDPOINT, not imported: that module brings zod into the first chunk.
const OLLAMA_ENDPOINT = 'ollama';

export function ServerStatus() {
  const errors = useApp((s) => s.modelErrors);
  const hasModels = useApp((s) => s.models.length > 0);
  const host = useApp((s) => s.settings?.providers.ollama.host);
  const loading = useApp((s) => s.modelsLoading);
  const reload = useApp((s) => s.loadModels);
  if (!errors.length) return null;
  const ollamaDown = errors.some((e) => e.endpoint === OLLAMA_ENDPOINT && e.code === 'unreachable');
  const others = errors.filter((e) => !(ollamaDown && e.endpoint === OLLAMA_ENDPOINT));
  const retry = (
    <button type="button" className="small" disabled={loading} onClick={() => void reload(true)}>
      {loading ? 'Trying…' : 'Try now'}
    </button>
  );
  return (
    <div className={`hint server-status ${hasModels ? '' : 'first-run'}`} role="status" aria-label="Model server">
      {ollamaDown && (
        <div>
          <p>
            <strong>Glance can't reach Ollama</strong>
            {host ? ` at ${host}` : ''}. It connects by itself as soon as Ollama answers.
          </p>
          {!hasModels && (
            <p>
              Ollama runs vision models on this computer. To get it,{' '}
              <a href="https://ollama.com/download" target="_blank" rel="noreferrer noopener">
                download Ollama
              </a>{' '}
              and open it, or start it with <code>ollama serve</code> in a terminal. Using another machine or an OpenAI-compatible endpoint (OpenAI, OpenRouter, LM Studio, vLLM)? Set it in <a href="#/settings/providers">Settings → Providers</a>.
            </p>
          )}
        </div>
      )}
      {others.map((e) => (
        <p key={`${e.endpoint}:${e.code}`}>
          {e.endpoint !== OLLAMA_ENDPOINT && e.endpoint !== 'all' && <strong>{e.endpoint}: </strong>}
          <InlineMarkdown text={e.message} />
        </p>
      ))}
      {retry}
    </div>
  );
}

/**
 * Beside the model picker, always: whether the model servers answer — "Connected", "Checking…",
 * or which one does not. A change is said by screen readers (a status); the details and what to
 * do are in the notice under the toolbar.
 */
export function ServerState() {
  const errors = useApp((s) => s.modelErrors);
  const hasModels = useApp((s) => s.models.length > 0);
  const loading = useApp((s) => s.modelsLoading);
  const down = errors.filter((e) => e.code === 'unreachable' || e.endpoint === 'all');
  const names = down.map((e) => (e.endpoint === OLLAMA_ENDPOINT ? 'Ollama' : e.endpoint === 'all' ? 'the model servers' : e.endpoint));
  const kind = down.length ? 'down' : !hasModels && !errors.length && loading ? 'checking' : 'up';
  const words = kind === 'down' ? 'Not reachable' : kind === 'checking' ? 'Checking…' : 'Connected';
  const title = kind === 'down' ? `Glance can't reach ${names.join(', ')}; it keeps trying` : kind === 'checking' ? 'Asking the model servers' : 'The model servers answer (checked every 10 s)';
  return (
    <span className={`server-state ${kind}`} role="status" aria-label="Server connection" title={title}>
      <span className="dot" aria-hidden="true" />
      <span className="server-state-words">{words}</span>
    </span>
  );
}
