import { describe, expect, it } from 'vitest';
import { markFrom, stepPoint, summariseMarks } from './markupKeys.ts';
import { createMarkupSlice, currentMarks, type MarkupSlice } from '../state/markupSlice.ts';

const size = { width: 1000, height: 500 };

describe('mark-up keys', () => {
  it('steps 2% (Shift 0.5%) and stays inside the image', () => {
    expect(stepPoint({ x: 500, y: 250 }, 'ArrowRight', false, size)).toEqual({ x: 520, y: 250 });
    expect(stepPoint({ x: 500, y: 250 }, 'ArrowUp', true, size)).toEqual({ x: 500, y: 248 });
    expect(stepPoint({ x: 995, y: 2 }, 'ArrowRight', false, size)).toEqual({ x: 999, y: 2 });
    expect(stepPoint({ x: 5, y: 2 }, 'ArrowUp', false, size)).toEqual({ x: 5, y: 0 });
  });

  it('makes each tool’s mark from two points, and nothing from an empty one', () => {
    expect(markFrom('box', { x: 50, y: 40 }, { x: 10, y: 20 }, '#ff0000', ' note ')).toEqual({ kind: 'box', x: 10, y: 20, width: 40, height: 20, color: '#ff0000', note: 'note' });
    expect(markFrom('box', { x: 10, y: 20 }, { x: 11, y: 80 }, '#ff0000', '')).toBeUndefined();
    expect(markFrom('marker', { x: 0, y: 0 }, { x: 7, y: 8 }, '#0000ff', '')).toEqual({ kind: 'marker', x: 7, y: 8, color: '#0000ff' });
    expect(markFrom('text', { x: 0, y: 0 }, { x: 7, y: 8 }, '#0000ff', '  ')).toBeUndefined();
    expect(markFrom('text', { x: 0, y: 0 }, { x: 7, y: 8 }, '#0000ff', 'hi')).toEqual({ kind: 'text', x: 7, y: 8, text: 'hi', color: '#0000ff' });
    expect(markFrom('line', { x: 0, y: 0 }, { x: 9, y: 9 }, '#000000', '', [{ x: 0, y: 0 }, { x: 4, y: 5 }, { x: 9, y: 9 }])).toMatchObject({ points: [[0, 0], [4, 5], [9, 9]] });
    expect(summariseMarks([markFrom('box', { x: 0, y: 0 }, { x: 9, y: 9 }, '#000000', '')!, markFrom('marker', { x: 0, y: 0 }, { x: 1, y: 1 }, '#000000', '')!])).toBe('2 marks: 1 box, 1 marker');
  });
});

describe('markup slice', () => {
  it('undoes, redoes, and drops the redo branch on a new mark', () => {
    let state = {} as MarkupSlice;
    const set = (u: Partial<MarkupSlice> | ((s: MarkupSlice) => Partial<MarkupSlice>)) => (state = { ...state, ...(typeof u === 'function' ? u(state) : u) });
    state = createMarkupSlice(set as never, (() => state) as never, {} as never);
    const m = (x: number) => markFrom('marker', { x, y: 0 }, { x, y: 0 }, '#000000', '')!;
    state.addMark('a', m(1));
    state.addMark('a', m(2));
    expect(currentMarks(state.markup.a).map((k) => (k.kind === 'marker' ? k.x : 0))).toEqual([1, 2]);
    state.undoMark('a');
    expect(currentMarks(state.markup.a)).toHaveLength(1);
    state.redoMark('a');
    expect(currentMarks(state.markup.a)).toHaveLength(2);
    state.undoMark('a');
    state.undoMark('a');
    state.undoMark('a');
    expect(currentMarks(state.markup.a)).toHaveLength(0);
    state.redoMark('a');
    state.addMark('a', m(3));
    state.redoMark('a');
    expect(currentMarks(state.markup.a).map((k) => (k.kind === 'marker' ? k.x : 0))).toEqual([1, 3]);
    expect(currentMarks(state.markup.b)).toEqual([]);
  });
});
