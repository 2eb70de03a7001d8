import type { AttachmentLike } from '../state/chatReducer.ts';
import { currentMarks } from '../state/markupSlice.ts';
import { useApp } from '../state/store.ts';
import { summariseMarks } from './markupKeys.ts';

/** On a composer attachment: opens the mark-up editor on it, and says how many marks it carries. */
export function MarkupButton({ attachment }: { attachment: AttachmentLike }) {
  const open = useApp((s) => s.openMarkup);
  const marks = currentMarks(useApp((s) => s.markup[attachment.id]));
  // Marks are in the original's pixels; an image stored before sizes were kept uses its own.
  const width = attachment.source?.width ?? attachment.width;
  const height = attachment.source?.height ?? attachment.height;
  if (!width || !height) return null;
  return (
    <span className="markup-chip">
      {marks.length > 0 && <span className="muted small">{summariseMarks(marks)}</span>}
      <button type="button" className="ghost small" aria-label={`Mark up ${attachment.name}`} onClick={() => open({ id: attachment.id, name: attachment.name, width, height })}>
        Mark up
      </button>
    </span>
  );
}
