// zoom_image (architecture §5): a rectangle of an image the model was shown, in that image's pixels,
// cut from the kept ORIGINAL at native resolution and fitted to the model's own rules like any
// image, then shown to it as a tool image (an ephemeral user turn, counted in the per-turn
// delivery cap). A 4K screen fitted for gemma3 keeps none of its 14 px code; a band of it zoomed
// this way reads as the code (bench:legibility). Nothing is captured anew: screenshot_desktop's
// region does that.
import { z } from 'zod';
import { parseRegion } from '../images/cropImage.ts';
import type { ImageIntake } from '../images/imageIntake.ts';
import type { AttachmentStore } from '../images/types.ts';
import { pickImage } from './pickImage.ts';
import type { Tool } from './tool.ts';
import { ImageIdArg, RegionArgs, toolParameters } from './toolArgs.ts';

// Checked by parseRegion (plain words for negative, huge or non-numeric values), not here.
const Args = z.object({ ...RegionArgs, image: ImageIdArg.optional() });

export function zoomImageTool(deps: { store: AttachmentStore; intake: ImageIntake }): Tool {
  return {
    needsVision: true,
    spec: {
      name: 'zoom_image',
      description:
        'Look closer at part of an image you were shown: small text that is unreadable in the full view becomes legible. ' +
        'Give the rectangle x, y, width, height in the pixel coordinates of that image as you were shown it (its label says "shown as W×H"). ' +
        'It is cut from the original at full resolution and shown to you as a new image. "image" is the id from the image label; ' +
        'default: the most recent image shown to you. The smaller the rectangle, the sharper the result.',
      parameters: toolParameters(Args),
    },
    async run(args, context) {
      const target = context.imageTarget;
      if (!target) return { ok: false, text: 'No model that can see images is configured, so there is nothing to zoom for.' };
      const region = parseRegion(args);
      if ('ok' in region) return { ok: false, text: `${region.message} Nothing was zoomed.` };
      const picked = await pickImage(args.image, context, deps.store);
      if (!picked.ok) return { ok: false, text: picked.text };
      const { info } = picked;
      // The region comes out of the door from the original, then goes back in as a new image.
      const read = await deps.intake.admit({ attachmentId: info.id }, target, 'read', { region, signal: context.signal });
      if (!read.ok) return { ok: false, text: `${read.message} Nothing was zoomed.` };
      const crop = read.crop;
      if (!crop) throw new Error('a region read returns its crop');
      const stem = info.name.replace(/\.[a-z0-9]{2,5}$/i, '') || 'image';
      const name = `${stem}-zoom-${crop.source.x},${crop.source.y}-${crop.source.width}x${crop.source.height}.png`;
      // The windows in the region come along: a zoom into a password manager's window comes back filled.
      const attached = await deps.intake.admit(
        { source: crop.png, name, origin: 'zoom_image', requestedBy: 'user', ...(crop.windows ? { windows: crop.windows } : {}) },
        target,
        'tool',
        { signal: context.signal },
      );
      if (!attached.ok) return { ok: false, text: `The zoomed region could not be prepared (${attached.code}): ${attached.message}`, refusals: [attached] };
      const a = attached.attachment;
      const s = crop.shown;
      const sharper = a.width / s.width;
      const where = crop.fromOriginal
        ? `cut from the original at full resolution (${crop.source.width}×${crop.source.height} of its ${crop.sourceSize.width}×${crop.sourceSize.height} pixels, at ${crop.source.x},${crop.source.y})`
        : 'cut from the copy you were shown (no original was kept for this image, so it is no sharper)';
      const clamped = s.width !== region.width || s.height !== region.height ? ` (the rectangle was cut at the image's edge)` : '';
      return {
        ok: true,
        images: [a],
        text:
          `Zoomed into ${fmt(s)} of image ${info.id} (${info.name}, shown to you as ${info.width}×${info.height})${clamped}: ${where}; ` +
          `shown to you as ${a.width}×${a.height} [image ${a.id}]${sharper > 1.05 ? `, about ${sharper.toFixed(1)}× sharper than before` : ''}. ` +
          `Coordinates in the new image start at 0,0 at the rectangle's top-left; zoom into it again to look closer still.`,
      };
    },
  };
}

function fmt(r: { x: number; y: number; width: number; height: number }): string {
  const n = (v: number) => String(Math.round(v * 10) / 10);
  return `${n(r.width)}×${n(r.height)} at ${n(r.x)},${n(r.y)}`;
}
