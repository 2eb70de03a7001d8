// The mark-up editor's keyboard, as the region selection's (cropKeys.ts): a cursor in the
// image's pixels, moved by arrows in steps of 2% of the image (Shift: 0.5%), clamped inside it.
import type { Mark, MarkKind } from '../../common/marks.ts';

export type Point = { x: number; y: number };
type Size = { width: number; height: number };

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export function isMarkArrow(key: string): boolean {
  return key in ARROWS;
}

export function stepPoint(p: Point, key: string, fine: boolean, size: Size): Point {
  const [dx, dy] = ARROWS[key] ?? [0, 0];
  const fraction = fine ? 0.005 : 0.02;
  return {
    x: Math.max(0, Math.min(size.width - 1, Math.round(p.x + dx * fraction * size.width))),
    y: Math.max(0, Math.min(size.height - 1, Math.round(p.y + dy * fraction * size.height))),
  };
}

/** "62% from the left, 40% from the top": where the cursor is, for the live region. */
export function describePoint(p: Point, size: Size): string {
  return `${Math.round((p.x / size.width) * 100)}% from the left, ${Math.round((p.y / size.height) * 100)}% from the top`;
}

/** Tools that take two points (a drag, or Enter twice); the others one. */
export function takesTwoPoints(tool: MarkKind): boolean {
  return tool === 'box' || tool === 'arrow' || tool === 'line';
}

/**
 * The mark a tool makes from `a` to `b` (one-point tools use `b`), or undefined when it would be
 * empty (a box without area, an arrow without length, a text without text).
 */
export function markFrom(tool: MarkKind, a: Point, b: Point, color: string, note: string, points?: readonly Point[]): Mark | undefined {
  const withNote = note.trim() ? { note: note.trim().slice(0, 300) } : {};
  switch (tool) {
    case 'box': {
      const width = Math.abs(b.x - a.x);
      const height = Math.abs(b.y - a.y);
      if (width < 2 || height < 2) return undefined;
      return { kind: 'box', x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width, height, color, ...withNote };
    }
    case 'arrow':
      if (Math.hypot(b.x - a.x, b.y - a.y) < 2) return undefined;
      return { kind: 'arrow', x1: a.x, y1: a.y, x2: b.x, y2: b.y, color, ...withNote };
    case 'line': {
      const path = points && points.length >= 2 ? points : [a, b];
      if (path.length < 2 || (path.length === 2 && Math.hypot(b.x - a.x, b.y - a.y) < 2)) return undefined;
      return { kind: 'line', points: path.slice(0, 2000).map((p) => [Math.round(p.x), Math.round(p.y)] as [number, number]), color, ...withNote };
    }
    case 'marker':
      return { kind: 'marker', x: b.x, y: b.y, color, ...withNote };
    case 'text':
      return note.trim() ? { kind: 'text', x: b.x, y: b.y, text: note.trim().slice(0, 300), color } : undefined;
  }
}

/** "2 marks: 1 box, 1 marker" for the composer and the sent message. */
export function summariseMarks(marks: readonly Mark[]): string {
  const counts = new Map<string, number>();
  for (const m of marks) counts.set(m.kind, (counts.get(m.kind) ?? 0) + 1);
  const parts = [...counts].map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : kind === 'box' ? 'es' : 's'}`);
  return `${marks.length} mark${marks.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}
