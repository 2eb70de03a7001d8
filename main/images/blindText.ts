// A blind chat model with no vision helper (architecture §5): rather than refusing a text-bearing
// image, local OCR reads it and the model gets the text, labelled as such. The image itself is
// stored (the user sees it, "sent as text") but never put in a request. An image without text
// is refused exactly as before (`model-blind`): nothing is sent. Only the door (ImageIntake.admit)
// calls this: it is the one place that decides to read an image as text for a blind model.
import type { AttachmentInfo, ImageRefusal } from '../../common/images.ts';
import { recordWindows } from './cropImage.ts';
import type { Admitted, AdmitTarget, AttachmentStore, ImageInput, ImageTextReader, PrepareResult, StoredImageRef } from './types.ts';

type AsTextDeps = {
  store: AttachmentStore;
  readText: ImageTextReader;
  prepare: (input: ImageInput, target: AdmitTarget, signal: AbortSignal | undefined) => Promise<PrepareResult>;
  /** The pixels OCR may read for this target: excluded apps' windows (`windows`, in these pixels) filled. */
  readable: (image: { data: Uint8Array; mime: string }, windows: ImageInput['windows'], target: AdmitTarget) => Promise<{ data: Uint8Array; mime: string }>;
};

/** OCR of one image for a blind model is bounded even when the caller's signal never fires. */
const BLIND_OCR_TIMEOUT_MS = 120_000;

export async function asText(
  item: StoredImageRef | ImageInput,
  refusal: ImageRefusal,
  target: AdmitTarget,
  deps: AsTextDeps,
  signal: AbortSignal | undefined,
): Promise<Admitted | ImageRefusal> {
  let info: AttachmentInfo | undefined;
  if ('attachmentId' in item) {
    info = await deps.store.info(item.attachmentId);
    if (!info) return refusal;
  } else {
    // Checked and stored like any image (the bad-input refusals still apply); only the model does not get it.
    const prepared = await deps.prepare(item, target, signal);
    if (!prepared.ok) return prepared;
    signal?.throwIfAborted();
    info = await deps.store.put(prepared.image, item.origin);
  }
  const source = await deps.store.source(info);
  if (!source) return refusal;
  const bound = AbortSignal.timeout(BLIND_OCR_TIMEOUT_MS);
  // What a password manager's window shows is not read out for the model any more than it is shown.
  const pixels = await deps.readable({ data: source.data, mime: source.mime }, recordWindows(info, source.fromOriginal), target);
  const read = await deps.readText(pixels, signal ? AbortSignal.any([signal, bound]) : bound);
  signal?.throwIfAborted();
  if (!read.ok) return { ...refusal, message: `${refusal.message} (Local OCR could not read it either: ${read.message})` };
  if (!read.hasText) return refusal;
  return { ok: true, attachment: info, transcript: { text: read.text, engine: read.engine } };
}
