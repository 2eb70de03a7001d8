import { memo, useState } from 'react';
import type { MarksById } from '../../common/marks.ts';
import { summariseMarks } from './markupKeys.ts';
import { InlineMarkdown, Markdown } from '../markdown/Markdown.tsx';
import { answerText, isRunning, runningTurnId, type TurnView } from '../state/chatReducer.ts';
import { useApp } from '../state/store.ts';
import { ImageChip } from './ImageChip.tsx';
import { CopyButton, MessageTime } from './MessageActions.tsx';
import { ApprovalCard } from './ApprovalCard.tsx';
import { ToolCard } from './ToolCard.tsx';
import { VersionSwitch } from './VersionSwitch.tsx';

/** The user's message; "Edit message" turns it into a box whose text is sent in its place. */
/** The marks the model got drawn into its copy of these images (stored with the conversation). */
function SentMarks({ marks, ids }: { marks: MarksById; ids: readonly string[] }) {
  const drawn = ids.flatMap((id) => marks[id] ?? []);
  if (!drawn.length) return null;
  return <div className="muted small sent-marks">Sent with {summariseMarks(drawn)}</div>;
}

export const UserMessage = memo(function UserMessage({ turn }: { turn: TurnView }) {
  const images = turn.userAttachmentIds.map((id) => turn.images[id] ?? { id, name: 'image', origin: 'user', delivered: false, retracted: false });
  const busy = useApp((s) => runningTurnId(s.chat) !== undefined);
  const edit = useApp((s) => s.editMessage);
  const [editing, setEditing] = useState<string | null>(null);
  if (!turn.text && !images.length) return null;
  return (
    <div className="message user">
      {/* The group holds the message alone (its text is what tests and screen readers read); actions follow it. */}
      <div className="user-bubble" aria-label="Your message" role="group">
      {images.length > 0 && (
        <ul className="images" aria-label="Images">
          {images.map((image) => (
            <ImageChip key={image.id} image={image} box={120} marks={turn.marks?.[image.id]} />
          ))}
        </ul>
      )}
      {turn.marks && <SentMarks marks={turn.marks} ids={turn.userAttachmentIds} />}
      {editing === null ? (
        turn.text && <div className="user-text">{turn.text}</div>
      ) : (
        <form
          className="edit-message"
          onSubmit={(e) => {
            e.preventDefault();
            // Trailing new lines and spaces are not part of the message.
            const text = editing.trimEnd();
            if (busy || (!text.trim() && !images.length)) return;
            setEditing(null);
            void edit(turn.id, text);
          }}
        >
          <textarea
            aria-label="Edited message"
            aria-keyshortcuts="Enter"
            title="Enter sends, Shift+Enter starts a new line"
            value={editing}
            autoFocus
            rows={3}
            onChange={(e) => setEditing(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setEditing(null);
              // As in the message box: Enter (or Ctrl/Cmd+Enter) sends, Shift+Enter is a new line.
              else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
          />
          <span className="field-row">
            <button type="submit" className="primary small" disabled={busy || (!editing.trim() && !images.length)}>
              Send edited
            </button>
            <button type="button" className="ghost small" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </span>
        </form>
      )}
      </div>
      {editing === null && (
        <span className="message-actions">
          {turn.text && <CopyButton text={turn.text} />}
          <button type="button" className="ghost small" aria-label="Edit message" disabled={busy} title="Edit and send again from here" onClick={() => setEditing(turn.text)}>
            Edit
          </button>
        </span>
      )}
    </div>
  );
});

export const AssistantMessage = memo(function AssistantMessage({ turn }: { turn: TurnView }) {
  const retry = useApp((s) => s.retry);
  const regenerate = useApp((s) => s.regenerate);
  const anyRunning = useApp((s) => runningTurnId(s.chat) !== undefined);
  const serverDown = useApp((s) => s.modelErrors.some((e) => e.code === 'unreachable' || e.endpoint === 'all'));
  const busy = isRunning(turn);
  const refusedOnly = turn.status === 'refused';
  const unanswered = turn.status === 'failed' && !turn.parts.length;
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
      {/* Which tool servers this answer goes without (starting, waiting for an answer, failed): the server's name is quoted text, never markup. */}
      {turn.toolServers && (
        <p className="muted tool-servers" role="status">
          {turn.toolServers}
        </p>
      )}
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
        return tool ? (
          <ToolCard key={part.id} tool={tool} images={turn.images}>
            {tool.approval && <ApprovalCard turnId={turn.id} tool={tool} />}
          </ToolCard>
        ) : null;
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
            {turn.error.code === 'unreachable' && serverDown ? (
              // The notice under the toolbar says where and what to do, and goes when the server is back: said once.
              'Not sent: the model server does not answer (see above). It goes as soon as the server is back.'
            ) : (
              <InlineMarkdown text={turn.error.message} />
            )}
          </span>
          <button type="button" className="small" onClick={() => void retry(turn.id)}>
            Retry
          </button>
        </div>
      )}
      {/* A turn that failed before any answer has only its error and Retry (Regenerate would be the same button twice), and its versions. */}
      {!busy && (!unanswered || turn.versions) && (
        <footer className="message-actions">
          {turn.versions && <VersionSwitch turnId={turn.id} versions={turn.versions} disabled={anyRunning} />}
          {turn.model && <span className="muted model-name">{turn.model.name}</span>}
          {turn.createdAt && (
            <span className="muted">
              <MessageTime iso={turn.createdAt} />
            </span>
          )}
          <span className="spacer" />
          {answerText(turn) && <CopyButton text={answerText(turn)} />}
          {!unanswered && (
            <button type="button" className="ghost small" aria-label="Regenerate" disabled={anyRunning} title="Ask the model again (this answer is kept as a version)" onClick={() => void regenerate(turn.id)}>
              Regenerate
            </button>
          )}
        </footer>
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

