import type { ReactNode } from 'react';
import type { Mark } from '../../common/marks.ts';
import { groupDigits, imageTokensText } from '../../common/imageFormat.ts';
import type { ImageView } from '../state/chatReducer.ts';
import { useApp } from '../state/store.ts';
import { sizeText, Thumbnail } from './Thumbnail.tsx';

/** An image in the chat: its thumbnail (click to enlarge), name, the size the model got, and `children` below. */
export function ImageChip({ image, box = 96, children, marks }: { image: ImageView; box?: number; children?: ReactNode; marks?: readonly Mark[] | undefined }) {
  const openViewer = useApp((s) => s.openViewer);
  const size = sizeText(image);
  const cost = imageTokensText(image);
  return (
    <li className="image-chip" aria-label={image.name}>
      <Thumbnail image={image} edge={256} box={box} onOpen={() => openViewer(image)} marks={marks} markSize={image.source ?? (image.width && image.height ? { width: image.width, height: image.height } : undefined)} />
      <span className="attachment-text">
        <span className="name" title={image.name}>
          {image.name}
        </span>
        {size && <span className="size">{size}</span>}
        {!image.sentAsText && cost.text && (
          <span className="tokens" title={cost.title}>
            {cost.text}
          </span>
        )}
        {image.sentAsText && <SentAsText reading={image.sentAsText} />}
        {/* After sending: how many regions the model's copy had hidden (the viewer shows that copy beside the original). */}
        {image.redactions && image.redactions.length > 0 && (
          <span className="hidden-badge sent-hidden" title="Regions hidden on this device before the model got this image: open it to see what the model got">
            {image.redactions.length} hidden
          </span>
        )}
        {image.windowText !== undefined && (
          <details className="helper-description window-text">
            <summary>with its window’s own text</summary>
            <p className="muted small-text">Read from the window’s accessibility, exact; secrets in it are hidden for a model off this computer as in the image:</p>
            {/* Scrolls when long: focusable, so a keyboard can scroll it too. */}
            <p className="read-text" role="region" aria-label={`Text of the window in ${image.name}`} tabIndex={0}>
              {image.windowText}
            </p>
          </details>
        )}
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

/** What a blind model got instead of the image: the local-OCR text, all of it or (cut to fit its context window) its beginning and end. */
function SentAsText({ reading }: { reading: NonNullable<ImageView['sentAsText']> }) {
  const cut = reading.sentChars !== undefined && reading.sentChars < reading.chars;
  const label = cut ? 'sent as text, shortened (local OCR)' : 'sent as text (local OCR)';
  const got = cut
    ? `it got the beginning and end of what ${reading.engine} read — ${groupDigits(reading.sentChars!)} of ${groupDigits(reading.chars)} characters, cut to fit its context window`
    : `it got the ${groupDigits(reading.chars)} characters of text that ${reading.engine} read`;
  if (reading.text === undefined) {
    return (
      <span className="sent-as-text" title={`This model cannot see images: ${got}.`}>
        {label}
      </span>
    );
  }
  return (
    <details className="helper-description sent-as-text">
      <summary>{label}</summary>
      <p className="muted small-text">The model cannot see images; {got}:</p>
      <p className="read-text" role="region" aria-label="Text read from the image" tabIndex={0}>
        {reading.text}
      </p>
    </details>
  );
}
