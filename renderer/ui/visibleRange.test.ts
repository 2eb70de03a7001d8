import { describe, expect, it } from 'vitest';
import { visibleRange } from './visibleRange.ts';

describe('visibleRange', () => {
  // Rows of 100, 50, 200, 100 px: tops 0, 100, 150, 350; total 450.
  const offsets = [0, 100, 150, 350, 450];

  it('answers the rows overlapping the window', () => {
    expect(visibleRange(offsets, 0, 100)).toEqual([0, 1]);
    expect(visibleRange(offsets, 120, 160)).toEqual([1, 3]);
    expect(visibleRange(offsets, 360, 1000)).toEqual([3, 4]);
    expect(visibleRange(offsets, -500, 5000)).toEqual([0, 4]);
  });

  it('answers an empty range past the end and for no rows', () => {
    expect(visibleRange(offsets, 500, 600)).toEqual([4, 4]);
    expect(visibleRange([0], 0, 100)).toEqual([0, 0]);
  });

  it('stays logarithmic-correct on a long list', () => {
    const many = Array.from({ length: 10_001 }, (_, i) => i * 10);
    expect(visibleRange(many, 50_005, 50_100)).toEqual([5000, 5010]);
  });
});
