import { z } from 'zod';
import type { ImageIntake } from '../images/imageIntake.ts';
import type { AttachmentStore } from '../images/types.ts';
import type { Tool } from './tool.ts';
import { inConversation } from './pickImage.ts';
import { parseToolArgs, toolParameters } from './toolArgs.ts';

const Args = z.object({
  source: z.string().optional().describe('Absolute path, file:// URL or https:// URL of the image.'),
  attachmentId: z.string().optional().describe('Id of an image stored in this conversation.'),
  prompt: z.string().describe('What to find out about the image.'),
});

/**
 * analyze_image: a side call to a vision model (the chat model if it sees, else the helper).
 * A path or id goes in, prose comes out; the image never enters the chat context.
 * Paths asked for by the model are confined to the allowed roots by the gate.
 */
export function analyzeImageTool(intake: ImageIntake, store: AttachmentStore): Tool {
  return {
    needsVision: true,
    spec: {
      name: 'analyze_image',
      description:
        'Ask a vision model a question about an image file or a stored image, and get its answer as text. ' +
        'Give either "source" (an absolute path, file:// or https:// URL) or "attachmentId", plus a "prompt".',
      parameters: toolParameters(Args),
    },
    async run(raw, context) {
      const parsed = parseToolArgs('analyze_image', Args, raw);
      if (!parsed.ok) return { ok: false, text: parsed.text };
      const args = parsed.args;
      const prompt = args.prompt?.trim() ? args.prompt : 'Describe this image.';
      if (!context.imageTarget || !context.describe) return { ok: false, text: 'No model that can see images is configured.' };
      let id: string;
      if (typeof args.attachmentId === 'string' && args.attachmentId) {
        const wanted = args.attachmentId.trim().toLowerCase();
        const info = inConversation(wanted, context) ? await store.info(wanted) : undefined;
        if (!info) return { ok: false, text: `No image in this conversation has the id "${args.attachmentId}". Use an id from an image label or stub in this conversation.` };
        id = info.id;
      } else if (typeof args.source === 'string' && args.source) {
        const result = await intake.admit({ source: args.source, origin: 'analyze_image', requestedBy: 'model' }, context.imageTarget, 'tool', { signal: context.signal });
        if (!result.ok) return { ok: false, text: `Could not use that image (${result.code}): ${result.message}`, refusals: [result] };
        id = result.attachment.id;
      } else {
        return { ok: false, text: 'Give "source" or "attachmentId".' };
      }
      const answer = await context.describe([id], prompt, context.signal);
      return { ok: true, text: `Answer about image ${id}: ${answer}` };
    },
  };
}
