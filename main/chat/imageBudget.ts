import type { AttachmentInfo } from '../../common/images.ts';
import type { Conversation } from './conversation.ts';

/** Where an image sits in a conversation: a message id and the image's index in that message. */
export type ImageSlot = `${string}#${number}`;

export const slotOf = (messageId: string, index: number): ImageSlot => `${messageId}#${index}`;

/**
 * The images one request carries (architecture §5 "maxImagesPerRequest"): `maxImagesPerRequest` counts images, not
 * ids, across user attachments and live (unretracted) tool deliveries, newest first. The
 * same screenshot attached in 85 turns is 85 images; only the newest `max` of them ride,
 * the rest become text stubs. Images a vision helper described never ride.
 */
export function ridingImages(conversation: Conversation, max: number): Set<ImageSlot> {
  const riding = new Set<ImageSlot>();
  for (let m = conversation.messages.length - 1; m >= 0 && riding.size < max; m--) {
    const message = conversation.messages[m]!;
    if (message.role !== 'user' && !(message.role === 'delivery' && !message.retracted)) continue;
    for (let i = message.attachmentIds.length - 1; i >= 0 && riding.size < max; i--) {
      if (message.role === 'user' && message.descriptions?.[message.attachmentIds[i]!] !== undefined) continue;
      riding.add(slotOf(message.id, i));
    }
  }
  return riding;
}

/**
 * One tool result shows at most `max` images (an MCP result with 1,000 images was delivered
 * whole); the rest stay descriptors the model can ask for with show_attachment.
 */
export function boundToolImages(all: AttachmentInfo[], max: number): { images: AttachmentInfo[]; held: AttachmentInfo[]; note: string } {
  const images = all.slice(0, max);
  const held = all.slice(max);
  const note = held.length
    ? `\n(${held.length} more image${held.length === 1 ? '' : 's'} not shown: at most ${max} per tool result. Call show_attachment with an id to see one: ${held.map((a) => a.id).join(', ')}.)`
    : '';
  return { images, held, note };
}
