// Marks a person draws on an image before sending it (architecture §5, "mark-up"): stored with
// the conversation, never in the image bytes, in the pixel coordinates of the image's original,
// so a copy fitted for any model has them drawn at its own size and the label lists them in the
// coordinates of the image the model was shown.
import { z } from 'zod';
import { MAX_MARKS } from './limits.ts';

/** #rrggbb only: a colour goes into generated SVG, so nothing else may pass. */
const MarkColor = z.string().regex(/^#[0-9a-f]{6}$/i);
const Coord = z.number().finite().min(-100_000).max(100_000);
const Note = z.string().max(300).optional();

export const Mark = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('box'), x: Coord, y: Coord, width: z.number().positive().max(100_000), height: z.number().positive().max(100_000), color: MarkColor, note: Note }),
  z.strictObject({ kind: z.literal('arrow'), x1: Coord, y1: Coord, x2: Coord, y2: Coord, color: MarkColor, note: Note }),
  z.strictObject({ kind: z.literal('marker'), x: Coord, y: Coord, color: MarkColor, note: Note }),
  z.strictObject({ kind: z.literal('line'), points: z.array(z.tuple([Coord, Coord])).min(2).max(2000), color: MarkColor, note: Note }),
  z.strictObject({ kind: z.literal('text'), x: Coord, y: Coord, text: z.string().min(1).max(300), color: MarkColor }),
]);
export type Mark = z.infer<typeof Mark>;
export type MarkKind = Mark['kind'];

const Marks = z.array(Mark).max(MAX_MARKS);

/** Marks by attachment id, as a send carries them and a user message stores them. */
export const MarksById = z.record(z.string(), Marks);
export type MarksById = z.infer<typeof MarksById>;

/** Marks moved from the original's pixels into an image of `to` (the copy sent), for drawing and for the label. */
export function scaleMarks(marks: readonly Mark[], from: { width: number; height: number }, to: { width: number; height: number }): Mark[] {
  const sx = to.width / from.width;
  const sy = to.height / from.height;
  return marks.map((m): Mark => {
    switch (m.kind) {
      case 'box':
        return { ...m, x: m.x * sx, y: m.y * sy, width: m.width * sx, height: m.height * sy };
      case 'arrow':
        return { ...m, x1: m.x1 * sx, y1: m.y1 * sy, x2: m.x2 * sx, y2: m.y2 * sy };
      case 'line':
        return { ...m, points: m.points.map(([x, y]) => [x * sx, y * sy] as [number, number]) };
      default:
        return { ...m, x: m.x * sx, y: m.y * sy };
    }
  });
}

/**
 * `marks: 1 box (412,300,180,60) "this button"; 2 arrow (10,10)→(400,300)` — each mark numbered as
 * it is drawn, in the coordinates of the image it is listed for (already scaled). Notes are quoted
 * with brackets escaped, so a note cannot end the image label it sits in.
 */
export function describeMarks(marks: readonly Mark[]): string {
  const r = Math.round;
  const quote = (t: string | undefined) => (t ? ` ${JSON.stringify(t).replace(/[[\]]/g, (c) => (c === '[' ? '\\u005b' : '\\u005d'))}` : '');
  const parts = marks.map((m, i) => {
    const n = i + 1;
    switch (m.kind) {
      case 'box':
        return `${n} box (${r(m.x)},${r(m.y)},${r(m.width)},${r(m.height)})${quote(m.note)}`;
      case 'arrow':
        return `${n} arrow (${r(m.x1)},${r(m.y1)})→(${r(m.x2)},${r(m.y2)})${quote(m.note)}`;
      case 'marker':
        return `${n} marker (${r(m.x)},${r(m.y)})${quote(m.note)}`;
      case 'line': {
        const first = m.points[0]!;
        const last = m.points[m.points.length - 1]!;
        return `${n} line (${r(first[0])},${r(first[1])})…(${r(last[0])},${r(last[1])})${quote(m.note)}`;
      }
      case 'text':
        return `${n} text (${r(m.x)},${r(m.y)})${quote(m.text)}`;
    }
  });
  return `marks: ${parts.join('; ')}`;
}
