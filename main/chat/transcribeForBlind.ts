// A blind chat model with no vision helper (architecture §5): rather than refusing a text-bearing
// image, local OCR reads it and the model gets the text, labelled as such. The image itself is
// stored (the user sees it, "sent as text") but never put in a request. An image without text
// is refused exactly as before (`model-blind`): nothing is sent.
import type { AttachmentInfo, ImageRefusal } from '../../common/images.ts';
import type { Limits } from '../../common/limits.ts';
import type { ImageIntake } from '../images/imageIntake.ts';
import type { AttachmentStore, ImageInput, ImageTarget } from '../images/types.ts';
import { hasText, readImageText } from '../ocr/readImageText.ts';
import type { TextReader } from '../ocr/textReader.ts';

export type Transcribed = { ok: true; attachment: AttachmentInfo; text: string; engine: string };

export async function transcribeForBlind(
  item: { attachmentId: string } | ImageInput,
  refusal: ImageRefusal,
  deps: { intake: ImageIntake; attachments: AttachmentStore; ocr: TextReader; limits: Pick<Limits, 'maxInputPixels'> },
  target: ImageTarget,
  signal: AbortSignal,
): Promise<Transcribed | ImageRefusal> {
  let info: AttachmentInfo | undefined;
  if ('attachmentId' in item) {
    info = await deps.attachments.info(item.attachmentId);
    if (!info) return refusal;
  } else {
    // Checked and stored like any image (the bad-input refusals still apply); only the model does not get it.
    const prepared = await deps.intake.prepare(item, target.profile, { signal });
    if (!prepared.ok) return prepared;
    info = await deps.attachments.put(prepared.image, item.origin);
  }
  const original = await deps.attachments.original(info);
  const payload = original ? undefined : await deps.attachments.get(info.id);
  const bytes = original?.data ?? payload?.data;
  if (!bytes) return refusal;
  const read = await readImageText(deps.ocr, bytes, original?.mime ?? info.mime, { limits: deps.limits, signal });
  signal.throwIfAborted();
  if (!read.ok) return { ...refusal, message: `${refusal.message} (Local OCR could not read it either: ${read.message})` };
  if (!hasText(read.reading)) return refusal;
  return { ok: true, attachment: info, text: read.reading.text, engine: read.reading.engine };
}
