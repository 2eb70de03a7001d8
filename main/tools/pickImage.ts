// Which image a tool call means (zoom_image, read_text): an id the model read in an image label,
// or by default the most recent image shown to it in this conversation. Refusals in plain words
// say what to do instead.
import type { AttachmentInfo } from '../../common/images.ts';
import type { AttachmentStore } from '../images/types.ts';
import type { ToolContext } from './tool.ts';

const ID = /^[a-f0-9]{16,64}$/;

export async function pickImage(value: unknown, context: Pick<ToolContext, 'images'>, store: AttachmentStore): Promise<{ ok: true; info: AttachmentInfo } | { ok: false; text: string }> {
  const shown = context.images?.shown ?? [];
  const retracted = context.images?.retracted ?? [];
  let id: string;
  if (value === undefined || value === null || value === '') {
    const last = shown.at(-1);
    if (!last) return { ok: false, text: 'No image has been shown to you in this conversation yet, so there is nothing to look into. Give "image" as an id from an image label, e.g. [image 3f2a9c0d1e4b5a6c: …].' };
    id = last;
  } else if (typeof value !== 'string' || !ID.test(value.trim().toLowerCase())) {
    return { ok: false, text: `"image" must be an image id (16 or more hex digits, as in [image 3f2a9c0d1e4b5a6c: …]); got ${JSON.stringify(value).slice(0, 80)}.` };
  } else {
    id = value.trim().toLowerCase();
  }
  if (!shown.includes(id)) {
    if (retracted.includes(id)) {
      return { ok: false, text: `Image ${id} is no longer shown to you: tool images are taken back at the end of the turn they were shown in. Call show_attachment("${id}") to see it again, then use its coordinates.` };
    }
    return { ok: false, text: `There is no image ${id} in this conversation. Use an id from an image label you were shown, e.g. [image 3f2a9c0d1e4b5a6c: …].` };
  }
  const info = await store.info(id);
  if (!info) return { ok: false, text: `Image ${id} is no longer stored (it expired under the retention setting), so it cannot be looked into. Ask the user to attach it again.` };
  return { ok: true, info };
}

/**
 * A model's tools reach only the images of its own conversation (architecture §3b "Scope"): an id
 * read elsewhere (another chat, a guess) names nothing here.
 */
export function inConversation(id: string, context: Pick<ToolContext, 'images'>): boolean {
  return Boolean(context.images?.shown.includes(id) || context.images?.retracted.includes(id));
}
