import { useEffect, useRef } from 'react';
import { thumbnailKey } from '../state/attachmentsSlice.ts';
import { useApp } from '../state/store.ts';
import { CloseIcon } from './icons.tsx';
import { sizeText } from './Thumbnail.tsx';

/** The largest view main renders (attachments:thumbnail caps maxEdge at 1024). */
const LARGE = 1024;

/** A click on a thumbnail opens it large in a modal dialog; Escape or Close returns focus. */
export function ImageViewer() {
  const image = useApp((s) => s.viewer);
  const open = useApp((s) => s.openViewer);
  const load = useApp((s) => s.loadThumbnail);
  const thumb = useApp((s) => (s.viewer ? s.thumbnails[thumbnailKey(s.viewer.id, LARGE)] : undefined));
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (image && !el.open) el.showModal();
    if (!image && el.open) el.close();
  }, [image]);
  useEffect(() => {
    if (image && thumb === undefined) load(image.id, LARGE);
  }, [image, thumb, load]);

  const size = image ? sizeText(image) : '';
  return (
    <dialog ref={dialog} className="viewer" aria-label={image ? image.name : 'Image'} onClose={() => open(null)} onClick={(e) => e.target === dialog.current && open(null)}>
      {image && (
        <figure>
          {thumb?.state === 'ready' ? (
            <img src={thumb.dataUrl} alt={image.name} width={thumb.width} height={thumb.height} />
          ) : thumb?.state === 'error' ? (
            <p role="alert">This image is not available: {thumb.message}</p>
          ) : (
            <p className="muted">Loading…</p>
          )}
          <figcaption>
            <span className="name">{image.name}</span>
            {size && <span className="muted"> · sent as {size}</span>}
            <button type="button" className="ghost icon-button" aria-label="Close" autoFocus onClick={() => open(null)}>
              <CloseIcon />
            </button>
          </figcaption>
        </figure>
      )}
    </dialog>
  );
}
