// The names of secrets in the languages of the screens people share, as their English words: a
// German router's "WLAN-Netzwerkschlüssel", a French form's "Mot de passe", a Spanish app's "Código
// de verificación" name their values as "passphrase", "password" and "verification code" do, and
// every rule that reads a caption, a label, a column's header or a heading (context.ts, findings.ts)
// reads them so. Only words a Latin-script reader reads (the local reader knows English letters):
// matched as OCR reads them, accents dropped or misread ("Schliissel", "contrasefia").
import type { ReadWord } from './locate.ts';

/**
 * A term's words as OCR reads them, each a pattern over one word in lower case without accents
 * (trailing punctuation apart), and the English words that take their place.
 */
type Term = { words: RegExp[]; english: string };

/** "ü" as OCR reads it: u, ii, ti, ü dropped; "ñ" as n, fi, ni. */
const U = '(?:u|ii|ti|li|i)', N = '(?:n|fi|ni|ri)';
const KEY_DE = `schl${U}ssel`;

const TERMS: Term[] = [
  // A password.
  ...[
    'passwort', 'kennwort', `contrase${N}a`, 'senha', 'wachtwoord', 'haslo', 'hasto', 'losenord', 'adgangskode', 'passord', 'salasana', 'heslo', 'sifre', 'jelszo', 'parola', 'lozinka', 'geslo', 'salasona', 'katasandi',
    // (…also ending a compound: "FRITZ!Box-Kennwort", "Gerätepasswort", "wifi-wachtwoord".)
  ].map((w) => ({ words: [new RegExp(`^(?:\\S*-)?${w}$|^[a-z]+(?:passwort|kennwort|wachtwoord|losenord)$`)], english: 'password' })),
  { words: [/^mot$/, /^de$/, /^passe$/], english: 'password' },
  { words: [/^kata$/, /^sandi$/], english: 'password' },
  // A Wi-Fi network's key.
  { words: [new RegExp(`^(?:wlan|wifi|wi-fi|netzwerk|wlan-netzwerk|wlan-)?-?(?:netzwerk)?${KEY_DE}$`)], english: 'passphrase' },
  { words: [/^cle$/, /^(?:de$|reseau$|wifi$|wi-fi$|wpa2?$)/], english: 'passphrase' },
  { words: [/^clave$/, /^(?:de$|wifi$|wi-fi$|wpa2?$)/], english: 'passphrase' },
  { words: [/^chave$/, /^(?:de$|wifi$|wi-fi$)/], english: 'passphrase' },
  { words: [/^chiave$/, /^(?:di$|wifi$|wi-fi$)/], english: 'passphrase' },
  { words: [/^netwerksleutel$/], english: 'passphrase' },
  // A one-time or verification code.
  ...[
    'bestatigungscode', 'verifizierungscode', 'sicherheitscode', 'anmeldecode', 'einmalcode', 'einmalpasswort', 'verificatiecode', 'beveiligingscode', 'engangskode', 'vahvistuskoodi', 'bekraftelsekod', 'verifieringskod', 'dogrulama',
  ].map((w) => ({ words: [new RegExp(`^${w}$`)], english: 'verification code' })),
  { words: [/^code$/, /^de$/, /^(?:verification|confirmation|securite|connexion)$/], english: 'verification code' },
  { words: [/^codigo$/, /^de$/, /^(?:verificacion|verificacao|seguridad|seguranca|confirmacion|confirmacao|acceso|acesso)$/], english: 'verification code' },
  { words: [/^codice$/, /^di$/, /^(?:verifica|sicurezza|conferma|accesso)$/], english: 'verification code' },
  { words: [/^kod$/, /^(?:weryfikacyjny|potwierdzajacy|dostepu|bezpieczenstwa)$/], english: 'verification code' },
  { words: [/^dogrulama$/, /^kodu$/], english: 'verification code' },
  // A PIN.
  { words: [/^(?:geheimzahl|pin-code|pincode|pin-kode|pin-koodi)$/], english: 'PIN' },
  { words: [/^code$/, /^pin$/], english: 'PIN' },
  { words: [/^codigo$/, /^pin$/], english: 'PIN' },
  // An activation code (a bank's letter for its online banking, a licence's).
  { words: [/^(?:aktivierungscode|aktivierungsschlussel|freischaltcode|activeringscode|aktiveringskod|aktiveringskode|aktivointikoodi)$/], english: 'activation code' },
  { words: [/^code$/, /^(?:d'activation|dactivation)$/], english: 'activation code' },
  { words: [/^(?:codigo|codice)$/, /^(?:de|di)$/, /^(?:activacion|ativacao|attivazione)$/], english: 'activation code' },
  // A secret key, an API key, a token.
  { words: [new RegExp(`^(?:geheimer|privater)$`), new RegExp(`^${KEY_DE}$`)], english: 'secret key' },
  { words: [/^cle$/, /^(?:secrete|privee)$/], english: 'secret key' },
  { words: [/^clave$/, /^(?:secreta|privada)$/], english: 'secret key' },
  { words: [/^chave$/, /^(?:secreta|privada)$/], english: 'secret key' },
  { words: [/^chiave$/, /^(?:segreta|privata)$/], english: 'secret key' },
  { words: [new RegExp(`^api-?${KEY_DE}$`)], english: 'api key' },
  { words: [/^(?:cle|clave|chave|chiave)$/, /^(?:de$|d')?(?:api)$/], english: 'api key' },
  { words: [/^(?:cle|clave|chave|chiave)$/, /^de$/, /^api$/], english: 'api key' },
  { words: [/^(?:api-sleutel|api-nyckel|klucz)$/], english: 'api key' },
  { words: [/^jeton$/], english: 'token' },
  { words: [/^(?:jeton|token)$/, /^(?:d'acces|de)$/, /^(?:acces|acceso|acesso)$/], english: 'token' },
  // Recovery keys and codes.
  { words: [new RegExp(`^wiederherstellungs(?:${KEY_DE}|codes?)$`)], english: 'recovery key' },
  { words: [/^(?:cle|codes?)$/, /^de$/, /^(?:recuperation|secours)$/], english: 'recovery key' },
  { words: [/^(?:clave|codigos?|chave)$/, /^de$/, /^(?:recuperacion|recuperacao)$/], english: 'recovery key' },
  { words: [/^(?:chiave|codici?)$/, /^di$/, /^(?:ripristino|recupero)$/], english: 'recovery key' },
  { words: [/^(?:herstelsleutel|herstelcode|herstelcodes)$/], english: 'recovery key' },
];

// (Longer terms first: "doğrulama kodu" before "doğrulama".)
TERMS.sort((a, b) => b.words.length - a.words.length);

/** A word in lower case without accents, its trailing punctuation apart. */
function plain(text: string): { core: string; tail: string } {
  const m = /^(.*?)([:;.,)]*)$/.exec(text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ł/g, 'l').replace(/ı/g, 'i').toLowerCase()) as RegExpExecArray;
  return { core: (m[1] as string).replace(/^[("'“]+/, ''), tail: text.slice(text.length - (m[2] as string).length) };
}

/**
 * The words with each term that names a secret in another language as its English words: the
 * term's first word takes its English text (its trailing ":" kept) and the box of all its words, the
 * rest are dropped. Words on a line are in reading order (the reader's); nothing else changes.
 */
export function inEnglish(words: readonly ReadWord[]): ReadWord[] {
  const out: ReadWord[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as ReadWord;
    const term = TERMS.find((t) => t.words.every((re, k) => {
      const next = words[i + k];
      return next !== undefined && next.line === w.line && re.test(plain(next.text).core) && (k === t.words.length - 1 || !plain(next.text).tail);
    }));
    if (!term) {
      out.push(w);
      continue;
    }
    const last = words[i + term.words.length - 1] as ReadWord;
    const x0 = Math.min(w.x, last.x), y0 = Math.min(w.y, last.y);
    const x1 = Math.max(w.x + w.width, last.x + last.width), y1 = Math.max(w.y + w.height, last.y + last.height);
    out.push({ ...w, text: term.english + plain(last.text).tail, x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
    i += term.words.length - 1;
  }
  return out;
}
