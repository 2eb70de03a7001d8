import { useEffect, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { OpenAIEndpoint, Settings, SettingsPatch } from '../../common/settings.ts';
import { importMcpServers } from '../state/importMcpServers.ts';
import { modelKey, selectionOf } from '../state/modelsSlice.ts';
import { useApp, useAppStore } from '../state/store.ts';
import { acceleratorFrom } from './accelerator.ts';
import { VisionBadge, visionSourceText } from './ModelPicker.tsx';

type SaveState = { kind: 'idle' } | { kind: 'saved'; text?: string } | { kind: 'error'; text: string };

/** Save feedback: errors as alerts (they need attention), success as a polite status. */
function Feedback({ state }: { state: SaveState }) {
  if (state.kind === 'error') {
    return (
      <p role="alert" className="error-text">
        {state.text}
      </p>
    );
  }
  return (
    <p role="status" className="ok-text">
      {state.kind === 'saved' ? (state.text ?? 'Saved.') : ''}
    </p>
  );
}

function Section({ id, title, children, description }: { id: string; title: string; description?: string; children: ReactNode }) {
  return (
    <section id={`settings-${id}`} className="settings-section" aria-labelledby={`settings-${id}-title`}>
      <h2 id={`settings-${id}-title`}>{title}</h2>
      {description && <p className="muted">{description}</p>}
      {children}
    </section>
  );
}

function useSave(): [SaveState, (patch: SettingsPatch, text?: string) => Promise<boolean>, (s: SaveState) => void] {
  const save = useApp((s) => s.saveSettings);
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const run = async (patch: SettingsPatch, text?: string) => {
    const problem = await save(patch);
    setState(problem ? { kind: 'error', text: problem } : { kind: 'saved', text });
    return !problem;
  };
  return [state, run, setState];
}

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

function ProvidersSection({ settings }: { settings: Settings }) {
  const secrets = useApp((s) => s.secrets);
  const loadSecrets = useApp((s) => s.loadSecrets);
  const setSecret = useApp((s) => s.setSecret);
  const [host, setHost] = useState(settings.providers.ollama.host);
  const [endpoints, setEndpoints] = useState<OpenAIEndpoint[]>(settings.providers.openai);
  const [state, save] = useSave();
  const [tests, test] = useConnectionTest();
  const [keyDrafts, setKeyDrafts] = useState<Record<string, string>>({});
  const [keyState, setKeyState] = useState<Record<string, SaveState>>({});

  useEffect(() => {
    void loadSecrets();
  }, [loadSecrets]);

  const dirty = host !== settings.providers.ollama.host || JSON.stringify(endpoints) !== JSON.stringify(settings.providers.openai);
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    return save({ providers: { ollama: { host }, openai: endpoints } });
  };
  const saveAndTest = async (endpoint: string) => {
    if (dirty && !(await submit())) return;
    await test(endpoint);
  };
  const update = (i: number, change: Partial<OpenAIEndpoint>) => setEndpoints((list) => list.map((e, k) => (k === i ? { ...e, ...change } : e)));
  const keyNames = [...new Set([...endpoints.flatMap((e) => (e.apiKeyRef ? [e.apiKeyRef] : [])), ...(secrets?.secrets.map((s) => s.name) ?? [])])].sort();
  const isSet = (name: string) => secrets?.secrets.find((s) => s.name === name)?.set ?? false;
  const storeKey = async (name: string, value: string | null) => {
    const problem = await setSecret(name, value);
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
                  placeholder="(no key)"
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
          Keys are kept by “{secrets.backend.name}”{secrets.backend.secure ? ', encrypted by the system' : ', not encrypted'}
          {secrets.backend.persistent ? '' : ', for this session only'}. {secrets.backend.warning ?? ''} Glance never shows a stored key again.
        </p>
      )}
      {keyNames.length === 0 && <p className="muted">Give an endpoint a key name to store its key.</p>}
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

function VisionSection({ settings }: { settings: Settings }) {
  const models = useApp((s) => s.models);
  const [state, save] = useSave();
  const [helperState, saveHelper] = useSave();
  const seers = models.filter((m) => m.capabilities.vision === 'yes');
  const helperKey = settings.visionHelper ? modelKey(settings.visionHelper) : '';

  const setOverride = (endpoint: string, name: string, value: string) => {
    const vision: Settings['vision'] = structuredClone(settings.vision);
    const forEndpoint = { ...(vision[endpoint] ?? {}) };
    if (value === 'yes' || value === 'no') forEndpoint[name] = value;
    else delete forEndpoint[name];
    if (Object.keys(forEndpoint).length) vision[endpoint] = forEndpoint;
    else delete vision[endpoint];
    void save({ vision }, `${name}: ${value === 'auto' ? 'detected again' : `vision ${value}`}.`);
  };

  return (
    <Section id="vision" title="Vision" description="Whether each model can see. Glance asks the server; where it says nothing, declare it here.">
      <div className="table-wrap">
        <table className="models-table">
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Endpoint</th>
              <th scope="col">Glance thinks</th>
              <th scope="col">Declare</th>
            </tr>
          </thead>
          <tbody>
            {models.map((m) => {
              const declared = settings.vision[m.endpoint]?.[m.name];
              return (
                <tr key={modelKey(m)}>
                  <th scope="row">{m.name}</th>
                  <td>{m.endpoint}</td>
                  <td>
                    <VisionBadge model={m} /> <span className="muted small-text">per {visionSourceText(m.capabilities.visionSource)}</span>
                  </td>
                  <td>
                    <select aria-label={`Vision for ${m.name}`} value={declared ?? 'auto'} onChange={(e) => setOverride(m.endpoint, m.name, e.target.value)}>
                      <option value="auto">Detect</option>
                      <option value="yes">Sees images</option>
                      <option value="no">Text only</option>
                    </select>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Feedback state={state} />
      <h3>Vision helper</h3>
      <p className="muted">A model that sees describes images for a chat model that cannot. Its description is all the chat model receives.</p>
      <label className="field">
        <span>Helper model</span>
        <select
          aria-label="Vision helper"
          value={helperKey}
          onChange={(e) => {
            const m = seers.find((s) => modelKey(s) === e.target.value);
            void saveHelper({ visionHelper: m ? selectionOf(m) : null }, m ? `${m.name} describes images for blind models.` : 'No vision helper.');
          }}
        >
          <option value="">None</option>
          {seers.map((m) => (
            <option key={modelKey(m)} value={modelKey(m)}>
              {m.name} ({m.endpoint})
            </option>
          ))}
        </select>
      </label>
      <Feedback state={helperState} />
    </Section>
  );
}

const MB = 1024 * 1024;

function LimitsSection({ settings }: { settings: Settings }) {
  const [draft, setDraft] = useState(settings.limits);
  const [retention, setRetention] = useState(settings.attachments.retentionDays);
  const [state, save] = useSave();
  const num = (value: string) => (value === '' ? NaN : Number(value));
  const field = (label: string, value: number, onChange: (n: number) => void, hint: string, step = 1) => (
    <label className="field">
      <span>{label}</span>
      <input type="number" min={0} step={step} value={Number.isFinite(value) ? value : ''} onChange={(e) => onChange(num(e.target.value))} />
      <small className="muted">{hint}</small>
    </label>
  );
  return (
    <Section id="limits" title="Limits" description="What Glance accepts and how many images a model sees.">
      <form
        className="grid-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save({ limits: draft, attachments: { retentionDays: retention } });
        }}
      >
        {field('Largest file (MB)', Math.round((draft.ingestBytes / MB) * 10) / 10, (n) => setDraft({ ...draft, ingestBytes: Math.round(n * MB) }), 'Bigger files are refused before they are read.', 0.1)}
        {field('Most pixels (megapixels)', draft.maxInputPixels / 1e6, (n) => setDraft({ ...draft, maxInputPixels: Math.round(n * 1e6) }), 'Guards against decompression bombs.')}
        {field('Tool images shown per turn', draft.maxImageDeliveriesPerTurn, (n) => setDraft({ ...draft, maxImageDeliveriesPerTurn: n }), 'Captures a model may look at in one answer.')}
        {field('Images per request', draft.maxImagesPerRequest, (n) => setDraft({ ...draft, maxImagesPerRequest: n }), 'Older images become text stubs.')}
        {field('Image download timeout (s)', draft.fetchTimeoutMs / 1000, (n) => setDraft({ ...draft, fetchTimeoutMs: Math.round(n * 1000) }), 'For http(s) image sources.')}
        <fieldset className="field">
          <legend>Keep attachments</legend>
          <label className="inline">
            <input type="checkbox" checked={retention === null} onChange={(e) => setRetention(e.target.checked ? null : 90)} /> forever
          </label>
          {retention !== null && (
            <label className="inline">
              <input type="number" min={1} max={3650} value={retention} aria-label="Days to keep attachments" onChange={(e) => setRetention(Math.max(1, Number(e.target.value) || 1))} /> days after last use
            </label>
          )}
        </fieldset>
        <div className="field-row full">
          <button type="submit" className="primary">
            Save limits
          </button>
          <Feedback state={state} />
        </div>
      </form>
    </Section>
  );
}

function HotkeySection({ settings }: { settings: Settings }) {
  const info = useApp((s) => s.appInfo);
  const [value, setValue] = useState(settings.hotkey);
  const [state, save] = useSave();
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Tab') return;
    e.preventDefault();
    if (e.key === 'Backspace' || e.key === 'Delete') {
      setValue('');
      return;
    }
    const accelerator = acceleratorFrom(e);
    if (accelerator) setValue(accelerator);
  };
  const hotkey = info?.hotkey;
  return (
    <Section id="hotkey" title="Screenshot hotkey" description="Captures the display under the pointer, then opens the ask window with it attached.">
      <form
        className="field-row"
        onSubmit={(e) => {
          e.preventDefault();
          void save({ hotkey: value }, value ? `Hotkey set to ${value}.` : 'Hotkey turned off.');
        }}
      >
        <label className="field grow">
          <span>Shortcut (press the keys; Backspace clears)</span>
          <input value={value} onKeyDown={onKey} onChange={() => undefined} aria-describedby="hotkey-state" spellCheck={false} />
        </label>
        <button type="submit" className="primary" disabled={value === settings.hotkey}>
          Save hotkey
        </button>
      </form>
      <Feedback state={state} />
      {hotkey && (
        <p id="hotkey-state" role={hotkey.registered || !hotkey.accelerator ? 'status' : 'alert'} className={hotkey.registered ? 'ok-text' : 'warning-text'}>
          {!hotkey.accelerator
            ? 'The hotkey is off.'
            : hotkey.registered
              ? `${hotkey.accelerator} is active.`
              : `${hotkey.accelerator} is not active: ${hotkey.message ?? 'another application may be using it; choose another shortcut'}.`}
        </p>
      )}
    </Section>
  );
}

/** Main reads the servers once, at start (the hub is built from them then). */
const TAKES_EFFECT = 'Changes to servers take effect when Glance starts again.';

function McpSection({ settings }: { settings: Settings }) {
  const servers = useApp((s) => s.mcpServers);
  const error = useApp((s) => s.mcpError);
  const restarting = useApp((s) => s.restarting);
  const restart = useApp((s) => s.restartMcp);
  const loadMcp = useApp((s) => s.loadMcp);
  const [text, setText] = useState(() => JSON.stringify(settings.mcpServers, null, 2));
  const [state, save, setState] = useSave();
  const [restartError, setRestartError] = useState<string | null>(null);

  useEffect(() => {
    void loadMcp();
  }, [loadMcp]);
  useEffect(() => setText(JSON.stringify(settings.mcpServers, null, 2)), [settings.mcpServers]);

  const saveText = async () => {
    const checked = importMcpServers({}, text);
    if (!checked.ok) {
      setState({ kind: 'error', text: checked.message });
      return;
    }
    await save({ mcpServers: checked.servers }, `MCP servers saved. ${TAKES_EFFECT}`);
  };
  const importFile = async (file: File) => {
    const merged = importMcpServers(settings.mcpServers, await file.text());
    if (!merged.ok) {
      setState({ kind: 'error', text: merged.message });
      return;
    }
    await save({ mcpServers: merged.servers }, `Imported ${merged.added.join(', ') || 'nothing'}. ${TAKES_EFFECT}`);
  };

  return (
    <Section id="mcp" title="MCP servers" description="Tool servers in the mcpServers format Claude Desktop uses. Images they return are shown to vision models once, then retracted.">
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <ul className="mcp-servers" aria-label="MCP servers">
        {servers.map((s) => (
          <li key={s.name} aria-label={s.name}>
            <div className="field-row">
              <strong>{s.name}</strong>
              <span className="muted">{s.transport}</span>
              <span className={`status ${s.state}`}>{s.state}</span>
              <span className="spacer" />
              <button
                type="button"
                className="small"
                disabled={restarting === s.name}
                onClick={async () => setRestartError(await restart(s.name))}
                aria-label={`Restart ${s.name}`}
              >
                {restarting === s.name ? 'Restarting…' : 'Restart'}
              </button>
            </div>
            {s.message && <p className="error-text small-text">{s.message}</p>}
            <details>
              <summary>
                {s.tools.length} tool{s.tools.length === 1 ? '' : 's'}
              </summary>
              <ul className="tool-names">
                {s.tools.map((t) => (
                  <li key={t}>
                    <code>{t}</code>
                  </li>
                ))}
              </ul>
            </details>
          </li>
        ))}
        {servers.length === 0 && <li className="muted">No MCP servers configured.</li>}
      </ul>
      {restartError && (
        <p role="alert" className="error-text">
          {restartError}
        </p>
      )}
      <label className="field">
        <span>Servers (JSON; secret-looking values are masked — leave them as they are to keep them)</span>
        <textarea className="code" rows={10} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} />
      </label>
      <div className="field-row">
        <button type="button" className="primary" onClick={() => void saveText()}>
          Save servers
        </button>
        <label className="button ghost">
          Import mcpServers file…
          <input
            type="file"
            accept=".json,application/json"
            hidden
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void importFile(file);
            }}
          />
        </label>
      </div>
      <Feedback state={state} />
    </Section>
  );
}

export function SettingsView() {
  const settings = useApp((s) => s.settings);
  const error = useApp((s) => s.settingsError);
  if (!settings) {
    return <div className="settings">{error ? <p role="alert">Settings could not be read: {error}</p> : <p className="muted">Loading settings…</p>}</div>;
  }
  return (
    <div className="settings">
      <h1>Settings</h1>
      <nav className="settings-nav" aria-label="Settings sections">
        {[
          ['providers', 'Providers'],
          ['vision', 'Vision'],
          ['limits', 'Limits'],
          ['hotkey', 'Hotkey'],
          ['mcp', 'MCP servers'],
        ].map(([id, label]) => (
          <a key={id} href={`#/settings/${id}`} onClick={(e) => (e.preventDefault(), document.getElementById(`settings-${id}`)?.scrollIntoView({ behavior: 'smooth' }))}>
            {label}
          </a>
        ))}
      </nav>
      <ProvidersSection settings={settings} />
      <VisionSection settings={settings} />
      <LimitsSection settings={settings} />
      <HotkeySection settings={settings} />
      <McpSection settings={settings} />
    </div>
  );
}
