import { memo, useEffect, useState, type ReactNode } from 'react';
import { InlineMarkdown, Markdown } from '../markdown/Markdown.tsx';
import { isRunning, type ImageView, type ToolCallView, type TurnView } from '../state/chatReducer.ts';
import { useApp } from '../state/store.ts';
import { ChevronIcon, EyeIcon } from './icons.tsx';
import { sizeText, Thumbnail } from './Thumbnail.tsx';

function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function ImageChip({ image, box = 96, children }: { image: ImageView; box?: number; children?: ReactNode }) {
  const openViewer = useApp((s) => s.openViewer);
  const size = sizeText(image);
  return (
    <li className="image-chip" aria-label={image.name}>
      <Thumbnail image={image} edge={256} box={box} onOpen={() => openViewer(image)} />
      <span className="attachment-text">
        <span className="name" title={image.name}>
          {image.name}
        </span>
        {size && <span className="size">{size}</span>}
        {image.sentAsText && (
          <span className="sent-as-text" title={`This model cannot see images: it got the ${image.sentAsText.chars} characters of text that ${image.sentAsText.engine} read from it.`}>
            sent as text (local OCR)
          </span>
        )}
        {children}
      </span>
    </li>
  );
}

export const UserMessage = memo(function UserMessage({ turn }: { turn: TurnView }) {
  const images = turn.userAttachmentIds.map((id) => turn.images[id] ?? { id, name: 'image', origin: 'user', delivered: false, retracted: false });
  if (!turn.text && !images.length) return null;
  return (
    <div className="message user" aria-label="Your message" role="group">
      {images.length > 0 && (
        <ul className="images" aria-label="Images">
          {images.map((image) => (
            <ImageChip key={image.id} image={image} box={120} />
          ))}
        </ul>
      )}
      {turn.text && <div className="user-text">{turn.text}</div>}
    </div>
  );
});

function ToolImage({ image }: { image: ImageView }) {
  const reattach = useApp((s) => s.reattach);
  const queued = useApp((s) => s.pending.some((p) => p.status === 'ready' && p.attachment.id === image.id));
  return (
    <ImageChip image={image} box={120}>
      {image.retracted ? (
        <span className="delivery">
          <span className="badge muted-badge">retracted</span>
          <button type="button" className="link small" disabled={queued} onClick={() => reattach(image)} aria-label={`Show ${image.name} again`}>
            <EyeIcon /> {queued ? 'will be shown' : 'show again'}
          </button>
        </span>
      ) : image.delivered ? (
        <span className="badge vision">shown to model</span>
      ) : null}
    </ImageChip>
  );
}

export const ToolCard = memo(function ToolCard({ tool, images }: { tool: ToolCallView; images: Record<string, ImageView> }) {
  const [expanded, setExpanded] = useState(tool.status === 'failed');
  // A card opens by itself when its tool fails: what went wrong is the point.
  useEffect(() => {
    if (tool.status === 'failed') setExpanded(true);
  }, [tool.status]);
  const args = JSON.stringify(tool.arguments, null, 2);
  const pct = tool.progress?.total ? Math.round((tool.progress.progress / tool.progress.total) * 100) : undefined;
  const detailsId = `tool-${tool.id}`;
  return (
    <article className={`tool-card ${tool.status}`} aria-label={`Tool call ${tool.name}`}>
      <header>
        <button type="button" className="tool-toggle" aria-expanded={expanded} aria-controls={detailsId} onClick={() => setExpanded((e) => !e)}>
          <ChevronIcon dir={expanded ? 'down' : 'right'} />
          <span className="tool-name">{tool.name}</span>
        </button>
        <span className={`status ${tool.status}`}>{tool.status}</span>
        {tool.durationMs !== undefined && <span className="muted">{formatDuration(tool.durationMs)}</span>}
      </header>
      {tool.status === 'running' && tool.progress && (
        <div className="tool-progress">
          <progress aria-label={`${tool.name} progress`} max={tool.progress.total ?? 1} value={tool.progress.total ? tool.progress.progress : undefined} />
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
          <h4>Arguments</h4>
          <pre>{args === '{}' ? '(none)' : args}</pre>
          {tool.text !== undefined && (
            <>
              <h4>Result</h4>
              <pre className="tool-result">{tool.text}</pre>
            </>
          )}
        </div>
      )}
    </article>
  );
});

export const AssistantMessage = memo(function AssistantMessage({ turn }: { turn: TurnView }) {
  const retry = useApp((s) => s.retry);
  const busy = isRunning(turn);
  const refusedOnly = turn.status === 'refused';
  if (refusedOnly && !turn.parts.length) {
    return (
      <div className="message notice">
        {turn.refusals.map((r, i) => (
          <p key={i} role="alert" className="refusal">
            <strong>{r.origin === 'user' ? 'An image' : r.origin}</strong> was refused: <InlineMarkdown text={r.message} />
          </p>
        ))}
        <p className="muted">Nothing was sent.</p>
      </div>
    );
  }
  return (
    <article className="message assistant" aria-label="Assistant message" aria-busy={busy}>
      {turn.parts.map((part, i) => {
        if (part.kind === 'text') return <Markdown key={i} text={part.text} />;
        if (part.kind === 'thinking') {
          return (
            <details key={i} className="thinking" open={busy && i === turn.parts.length - 1}>
              <summary>Thinking</summary>
              <div className="thinking-text">{part.text}</div>
            </details>
          );
        }
        const tool = turn.tools[part.id];
        return tool ? <ToolCard key={part.id} tool={tool} images={turn.images} /> : null;
      })}
      {turn.refusals.length > 0 && (
        <ul className="refusals">
          {turn.refusals.map((r, i) => (
            <li key={i} role="alert" className="refusal">
              <strong>{r.origin}</strong>: <InlineMarkdown text={r.message} />
            </li>
          ))}
        </ul>
      )}
      {busy && turn.parts.length === 0 && (
        <p className="typing" aria-label="Waiting for the model">
          <span />
          <span />
          <span />
        </p>
      )}
      {turn.status === 'cancelled' && <p className="muted stopped">Stopped.</p>}
      {turn.status === 'failed' && turn.error && (
        <div className="turn-error" role="alert">
          <span>
            <InlineMarkdown text={turn.error.message} />
          </span>
          <button type="button" className="small" onClick={() => void retry(turn.id)}>
            Retry
          </button>
        </div>
      )}
    </article>
  );
});

export const TurnBlock = memo(function TurnBlock({ turn }: { turn: TurnView }) {
  return (
    <>
      <UserMessage turn={turn} />
      <AssistantMessage turn={turn} />
    </>
  );
});

