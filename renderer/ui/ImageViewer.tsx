import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatBytes } from '../../common/imageFormat.ts';
import type { IpcValue } from '../../common/ipc.ts';
import type { AttachmentLike, ImageView } from '../state/chatReducer.ts';
import { useApp, useAppStore } from '../state/store.ts';
import { CloseIcon } from './icons.tsx';
import { regionWords } from './regionWords.ts';
import { sizeText, Thumbnail } from './Thumbnail.tsx';
import { errorMessage } from '../../common/errors.ts';

type Original = { state: 'loading' } | { state: 'error'; message: string } | ({ state: 'ready' } & IpcValue<'attachments:original'>);

const NO_GALLERY: (ImageView | AttachmentLike)[] = [];

/** Every image of the conversation shown, in order (the user's and the tools'), then those waiting to be sent. */
function useGallery(): (ImageView | AttachmentLike)[] {
  // The store's own objects (stable), so the shallow comparison holds between renders. Only
  // while the viewer is open: the selector runs on every change to the store, and walking a
  // long conversation each time cost its opening several ms.
  return useApp(
    useShallow((s) => {
      if (!s.viewer) return NO_GALLERY;
      const out: (ImageView | AttachmentLike)[] = [];
      const seen = new Set<string>();
      const add = (image: ImageView | AttachmentLike | undefined) => {
        if (!image || seen.has(image.id)) return;
        seen.add(image.id);
        out.push(image);
      };
      for (const id of s.chat.order) {
        const turn = s.chat.turns[id]!;
        for (const a of turn.userAttachmentIds) add(turn.images[a]);
        for (const tool of Object.values(turn.tools)) for (const a of tool.attachmentIds) add(turn.images[a]);
      }
      for (const p of s.pending) if (p.status === 'ready') add(p.attachment);
      return out;
    }),
  );
}

/** The image on the clipboard as PNG (what every app pastes), whatever its own type. */
async function copyImage(dataUrl: string): Promise<void> {
  const img = new Image();
  img.src = dataUrl;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  canvas.getContext('2d')!.drawImage(img, 0, 0);
  const blob = await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('could not encode'))), 'image/png'));
  await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]);
}

const ZOOMS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8];

/**
 * A click on a thumbnail opens the image here at full resolution (the original as it entered):
 * fit to the window or zoomed (buttons, Ctrl+wheel, +/−), panned by dragging, copied, saved,
 * and stepped through the conversation's images with the arrows. Escape or Close returns focus.
 */
export function ImageViewer() {
  const store = useAppStore();
  const image = useApp((s) => s.viewer);
  const open = useApp((s) => s.openViewer);
  const gallery = useGallery();
  const dialog = useRef<HTMLDialogElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [original, setOriginal] = useState<Original>({ state: 'loading' });
  const [zoom, setZoom] = useState<number | 'fit'>('fit');
  const [note, setNote] = useState('');

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (image && !el.open) el.showModal();
    if (!image && el.open) el.close();
  }, [image]);
  useEffect(() => {
    if (!image) return;
    let stale = false;
    setOriginal({ state: 'loading' });
    setZoom('fit');
    setNote('');
    void store
      .getState()
      .loadOriginal(image.id)
      .then((result) => !stale && setOriginal(result.ok ? { state: 'ready', ...result.value } : { state: 'error', message: result.message }));
    return () => void (stale = true);
  }, [image, store]);

  const at = image ? gallery.findIndex((g) => g.id === image.id) : -1;
  const step = (by: number) => {
    const next = gallery[at + by];
    if (next) open('delivered' in next ? next : { ...next, delivered: false, retracted: false });
  };
  const ready = original.state === 'ready' ? original : undefined;
  const fitScale = () => {
    const el = frame.current;
    return el && ready ? Math.min(1, el.clientWidth / ready.width, el.clientHeight / ready.height) : 1;
  };
  const zoomBy = (dir: 1 | -1) => {
    const current = zoom === 'fit' ? fitScale() : zoom;
    const next = dir > 0 ? ZOOMS.find((z) => z > current + 1e-6) : [...ZOOMS].reverse().find((z) => z < current - 1e-6);
    setZoom(next ?? current);
  };
  // On the window while open: a button that turns disabled (the last "Next") drops the focus.
  const onKeyRef = useRef<(e: globalThis.KeyboardEvent) => void>(() => undefined);
  useEffect(() => {
    if (!image) return;
    const listener = (e: globalThis.KeyboardEvent) => onKeyRef.current(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [image]);
  onKeyRef.current = (e) => {
    if (e.key === 'ArrowLeft') step(-1);
    else if (e.key === 'ArrowRight') step(1);
    else if (e.key === '+' || e.key === '=') zoomBy(1);
    else if (e.key === '-') zoomBy(-1);
    else if (e.key === '0') setZoom('fit');
    else return;
    e.preventDefault();
  };
  // Dragging pans a zoomed image (the frame scrolls).
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    const el = frame.current;
    if (!el || zoom === 'fit') return;
    drag.current = { x: e.clientX, y: e.clientY, left: el.scrollLeft, top: el.scrollTop };
    el.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const el = frame.current;
    if (!el || !drag.current) return;
    el.scrollLeft = drag.current.left - (e.clientX - drag.current.x);
    el.scrollTop = drag.current.top - (e.clientY - drag.current.y);
  };

  const scale = zoom === 'fit' ? undefined : zoom;
  const size = image ? sizeText(image) : '';
  return (
    <dialog ref={dialog} className="viewer" aria-label={image ? image.name : 'Image'} onClose={() => open(null)} onClick={(e) => e.target === dialog.current && open(null)}>
      {image && (
        <figure>
          <div
            ref={frame}
            className={`viewer-frame ${scale ? 'zoomed' : ''}`}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={() => (drag.current = null)}
            onWheel={(e) => {
              if (!e.ctrlKey) return;
              e.preventDefault();
              zoomBy(e.deltaY < 0 ? 1 : -1);
            }}
          >
            {ready ? (
              <img
                src={ready.dataUrl}
                alt={image.name}
                width={ready.width}
                height={ready.height}
                draggable={false}
                style={scale ? { width: ready.width * scale, height: ready.height * scale, maxWidth: 'none', maxHeight: 'none' } : undefined}
              />
            ) : original.state === 'error' ? (
              <p role="alert">This image is not available: {original.message}</p>
            ) : (
              <p className="muted">Loading…</p>
            )}
          </div>
          {image.redactions && image.redactions.length > 0 && <WhatTheModelGot image={image} original={ready ? { width: ready.width, height: ready.height } : undefined} />}
          <figcaption>
            <span className="viewer-title">
              <span className="name">{image.name}</span>
              {ready && (
                <span className="muted">
                  {' '}
                  · original {ready.width}×{ready.height}, {formatBytes(ready.original.bytes)}
                </span>
              )}
              {size && <span className="muted"> · sent as {size}</span>}
            </span>
            <span className="viewer-tools" role="toolbar" aria-label="Image">
              <button type="button" className="ghost small" aria-label="Previous image" disabled={at <= 0} onClick={() => step(-1)}>
                ‹
              </button>
              <span className="muted small-text">{at >= 0 ? `${at + 1} / ${gallery.length}` : ''}</span>
              <button type="button" className="ghost small" aria-label="Next image" disabled={at < 0 || at >= gallery.length - 1} onClick={() => step(1)}>
                ›
              </button>
              <button type="button" className="ghost small" aria-label="Zoom out" disabled={!ready} onClick={() => zoomBy(-1)}>
                −
              </button>
              <button type="button" className="ghost small" aria-label="Zoom in" disabled={!ready} onClick={() => zoomBy(1)}>
                +
              </button>
              <button type="button" className="ghost small" aria-pressed={zoom === 'fit'} disabled={!ready} onClick={() => setZoom(zoom === 'fit' ? 1 : 'fit')}>
                {zoom === 'fit' ? 'Fit' : `${Math.round(zoom * 100)}%`}
              </button>
              <button type="button" className="ghost small" disabled={!ready} onClick={() => ready && void copyImage(ready.dataUrl).then(() => setNote('Copied.'), (e: unknown) => setNote(`Could not copy: ${errorMessage(e)}`))}>
                Copy image
              </button>
              {ready && (
                <a className="button ghost small" href={ready.dataUrl} download={image.name}>
                  Save
                </a>
              )}
              <span role="status" className="muted small-text">
                {note}
              </span>
              <button type="button" className="ghost icon-button" aria-label="Close" autoFocus onClick={() => open(null)}>
                <CloseIcon />
              </button>
            </span>
          </figcaption>
        </figure>
      )}
    </dialog>
  );
}

/**
 * Beside the original: the copy the model got (the sent attachment's own pixels, hidden boxes
 * filled, as main's door made it) and each hidden region in words.
 */
function WhatTheModelGot({ image, original }: { image: ImageView; original: { width: number; height: number } | undefined }) {
  const regions = image.redactions ?? [];
  // Regions are in the original's pixels.
  const size = original;
  return (
    <section className="viewer-sent-copy" aria-label="What the model got">
      <h3>What the model got: {regions.length} hidden</h3>
      <Thumbnail key={image.id} image={{ ...image, name: `${image.name} as the model got it` }} edge={512} box={240} />
      <ul className="small-text">
        {regions.map((r, i) => (
          <li key={i}>{regionWords(r, size)}</li>
        ))}
      </ul>
    </section>
  );
}
