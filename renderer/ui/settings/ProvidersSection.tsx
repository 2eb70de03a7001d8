import { useEffect, useState, type FormEvent } from 'react';
import type { OpenAIEndpoint, Settings } from '../../../common/settings.ts';
import { useApp, useAppStore } from '../../state/store.ts';
import { Feedback, Section, useSave, useUnsaved, type SaveState } from './settingsParts.tsx';

/** Lists the endpoint's models afresh and says what happened, in a sentence. */
function useConnectionTest(): [Record<string, SaveState>, (endpoint: string) => Promise<void>] {
  const store = useAppStore();
  const [results, setResults] = useState<Record<string, SaveState>>({});
  const test = async (endpoint: string) => {
    setResults((r) => ({ ...r, [endpoint]: { kind: 'saved', text: 'Testing…' } }));
    await store.getState().loadModels(true);
    const { models, modelErrors } = store.getState();
    const error = modelErrors.find((e) => e.endpoint === endpoint || e.endpoint === 'all');
    const count = models.filter((m) => m.endpoint === endpoint).length;
    setResults((r) => ({
      ...r,
      [endpoint]: error ? { kind: 'error', text: `Not connected: ${error.message}` } : { kind: 'saved', text: `Connected: ${count} model${count === 1 ? '' : 's'}.` },
    }));
  };
  return [results, test];
}

export function ProvidersSection({ settings }: { settings: Settings }) {
  const secrets = useApp((s) => s.secrets);
  const loadSecrets = useApp((s) => s.loadSecrets);
  const setSecret = useApp((s) => s.setSecret);
  const [host, setHost] = useState(settings.providers.ollama.host);
  const [endpoints, setEndpoints] = useState<OpenAIEndpoint[]>(settings.providers.openai);
  const [state, save] = useSave({ host, endpoints });
  const [tests, test] = useConnectionTest();
  const [keyDrafts, setKeyDrafts] = useState<Record<string, string>>({});
  const [keyState, setKeyState] = useState<Record<string, SaveState>>({});

  useEffect(() => {
    void loadSecrets();
  }, [loadSecrets]);

  const dirty = host !== settings.providers.ollama.host || JSON.stringify(endpoints) !== JSON.stringify(settings.providers.openai);
  // A key pasted and not stored is an edit too.
  useUnsaved('providers', dirty || Object.values(keyDrafts).some((k) => k !== ''));
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    return save({ providers: { ollama: { host }, openai: endpoints } });
  };
  const saveAndTest = async (endpoint: string) => {
    if (dirty && !(await submit())) return;
    await test(endpoint);
  };
  const update = (i: number, change: Partial<OpenAIEndpoint>) => setEndpoints((list) => list.map((e, k) => (k === i ? { ...e, ...change } : e)));
  // An endpoint without a key name gets one from its name (or host), so its key can be pasted at once.
  const keyNameOf = (e: OpenAIEndpoint) => e.apiKeyRef ?? autoKeyName(e);
  const keyNames = [...new Set([...endpoints.flatMap((e) => { const n = keyNameOf(e); return n ? [n] : []; }), ...(secrets?.secrets.map((s) => s.name) ?? [])])].sort();
  const isSet = (name: string) => secrets?.secrets.find((s) => s.name === name)?.set ?? false;
  const storeKey = async (name: string, value: string | null) => {
    const problem = await setSecret(name, value);
    // A key stored under a name made from an endpoint: that endpoint now refers to it.
    const unnamed = value !== null && !problem ? endpoints.filter((e) => !e.apiKeyRef && autoKeyName(e) === name) : [];
    if (unnamed.length) {
      const named = endpoints.map((e) => (unnamed.includes(e) ? { ...e, apiKeyRef: name } : e));
      setEndpoints(named);
      await save({ providers: { ollama: { host }, openai: named } });
    }
    setKeyState((s) => ({ ...s, [name]: problem ? { kind: 'error', text: problem } : { kind: 'saved', text: value === null ? 'Key removed.' : 'Key stored.' } }));
    if (!problem) setKeyDrafts((d) => ({ ...d, [name]: '' }));
  };

  return (
    <Section id="providers" title="Providers" description="Where models run: the local Ollama server and any OpenAI-compatible endpoints (OpenAI, OpenRouter, LM Studio, vLLM, llama.cpp).">
      <form onSubmit={(e) => void submit(e)} className="stack">
        <div className="field-row">
          <label className="field grow">
            <span>Ollama host</span>
            <input value={host} onChange={(e) => setHost(e.target.value)} inputMode="url" spellCheck={false} />
          </label>
          <button type="button" onClick={() => void saveAndTest('ollama')}>
            Test connection
          </button>
        </div>
        <Feedback state={tests.ollama ?? { kind: 'idle' }} />
        <h3>OpenAI-compatible endpoints</h3>
        {endpoints.length === 0 && <p className="muted">None yet.</p>}
        {endpoints.map((endpoint, i) => (
          <fieldset key={i} className="endpoint">
            <legend>{endpoint.name || `Endpoint ${i + 1}`}</legend>
            <div className="field-row">
              <label className="field">
                <span>Name</span>
                <input value={endpoint.name} onChange={(e) => update(i, { name: e.target.value })} />
              </label>
              <label className="field grow">
                <span>Base URL</span>
                <input value={endpoint.baseUrl} onChange={(e) => update(i, { baseUrl: e.target.value })} inputMode="url" spellCheck={false} placeholder="https://openrouter.ai/api/v1" />
              </label>
              <label className="field">
                <span>Key name</span>
                <input
                  value={endpoint.apiKeyRef ?? ''}
                  onChange={(e) => update(i, e.target.value ? { apiKeyRef: e.target.value } : { apiKeyRef: undefined })}
                  placeholder={autoKeyName(endpoint) || '(no key)'}
                  spellCheck={false}
                />
              </label>
            </div>
            <div className="field-row">
              <button type="button" onClick={() => void saveAndTest(endpoint.name)} disabled={!endpoint.name}>
                Test connection
              </button>
              <button type="button" className="ghost danger-text" onClick={() => setEndpoints((list) => list.filter((_, k) => k !== i))}>
                Remove endpoint
              </button>
            </div>
            <Feedback state={tests[endpoint.name] ?? { kind: 'idle' }} />
          </fieldset>
        ))}
        <div className="field-row">
          <button type="button" className="ghost" onClick={() => setEndpoints((list) => [...list, { name: '', baseUrl: '' }])}>
            Add endpoint
          </button>
          <span className="spacer" />
          <button type="submit" className="primary" disabled={!dirty}>
            Save providers
          </button>
        </div>
        <Feedback state={state} />
      </form>

      <h3>API keys</h3>
      {secrets && (
        <p className={secrets.backend.secure ? 'muted' : 'warning-text'}>
          {keyStoreText(secrets.backend)} {secrets.backend.warning ?? ''} Glance never shows a stored key again.
        </p>
      )}
      {keyNames.length === 0 && <p className="muted">Add an endpoint to store its key.</p>}
      {keyNames.map((name) => (
        <form
          key={name}
          className="field-row key-row"
          onSubmit={(e) => {
            e.preventDefault();
            const value = keyDrafts[name] ?? '';
            if (value) void storeKey(name, value);
          }}
        >
          <label className="field grow">
            <span>
              Key “{name}” — <span className={isSet(name) ? 'ok-text' : 'muted'}>{isSet(name) ? 'set' : 'not set'}</span>
            </span>
            <input
              type="password"
              autoComplete="off"
              spellCheck={false}
              placeholder={isSet(name) ? 'Enter a new key to replace it' : 'Paste the key'}
              value={keyDrafts[name] ?? ''}
              onChange={(e) => setKeyDrafts((d) => ({ ...d, [name]: e.target.value }))}
            />
          </label>
          <button type="submit" disabled={!keyDrafts[name]}>
            Save key
          </button>
          {isSet(name) && (
            <button type="button" className="ghost danger-text" onClick={() => void storeKey(name, null)}>
              Remove key
            </button>
          )}
          <Feedback state={keyState[name] ?? { kind: 'idle' }} />
        </form>
      ))}
    </Section>
  );
}

/** A key name from the endpoint's name, else its host ("OpenRouter" → "openrouter"); empty when it has neither. */
function autoKeyName(endpoint: Pick<OpenAIEndpoint, 'name' | 'baseUrl'>): string {
  let from = endpoint.name.trim();
  if (!from) {
    try {
      from = new URL(endpoint.baseUrl).hostname;
    } catch {
      from = '';
    }
  }
  return from.toLowerCase().replace(/[^a-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64);
}

const STORES: Record<string, string> = {
  keychain: 'the macOS Keychain',
  dpapi: 'Windows (DPAPI)',
  gnome_libsecret: 'the GNOME keyring',
  kwallet: 'KWallet',
  kwallet5: 'KWallet',
  kwallet6: 'KWallet',
};

/** Where keys go, in words: the OS store by its name, or memory only (the harness, the CLI). */
function keyStoreText(b: { name: string; persistent: boolean; secure: boolean }): string {
  if (b.name === 'unavailable') return '';
  if (!b.persistent) return 'Keys are kept in memory for this session only: nothing is written to disk.';
  if (!b.secure) return 'Keys are kept in a file, not encrypted.';
  return `Keys are kept encrypted by ${STORES[b.name] ?? `the system (${b.name})`}.`;
}
