import { useShallow } from 'zustand/react/shallow';
import type { ListedModel } from '../../common/ipc.ts';
import { InlineMarkdown } from '../markdown/Markdown.tsx';
import { groupRefusals, isVisionRefusal, type RefusalGroup } from '../state/refusals.ts';
import { findModel, selectionOf } from '../state/modelsSlice.ts';
import { useApp, useAppStore } from '../state/store.ts';
import { CloseIcon } from './icons.tsx';

/** "a.png", "a.png and b.png", "a.png, b.png and c.png". */
export function listNames(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The reason in the app's words: a model that cannot see gets the installed models that can, and the helper. */
function VisionReason({ group, current, seer, helper }: { group: RefusalGroup; current: ListedModel | undefined; seer: ListedModel | undefined; helper: boolean }) {
  const model = current?.name ?? 'This model';
  // Without a helper, main tried local OCR first: only an image without text is refused.
  const ocr = helper ? '' : `, and local OCR found no text in ${group.names.length === 1 ? 'it' : 'them'} to send instead`;
  const first = group.code === 'model-blind' ? `${model} cannot see images${ocr}.` : `Glance cannot tell whether ${model} can see images: its server does not say.`;
  return (
    <>
      {first} {seer ? <>Pick a vision model such as <strong>{seer.name}</strong> (installed),</> : <>Pick or pull a vision model,</>} or set a vision helper in{' '}
      <a href="#/settings/vision">Settings → Vision</a>
      {group.code === 'capability-unknown' ? <>, where you can also declare that {model} sees</> : null}.
    </>
  );
}

/** Refused images, one alert per reason naming each file, with what the user can do about it. */
export function RefusalAlerts() {
  const refusals = useApp(useShallow((s) => s.refusals));
  const models = useApp((s) => s.models);
  const current = useApp((s) => findModel(s.models, s.selectedModel));
  const dismiss = useApp((s) => s.dismissRefusal);
  const sendAnyway = useApp((s) => s.sendAnyway);
  const retryRefused = useApp((s) => s.retryRefused);
  // A model on this computer needs no check under the default policy ("remote"): offered beside Send anyway.
  const policy = useApp((s) => (s.settings ? (s.chat.conversationId ? s.settings.privacy.conversations[s.chat.conversationId] : undefined) ?? s.settings.privacy.redact : undefined));
  const local = current?.local ? undefined : models.find((m) => m.local && m.capabilities.vision === 'yes');
  const selectModel = useApp((s) => s.selectModel);
  const declareSees = useApp((s) => s.declareSees);
  const store = useAppStore();
  const seer = models.find((m) => m.capabilities.vision === 'yes');
  const helper = useApp((s) => s.settings?.visionHelper != null);
  return (
    <>
      {groupRefusals(refusals).map((group) => (
        <div key={group.keys[0]} role="alert" className="refusal">
          <span>
            <strong>{listNames(group.names)}</strong> {group.names.length === 1 ? 'was' : 'were'} not {group.fromSend ? 'sent' : 'attached'}:{' '}
            {isVisionRefusal(group.code) ? <VisionReason group={group} current={current} seer={seer} helper={helper} /> : <InlineMarkdown text={group.message} />}
          </span>
          {isVisionRefusal(group.code) && seer && (
            <button
              type="button"
              className="small"
              onClick={() => {
                selectModel(selectionOf(seer));
                // A refused send goes again as it was, to the model that sees.
                if (group.fromSend) void store.getState().send(store.getState().draft);
              }}
            >
              {group.fromSend ? `Retry with ${seer.name}` : `Use ${seer.name}`}
            </button>
          )}
          {group.code === 'capability-unknown' && current && (
            <button
              type="button"
              className="small"
              title={`Declares in Settings → Vision that ${current.name} can see, and tries again`}
              onClick={async () => {
                if (await declareSees(current)) return;
                if (group.fromSend) void store.getState().send(store.getState().draft);
                else group.keys.forEach((k) => void retryRefused(k));
              }}
            >
              {current.name} can see
            </button>
          )}
          {group.code === 'redaction-failed' && !group.fromSend && group.keys.every((k) => refusals.some((r) => r.key === k && r.retry)) && (
            <>
              {local && policy === 'remote' && (
                <button
                  type="button"
                  className="small"
                  title="A model on this computer: the image does not leave it, so it needs no check"
                  onClick={() => {
                    selectModel(selectionOf(local));
                    group.keys.forEach((k) => void retryRefused(k));
                  }}
                >
                  Use {local.name} on this computer
                </button>
              )}
              <button type="button" className="small" title="Send this image as it is: it could not be checked for secrets on this device" onClick={() => group.keys.forEach((k) => void sendAnyway(k))}>
                Send anyway
              </button>
            </>
          )}
          <button type="button" className="ghost icon-button small" aria-label={`Dismiss: ${group.names.join(', ')}`} onClick={() => group.keys.forEach(dismiss)}>
            <CloseIcon />
          </button>
        </div>
      ))}
    </>
  );
}
