import { useEffect, useId, useState } from 'react';
import { switchedOff } from '../../common/toolSwitches.ts';
import { runningTurnId } from '../state/chatReducer.ts';
import { useApp } from '../state/store.ts';
import { humanize } from './toolNames.ts';

const STATE_WORDS = { idle: 'not started', starting: 'starting…', ready: '', failed: 'failed', stopped: 'stopped' } as const;

/**
 * "Tools" by the composer: switch MCP servers or single tools off for this conversation
 * (issue 13). What is off is not offered to the model (its schemas leave the request and the
 * Context meter), and is kept with the conversation.
 */
export function ToolsMenu() {
  const [open, setOpen] = useState(false);
  const sources = useApp((s) => s.toolSources);
  const switches = useApp((s) => s.toolSwitches);
  const error = useApp((s) => s.toolsError);
  const load = useApp((s) => s.loadToolSources);
  const toggle = useApp((s) => s.setToolSwitch);
  const running = useApp((s) => runningTurnId(s.chat) !== undefined);
  const panelId = useId();
  // Opened, and again when servers start or stop while it is open: listed as they are now.
  const servers = useApp((s) => s.mcpServers);
  useEffect(() => {
    if (open) void load();
  }, [open, servers, load]);

  const off = switches.offServers.length + switches.offTools.length;
  return (
    <div className="tools-menu">
      <button
        type="button"
        className="ghost small"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        title="Switch MCP servers or tools off for this conversation"
      >
        Tools{off > 0 ? ` (${off} off)` : ''}
      </button>
      {open && (
        <div
          id={panelId}
          className="tools-panel"
          role="group"
          aria-label="Tools for this conversation"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              setOpen(false);
            }
          }}
        >
          <p className="muted small-text">Switched off here, a tool is not offered to the model in this conversation.</p>
          {running && <p className="muted small-text">Wait for the answer to finish to change them.</p>}
          {error && (
            <p role="alert" className="error-text small-text">
              {error}
            </p>
          )}
          {sources.length === 0 && <p className="muted small-text">No MCP servers are configured.</p>}
          {sources.map((s) => {
            const serverOn = !switches.offServers.includes(s.server);
            return (
              <fieldset key={s.server} className="tools-server">
                <legend>
                  <label>
                    <input type="checkbox" checked={serverOn} disabled={running} aria-label={`Use server ${s.server}`} onChange={(e) => void toggle('server', s.server, e.target.checked)} />{' '}
                    {s.title ?? s.server}
                  </label>
                  {STATE_WORDS[s.state] && <span className="muted small-text"> {STATE_WORDS[s.state]}</span>}
                </legend>
                <ul>
                  {s.tools.map((t) => (
                    <li key={t.name}>
                      <label>
                        <input
                          type="checkbox"
                          checked={!switchedOff(t.name, s.server, switches)}
                          disabled={running || !serverOn}
                          aria-label={`Use tool ${t.name}`}
                          onChange={(e) => void toggle('tool', t.name, e.target.checked)}
                        />{' '}
                        {t.title ?? humanize(t.tool)}
                      </label>
                    </li>
                  ))}
                </ul>
              </fieldset>
            );
          })}
        </div>
      )}
    </div>
  );
}
