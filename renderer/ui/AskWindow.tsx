import { useEffect, useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Route } from '../route.ts';
import { thumbnailKey, type CropRegion, type PendingAttachment } from '../state/attachmentsSlice.ts';
import { isRunning } from '../state/chatReducer.ts';
import { useApp } from '../state/store.ts';
import { Composer } from './Composer.tsx';
import { centredRegion, describeRegion, isArrowKey, pixelRegion, stepRegion } from './cropKeys.ts';
import { ImageViewer } from './ImageViewer.tsx';
import { MarkupDialog } from './MarkupEditor.tsx';
import { windowOpened } from './windowOpened.ts';
import { ModelHints, ModelPicker } from './ModelPicker.tsx';
import { ServerState } from './ServerStatus.tsx';
import { sizeText } from './Thumbnail.tsx';
import { WindowToggle } from './WindowToggle.tsx';
import { AssistantMessage, UserMessage } from './Turn.tsx';

type Ready = Extract<PendingAttachment, { status: 'ready' }>;
type Box = { x: number; y: number; width: number; height: number };

/** The preview the user drags on; the largest main renders. */
const PREVIEW_EDGE = 1024;
/** A drag smaller than this (CSS px) is a click, not a region. */
const MIN_DRAG = 8;

function normalise(a: { x: number; y: number }, b: { x: number; y: number }): Box {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
}

/**
 * The capture, large enough to aim at: drag a rectangle to send only that region. The crop
 * is made by main from the stored image (`attachments:crop`), so small text stays legible.
 * From the keyboard (the capture is a focusable group named "Screenshot region"): Enter starts
 * a centred selection, arrows move it, Shift+arrows resize it, Enter sends only that region,
 * Escape returns to the whole screenshot; a live region says what will be sent.
 */
function CropSurface({ item }: { item: Ready }) {
  const source = item.uncropped ?? item.attachment;
  const thumb = useApp((s) => s.thumbnails[thumbnailKey(source.id, PREVIEW_EDGE)]);
  const load = useApp((s) => s.loadThumbnail);
  const crop = useApp((s) => s.cropPending);
  const uncrop = useApp((s) => s.uncrop);
  const img = useRef<HTMLImageElement>(null);
  const [drag, setDrag] = useState<{ start: { x: number; y: number }; box: Box } | null>(null);
  /** The keyboard's selection, in pixels of the stored image, until Enter sends it. */
  const [draft, setDraft] = useState<CropRegion | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hintId = useId();

  useEffect(() => {
    if (thumb === undefined) load(source.id, PREVIEW_EDGE);
  }, [thumb, load, source.id]);

  const size = source.width && source.height ? { width: source.width, height: source.height } : undefined;
  const commit = async (region: CropRegion) => {
    setBusy(true);
    setError(await crop(item.key, region));
    setBusy(false);
  };

  const point = (e: PointerEvent) => {
    const rect = img.current!.getBoundingClientRect();
    return { x: Math.max(0, Math.min(rect.width, e.clientX - rect.left)), y: Math.max(0, Math.min(rect.height, e.clientY - rect.top)) };
  };
  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    if (!img.current || e.button !== 0 || busy) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    const p = point(e);
    setDraft(null);
    setDrag({ start: p, box: { ...p, width: 0, height: 0 } });
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag) setDrag({ start: drag.start, box: normalise(drag.start, point(e)) });
  };
  const onUp = async (e: PointerEvent<HTMLDivElement>) => {
    if (!drag || !img.current) return;
    const box = normalise(drag.start, point(e));
    setDrag(null);
    if (box.width < MIN_DRAG || box.height < MIN_DRAG || !source.width || !source.height) return;
    // CSS pixels on the preview → pixels of the stored image.
    const scaleX = source.width / img.current.clientWidth;
    const scaleY = source.height / img.current.clientHeight;
    const x = Math.min(source.width - 1, Math.round(box.x * scaleX));
    const y = Math.min(source.height - 1, Math.round(box.y * scaleY));
    await commit({
      x,
      y,
      width: Math.max(1, Math.min(source.width - x, Math.round(box.width * scaleX))),
      height: Math.max(1, Math.min(source.height - y, Math.round(box.height * scaleY))),
    });
  };

  const onKey = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (busy || drag || !size || e.altKey || e.ctrlKey || e.metaKey) return;
    // A selection starts from the region already sent, else in the middle of the capture.
    const current = draft ?? item.region ?? centredRegion(size);
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (!draft) setDraft(current);
      else {
        setDraft(null);
        void commit(pixelRegion(draft, size));
      }
    } else if (isArrowKey(e.key)) {
      e.preventDefault();
      setDraft(stepRegion(current, e.key, e.shiftKey, size));
    } else if (e.key === 'Escape' && (draft || item.uncropped)) {
      // Handled here: the ask window's own Escape (close) must not fire as well.
      e.preventDefault();
      e.stopPropagation();
      setDraft(null);
      setError(null);
      uncrop(item.key);
    }
  };

  // What the preview shows: the drag, else the keyboard's draft, else the region being sent.
  let shown: Box | undefined = drag?.box;
  const region = draft ?? item.region;
  if (!shown && region && img.current && size) {
    const sx = img.current.clientWidth / size.width;
    const sy = img.current.clientHeight / size.height;
    shown = { x: region.x * sx, y: region.y * sy, width: region.width * sx, height: region.height * sy };
  }

  return (
    <figure className="crop">
      <div
        className={`crop-surface ${busy ? 'busy' : ''} ${draft ? 'drafting' : ''}`}
        role="group"
        aria-label="Screenshot region"
        aria-describedby={hintId}
        tabIndex={0}
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={(e) => void onUp(e)}
        onPointerCancel={() => setDrag(null)}
        onKeyDown={onKey}
      >
        {thumb?.state === 'ready' ? (
          <img ref={img} src={thumb.dataUrl} alt={`Capture ${item.name}`} draggable={false} />
        ) : (
          <div className="crop-placeholder muted">{thumb?.state === 'error' ? thumb.message : 'Loading the capture…'}</div>
        )}
        {shown && <div className="crop-box" style={{ left: shown.x, top: shown.y, width: shown.width, height: shown.height }} aria-hidden="true" />}
      </div>
      <figcaption>
        <WindowToggle item={item} />
        {/* Always in the DOM, so screen readers announce each change of what will be sent. */}
        <span role="status" className="crop-status">
          {draft && size ? (
            describeRegion(draft, size)
          ) : busy ? (
            'Cutting out the region…'
          ) : item.uncropped ? (
            <>
              Sending the region: <strong>{sizeText(item.attachment)}</strong>
            </>
          ) : null}
        </span>
        {item.uncropped && !draft && (
          <button type="button" className="link small" onClick={() => uncrop(item.key)}>
            Use whole screenshot
          </button>
        )}
        <span id={hintId} className="muted" hidden={Boolean(item.uncropped || draft)}>
          Drag on the capture to send only a region — small text stays sharper. Or focus it and press Enter: arrows move the selection, Shift+arrows resize it, Enter sends it, Escape returns to the whole screenshot.
        </span>
        {error && (
          <span role="alert" className="error-text">
            Could not crop: {error}
          </span>
        )}
      </figcaption>
    </figure>
  );
}

/** The hotkey window: the capture attached, the message box focused, Enter sends, the answer streams here. */
export function AskWindow({ host, navigate }: { host: 'electron' | 'harness'; navigate: (route: Route) => void }) {
  const order = useApp(useShallow((s) => s.chat.order));
  const turns = useApp((s) => s.chat.turns);
  const conversationId = useApp((s) => s.chat.conversationId);
  const capture = useApp((s) => s.pending.find((p): p is Ready => p.status === 'ready'));
  const openMain = useApp((s) => s.openMain);
  const [error, setError] = useState<string | null>(null);
  const running = order.some((id) => isRunning(turns[id]!));

  // The ask window opens on nothing to load: times may fill in after its first frame.
  useEffect(windowOpened, []);

  // A capture arriving (or the window opening) puts the cursor in the message box.
  useEffect(() => {
    document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')?.focus();
  }, [capture?.key]);

  useEffect(() => {
    if (host !== 'electron') return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !running && !document.querySelector('dialog[open]')) window.close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [host, running]);

  const open = async () => {
    const problem = await openMain(conversationId ?? undefined);
    setError(problem);
    // The harness has one tab for both windows: it becomes the main window.
    if (!problem && host === 'harness') navigate(conversationId ? { name: 'chat', conversationId } : { name: 'chat' });
  };

  return (
    <div className="ask">
      <header className="toolbar">
        <ModelPicker />
        <ServerState />
        <span className="spacer" />
        <button type="button" className="ghost" onClick={() => void open()}>
          Open in Glance
        </button>
      </header>
      {error && (
        <div role="alert" className="banner error">
          {error}
        </div>
      )}
      {/* The window's content in a main landmark with its one heading, as the main window has. */}
      <main className="ask-main" aria-label="Ask Glance">
      <h1 className="visually-hidden">{capture ? 'Ask about a screenshot' : 'Ask Glance'}</h1>
      <ModelHints />
      <div className="ask-body">
        {capture && <CropSurface item={capture} />}
        {order.map((id) => {
          const turn = turns[id]!;
          return (
            <div key={id} className="ask-turn">
              <UserMessage turn={turn} />
              <AssistantMessage turn={turn} />
            </div>
          );
        })}
      </div>
      <Composer compact autoFocus />
      </main>
      <ImageViewer />
      <MarkupDialog />
    </div>
  );
}
