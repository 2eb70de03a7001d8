// "What the model gets" (architecture §3 "Redact", DESIGN §11): the copy main's door made for the
// chosen model, hidden boxes included, with each hidden region listed and a "Show anyway" that
// un-hides that one region for this send only. The choice goes back through main (the door makes
// the copy again with that region left visible): the renderer never has unredacted pixels to send.
import { useEffect, useRef, useState } from 'react';
import type { Redaction } from '../../common/privacy.ts';
import type { PendingAttachment } from '../state/attachmentsSlice.ts';
import { useApp } from '../state/store.ts';
import { regionWords } from './regionWords.ts';
import { Thumbnail } from './Thumbnail.tsx';

type Ready = Extract<PendingAttachment, { status: 'ready' }>;

/** "1 hidden" on a waiting image whose copy has hidden regions: opens what the model gets. */
export function HiddenBadge({ item }: { item: Ready }) {
  const [open, setOpen] = useState(false);
  const hidden = item.attachment.redactions?.length ?? 0;
  const shown = item.attachment.shown?.length ?? 0;
  if (!hidden && !shown) return null;
  return (
    <>
      <button type="button" className="hidden-badge small" title="Regions hidden on this device before the model gets this image: see what it gets" onClick={() => setOpen(true)}>
        {hidden} hidden{shown ? `, ${shown} shown` : ''}
      </button>
      {open && <PrivacyPreview itemKey={item.key} onClose={() => setOpen(false)} />}
    </>
  );
}

/** A region in words ("jwt, top centre, 724×21 px"); its place is in the original's pixels. */
function regionText(r: Redaction, size: { width?: number; height?: number }): string {
  return regionWords(r, size);
}

function PrivacyPreview({ itemKey, onClose }: { itemKey: string; onClose: () => void }) {
  const item = useApp((s) => s.pending.find((p): p is Ready => p.key === itemKey && p.status === 'ready'));
  const showAnyway = useApp((s) => s.showAnyway);
  const hideAgain = useApp((s) => s.hideAgain);
  const dialog = useRef<HTMLDialogElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
  }, []);
  useEffect(() => {
    if (!item) onClose();
  }, [item, onClose]);
  if (!item) return null;
  const a = item.attachment;
  const size = a.source ?? { width: a.width, height: a.height };
  const hide = async (r: Redaction) => {
    setBusy(true);
    setProblem(await hideAgain(item.key, r));
    setBusy(false);
  };
  const show = async (r: Redaction) => {
    setBusy(true);
    setProblem(await showAnyway(item.key, r));
    setBusy(false);
  };
  return (
    <dialog ref={dialog} className="privacy-preview" aria-labelledby={`privacy-${item.key}-title`} onClose={onClose}>
      <h2 id={`privacy-${item.key}-title`}>What the model gets</h2>
      <p className="muted">
        {a.name}: the copy made on this device for the model. Dark boxes are hidden; the original stays on this device as it was.
      </p>
      {/* The copy's own pixels (its id is the copy main made), so the boxes are the ones that are sent. */}
      <Thumbnail key={a.id} image={{ ...a, name: `${a.name} as the model gets it` }} edge={1024} box={640} />
      <h3 id={`privacy-${item.key}-hidden`}>Hidden on this device</h3>
      {a.redactions?.length ? (
        <ul aria-labelledby={`privacy-${item.key}-hidden`} className="hidden-regions">
          {a.redactions.map((r) => (
            <li key={`${r.x},${r.y},${r.width},${r.height},${r.rule}`} aria-label={r.kind}>
              <span title={`Found by the rule "${r.rule}" at ${r.x},${r.y}`}>{regionText(r, size)}</span>
              <button type="button" disabled={busy} onClick={() => void show(r)} title="Send this region as it is, for this message only">
                Show anyway
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Nothing is hidden in this copy.</p>
      )}
      {a.shown?.length ? (
        <>
          <h3 id={`privacy-${item.key}-shown`}>Shown on your request (this message only)</h3>
          <ul aria-labelledby={`privacy-${item.key}-shown`}>
            {a.shown.map((r) => (
              <li key={`${r.x},${r.y},${r.width},${r.height},${r.rule}`} aria-label={`${r.kind}, shown`}>
                <span>{regionText(r, size)}</span>
                <button type="button" disabled={busy} onClick={() => void hide(r)} title="Hide this region again in the copy the model gets">
                  Hide again
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {problem && (
        <p role="alert" className="error-text">
          {problem}
        </p>
      )}
      <div className="actions">
        <button type="button" className="primary" autoFocus onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
