import { memo, useEffect, useRef, useState, type RefObject } from 'react';
import { formatImageSize } from '../../common/imageFormat.ts';
import { scaleMarks, type Mark } from '../../common/marks.ts';
import { marksSvg } from '../../common/marksSvg.ts';
import { thumbnailKey } from '../state/attachmentsSlice.ts';
import type { ImageView } from '../state/chatReducer.ts';
import { useApp } from '../state/store.ts';

/** Fetches a thumbnail only once its box is near the viewport (long conversations stay light). */
function useNearViewport<T extends Element>(): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        setNear(true);
        observer.disconnect();
      }
    }, { rootMargin: '300px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

type ThumbProps = {
  image: Pick<ImageView, 'id' | 'name'> & Partial<Pick<ImageView, 'width' | 'height'>>;
  /** Longest edge asked of main (device pixels). */
  edge?: number;
  /** Longest edge on screen (CSS pixels). */
  box?: number;
  onOpen?: () => void;
  /** Marks drawn on this image, in the pixels of its original (`markSize`): drawn over the thumbnail. */
  marks?: readonly Mark[] | undefined;
  markSize?: { width: number; height: number } | undefined;
};

export const Thumbnail = memo(function Thumbnail({ image, edge = 256, box = 96, onOpen, marks, markSize }: ThumbProps) {
  const [ref, near] = useNearViewport<HTMLSpanElement>();
  const key = thumbnailKey(image.id, edge);
  const thumb = useApp((s) => s.thumbnails[key]);
  const load = useApp((s) => s.loadThumbnail);
  useEffect(() => {
    if (near && thumb === undefined) load(image.id, edge);
  }, [near, thumb, load, image.id, edge]);

  // Reserve the box from the known size so the list does not jump when the pixels arrive.
  const ratio = image.width && image.height ? image.width / image.height : 16 / 10;
  const width = ratio >= 1 ? box : Math.round(box * ratio);
  const height = ratio >= 1 ? Math.round(box / ratio) : box;
  const content =
    thumb?.state === 'ready' ? (
      <img src={thumb.dataUrl} alt={image.name} width={width} height={height} draggable={false} />
    ) : thumb?.state === 'error' ? (
      <span className="thumb-missing" role="img" aria-label={`${image.name} (not available: ${thumb.message})`} title={thumb.message}>
        ?
      </span>
    ) : (
      <span className="thumb-loading" role="img" aria-label={`${image.name} (loading)`} />
    );
  // At the thumbnail's own size, so lines and numbers stay readable (the editor's SVG, scaled down, is a hairline).
  const overlay = marks?.length && markSize && thumb?.state === 'ready' ? marksSvg(scaleMarks(marks, markSize, { width, height }), { width, height }) : '';
  return (
    <span ref={ref} className="thumb" style={{ width, height }} data-marks={overlay ? marks!.length : undefined}>
      {overlay && <span className="thumb-marks" aria-hidden="true" dangerouslySetInnerHTML={{ __html: overlay }} />}
      {onOpen ? (
        <button type="button" className="thumb-button" onClick={onOpen} aria-label={`Enlarge ${image.name}`}>
          {content}
        </button>
      ) : (
        content
      )}
    </span>
  );
});

/** "1568×882 · 212 KB", or nothing when history did not keep the size. */
export function sizeText(image: Partial<Pick<ImageView, 'width' | 'height' | 'bytes'>>): string {
  return image.width && image.height && image.bytes ? formatImageSize({ width: image.width, height: image.height, bytes: image.bytes }) : '';
}
