// The copy of a marked image that a model gets (architecture §3, §5): the marks drawn into the
// fitted pixels by sharp compositing an SVG overlay generated here, at the fitted size — so
// strokes and numbers are as legible as the model's copy allows and a re-fit for another model
// draws them again in the right place. The original is never touched.
import sharp from 'sharp';
import { scaleMarks, type Mark } from '../../common/marks.ts';
import { marksSvg } from '../../common/marksSvg.ts';

type Size = { width: number; height: number };

/** Draws `marks` (in the original's pixels, `original` its size) onto `fitted` and returns a PNG of the fitted size. */
export async function drawMarks(fitted: Uint8Array, marks: readonly Mark[], original: Size): Promise<{ png: Buffer; width: number; height: number }> {
  const image = sharp(fitted, { failOn: 'truncated' });
  const meta = await image.metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const svg = marksSvg(scaleMarks(marks, original, { width, height }), { width, height });
  const png = await image.composite([{ input: Buffer.from(svg), left: 0, top: 0 }]).png({ compressionLevel: 6 }).toBuffer();
  return { png, width, height };
}
