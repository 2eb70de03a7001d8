import { describe, expect, it } from 'vitest';
import type { ReadWord } from './locate.ts';
import { inEnglish } from './localWords.ts';

/** Words on one line, 10 px apart, as a reader gives them. */
const line = (text: string, at = 0): ReadWord[] => {
  let x = 0;
  return text.split(' ').map((t) => {
    const w = { text: t, line: at, x, y: at * 20, width: t.length * 7, height: 12 };
    x += w.width + 10;
    return w;
  });
};
const said = (text: string) => inEnglish(line(text)).map((w) => w.text).join(' ');

describe('inEnglish: a secret named in another language, as OCR reads it', () => {
  it('reads a password, a Wi-Fi key, a code and a PIN by their English names', () => {
    expect(said('Mot de passe : hunter2')).toBe('password : hunter2');
    expect(said('Contraseña: abc123')).toBe('password: abc123');
    expect(said('Contrasefia: abc123')).toBe('password: abc123');
    expect(said('FRITZ!Box-Kennwort: regal97baum')).toBe('password: regal97baum');
    expect(said('WLAN-Netzwerkschliissel (WPA2):')).toBe('passphrase (WPA2):');
    expect(said('Código de verificación: 482913')).toBe('verification code: 482913');
    expect(said('Doğrulama kodu: 482913')).toBe('verification code: 482913');
    expect(said('Code PIN : 4821')).toBe('PIN : 4821');
    expect(said('API-Schlüssel: abc')).toBe('api key: abc');
  });

  // Set J's scanned PIN letter: "Aktivierungscode Online-Banking" over its code (0 of 4 hidden).
  it('reads an activation code by its English name', () => {
    expect(said('Aktivierungscode Online-Banking')).toBe('activation code Online-Banking');
    expect(said("Code d'activation : X7K2")).toBe("activation code : X7K2");
    expect(said('Código de activación: X7K2')).toBe('activation code: X7K2');
  });

  it("gives the term the box of all its words and keeps every other word as it was", () => {
    const words = line('Identifiant : ada Mot de passe : hunter2');
    const out = inEnglish(words);
    expect(out.map((w) => w.text)).toEqual(['Identifiant', ':', 'ada', 'password', ':', 'hunter2']);
    const mot = words[3] as ReadWord, passe = words[5] as ReadWord;
    expect(out[3]).toMatchObject({ x: mot.x, width: passe.x + passe.width - mot.x });
    expect(out[5]).toBe(words[7]);
  });

  it('leaves words that only look like a term, and a term split over two lines', () => {
    expect(said('Le mot de la fin')).toBe('Le mot de la fin');
    expect(said('codec de video')).toBe('codec de video');
    const split = [...line('Mot de', 0), ...line('passe : x', 1)];
    expect(inEnglish(split).map((w) => w.text)).toEqual(['Mot', 'de', 'passe', ':', 'x']);
  });
});
