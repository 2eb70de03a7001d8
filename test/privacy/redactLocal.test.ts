// Secrets named only in another language (issue 41): a German router's Wi-Fi key under
// "WLAN-Netzwerkschlüssel" and its password beside "Kennwort", a French e-mail's "Mot de passe :"
// and "Code de vérification :", a Spanish SMS's "Código de seguridad:" and "Contraseña:" — and a
// German settings page that names them and shows none. Screens of test/fixtures/localScreens.ts,
// rendered by Chromium and read by the production reader (RegionReader over tesseract).
import { describe, expect, it } from 'vitest';
import { localScreen } from '../fixtures/localScreens.ts';
import { SIZES } from '../fixtures/realScreens.ts';
import { renderedRedaction } from '../support/renderedRedaction.ts';

const { check } = renderedRedaction();
const size = (name: string) => SIZES.find((s) => s.name === name) ?? (SIZES[0] as (typeof SIZES)[number]);

describe('secrets named in German, French and Spanish (real Chromium, real tesseract)', { timeout: 180_000 }, () => {
  it.each([
    ['router admin page in German', 2],
    ['sign-in e-mail in French', 2],
    ['bank text message in Spanish', 2],
  ] as const)('%s: every secret hidden', async (name, count) => {
    for (const [seed, theme, fontPx, at] of [[1, 'light+', 14, '1080p'], [2, 'dark+', 13, '1440p']] as const) {
      const r = await check(localScreen(name, { seed, theme, fontPx, size: size(at) }));
      expect(r.score.secrets.length).toBe(count);
      expect(r.leaked, `${theme} ${fontPx} px ${at}`).toEqual([]);
    }
  });

  it('a German settings page that names passwords and keys but shows none: nothing masked', async () => {
    for (const [seed, theme, fontPx, at] of [[1, 'light+', 14, '1080p'], [2, 'dark+', 13, '1440p']] as const) {
      const r = await check(localScreen('account settings in German', { seed, theme, fontPx, size: size(at) }));
      expect(r.regions, `${theme} ${fontPx} px ${at}`).toEqual([]);
    }
  });
});
