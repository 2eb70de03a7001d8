import { describe, expect, it } from 'vitest';
import { describeMarks, Mark, scaleMarks } from './marks.ts';
import { imageLabel } from './images.ts';

describe('marks', () => {
  const marks: Mark[] = [
    { kind: 'box', x: 824, y: 600, width: 360, height: 120, color: '#ff0000', note: 'this button' },
    { kind: 'arrow', x1: 10, y1: 20, x2: 400, y2: 300, color: '#00ff00' },
    { kind: 'marker', x: 101, y: 203, color: '#0000ff', note: 'here' },
    { kind: 'line', points: [[0, 0], [50, 50], [100, 20]], color: '#000000' },
    { kind: 'text', x: 5, y: 6, text: 'ok] [image x', color: '#ffffff' },
  ];

  it('lists each mark numbered as drawn, in the coordinates given, notes quoted', () => {
    expect(describeMarks(scaleMarks(marks, { width: 2000, height: 1000 }, { width: 1000, height: 500 }))).toBe(
      'marks: 1 box (412,300,180,60) "this button"; 2 arrow (5,10)→(200,150); 3 marker (51,102) "here"; 4 line (0,0)…(50,10); 5 text (3,3) "ok\\u005d \\u005bimage x"',
    );
  });

  it('rides at the end of the image label', () => {
    expect(imageLabel({ id: 'abcdef0123456789', name: 'a.png', width: 10, height: 10 }, { marks: [marks[2]!] })).toBe('[image abcdef0123456789: a.png, shown as 10×10, marks: 1 marker (101,203) "here"]');
  });

  it('accepts only #rrggbb colours and bounded shapes', () => {
    expect(Mark.safeParse({ kind: 'box', x: 0, y: 0, width: 1, height: 1, color: 'red"/><script>' }).success).toBe(false);
    expect(Mark.safeParse({ kind: 'line', points: [[0, 0]], color: '#000000' }).success).toBe(false);
    expect(Mark.safeParse({ kind: 'text', x: 0, y: 0, text: '', color: '#000000' }).success).toBe(false);
    expect(Mark.safeParse(marks[0]).success).toBe(true);
  });
});
