import type { ConversationImages } from '../tools/tool.ts';
import type { Conversation } from './conversation.ts';

/**
 * Which images of a conversation the model has been shown and which were taken back, oldest
 * first (the last shown is what zoom_image and read_text default to). User attachments stay in
 * the conversation; a tool image is shown while its delivery is not retracted (this turn, or a
 * show_attachment that brought it back).
 */
export function conversationImages(conversation: Conversation): ConversationImages {
  const shown: string[] = [];
  const retracted = new Set<string>();
  const show = (id: string) => {
    const at = shown.indexOf(id);
    if (at >= 0) shown.splice(at, 1);
    shown.push(id);
    retracted.delete(id);
  };
  for (const m of conversation.messages) {
    if (m.role === 'user') m.attachmentIds.forEach(show);
    else if (m.role === 'delivery') {
      if (!m.retracted) m.attachmentIds.forEach(show);
      else for (const id of m.attachmentIds) if (!shown.includes(id)) retracted.add(id);
    }
  }
  return { shown, retracted: [...retracted] };
}
