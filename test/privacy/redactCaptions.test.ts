// Secrets OCR reads on ordinary-looking screens that only the words around them make secret (issue
// 41): a form field's caption with its required mark, a credential named in brackets in a table's
// cell, a restore code under its column's caption, a password after the colon that ends a sentence
// about it, a cookie's value in an HTTP exchange, a passphrase of ordinary words, a token a shell
// command prints. Screens of this file's own (test/fixtures/captionScreens.ts), rendered by Chromium
// in a fixed seed and read by the production reader; a secret leaks when 6 consecutive characters
// show ink outside the fills (test/fixtures/leakScore.ts).
import { describe, expect, it } from 'vitest';
import { captionScreen } from '../fixtures/captionScreens.ts';
import { SIZES } from '../fixtures/realScreens.ts';
import { renderedRedaction } from '../support/renderedRedaction.ts';

const { check } = renderedRedaction();
const size = (name: string) => SIZES.find((s) => s.name === name) ?? (SIZES[0] as (typeof SIZES)[number]);

type Draw = readonly [seed: number, theme: string, fontPx: number, at: string];

async function hidesAll(name: string, draws: readonly Draw[], secrets: number): Promise<void> {
  for (const [seed, theme, fontPx, at] of draws) {
    const r = await check(captionScreen(name, { seed, theme, fontPx, size: size(at) }));
    expect(r.score.secrets.length).toBe(secrets);
    expect(r.leaked, `${name} ${theme} ${fontPx} px ${at}: ${r.regions.map((g) => g.rule).join(', ')}`).toEqual([]);
  }
}

// Each screen is OCR'd twice (the second look); a loaded machine takes tens of seconds.
describe('secrets only their captions name (real Chromium, real tesseract)', { timeout: 240_000 }, () => {
  it("cookies' values in an HTTP exchange, hex and all, and as OCR misreads their letters", async () => {
    // Seed 1 (4K@1 13 px): "£" for an f in both values.
    await hidesAll('proxy http exchange', [[1, 'light+', 13, '4K@1'], [2, 'dark+', 13, '1080p']], 2);
  });

  it('a passphrase of ordinary words after its label, in small letters', async () => {
    await hidesAll('notes with a passphrase', [[1, 'light+', 14, '1080p'], [2, 'solarized-light', 11, '4K@1']], 1);
  });
});
