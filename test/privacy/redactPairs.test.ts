// Secrets that leaked because no rule knew their shape (issue 41): a secret handed to a call by its
// quoted name (PHP's define(), a map's 'password' => …), a password written after its login
// ("deploy / …", `curl --user ops:…`, htpasswd -b), a signature in a URL's query (a presigned link's
// X-Amz-Signature, percent-encoded and wrapped). Screens of this file's own, rendered by Chromium in
// a fixed seed and read by the production reader; a secret leaks when 6 consecutive characters show
// ink outside the fills (test/fixtures/leakScore.ts). And a wallet's recovery phrase, which no rule
// saw as a secret: ordinary words, but 12–24 of BIP-39's list.
import { describe, expect, it } from 'vitest';
import { pairScreen } from '../fixtures/pairScreens.ts';
import { SIZES } from '../fixtures/realScreens.ts';
import { renderedRedaction } from '../support/renderedRedaction.ts';

const { check } = renderedRedaction();
const size = (name: string) => SIZES.find((s) => s.name === name) ?? (SIZES[0] as (typeof SIZES)[number]);

const screen = pairScreen;

// Each screen is OCR'd twice (the second look); a loaded machine takes tens of seconds.
describe('secrets no rule knew the shape of (real Chromium, real tesseract)', { timeout: 180_000 }, () => {
  it("a salt handed to PHP's define() by its quoted name: the whole value, signs and all", async () => {
    for (const [seed, theme, fontPx, at] of [[1, 'dark+', 14, '1080p'], [2, 'light+', 13, 'Retina 1440×900@2']] as const) {
      const r = await check(screen('php config in less', { seed, theme, fontPx, size: size(at) }));
      expect(r.score.secrets.length).toBe(2);
      expect(r.leaked, `${theme} ${fontPx} px ${at}`).toEqual([]);
    }
  });

  it('a password after its login, a password in curl --user, a signature in a link that wraps', async () => {
    for (const [seed, theme, fontPx, at] of [[3, 'github-light', 14, '1080p'], [4, 'dark+', 15, '1440p']] as const) {
      const r = await check(screen('ops notes with logins', { seed, theme, fontPx, size: size(at) }));
      expect(r.score.secrets.length).toBe(4);
      expect(r.leaked, `${theme} ${fontPx} px ${at}`).toEqual([]);
    }
  });

  it("a wallet's recovery phrase: 24 words in a numbered grid under its heading, 12 on a line of a note", async () => {
    for (const [name, seed, theme, fontPx, at] of [['desktop wallet backup', 2, 'light+', 12, '1440p'], ['desktop wallet backup', 3, 'dark+', 13, '1080p'], ['notes with a seed line', 1, 'solarized-light', 14, '1080p']] as const) {
      const r = await check(screen(name, { seed, theme, fontPx, size: size(at) }));
      expect(r.score.secrets.length).toBe(1);
      expect(r.leaked, `${name} ${theme} ${fontPx} px ${at}`).toEqual([]);
    }
  });

  it("a chat bot's token with its id, a Sentry DSN's key before its host", async () => {
    // Seeds 2 and 5 (1440p 12 px, 4K@2 12 px): the DSN's @ read as '0o'; seed 3 (1080p 13 px): the token's key split at a ].
    for (const seed of [2, 3, 5]) {
      const r = await check(screen('bot script in an editor', { seed }));
      expect(r.score.secrets.length).toBe(2);
      expect(r.leaked, `seed ${seed}`).toEqual([]);
    }
  });

  it('a card code under a caption with a parenthetical: "Security code (CVC)", "CVC (3 digits)"', async () => {
    // Seed 8 (4K@2 12 px): "(3 digits)" read as "@ digits)".
    for (const seed of [1, 2, 8]) {
      const r = await check(screen('card details panel', { seed }));
      expect(r.score.secrets.length).toBe(2);
      expect(r.leaked, `seed ${seed}`).toEqual([]);
    }
  });
  it("a link's token through a secret's place (a reset, an invitation, two webhooks); an address's ids left alone", async () => {
    for (const [seed, theme, fontPx, at] of [[1, 'light+', 14, '1080p'], [2, 'dark+', 13, '1440p']] as const) {
      const r = await check(screen('mail with links', { seed, theme, fontPx, size: size(at) }));
      expect(r.score.secrets.length).toBe(5);
      expect(r.leaked, `${theme} ${fontPx} px ${at}`).toEqual([]);
      // The addresses of a document, a video and a product (an ad click's id wrapping) are not filled.
      const address = r.score.area.get('address');
      expect(address && address.total).toBeGreaterThan(0);
      expect((address?.masked ?? 0) / (address?.total ?? 1), `${theme}: ${r.regions.map((g) => g.rule).join(', ')}`).toBeLessThanOrEqual(0.02);
    }
  });
});
