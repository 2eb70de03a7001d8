// A wallet's recovery phrase as OCR reads it: numbered, in a grid, with scraps; prose and lists of
// ordinary words are not one.
import { describe, expect, it } from 'vitest';
import { seedPhrases } from './seedPhrase.ts';

const found = (t: string) => [...seedPhrases(t)].map(([a, b]) => t.slice(a, b));

describe('seed phrases', () => {
  it('finds 12 list words numbered in a grid, from the first word to the last, not the prose above', () => {
    const t = 'Write it down and keep it in a safe place.\n1. auction 2. athlete\n3. donkey 4. alcohol\n5. absorb 6. valley\n7. panda 8. castle\n9. zone 10. magnet\n11. gather 12. bamboo\nCopy to clipboard';
    expect(found(t)).toEqual([t.slice(t.indexOf('auction'), t.indexOf('bamboo') + 6)]);
  });

  it("takes OCR's numbering scraps, a misread word and a lost one under a heading that names the phrase", () => {
    const t = 'Secret Recovery Phrase\na1 eagle 2. ladder 3. auction 4. umbrella 5. alpha 6. ocean 7. lemon 8. gather 9. ability 1TN audit IY. 11 12. talent anhounce\nCopy';
    expect(found(t)).toEqual(['eagle 2. ladder 3. auction 4. umbrella 5. alpha 6. ocean 7. lemon 8. gather 9. ability 1TN audit IY. 11 12. talent']);
    // Without the heading, ten words are not enough.
    expect(found(t.replace('Secret Recovery Phrase', 'Shopping'))).toEqual([]);
  });

  it('a line of 12 words with no heading; not prose, not a short list', () => {
    expect(found('hardware wallet words: announce noble yellow saddle alien adapt carbon donkey hazard olive advice aerobic')).toHaveLength(1);
    expect(found('Please keep the door open and follow the signs to the main hall where the staff will meet you at noon')).toEqual([]);
    expect(found('apple banana orange lemon mango grape melon')).toEqual([]);
  });

  it("is not a log's one word over and over, its numbers taken for numbering", () => {
    // A window's text view of a deploy log (test/accessibility/windowTextTool.test.ts): 120 lines
    // of "step N ok" were hidden whole as a phrase of "step".
    const log = Array.from({ length: 120 }, (_, i) => `step ${i + 1} ok`).join('\n');
    expect(found(log)).toEqual([]);
    expect(found(`wallet words\n${log}`)).toEqual([]);
  });
});
