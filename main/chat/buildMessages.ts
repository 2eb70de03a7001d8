import { attachmentStub, imageLabel, type AttachmentInfo } from '../../common/images.ts';
import { scaleMarks, type Mark } from '../../common/marks.ts';
import type { AttachmentStore } from '../images/types.ts';
import type { ModelImage, ModelMessage } from '../models/provider.ts';
import type { Conversation } from './conversation.ts';
import { ridingImages, slotOf, type ImageSlot } from './imageBudget.ts';
import { transcriptText } from './transcriptText.ts';

type BuildOptions = {
  store: AttachmentStore;
  /** Whether the chat model itself sees images (else images are never put in a request). */
  chatSees: boolean;
  /** Images per request, user attachments and deliveries alike; older ones become stubs (architecture §5 "maxImagesPerRequest"). */
  maxImagesPerRequest: number;
  systemPrompt?: string;
  /** The tool an image label points to when small text is unreadable (zoom_image, when offered). */
  zoomTool?: string;
  /** The copy of a marked image the model gets (marks drawn in, through the door); undefined when it cannot be made. */
  marked?: (image: AttachmentInfo, marks: readonly Mark[]) => Promise<AttachmentInfo | undefined>;
};

/**
 * The conversation as provider-neutral messages for the next model step. Images ride only
 * on user messages: the newest `maxImagesPerRequest` images of user attachments and
 * deliveries that are not yet retracted, counted one by one. Everything else is a text stub.
 */
export async function buildMessages(conversation: Conversation, options: BuildOptions): Promise<ModelMessage[]> {
  const { store, chatSees } = options;
  const riding = chatSees ? ridingImages(conversation, options.maxImagesPerRequest) : new Set<ImageSlot>();

  const infoCache = new Map<string, AttachmentInfo | undefined>();
  const info = async (id: string) => {
    if (!infoCache.has(id)) infoCache.set(id, await store.info(id));
    return infoCache.get(id);
  };
  const stubFor = async (id: string) => {
    const a = await info(id);
    return a ? attachmentStub(a) : `[image ${id}: no longer available]`;
  };
  /** A marked image rides as its marked copy, labelled with the marks in that copy's pixels. */
  const view = async (id: string, marks: readonly Mark[] | undefined): Promise<{ id: string; label: string }> => {
    const a = await info(id);
    if (!a) return { id, label: `[image ${id}]` };
    if (!marks?.length) return { id, label: imageLabel(a, { zoomTool: options.zoomTool }) };
    const copy = await options.marked?.(a, marks);
    const sent = copy ?? a;
    const listed = scaleMarks(marks, a.source, sent);
    return { id: sent.id, label: imageLabel({ ...sent, ...(a.window ? { window: a.window } : {}) }, { zoomTool: options.zoomTool, marks: listed, marksDrawn: Boolean(copy) }) };
  };
  const load = async (ids: string[]): Promise<{ images: ModelImage[]; missing: string[] }> => {
    const images: ModelImage[] = [];
    const missing: string[] = [];
    for (const id of ids) {
      const got = await store.get(id);
      if (got) images.push({ data: got.data, mime: got.info.mime, tokens: got.info.tokens ?? null });
      else missing.push(id);
    }
    return { images, missing };
  };

  const out: ModelMessage[] = [];
  if (options.systemPrompt) out.push({ role: 'system', content: options.systemPrompt });

  for (const m of conversation.messages) {
    switch (m.role) {
      case 'user': {
        const lines = [m.text];
        const rides = (i: number) => riding.has(slotOf(m.id, i));
        const ride = m.attachmentIds.filter((_id, i) => rides(i));
        for (const [i, id] of m.attachmentIds.entries()) {
          const description = m.descriptions?.[id];
          const transcript = m.transcripts?.[id];
          if (description !== undefined) lines.push(`${await stubFor(id)}\nDescription of that image by the vision helper: ${description}`);
          else if (transcript !== undefined) lines.push(transcriptText((await info(id)) ?? { id, name: 'image' }, transcript));
          else if (!rides(i)) lines.push(await stubFor(id));
        }
        const views = await Promise.all(ride.map((id) => view(id, m.marks?.[id])));
        const { images, missing } = await load(views.map((v) => v.id));
        // Every image the model is shown carries its label: the id to name it by, the size it is shown at.
        for (const v of views) if (!missing.includes(v.id)) lines.push(v.label);
        for (const id of missing) lines.push(`[image ${id}: no longer available]`);
        out.push(images.length ? { role: 'user', content: lines.join('\n\n'), images } : { role: 'user', content: lines.join('\n\n') });
        break;
      }
      case 'delivery': {
        if (m.retracted || !chatSees) {
          const stubs = await Promise.all(m.attachmentIds.map(stubFor));
          out.push({ role: 'user', content: `(Images captured by ${m.origin} earlier in this conversation:)\n${stubs.join('\n')}` });
        } else {
          const shown = m.attachmentIds.filter((_id, i) => riding.has(slotOf(m.id, i)));
          const held = m.attachmentIds.filter((_id, i) => !riding.has(slotOf(m.id, i)));
          const { images, missing } = await load(shown);
          const descriptors = await Promise.all(shown.filter((id) => !missing.includes(id)).map(async (id) => (await view(id, undefined)).label));
          const lines = [`Here ${images.length === 1 ? 'is the image' : `are the ${images.length} images`} captured by ${m.origin} (shown for this turn only):`, ...descriptors];
          for (const id of missing) lines.push(`[image ${id}: no longer available]`);
          if (held.length) {
            lines.push(`Not shown (at most ${options.maxImagesPerRequest} images per request; call show_attachment with an id to see one):`);
            lines.push(...(await Promise.all(held.map(stubFor))));
          }
          out.push(images.length ? { role: 'user', content: lines.join('\n'), images } : { role: 'user', content: lines.join('\n') });
        }
        break;
      }
      case 'assistant':
        out.push(m.toolCalls?.length ? { role: 'assistant', content: m.text, toolCalls: m.toolCalls } : { role: 'assistant', content: m.text });
        break;
      case 'tool':
        out.push({ role: 'tool', content: m.text, toolCallId: m.toolCallId, name: m.name });
        break;
    }
  }
  return out;
}
