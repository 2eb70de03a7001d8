import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent } from 'react';
import type { Mark, MarkKind } from '../../common/marks.ts';
import { marksSvg } from '../../common/marksSvg.ts';
import { currentMarks } from '../state/markupSlice.ts';
import { thumbnailKey } from '../state/attachmentsSlice.ts';
import { useApp } from '../state/store.ts';
import { describePoint, isMarkArrow, markFrom, stepPoint, summariseMarks, takesTwoPoints, type Point } from './markupKeys.ts';

const TOOLS: { kind: MarkKind; label: string }[] = [
  { kind: 'box', label: 'Box' },
  { kind: 'arrow', label: 'Arrow' },
  { kind: 'marker', label: 'Marker' },
  { kind: 'line', label: 'Line' },
  { kind: 'text', label: 'Text' },
];
/** The preview drawn on: the largest main renders. */
const PREVIEW_EDGE = 1024;

/**
 * The mark-up dialog (architecture §11: toolbar "Mark up", radio buttons Box, Arrow, Marker, Line,
 * Text, buttons Undo and Redo). Marks are kept per attachment in the original's pixels and go with
 * the message; main draws them into the copy the model gets. The preview uses the same SVG.
 */
export function MarkupDialog() {
  const open = useApp((s) => s.markupOpen);
  const close = useApp((s) => s.openMarkup);
  if (!open) return null;
  return (
    <div className="markup-backdrop">
      <div role="dialog" aria-modal="true" aria-label={`Mark up ${open.name}`} className="markup-dialog" onKeyDown={trapTab}>
        <MarkupEditor key={open.key} image={open} onDone={() => close(null)} />
      </div>
    </div>
  );
}

/** Tab and Shift+Tab go round the dialog's own controls, never to the page behind it. */
function trapTab(e: ReactKeyboardEvent<HTMLDivElement>) {
  if (e.key !== 'Tab' || e.altKey || e.ctrlKey || e.metaKey) return;
  const focusable = [...e.currentTarget.querySelectorAll<HTMLElement>('button, input, select, textarea, [tabindex]:not([tabindex="-1"])')].filter((el) => !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0);
  if (!focusable.length) return;
  const first = focusable[0]!;
  const last = focusable[focusable.length - 1]!;
  const at = focusable.indexOf(document.activeElement as HTMLElement);
  if (e.shiftKey && (at <= 0)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (at === -1 || at === focusable.length - 1)) {
    e.preventDefault();
    first.focus();
  }
}

function MarkupEditor({ image, onDone }: { image: { key: string; id: string; name: string; width: number; height: number }; onDone: () => void }) {
  const size = useMemo(() => ({ width: image.width, height: image.height }), [image.width, image.height]);
  const history = useApp((s) => s.markup[image.key]);
  const marks = currentMarks(history);
  const add = useApp((s) => s.addMark);
  const undo = useApp((s) => s.undoMark);
  const redo = useApp((s) => s.redoMark);
  const thumb = useApp((s) => s.thumbnails[thumbnailKey(image.id, PREVIEW_EDGE)]);
  const load = useApp((s) => s.loadThumbnail);
  const [tool, setTool] = useState<MarkKind>('box');
  const [color, setColor] = useState('#ff0000');
  const [note, setNote] = useState('');
  const [status, setStatus] = useState('');
  /** A drag in progress (pointer), or the keyboard's anchor and cursor. */
  const [drag, setDrag] = useState<{ from: Point; to: Point; points: Point[] } | null>(null);
  const [cursor, setCursor] = useState<Point | null>(null);
  const [anchor, setAnchor] = useState<Point | null>(null);
  /** A Text mark's place, clicked before its text was typed: Enter in the Note box puts it there. */
  const [textAt, setTextAt] = useState<Point | null>(null);
  const surface = useRef<HTMLDivElement>(null);
  const noteBox = useRef<HTMLInputElement>(null);
  const hintId = useId();

  useEffect(() => {
    if (thumb === undefined) load(image.id, PREVIEW_EDGE);
  }, [thumb, load, image.id]);
  useEffect(() => surface.current?.focus(), []);

  const commit = (mark: Mark | undefined, at?: Point) => {
    if (!mark) {
      if (tool === 'text' && at) {
        // Click, then type: the place is kept and the text is typed in the Note box; Enter puts it there.
        setTextAt(at);
        setStatus(`Type the text and press Enter to place it at ${describePoint(at, size)}.`);
        noteBox.current?.focus();
        return;
      }
      setStatus(tool === 'text' ? 'Type the text in Note first.' : 'Too small to mark: nothing added.');
      return;
    }
    add(image.key, mark);
    // The note was for this mark: the next one starts without it.
    setNote('');
    setTextAt(null);
    setStatus(`${labelOf(mark.kind)} ${marks.length + 1} added.`);
  };
  const onNoteKey = (e: ReactKeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter' || tool !== 'text' || !textAt) return;
    e.preventDefault();
    commit(markFrom('text', textAt, textAt, color, note));
    surface.current?.focus();
  };

  // What the overlay shows: the marks, then the one being drawn.
  const draft: Mark | undefined = drag
    ? markFrom(tool, drag.from, drag.to, color, note || ' ', drag.points)
    : anchor && cursor
      ? markFrom(tool, anchor, cursor, color, note || ' ')
      : textAt && tool === 'text'
        ? markFrom('text', textAt, textAt, color, note || ' ')
        : undefined;
  const overlay = marksSvg(draft && (tool !== 'text' || note.trim()) ? [...marks, draft] : marks, size);

  const at = (e: PointerEvent): Point => {
    const rect = surface.current!.getBoundingClientRect();
    const x = ((e.clientX - rect.left) / rect.width) * size.width;
    const y = ((e.clientY - rect.top) / rect.height) * size.height;
    return { x: Math.round(Math.max(0, Math.min(size.width - 1, x))), y: Math.round(Math.max(0, Math.min(size.height - 1, y))) };
  };
  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const p = at(e);
    if (!takesTwoPoints(tool)) {
      commit(markFrom(tool, p, p, color, note), p);
      return;
    }
    e.currentTarget.setPointerCapture(e.pointerId);
    setAnchor(null);
    setDrag({ from: p, to: p, points: [p] });
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const p = at(e);
    const last = drag.points[drag.points.length - 1]!;
    // A free line keeps a point per few pixels of the original, not one per event.
    const points = tool === 'line' && Math.hypot(p.x - last.x, p.y - last.y) >= Math.max(2, size.width / 500) ? [...drag.points, p] : drag.points;
    setDrag({ from: drag.from, to: p, points });
  };
  const onUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const p = at(e);
    setDrag(null);
    commit(markFrom(tool, drag.from, p, color, note, tool === 'line' ? [...drag.points, p] : undefined));
  };

  const onKey = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (!cursor) {
        const c = { x: Math.round(size.width / 2), y: Math.round(size.height / 2) };
        setCursor(c);
        setStatus(`Cursor at ${describePoint(c, size)}. Arrows move it, Enter ${takesTwoPoints(tool) ? 'sets the first corner' : 'places the mark'}.`);
      } else if (takesTwoPoints(tool) && !anchor) {
        setAnchor(cursor);
        setStatus(`First point at ${describePoint(cursor, size)}. Move to the second and press Enter.`);
      } else {
        commit(markFrom(tool, anchor ?? cursor, cursor, color, note), cursor);
        setAnchor(null);
      }
    } else if (isMarkArrow(e.key)) {
      e.preventDefault();
      const next = stepPoint(cursor ?? { x: Math.round(size.width / 2), y: Math.round(size.height / 2) }, e.key, e.shiftKey, size);
      setCursor(next);
      setStatus(`Cursor at ${describePoint(next, size)}.`);
    } else if (e.key === 'Escape' && (cursor || anchor)) {
      e.preventDefault();
      e.stopPropagation();
      setAnchor(null);
      setCursor(null);
      setStatus('');
    }
  };

  // Ctrl+Z / Ctrl+Shift+Z (and Ctrl+Y) anywhere in the editor but its text box; Escape closes it.
  const onEditorKey = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    const inText = (e.target as HTMLElement).tagName === 'INPUT' && (e.target as HTMLInputElement).type === 'text';
    if ((e.ctrlKey || e.metaKey) && !inText && (e.key === 'z' || e.key === 'Z' || e.key === 'y')) {
      e.preventDefault();
      if (e.key === 'y' || e.shiftKey) doRedo();
      else doUndo();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onDone();
    }
  };

  const doUndo = () => {
    undo(image.key);
    setStatus(canUndo ? 'Undone.' : 'Nothing to undo.');
  };
  const doRedo = () => {
    redo(image.key);
    setStatus(canRedo ? 'Redone.' : 'Nothing to redo.');
  };
  const canUndo = (history?.at ?? 0) > 0;
  const canRedo = history ? history.at < history.states.length - 1 : false;
  return (
    <div className="markup" onKeyDown={onEditorKey}>
      <div role="toolbar" aria-label="Mark up" className="markup-toolbar">
        <div role="radiogroup" aria-label="Tool" className="markup-tools">
          {TOOLS.map((t) => (
            <button key={t.kind} type="button" role="radio" aria-checked={tool === t.kind} className="small" onClick={() => {
                setTool(t.kind);
                setTextAt(null);
              }}>
              {t.label}
            </button>
          ))}
        </div>
        <input type="color" aria-label="Colour" value={color} onChange={(e) => setColor(e.target.value)} />
        <input
          ref={noteBox}
          type="text"
          aria-label="Note"
          placeholder={tool === 'text' ? (textAt ? 'Type, then Enter' : 'Text to place') : 'Note for the next mark'}
          value={note}
          maxLength={300}
          onChange={(e) => setNote(e.target.value)}
          onKeyDown={onNoteKey}
        />
        <button type="button" className="small" disabled={!canUndo} onClick={doUndo}>
          Undo
        </button>
        <button type="button" className="small" disabled={!canRedo} onClick={doRedo}>
          Redo
        </button>
        <span className="spacer" />
        <button type="button" className="primary small" onClick={onDone}>
          Done
        </button>
      </div>
      <div
        ref={surface}
        className="markup-surface"
        role="group"
        aria-label="Mark-up canvas"
        aria-describedby={hintId}
        tabIndex={0}
        style={{ aspectRatio: `${size.width} / ${size.height}`, width: `min(100%, calc(70vh * ${(size.width / size.height).toFixed(4)}))` }}
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerCancel={() => setDrag(null)}
        onKeyDown={onKey}
      >
        {thumb?.state === 'ready' ? <img src={thumb.dataUrl} alt={image.name} draggable={false} /> : <div className="muted">{thumb?.state === 'error' ? thumb.message : 'Loading…'}</div>}
        {/* The same SVG main draws into the model's copy (common/marksSvg.ts: text escaped, colours #rrggbb). */}
        <div className="markup-overlay" aria-hidden="true" dangerouslySetInnerHTML={{ __html: overlay }} />
        {cursor && <div className="markup-cursor" aria-hidden="true" style={{ left: `${(cursor.x / size.width) * 100}%`, top: `${(cursor.y / size.height) * 100}%` }} />}
      </div>
      <p className="markup-footer">
        <span role="status">{status}</span>{' '}
        <span className="muted small">{marks.length ? summariseMarks(marks) : 'No marks yet.'}</span>
      </p>
      <p id={hintId} className="muted small">
        Drag to draw, or focus the image and press Enter: arrows move the cursor (Shift: finer), Enter sets a point. Ctrl+Z undoes, Ctrl+Shift+Z redoes. The model gets a copy with the marks drawn in; your image stays as it is.
      </p>
    </div>
  );
}

function labelOf(kind: MarkKind): string {
  return TOOLS.find((t) => t.kind === kind)?.label ?? kind;
}
