// Text OCR misreads for how it looks (issue 41): a paper held up to a webcam that mirrors the
// picture, its lines reading right to left; a chat caught mid-scroll, its lines smeared by motion blur; a chat
// screenshot marked up with a red pen's ellipse drawn through its lines. Each screen rendered by Chromium and read by the
// production reader (RegionReader over tesseract).
import { describe, expect, it } from 'vitest';
import { screenFrom, SIZES } from '../fixtures/realScreens.ts';
import { LOOK_MAKERS, LOOK_OTHERS } from '../fixtures/lookScreens.ts';
import { renderedRedaction } from '../support/renderedRedaction.ts';

const { check } = renderedRedaction();
const size = (name: string) => SIZES.find((s) => s.name === name) ?? (SIZES[0] as (typeof SIZES)[number]);
const screen = (name: string, seed: number, at: string, fontPx: number, theme = 'light+') => screenFrom(LOOK_MAKERS, LOOK_OTHERS, name, { seed, size: size(at), fontPx, theme });

describe('text that reads mirrored (real Chromium, real tesseract)', { timeout: 180_000 }, () => {
  it('a password note held up to a mirroring webcam: read flipped back, its labels name its values', async () => {
    // Before, the first read made sure-looking nonsense of the note and both passwords leaked.
    for (const [seed, at, fontPx] of [[1, '1080p', 14], [4, '4K@2', 14]] as const) {
      const r = await check(screen('webcam mirrored password note', seed, at, fontPx));
      expect(r.score.secrets.length).toBe(2);
      expect(r.leaked, `${at} ${fontPx} px`).toEqual([]);
    }
  });

  it('an ordinary note held up to it masks nothing', async () => {
    const r = await check(screen('webcam mirrored ordinary note', 2, '1440p', 13));
    expect(r.regions).toEqual([]);
  });
});

describe('text smeared by motion blur (real Chromium, real tesseract)', { timeout: 180_000 }, () => {
  it('a token in a chat caught mid-scroll: its blurred line is found and read again binary', async () => {
    // Before, at 2× the blur's halo made the line's ink look twice as tall, the reader read the
    // crop far too small, got nothing, and the token leaked.
    for (const [seed, at, fontPx] of [[2, '4K@2', 14], [5, 'Retina 1440×900@2', 13]] as const) {
      const r = await check(screen('chat mid-scroll with a token', seed, at, fontPx, 'dark+'));
      expect(r.score.secrets.length).toBe(1);
      expect(r.leaked, `${at} ${fontPx} px`).toEqual([]);
    }
  });

  it('an ordinary chat caught mid-scroll masks nothing', async () => {
    const r = await check(screen('chat mid-scroll, ordinary', 2, '4K@2', 14, 'dark+'));
    expect(r.regions).toEqual([]);
  });
});

describe('a screenshot marked up with a red pen (real Chromium, real tesseract)', { timeout: 180_000 }, () => {
  it('keys in a chat with an ellipse drawn through its line: read again with the pen’s strokes made paper', async () => {
    // Before, the ellipse joined the lines it crossed into one shape, the reader made junk of it
    // (first read and second look alike) and the keys leaked.
    // (The stroke also made the lines' ink look like one very large line, read made smaller.)
    for (const [seed, at, fontPx] of [[2, '1080p', 15], [4, '1440p', 13]] as const) {
      const r = await check(screen('chat marked up with a red pen', seed, at, fontPx));
      expect(r.score.secrets.length).toBe(2);
      expect(r.leaked, `${at} ${fontPx} px`).toEqual([]);
    }
  });

  it('an ordinary chat so marked up masks nothing', async () => {
    const r = await check(screen('chat marked up with a red pen, ordinary', 1, '1080p', 14));
    expect(r.regions).toEqual([]);
  });
});
