import { z } from 'zod';
import { describeAttachment } from '../../common/images.ts';
import type { AttachmentStore } from '../images/types.ts';
import type { Tool } from './tool.ts';
import { inConversation } from './pickImage.ts';
import { parseToolArgs, toolParameters } from './toolArgs.ts';

const Args = z.object({ attachmentId: z.string().describe('The id from an image stub, e.g. "3f2a9c0d1e4b5a6c".') });

/** show_attachment(id): shows a stored image to the model again, for this turn only. */
export function showAttachmentTool(store: AttachmentStore): Tool {
  return {
    needsVision: true,
    spec: {
      name: 'show_attachment',
      description:
        'Show an image from earlier in this conversation again. Images are shown to you only in the turn they were ' +
        'captured; afterwards a stub with their id remains. Pass that id to look at the image again (this turn only).',
      parameters: toolParameters(Args),
    },
    async run(raw, context) {
      const parsed = parseToolArgs('show_attachment', Args, raw);
      if (!parsed.ok) return { ok: false, text: parsed.text };
      const id = parsed.args.attachmentId.trim().toLowerCase();
      const info = /^[a-f0-9]{16,64}$/.test(id) && inConversation(id, context) ? await store.info(id) : undefined;
      if (!info) return { ok: false, text: `No stored image has the id "${id}". Use an id from an image stub in this conversation.` };
      return { ok: true, text: `Showing ${describeAttachment(info)} again.`, images: [info] };
    },
  };
}
