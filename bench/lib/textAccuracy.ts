// How much of a known text an OCR result got right.

/** Lines trimmed, runs of whitespace collapsed, empty lines dropped (layout is not the point). */
export function normaliseText(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l.length > 0);
}

/** Edit distance (insert, delete, substitute = 1) in O(min(a,b)) memory. */
export function levenshtein(a: string, b: string): number {
  if (a.length < b.length) [a, b] = [b, a];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  let current = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length] ?? 0;
}

export type Accuracy = {
  /** 1 − Levenshtein(ocr, known) / length(known), over the normalised text joined by newlines; ≥ 0. */
  characters: number;
  /** Known lines that appear, exactly, as a line of the OCR output. */
  lines: number;
  knownCharacters: number;
  knownLines: number;
};

export function accuracy(ocrText: string, known: readonly string[]): Accuracy {
  const want = normaliseText(known.join('\n'));
  const got = normaliseText(ocrText);
  const wantText = want.join('\n');
  const distance = levenshtein(got.join('\n'), wantText);
  const gotLines = new Set(got);
  return {
    characters: Math.max(0, 1 - distance / Math.max(1, wantText.length)),
    lines: want.filter((l) => gotLines.has(l)).length / Math.max(1, want.length),
    knownCharacters: wantText.length,
    knownLines: want.length,
  };
}
