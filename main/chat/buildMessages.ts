import { attachmentStub, imageLabel, type AttachmentInfo } from '../../common/images.ts';
import { scaleMarks, type Mark } from '../../common/marks.ts';
import { GONE, type NotSent, type SentImage } from '../egress/egress.ts';
import type { AttachmentStore } from '../images/types.ts';
import type { ModelImage, ModelMessage } from '../models/provider.ts';
import type { Conversation } from './conversation.ts';
import { ridingImages, slotOf, type ImageSlot } from './imageBudget.ts';
import { transcriptText } from './transcriptText.ts';

type BuildOptions = {
  /** Records, for stubs and labels of images that do not ride. */
  store: AttachmentStore;
  /**
   * An image's bytes as this request's model may get them: the egress's copy for its target
   * (architecture §3b), never the stored copy of another model. Only the Context meter, which
   * sends nothing, passes the stored copy.
   */
  send: (id: string) => Promise<SentImage | NotSent>;
  /** Whether the chat model itself sees images (else images are never put in a request). */
  chatSees: boolean;
  /** Images per request, user attachments and deliveries alike; older ones become stubs (architecture §5 "maxImagesPerRequest"). */
  maxImagesPerRequest: number;
  systemPrompt?: string;
  /** The tool an image label points to when small text is unreadable (zoom_image, when offered). */
  zoomTool?: string;
  /**
   * Text from images (a window's own words) as this request's model may get it: the egress's
   * (secrets hidden for a model off this computer, architecture §3b). The meter, which sends
   * nothing, passes it as stored.
   */
  text: (text: string) => Promise<string>;
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
  const stubFor = async (id: string, name?: string) => {
    const a = await info(id);
    return a ? attachmentStub(name ? { ...a, name } : a) : `[image ${id}: no longer available]`;
  };
  /**
   * What rides for image `id`: the copy this request's model may get (egress), labelled with what
   * that copy is — its size, what was hidden in it — and, for a marked image, its marked copy drawn
   * on that same copy. An image that may not go is a line saying why.
   */
  const ridePart = async (id: string, marks: readonly Mark[] | undefined, name: string | undefined): Promise<{ image?: ModelImage; label: string }> => {
    const sent = await options.send(id);
    if (!sent.ok) return { label: sent.message === GONE ? `[image ${id}: no longer available]` : `[image ${id}: not shown (${sent.message})]` };
    // The name the image had in its message's draft (the record keeps the last one its bytes came with).
    const a = name ? { ...sent.info, name } : sent.info;
    if (!marks?.length) return { image: asModelImage(sent), label: imageLabel(a, { zoomTool: options.zoomTool }) };
    const copy = await options.marked?.(a, marks);
    const marked = copy ? await options.send(copy.id) : undefined;
    const shown = marked?.ok ? marked : sent;
    const listed = scaleMarks(marks, a.source, shown.info);
    return {
      image: asModelImage(shown),
      label: imageLabel({ ...shown.info, name: a.name, ...(a.window ? { window: a.window } : {}) }, { zoomTool: options.zoomTool, marks: listed, marksDrawn: Boolean(marked?.ok) }),
    };
  };
  const ride = async (ids: readonly string[], marksOf: (id: string) => readonly Mark[] | undefined, nameOf: (id: string) => string | undefined = () => undefined) => {
    const parts = await Promise.all(ids.map((id) => ridePart(id, marksOf(id), nameOf(id))));
    return { images: parts.flatMap((p) => (p.image ? [p.image] : [])), labels: parts.map((p) => p.label) };
  };

  const out: ModelMessage[] = [];
  if (options.systemPrompt) out.push({ role: 'system', content: options.systemPrompt });

  for (const m of conversation.messages) {
    switch (m.role) {
      case 'user': {
        const lines = [m.text];
        const rides = (i: number) => riding.has(slotOf(m.id, i));
        const riders = m.attachmentIds.filter((_id, i) => rides(i));
        for (const [i, id] of m.attachmentIds.entries()) {
          const description = m.descriptions?.[id];
          const transcript = m.transcripts?.[id];
          const name = m.names?.[id];
          if (description !== undefined) lines.push(`${await stubFor(id, name)}\nDescription of that image by the vision helper: ${description}`);
          else if (transcript !== undefined) {
            const a = await info(id);
            lines.push(transcriptText(a ? { ...a, ...(name ? { name } : {}) } : { id, name: name ?? 'image' }, transcript));
          } else if (!rides(i)) lines.push(await stubFor(id, name));
        }
        // Every image the model is shown carries its label: the id to name it by, the size it is shown at.
        const { images, labels } = await ride(riders, (id) => m.marks?.[id], (id) => m.names?.[id]);
        lines.push(...labels);
        // A window's own words go with its image while the model gets the image (or its text), not with a stub.
        for (const [i, id] of m.attachmentIds.entries()) {
          const own = m.windowTexts?.[id];
          if (own !== undefined && (rides(i) || m.descriptions?.[id] !== undefined || m.transcripts?.[id] !== undefined)) lines.push(`[image ${id}] ${await options.text(own)}`);
        }
        out.push(images.length ? { role: 'user', content: lines.join('\n\n'), images } : { role: 'user', content: lines.join('\n\n') });
        break;
      }
      case 'delivery': {
        if (m.retracted || !chatSees) {
          const stubs = await Promise.all(m.attachmentIds.map((id) => stubFor(id)));
          out.push({ role: 'user', content: `(Images captured by ${m.origin} earlier in this conversation:)\n${stubs.join('\n')}` });
        } else {
          const shown = m.attachmentIds.filter((_id, i) => riding.has(slotOf(m.id, i)));
          const held = m.attachmentIds.filter((_id, i) => !riding.has(slotOf(m.id, i)));
          const { images, labels } = await ride(shown, () => undefined);
          const lines = [`Here ${images.length === 1 ? 'is the image' : `are the ${images.length} images`} captured by ${m.origin} (shown for this turn only):`, ...labels];
          if (held.length) {
            lines.push(`Not shown (at most ${options.maxImagesPerRequest} images per request; call show_attachment with an id to see one):`);
            lines.push(...(await Promise.all(held.map((id) => stubFor(id)))));
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

function asModelImage(sent: SentImage): ModelImage {
  return { data: sent.data, mime: sent.info.mime, tokens: sent.info.tokens ?? null };
}
