import { useEffect, useRef, useState } from 'react';
import { groupDigits } from '../../common/imageFormat.ts';
import type { ContextEstimate } from '../../common/ipc.ts';
import { runningTurnId } from '../state/chatReducer.ts';
import { useApp } from '../state/store.ts';
import { contextParts, contextWarning } from './contextWords.ts';

/** Asked again this long after the last keystroke, not on each one. */
const DEBOUNCE_MS = 250;

/**
 * How full the model's context will be with this message: main's estimate of the whole next
 * request (history as it will be fitted, the draft, the images it carries) against the window
 * Glance fits requests to.
 */
export function ContextMeter() {
  const context = useApp((s) => s.context);
  const refresh = useApp((s) => s.refreshContext);
  const draft = useApp((s) => s.draft);
  const pending = useApp((s) => s.pending);
  const model = useApp((s) => s.selectedModel);
  const conversationId = useApp((s) => s.chat.conversationId);
  const switches = useApp((s) => s.toolSwitches);
  // An MCP server that starts (or stops) changes the tool descriptions the request carries.
  const servers = useApp((s) => s.mcpServers);
  // What the user changes. A turn's end refreshes from the store (chatSlice), without a debounce.
  useEffect(() => {
    const timer = setTimeout(() => void refresh(), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [refresh, draft, pending, model, conversationId, switches, servers]);

  // The breakdown shows while the pointer is on the meter or the focus is in it; a click pins it.
  const [peek, setPeek] = useState(false);
  const [pinned, setPinned] = useState(false);
  const root = useRef<HTMLDetailsElement>(null);
  // Open, it closes on Escape wherever the focus is (a click pins it and the focus may have moved
  // to the message box since), and a pinned one on a press outside it, as the Tools menu does.
  const open = peek || pinned;
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      setPeek(false);
      setPinned(false);
    };
    const onPress = (e: PointerEvent) => {
      if (!(e.target instanceof Node && root.current?.contains(e.target))) setPinned(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPress);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPress);
    };
  }, [open]);

  if (!context) return null;
  const limit = context.contextWindow;
  const used = context.estimatedTokens;
  const n = groupDigits;
  const label = limit ? `≈${n(used)} of ${n(limit)} tokens` : `≈${n(used)} tokens (the model's context length is not known)`;
  const tools = context.tools;
  const warning = contextWarning(context);
  const percent = limit ? `${Math.round((used / limit) * 100)}%` : `≈${n(used)}`;
  return (
    <details
      ref={root}
      className="context-meter"
      open={open}
      // Peeked (hover or focus, not pinned) it is a tooltip: it never takes a press meant for what it covers.
      data-peek={peek && !pinned ? '' : undefined}
      onMouseEnter={() => setPeek(true)}
      onMouseLeave={() => setPeek(false)}
      onFocus={() => setPeek(true)}
      onBlur={(e) => {
        if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) setPeek(false);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && (peek || pinned)) {
          e.stopPropagation();
          setPeek(false);
          setPinned(false);
        }
      }}
    >
      <summary
        title={label}
        aria-label={`Context ${percent}${warning ? ', too full to send' : ''}`}
        onClick={(e) => {
          e.preventDefault();
          setPinned((p) => !p);
        }}
      >
        <span className="small-text">Context</span>{' '}
        <meter aria-label="Context" min={0} max={limit ?? Math.max(used, 1)} low={(limit ?? used) * 0.7} high={(limit ?? used) * 0.9} optimum={0} value={limit ? Math.min(used, limit) : used} aria-valuetext={label} />
        {' '}
        <span className="small-text">{percent}</span>
        {warning && <span className="context-over" aria-hidden="true"> !</span>}
      </summary>
      <div className="context-breakdown" aria-label="What fills the context">
        <p>{label}</p>
        <ul>
          {contextParts(context).map((part) => (
            <li key={part.name}>
              {part.name}: ≈{n(part.tokens)}
              {part.name === 'Tool descriptions' && tools && <ToolSources tools={tools} />}
            </li>
          ))}
          {context.droppedTurns > 0 && <li>{context.droppedTurns} older turn(s) would be left out to fit.</li>}
        </ul>
      </div>
    </details>
  );
}

/** Each source's share of the tool descriptions, and what shortening them for this model saved. */
function ToolSources({ tools }: { tools: NonNullable<ContextEstimate['tools']> }) {
  const n = groupDigits;
  const sources = tools.bySource.map((t) => `${t.source} ≈${n(t.tokens)} for ${t.tools} tool${t.tools === 1 ? '' : 's'}`).join(', ');
  return (
    <>
      {sources && <> ({sources})</>}
      {tools.fullTokens !== undefined && <>; shortened for this model's small context from ≈{n(tools.fullTokens)}</>}
    </>
  );
}

/** Before a send that will not fit: what takes the room and what to do, in words, above the message box. */
export function ContextWarning() {
  const context = useApp((s) => s.context);
  // While a turn runs the estimate is still the one made before the send (it is asked again when
  // the turn ends): its warning was about the message now being answered, not about the box.
  const running = useApp((s) => runningTurnId(s.chat) !== undefined);
  const warning = !running && context && contextWarning(context);
  if (!warning) return null;
  return (
    <p className="context-warning" role="status">
      {warning}
    </p>
  );
}
