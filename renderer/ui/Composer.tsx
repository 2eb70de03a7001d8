import { useRef, type ClipboardEvent, type KeyboardEvent, type ReactElement } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { groupDigits, imageTokensText } from '../../common/imageFormat.ts';
import type { PendingAttachment } from '../state/attachmentsSlice.ts';
import { runningTurnId } from '../state/chatReducer.ts';
import { useApp } from '../state/store.ts';
import { currentMarks, markKey } from '../state/markupSlice.ts';
import { findModel } from '../state/modelsSlice.ts';
import { CameraIcon, CloseIcon, PaperclipIcon, SendIcon, StopIcon } from './icons.tsx';
import { ContextMeter, ContextWarning } from './ContextMeter.tsx';
import { RefusalAlerts } from './RefusalAlerts.tsx';
import { ToolsMenu } from './ToolsMenu.tsx';
import { sizeText, Thumbnail } from './Thumbnail.tsx';
import { MarkupButton } from './MarkupButton.tsx';
import { HiddenBadge } from './PrivacyPreview.tsx';
import { RedactionChoice } from './RedactionChoice.tsx';

/** The images waiting to be sent: each named by its file name, with the size the model will get. */
function PendingList({ items, held }: { items: readonly PendingAttachment[]; held: boolean }) {
  const remove = useApp((s) => s.removePending);
  const openViewer = useApp((s) => s.openViewer);
  const markup = useApp((s) => s.markup);
  const model = useApp((s) => s.selectedModel?.name ?? 'This model');
  if (!items.length) return null;
  return (
    <ul className="attachments" aria-label="Attachments">
      {items.map((p) => (
        <li key={p.key} aria-label={p.name} className={`attachment ${p.status}`} aria-busy={p.status === 'checking' || (p.status === 'ready' && p.refitting === true)}>
          {p.status === 'ready' ? (
            <Thumbnail
              image={p.attachment}
              edge={256}
              box={88}
              onOpen={() => openViewer({ ...p.attachment, delivered: false, retracted: false })}
              marks={currentMarks(markup[markKey(p.key, p.attachment.id)])}
              markSize={p.attachment.source ?? (p.attachment.width && p.attachment.height ? { width: p.attachment.width, height: p.attachment.height } : undefined)}
            />
          ) : (
            <span className="thumb thumb-loading" style={{ width: 88, height: 55 }} aria-hidden="true" />
          )}
          <span className="attachment-text">
            <span className="name" title={p.name}>
              {p.name}
            </span>
            {/* No size for an image this model will not get: the last model's copy is not what goes. */}
            {!(p.status === 'ready' && p.notSent) && <span className="size">{p.status === 'ready' ? sizeText(p.attachment) : 'checking…'}</span>}
            {p.status === 'ready' && <WhatGoes item={p} model={model} />}
          </span>
          {p.status === 'ready' && <HiddenBadge item={p} />}
          {p.status === 'ready' && <MarkupButton pendingKey={p.key} attachment={p.attachment} />}
          <button type="button" className="ghost icon-button small" aria-label={`Remove ${p.name}`} disabled={held} onClick={() => remove(p.key)}>
            <CloseIcon />
          </button>
        </li>
      ))}
    </ul>
  );
}

/** What the model picked will get of a waiting image: its tokens, its text, a helper's words, or nothing (and why). */
function WhatGoes({ item, model }: { item: Extract<PendingAttachment, { status: 'ready' }>; model: string }) {
  if (item.notSent) {
    return (
      <>
        <span className="refit-note" role="note">
          {notSentWords(item.notSent, model)}
        </span>
        {item.notSent.code === 'capability-unknown' && <DeclareSees />}
      </>
    );
  }
  if (item.asText) {
    const chars = item.asTextChars === undefined ? '' : ` (${groupDigits(item.asTextChars)} characters)`;
    return (
      <>
        <span className="sent-as-text" title="This model cannot see images: it gets the text local OCR reads from this one.">
          goes as text (local OCR)
        </span>
        {item.asTextChars !== undefined && <span className="refit-note">{`${model} cannot see images: it will get the text read from this one on this device${chars}, not the image.`}</span>}
      </>
    );
  }
  const cost = imageTokensText(item.attachment);
  return (
    <>
      {cost.text && !item.describedBy && (
        <span className="tokens" title={cost.title}>
          {cost.text}
        </span>
      )}
      {item.describedBy && <span className="refit-note">{`${model} cannot see images: ${item.describedBy} will describe this one, and ${model} gets its words.`}</span>}
    </>
  );
}

/** One click for "this model can see" where Glance cannot tell: declared (Settings → Vision), then the waiting images are fitted again. */
function DeclareSees() {
  const current = useApp((s) => findModel(s.models, s.selectedModel));
  const declareSees = useApp((s) => s.declareSees);
  const refit = useApp((s) => s.refitPending);
  if (!current) return null;
  return (
    <button
      type="button"
      className="small"
      title={`Declares in Settings → Vision that ${current.name} can see`}
      onClick={async () => {
        if (!(await declareSees(current))) await refit();
      }}
    >
      {current.name} can see
    </button>
  );
}

/** Why an image will not go to the model picked since it was attached, and what to do, in words. */
function notSentWords(notSent: { code: string; message: string }, model: string): string {
  if (notSent.code === 'model-blind') return `${model} cannot see images, and this one has no text to read instead: it will not be sent. Pick a model that can see, or remove it.`;
  if (notSent.code === 'capability-unknown') return `Glance cannot tell whether ${model} can see images, so this one will not be sent: turn on its Vision setting in Settings if it can, or pick another model.`;
  return `Will not be sent to ${model}: ${notSent.message}`;
}

/** The file picker behind "Attach image". */
function useFilePicker(): [() => void, ReactElement] {
  const input = useRef<HTMLInputElement>(null);
  const addFiles = useApp((s) => s.addFiles);
  const element = (
    <input
      ref={input}
      type="file"
      accept="image/*"
      multiple
      hidden
      tabIndex={-1}
      aria-hidden="true"
      onChange={(e) => {
        const files = [...(e.target.files ?? [])];
        e.target.value = '';
        if (files.length) void addFiles(files);
      }}
    />
  );
  return [() => input.current?.click(), element];
}

/** Images from the clipboard (a paste of a screenshot); text pastes go on as usual. */
function pastedFiles(e: ClipboardEvent): File[] {
  return [...e.clipboardData.items].flatMap((item) => {
    if (item.kind !== 'file') return [];
    const file = item.getAsFile();
    return file ? [file] : [];
  });
}

export function Composer({ compact = false, autoFocus = false, onSent }: { compact?: boolean; autoFocus?: boolean; onSent?: () => void }) {
  const text = useApp((s) => s.draft);
  const setText = useApp((s) => s.setDraft);
  const pending = useApp(useShallow((s) => s.pending));
  const running = useApp((s) => runningTurnId(s.chat) !== undefined);
  // Sent, and main is checking its images for the model: it stays here, as it is, until that answers.
  const held = useApp((s) => s.heldSend !== null);
  const send = useApp((s) => s.send);
  const stop = useApp((s) => s.stop);
  const addFiles = useApp((s) => s.addFiles);
  const screenshot = useApp((s) => s.captureScreenshot);
  const [pick, picker] = useFilePicker();
  const checking = pending.some((p) => p.status === 'checking');
  const canSend = !running && !checking && (text.trim() !== '' || pending.some((p) => p.status === 'ready'));

  const submit = async () => {
    if (!canSend) return;
    if (await send(text)) onSent?.();
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    } else if (e.key === 'Escape' && running) {
      e.preventDefault();
      void stop();
    }
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = pastedFiles(e);
    if (files.length) {
      e.preventDefault();
      void addFiles(files);
    }
  };

  return (
    <form
      className={`composer ${compact ? 'compact' : ''}`}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <RefusalAlerts />
      <PendingList items={pending} held={held} />
      {held && (
        <p className="muted small-text" role="status">
          Checking the {pending.length === 1 ? 'image' : 'images'} for this model…
        </p>
      )}
      {!compact && <ContextWarning />}
      <div className="composer-row">
        <textarea
          aria-label="Message"
          // "This screenshot" only when there is one (the ask window opens without one too).
          placeholder={compact && pending.some((p) => p.status === 'ready') ? 'Ask about this screenshot…' : compact ? 'Ask anything — paste or drop an image, or take a screenshot' : 'Ask anything — drop, paste or attach images'}
          rows={compact ? 2 : 3}
          value={text}
          readOnly={held}
          aria-busy={held}
          autoFocus={autoFocus}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKey}
          onPaste={onPaste}
        />
        <div className="composer-actions">
          {!compact && <ToolsMenu />}
          {!compact && <ContextMeter />}
          {!compact && <RedactionChoice />}
          {picker}
          <button type="button" className="ghost icon-button" aria-label="Attach image" title="Attach image" onClick={pick}>
            <PaperclipIcon />
          </button>
          <button type="button" className="ghost icon-button" aria-label="Screenshot" title="Attach a screenshot of the display under the cursor" onClick={() => void screenshot()}>
            <CameraIcon />
          </button>
          {running ? (
            <button type="button" className="danger" onClick={() => void stop()} title="Stop (Esc)">
              <StopIcon /> Stop
            </button>
          ) : (
            <button type="submit" className="primary" disabled={!canSend} title={checking ? 'Waiting for images to be checked' : 'Send (Enter)'}>
              <SendIcon /> Send
            </button>
          )}
        </div>
      </div>
    </form>
  );
}
