import type { AttachmentLike } from '../state/chatReducer.ts';
import { currentMarks, markKey } from '../state/markupSlice.ts';
import { useApp } from '../state/store.ts';
import { summariseMarks } from './markupKeys.ts';

/** On a composer attachment: opens the mark-up editor on it, and says how many marks it carries. */
export function MarkupButton({ pendingKey, attachment }: { pendingKey: string; attachment: AttachmentLike }) {
  const open = useApp((s) => s.openMarkup);
  const key = markKey(pendingKey, attachment.id);
  const marks = currentMarks(useApp((s) => s.markup[key]));
  // Marks are in the original's pixels; an image stored before sizes were kept uses its own.
  const width = attachment.source?.width ?? attachment.width;
  const height = attachment.source?.height ?? attachment.height;
  if (!width || !height) return null;
  return (
    <span className="markup-chip">
      {marks.length > 0 && <span className="muted small">{summariseMarks(marks)}</span>}
      <button type="button" className="ghost small" aria-label={`Mark up ${attachment.name}`} onClick={() => open({ key, id: attachment.id, name: attachment.name, width, height })}>
        Mark up
      </button>
    </span>
  );
}
