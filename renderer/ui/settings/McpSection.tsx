import { useEffect, useRef, useState } from 'react';
import type { McpServerStatus } from '../../../common/ipc.ts';
import type { Settings } from '../../../common/settings.ts';
import { describeRejected, importMcpServers, type RejectedServer } from '../../state/importMcpServers.ts';
import { useApp } from '../../state/store.ts';
import { Feedback, Section, useSave, useUnsaved } from './settingsParts.tsx';

/** Main applies a save at once (new servers start, removed ones stop); the list follows live. */
const TAKES_EFFECT = 'Applied now: the list above shows each server as it starts.';

const STATE_WORDS: Record<McpServerStatus['state'], string> = { idle: 'not started', starting: 'starting…', ready: 'ready', failed: 'failed', stopped: 'stopped' };

export function McpSection({ settings }: { settings: Settings }) {
  const servers = useApp((s) => s.mcpServers);
  const error = useApp((s) => s.mcpError);
  const restarting = useApp((s) => s.restarting);
  const restart = useApp((s) => s.restartMcp);
  const loadMcp = useApp((s) => s.loadMcp);
  // Entries a save could not take stay in the box beside the saved ones, to be fixed there.
  const [leftover, setLeftover] = useState<Record<string, unknown>>({});
  const [text, setText] = useState(() => JSON.stringify(settings.mcpServers, null, 2));
  const [state, save, setState] = useSave();
  const [restartError, setRestartError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const editor = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    void loadMcp();
  }, [loadMcp]);
  useEffect(() => setText(JSON.stringify({ ...settings.mcpServers, ...leftover }, null, 2)), [settings.mcpServers, leftover]);
  useUnsaved('mcp', text.trim() !== JSON.stringify({ ...settings.mcpServers, ...leftover }, null, 2));

  const saveText = async () => {
    const checked = importMcpServers({}, text, 'box', settings.mcpInputs);
    if (!checked.ok) {
      setState({ kind: 'error', text: checked.message });
      setInvalid(true);
      // The caret on the mistake, so it can be fixed where it is.
      if (checked.where && editor.current) {
        editor.current.focus();
        editor.current.setSelectionRange(checked.where.offset, Math.min(text.length, checked.where.offset + 1));
      }
      return;
    }
    setInvalid(false);
    const warned = checked.warnings.length ? ` Not used: ${checked.warnings.join('; ')}.` : '';
    const notSaved = checked.rejected.length ? ` Not saved, left in the box to fix: ${describeRejected(checked.rejected)}.` : '';
    if (await save({ mcpServers: checked.servers, mcpInputs: checked.inputs }, `MCP servers saved.${notSaved}${warned} ${TAKES_EFFECT}`)) setLeftover(entriesOf(checked.rejected));
  };
  const importFile = async (file: File) => {
    const merged = importMcpServers(settings.mcpServers, await file.text(), 'file', settings.mcpInputs);
    if (!merged.ok) {
      setState({ kind: 'error', text: merged.message });
      return;
    }
    const warned = merged.warnings.length ? ` Not used: ${merged.warnings.join('; ')}.` : '';
    const notImported = merged.rejected.length ? ` Not imported: ${describeRejected(merged.rejected)}.` : '';
    await save({ mcpServers: merged.servers, mcpInputs: merged.inputs }, `Imported ${merged.added.join(', ') || 'nothing'}.${notImported}${warned} ${TAKES_EFFECT}`);
  };
  /** `trusted: true` lets the server's "only reads" claims (readOnlyHint) skip approval (architecture §5). */
  const setTrusted = async (name: string, trusted: boolean) => {
    const entry = settings.mcpServers[name];
    if (!entry) return;
    const { trusted: _old, ...rest } = entry as typeof entry & { trusted?: boolean };
    await save({ mcpServers: { ...settings.mcpServers, [name]: trusted ? { ...rest, trusted: true } : rest } }, trusted ? `${name} is trusted: its tools that say they only read run without asking.` : `${name} is not trusted: each of its tools asks before it runs.`);
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
              {s.title && s.title !== s.name && <span className="muted">{s.title}</span>}
              <span className="muted">{s.transport}</span>
              <span className={`status ${s.state}`} aria-live="polite">
                {STATE_WORDS[s.state]}
              </span>
              <span className="spacer" />
              {settings.mcpServers[s.name] && (
                <label className="small-text">
                  <input type="checkbox" aria-label={`Trusted: ${s.name}`} aria-describedby="mcp-trusted-note" checked={settings.mcpServers[s.name]?.['trusted'] === true} onChange={(e) => void setTrusted(s.name, e.target.checked)} /> Trusted
                </label>
              )}
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
            {s.warnings?.map((w) => (
              <p key={w} className="muted small-text">
                Warning: {w}
              </p>
            ))}
            {s.logFile && <ServerLog name={s.name} file={s.logFile} />}
            <details>
              <summary>
                {s.tools.length} tool{s.tools.length === 1 ? '' : 's'}
              </summary>
              <ul className="tool-names">
                {s.tools.map((t) => (
                  <li key={t}>
                    <code>{t}</code>
                    {s.toolTitles?.[t] && <span className="muted"> {s.toolTitles[t]}</span>}
                  </li>
                ))}
              </ul>
            </details>
          </li>
        ))}
        {servers.length === 0 && <li className="muted">No MCP servers configured.</li>}
      </ul>
      {servers.some((s) => settings.mcpServers[s.name]) && (
        <p id="mcp-trusted-note" className="muted small-text">
          Trusted: a server’s tools that say they only read run without asking. Tools that can change things still ask, and a server you have not marked is asked about every time.
        </p>
      )}
      {restartError && (
        <p role="alert" className="error-text">
          {restartError}
        </p>
      )}
      <label className="field">
        <span>Servers (JSON; secret-looking values are masked — leave them as they are to keep them)</span>
        <textarea
          ref={editor}
          className="code"
          rows={10}
          value={text}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? 'mcp-json-problem' : undefined}
          onChange={(e) => (setText(e.target.value), setInvalid(false))}
          spellCheck={false}
        />
      </label>
      {settings.mcpInputs.length > 0 && (
        <p className="muted small-text" role="note" aria-label="Inputs">
          Asked when a server needs them:{' '}
          {settings.mcpInputs.map((input, i) => (
            <span key={input.id}>
              {i > 0 && ', '}
              <code>{input.id}</code>
              {input.password ? ' (a password: typed without echo, kept in the secret store)' : ''}
            </span>
          ))}
          .
        </p>
      )}
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
      <Feedback state={state} id={invalid ? 'mcp-json-problem' : undefined} />
    </Section>
  );
}

function entriesOf(rejected: readonly RejectedServer[]): Record<string, unknown> {
  return Object.fromEntries(rejected.map((r) => [r.name, r.entry]));
}

/** How often an open log is read again, so what the server logs while it is open shows up. */
const LOG_TAIL_MS = 2000;

/** "Show log": the end of what the server logged (notifications/message), read when opened, every two seconds while open, and on "Refresh". */
function ServerLog({ name, file }: { name: string; file: string }) {
  const readLog = useApp((s) => s.readMcpLog);
  const [log, setLog] = useState<{ text: string; note: string } | null>(null);
  const [open, setOpen] = useState(false);
  const load = async () => {
    const result = await readLog(name);
    if (!result.ok) setLog({ text: '', note: result.message });
    else if (!result.value.text) setLog({ text: '', note: 'Nothing logged yet.' });
    else setLog({ text: result.value.text, note: result.value.truncated ? `The last lines of ${Math.round(result.value.bytes / 1024)} KB.` : '' });
  };
  useEffect(() => {
    if (!open) return undefined;
    const timer = setInterval(() => void load(), LOG_TAIL_MS);
    return () => clearInterval(timer);
  });
  return (
    <details
      onToggle={(e) => {
        const now = e.currentTarget.open;
        setOpen(now);
        if (now) void load();
        else setLog(null);
      }}
    >
      <summary>Show log</summary>
      <p className="muted small-text">
        <code>{file}</code>{' '}
        <button type="button" className="small" onClick={() => void load()} aria-label={`Refresh the log of ${name}`}>
          Refresh
        </button>
      </p>
      {log?.note && <p className="muted small-text">{log.note}</p>}
      {log?.text && (
        <pre className="server-log" aria-label={`Log of ${name}`} tabIndex={0}>
          {log.text}
        </pre>
      )}
    </details>
  );
}
