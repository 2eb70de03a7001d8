import { describe, expect, it } from 'vitest';
import { boxOver, type ReadWord } from './locate.ts';

// The devtools screen's case: a token's second line, read by tesseract with boxes twice the line's
// height, directly above a line of ordinary words. The fill covers the token and stops short of
// the next line's glyphs (a fill touching them made OCR lose "(X11;" and "Linux").
describe('boxOver', () => {
  const token: ReadWord[] = [
    { text: 'EqUnV5ZXMiLCIpYXQ105E3MDABNTUYNZFO.', line: 7, x: 85, y: 238, width: 701, height: 16 },
    { text: 'fSNnPydOEWXESTAKDZ', line: 7, x: 403, y: 228, width: 158, height: 32 },
    { text: '2S018IXUKTF', line: 7, x: 590, y: 228, width: 97, height: 32 },
  ];
  const next: ReadWord[] = [
    { text: 'user-agent:', line: 8, x: 49, y: 264, width: 95, height: 15 },
    { text: '(X11;', line: 8, x: 267, y: 264, width: 39, height: 15 },
    { text: 'Linux', line: 8, x: 319, y: 264, width: 43, height: 12 },
  ];
  const words = [...token, ...next];

  it('covers the whole run and stops short of the line below', () => {
    const box = boxOver(words, [0, 1, 2], { width: 1280, height: 720 })!;
    expect(box.x).toBeLessThanOrEqual(85);
    expect(box.x + box.width).toBeGreaterThanOrEqual(786);
    expect(box.y).toBeLessThanOrEqual(238);
    expect(box.y + box.height).toBeGreaterThanOrEqual(254);
    const nextTop = Math.min(...next.map((w) => w.y));
    expect(box.y + box.height).toBeLessThan(nextTop - 1);
  });

  it('keeps its margin where no line is near', () => {
    const box = boxOver(token, [0, 1, 2], { width: 1280, height: 720 })!;
    expect(box.y + box.height).toBeGreaterThan(260);
  });
});

// An 80-column terminal at Retina size (the tuned corpus): `echo $OPENAI_API_KEY` printed an
// sk-proj key that tesseract read as three words; the middle one, read again, ended in "¢", and
// the box stopped at the first word, leaving 35 of the key's characters showing.
describe('boxOver over a key OCR split', () => {
  const words: ReadWord[] = [
    { text: 'sk-proj-0DQkgzHo95yiZ7O0R8E', line: 14, x: 19, y: 559, width: 400, height: 43 },
    { text: 'IRPzulOAOAlFdOLS61y¢', line: 14, x: 432, y: 572, width: 296, height: 21 },
    { text: '6kMXmHYOBSE', line: 14, x: 728, y: 572, width: 160, height: 17 },
  ];

  it('takes in the pieces that end in a sign no key has', () => {
    const box = boxOver(words, [0], { width: 2880, height: 1800 })!;
    expect(box.x + box.width).toBeGreaterThanOrEqual(888);
  });
});
