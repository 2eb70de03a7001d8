import type { ReactNode } from 'react';
import { formatTokens } from '../../common/imageFormat.ts';
import type { ImageView } from '../state/chatReducer.ts';
import { useApp } from '../state/store.ts';
import { sizeText, Thumbnail } from './Thumbnail.tsx';

/** An image in the chat: its thumbnail (click to enlarge), name, the size the model got, and `children` below. */
export function ImageChip({ image, box = 96, children }: { image: ImageView; box?: number; children?: ReactNode }) {
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
        {!image.sentAsText && formatTokens(image.tokens) && <span className="tokens">{formatTokens(image.tokens)}</span>}
        {image.sentAsText &&
          (image.sentAsText.text === undefined ? (
            <span className="sent-as-text" title={`This model cannot see images: it got the ${image.sentAsText.chars} characters of text that ${image.sentAsText.engine} read from it.`}>
              sent as text (local OCR)
            </span>
          ) : (
            <details className="helper-description sent-as-text">
              <summary>sent as text (local OCR)</summary>
              <p className="muted small-text">The model cannot see images; it got what {image.sentAsText.engine} read:</p>
              <p className="read-text">{image.sentAsText.text}</p>
            </details>
          ))}
        {image.description && (
          <details className="helper-description">
            <summary>Described by {image.description.model}</summary>
            <p>{image.description.text}</p>
          </details>
        )}
        {children}
      </span>
    </li>
  );
}
