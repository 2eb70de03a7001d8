/**
 * The rows [start, end) of a virtualised list that overlap [from, to), given each row's
 * top offset (`offsets[i]`) and the total height (`offsets[n]`). Binary search: O(log n).
 */
export function visibleRange(offsets: ArrayLike<number>, from: number, to: number): [number, number] {
  const n = offsets.length - 1;
  if (n <= 0) return [0, 0];
  // First row whose bottom is below `from`.
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid + 1]! <= from) lo = mid + 1;
    else hi = mid;
  }
  const start = lo;
  // First row whose top is at or below `to`.
  lo = start;
  hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid]! < to) lo = mid + 1;
    else hi = mid;
  }
  return [start, Math.max(start, lo)];
}
