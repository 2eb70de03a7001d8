import { memo, useEffect, useState, type ReactNode } from 'react';
import type { ImageView, ToolCallView } from '../state/chatReducer.ts';
import { useApp } from '../state/store.ts';
import { ChevronIcon, EyeIcon } from './icons.tsx';
import { ImageChip } from './ImageChip.tsx';
import { toolLabel, toolSource, toolTitle } from './toolNames.ts';

function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The result as a person reads it: without the engine's notes to the model ("(The image is shown to you…)"). */
function readableResult(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\((The image is|The images are|Not shown:)/.test(line.trim()))
    .join('\n')
    .trim();
}

function ToolImage({ image }: { image: ImageView }) {
  const reattach = useApp((s) => s.reattach);
  const queued = useApp((s) => s.pending.some((p) => p.status === 'ready' && p.attachment.id === image.id));
  return (
    <ImageChip image={image} box={120}>
      {image.retracted ? (
        <span className="delivery">
          <span className="badge muted-badge">retracted</span>
          {/* Named by its visible words first ("Show again", then which image), so the name a voice user says is the one on screen. */}
          <button type="button" className="link small" disabled={queued} onClick={() => reattach(image)}>
            <EyeIcon />{' '}
            {queued ? (
              'will be shown'
            ) : (
              <>
                Show again<span className="visually-hidden"> ({image.name})</span>
              </>
            )}
          </button>
        </span>
      ) : image.delivered ? (
        <span className="badge vision">shown to model</span>
      ) : null}
    </ImageChip>
  );
}

const STATUS_TEXT: Record<ToolCallView['status'], string> = { running: 'running', finished: 'finished', failed: 'failed', cancelled: 'cancelled' };

/**
 * A tool call: who (server) and what (title), status, duration, progress, captured images,
 * and, opened, the arguments and result. "Raw" shows exactly what the model sent and read.
 * `children`: a slot under the header (the approval card of a call awaiting consent).
 */
/** What the status pill says: a call waiting on the approval card, or one the person denied, is neither running nor failed. */
function toolStatus(tool: Pick<ToolCallView, 'status' | 'approval' | 'switchedOff'>): { text: string; className: string } {
  if (tool.approval?.decision === 'pending' && tool.status === 'running') return { text: 'waiting for you', className: 'pending' };
  if (tool.approval?.decision === 'deny' && tool.status !== 'running') return { text: 'not run', className: 'cancelled' };
  if (tool.switchedOff) return { text: 'switched off for this chat', className: 'cancelled' };
  return { text: STATUS_TEXT[tool.status], className: tool.status };
}

export const ToolCard = memo(function ToolCard({ tool, images, children }: { tool: ToolCallView; images: Record<string, ImageView>; children?: ReactNode }) {
  const status = toolStatus(tool);
  const broke = status.className === 'failed';
  const [expanded, setExpanded] = useState(broke);
  const [raw, setRaw] = useState(false);
  // A card opens by itself when its tool fails: what went wrong is the point.
  useEffect(() => {
    if (broke) setExpanded(true);
  }, [broke]);
  const args = JSON.stringify(tool.arguments, null, 2);
  const pct = tool.progress?.total ? Math.round((tool.progress.progress / tool.progress.total) * 100) : undefined;
  const detailsId = `tool-${tool.id}`;
  const title = toolTitle(tool.name, tool.title);
  const result = tool.text === undefined ? undefined : raw ? tool.text : readableResult(tool.text);
  return (
    <article className={`tool-card ${status.className}`} aria-label={`Tool call ${toolLabel(tool.name, tool.title, tool.server)}`} title={tool.name}>
      <header>
        <button type="button" className="tool-toggle" aria-expanded={expanded} aria-controls={detailsId} onClick={() => setExpanded((e) => !e)}>
          <ChevronIcon dir={expanded ? 'down' : 'right'} />
          <span className="tool-name">{title}</span>
          <span className="muted tool-source">{tool.server ?? toolSource(tool.name)}</span>
        </button>
        <span className={`status ${status.className}`}>{status.text}</span>
        {tool.durationMs !== undefined && <span className="muted duration">{formatDuration(tool.durationMs)}</span>}
      </header>
      {children}
      {tool.status === 'running' && tool.progress && (
        <div className="tool-progress">
          <progress aria-label={`${toolLabel(tool.name, tool.title, tool.server)} progress`} max={tool.progress.total ?? 1} value={tool.progress.total ? tool.progress.progress : undefined} />
          <span className="muted">{tool.progress.message ?? (pct !== undefined ? `${pct}%` : '')}</span>
        </div>
      )}
      {tool.attachmentIds.length > 0 && (
        <ul className="images" aria-label="Captured images">
          {tool.attachmentIds.map((id) => (
            <ToolImage key={id} image={images[id] ?? { id, name: 'image', origin: tool.name, delivered: false, retracted: false }} />
          ))}
        </ul>
      )}
      {expanded && (
        <div id={detailsId} className="tool-details">
          <div className="field-row">
            <h4>Arguments</h4>
            <span className="spacer" />
            <button type="button" className="ghost small" aria-pressed={raw} onClick={() => setRaw((r) => !r)} title="Exactly what the model sent and read">
              Raw
            </button>
          </div>
          {raw && <p className="muted small-text">The model called <code>{tool.name}</code> with:</p>}
          <pre>{args === '{}' ? '(none)' : args}</pre>
          {result !== undefined && (
            <>
              <h4>{raw ? 'What the model read' : 'Result'}</h4>
              <pre className="tool-result">{result || '(no text)'}</pre>
            </>
          )}
        </div>
      )}
    </article>
  );
});
