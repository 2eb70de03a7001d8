import { useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties, type RefObject } from 'react';
import type { McpToolSource } from '../../common/ipc.ts';
import { switchedOff } from '../../common/toolSwitches.ts';
import { runningTurnId } from '../state/chatReducer.ts';
import { useApp } from '../state/store.ts';
import { humanize, toolLabel, toolTitle } from './toolNames.ts';

const STATE_WORDS = { idle: 'not started', starting: 'starting…', ready: '', failed: 'failed', stopped: 'stopped' } as const;

/**
 * "Tools" by the composer: switch MCP servers or single tools off for this conversation
 * (architecture §6 "Per-conversation switches"). What is off is not offered to the model (its schemas leave the request and the
 * Context meter), and is kept with the conversation.
 */
export function ToolsMenu() {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
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

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  useDismiss(open, root, close);
  const place = usePlacement(open, button);

  const off = switches.offServers.length + switches.offTools.length;
  return (
    <div
      className="tools-menu"
      ref={root}
      onBlur={(e) => {
        // Tabbing (or a shortcut moving focus) out of the menu closes it, as other menus do.
        if (open && e.relatedTarget instanceof Node && !root.current?.contains(e.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="ghost small"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        title="Switch tools off for this conversation"
      >
        Tools{off > 0 ? ` (${off} off)` : ''}
      </button>
      {open && (
        <div
          id={panelId}
          className="tools-panel"
          role="group"
          aria-label="Tools for this conversation"
          style={place}
        >
          <p className="muted small-text">Switched off here, a tool is not offered to the model in this conversation.</p>
          {running && <p className="muted small-text">Wait for the answer to finish to change them.</p>}
          {error && (
            <p role="alert" className="error-text small-text">
              {error}
            </p>
          )}
          {!sources.some((s) => !s.builtIn) && <p className="muted small-text">No MCP servers are configured.</p>}
          {sources.map((s) => {
            if (s.builtIn) return <BuiltInTools key={s.server} tools={s.tools} running={running} />;
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
                      {/* Named by the title and the configured server; the model's name is the tooltip. */}
                      <label title={t.name}>
                        <input
                          type="checkbox"
                          checked={!switchedOff(t.name, s.server, switches)}
                          disabled={running || !serverOn}
                          aria-label={`Use tool ${toolLabel(t.name, t.title ?? humanize(t.tool), s.server)}`}
                          onChange={(e) => void toggle('tool', t.name, e.target.checked)}
                        />{' '}
                        <span>{t.title ?? humanize(t.tool)}</span>
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

/** Glance's own tools (the screenshot, zoom, OCR…): each switched off alone, as an MCP tool is. */
function BuiltInTools({ tools, running }: { tools: McpToolSource['tools']; running: boolean }) {
  const switches = useApp((s) => s.toolSwitches);
  const toggle = useApp((s) => s.setToolSwitch);
  return (
    <fieldset className="tools-server">
      <legend>Glance (built-in)</legend>
      <ul>
        {tools.map((t) => (
          <li key={t.name}>
            <label title={t.name}>
              <input
                type="checkbox"
                checked={!switchedOff(t.name, undefined, switches)}
                disabled={running}
                aria-label={`Use tool ${toolLabel(t.name, t.title)}`}
                onChange={(e) => void toggle('tool', t.name, e.target.checked)}
              />{' '}
              <span>{toolTitle(t.name, t.title)}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/**
 * The menu closes as every menu does: Escape (focus back on its button), a press outside it,
 * and whatever moves the window on — a send, another or a new conversation, the image viewer.
 */
function useDismiss(open: boolean, root: RefObject<HTMLDivElement | null>, close: (refocus: boolean) => void) {
  const running = useApp((s) => runningTurnId(s.chat) !== undefined);
  const conversationId = useApp((s) => s.chat.conversationId);
  const turns = useApp((s) => s.chat.order.length);
  const viewer = useApp((s) => s.viewer !== null);
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    if (!open) return;
    const onPress = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) latest.current(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      // Only the menu, when the focus is on it (or nowhere, after a press on its text): a running
      // answer's Escape in the message box still stops it.
      const active = document.activeElement;
      const ours = !active || active === document.body || (root.current?.contains(active) ?? false);
      if (ours) e.stopPropagation();
      latest.current(ours);
    };
    document.addEventListener('pointerdown', onPress, true);
    window.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('pointerdown', onPress, true);
      window.removeEventListener('keydown', onKey, true);
    };
  }, [open, root]);
  useEffect(() => {
    if (running || viewer) latest.current(false);
  }, [running, viewer]);
  const opened = useRef({ conversationId, turns });
  useEffect(() => {
    if (open) opened.current = { conversationId, turns };
  }, [open]);
  useEffect(() => {
    if (open && (opened.current.conversationId !== conversationId || opened.current.turns !== turns)) latest.current(false);
  }, [open, conversationId, turns]);
}

const MARGIN = 8;

/** Above its button, right-aligned to it, but never past the window's edges (a 400 px window). */
function usePlacement(open: boolean, button: RefObject<HTMLButtonElement | null>): CSSProperties | undefined {
  const [place, setPlace] = useState<CSSProperties>();
  useLayoutEffect(() => {
    if (!open) return;
    const measure = () => {
      const at = button.current?.getBoundingClientRect();
      if (!at) return;
      const width = Math.min(320, window.innerWidth - 2 * MARGIN);
      const left = Math.max(MARGIN, Math.min(at.right - width, window.innerWidth - width - MARGIN));
      setPlace({ position: 'fixed', left, width, bottom: window.innerHeight - at.top + 6, right: 'auto', maxHeight: Math.max(120, at.top - 2 * MARGIN) });
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [open, button]);
  return place;
}
