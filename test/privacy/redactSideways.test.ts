// Text OCR does not read for its orientation or its size (issue 41): a sheet's column headers
// turned 90° (its Password column has no upright caption, and its values no label), a Large Type
// window with a password 240 px tall, a slide with a key at 64 px on a 4K@2 screen. Each screen
// rendered by Chromium and read by the production reader (RegionReader over tesseract).
import { describe, expect, it } from 'vitest';
import { screenFrom, SIZES } from '../fixtures/realScreens.ts';
import { TURNED_MAKERS, TURNED_OTHERS } from '../fixtures/turnedScreens.ts';
import { renderedRedaction } from '../support/renderedRedaction.ts';

const { check } = renderedRedaction();
const size = (name: string) => SIZES.find((s) => s.name === name) ?? (SIZES[0] as (typeof SIZES)[number]);
const screen = (name: string, seed: number, at: string, fontPx: number) => screenFrom(TURNED_MAKERS, TURNED_OTHERS, name, { seed, size: size(at), fontPx, theme: 'light+' });

describe('text turned sideways or in very large type (real Chromium, real tesseract)', { timeout: 180_000 }, () => {
  it('a sheet whose headers are turned 90°: the Password header, read turned upright, names its column', async () => {
    // Before, the header was read upright as scraps ("H", "2", "in") and every password leaked.
    for (const [seed, at, fontPx] of [[2, '1440p', 12], [4, '1080p', 14]] as const) {
      const r = await check(screen('sheet with turned headers', seed, at, fontPx));
      expect(r.score.secrets.length).toBe(6);
      expect(r.leaked, `${at} ${fontPx} px`).toEqual([]);
    }
  });

  it('turned headers over ordinary columns (a build hash, a region) mask nothing', async () => {
    for (const [seed, at, fontPx] of [[2, '1440p', 12], [1, '4K@2', 14]] as const) {
      const r = await check(screen('sheet with turned headers, ordinary columns', seed, at, fontPx));
      expect(r.regions, `${at} ${fontPx} px`).toEqual([]);
    }
  });

  it('very large type is read smaller: a Large Type password and a slide key at 4K@2', async () => {
    // Before, tesseract read the 240 px password as single letters and the slide's key as "=" and "—".
    for (const name of ['large type password', 'slide with a token']) {
      const r = await check(screen(name, 2, '4K@2', 14));
      expect(r.score.secrets.length).toBe(1);
      expect(r.leaked, name).toEqual([]);
    }
  });
});
