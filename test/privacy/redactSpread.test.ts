// Secrets no rule names by their shape or by a caption on their line (issue 41): a code typed one
// digit a box, which OCR reads as scraps of a digit or two; lone short codes whose only label is
// their panel's heading; a token's last characters wrapped onto the next line, read poorly or not at
// all; and look-alikes that must stay shown.
// Screens of this file's own (test/fixtures/spreadScreens.ts), rendered by Chromium in a fixed seed
// and read by the production reader; a secret leaks when 6 consecutive characters show ink outside
// the fills (test/fixtures/leakScore.ts).
import { describe, expect, it } from 'vitest';
import { SIZES } from '../fixtures/realScreens.ts';
import { spreadScreen } from '../fixtures/spreadScreens.ts';
import { renderedRedaction } from '../support/renderedRedaction.ts';

const { check } = renderedRedaction();
const size = (name: string) => SIZES.find((s) => s.name === name) ?? (SIZES[0] as (typeof SIZES)[number]);

// Each screen is OCR'd twice (the second look); a loaded machine takes tens of seconds.
describe('values spread over boxes, lines and panels (real Chromium, real tesseract)', { timeout: 180_000 }, () => {
  it('a sign-in code typed one digit a box, beside another pane', async () => {
    for (const [seed, theme, fontPx, at] of [[1, 'light+', 14, '1080p'], [2, 'dark+', 13, '1440p'], [4, 'monokai', 12, '4K@2']] as const) {
      const r = await check(spreadScreen('code in boxes', { seed, theme, fontPx, size: size(at) }));
      expect(r.score.secrets.length).toBe(1);
      expect(r.leaked, `${theme} ${fontPx} px ${at}`).toEqual([]);
    }
  });

  it("lone codes whose only label is their card's heading, a paragraph between: a PUK, a new PIN, an activation code", async () => {
    for (const [seed, theme, fontPx, at] of [[1, 'light+', 14, '1080p'], [2, 'dark+', 13, '1440p'], [3, 'solarized-dark', 15, '4K@2']] as const) {
      const r = await check(spreadScreen('codes under their headings', { seed, theme, fontPx, size: size(at) }));
      expect(r.score.secrets.length).toBe(3);
      expect(r.leaked, `${theme} ${fontPx} px ${at}`).toEqual([]);
    }
  });

  it('tokens that wrap a few characters onto the next line of a narrow pane: a faint one, one whose tail is letters alone', async () => {
    for (const [seed, theme, fontPx, at] of [[1, 'light+', 14, '1080p'], [4, 'light+', 13, '1440p'], [5, 'github-light', 16, 'Retina 1440×900@2']] as const) {
      const r = await check(spreadScreen('tokens wrapping in a narrow pane', { seed, theme, fontPx, size: size(at) }));
      expect(r.score.secrets.length).toBe(2);
      expect(r.leaked, `${theme} ${fontPx} px ${at}`).toEqual([]);
    }
  });

  it.each([
    // Headings with "codes" that name nothing secret over lone numbers and codes ("Codes", "Postal codes", "Error codes").
    ['codes that are not secret', 1, 'light+', 14],
    ['codes that are not secret', 2, 'dark+', 13],
    // Page numbers in boxes under "Enter a page number", a release's digits in boxes.
    ['pages and versions in boxes', 1, 'light+', 14],
    ['pages and versions in boxes', 2, 'dark+', 13],
    // A letter a week in a gradebook's columns.
    ['grades table', 1, 'github-light', 14],
  ] as const)('%s stays shown (seed %i, %s, %i px)', async (name, seed, theme, fontPx) => {
    const r = await check(spreadScreen(name, { seed, theme, fontPx, size: { name: '1280×800', width: 1280, height: 800, scale: 1 } }));
    expect(r.maskedShare, `${name}: ${(r.maskedShare * 100).toFixed(1)}% masked by ${r.regions.map((g) => g.rule).join(', ')}`).toBeLessThanOrEqual(0.02);
  });
});
