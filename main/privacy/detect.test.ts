import { describe, expect, it } from 'vitest';
import { groupedValue } from './context.ts';
import { detectRedactions, windowRegions } from './detect.ts';
import type { ReadWord } from './locate.ts';

// Boxes are merged as they come: a new box that meets one already kept grows it, and the grown box
// may meet others, which are folded into it. Here the fourth box (C) meets the third (B); B grown
// by C meets the second (X), which sits before B in the list — folding X in used to shift B's index
// and the next comparison read past the end (TypeError in overlaps), so the image was never checked.
describe('detectRedactions merging boxes', () => {
  const words: ReadWord[] = [
    { text: 'AAAAAA', line: 1, x: 1000, y: 500, width: 100, height: 20 },
    { text: 'XXXXXX', line: 2, x: 450, y: 30, width: 100, height: 20 },
    { text: 'BBBBBB', line: 3, x: 400, y: 0, width: 100, height: 20 },
    { text: 'CCCCCC', line: 4, x: 280, y: 16, width: 110, height: 20 },
  ];
  const patterns = ['A{6}', 'X{6}', 'B{6}', 'C{6}'].map((pattern, i) => ({ name: `p${i}`, pattern }));

  it('folds a box that sits earlier in the list into the grown one, and keeps the rest', async () => {
    const out = await detectRedactions(words, { width: 1920, height: 1080 }, { categories: { keys: false, cards: false, banking: false, passwords: false, highEntropy: false, contact: false }, patterns });
    expect(out.skipped).toEqual([]);
    // A stands apart; X, B and C are one region that covers all three words.
    expect(out.regions).toHaveLength(2);
    const big = out.regions.find((r) => r.x < 400)!;
    for (const w of words.slice(1)) {
      expect(big.x).toBeLessThanOrEqual(w.x);
      expect(big.y).toBeLessThanOrEqual(w.y);
      expect(big.x + big.width).toBeGreaterThanOrEqual(w.x + w.width);
      expect(big.y + big.height).toBeGreaterThanOrEqual(w.y + w.height);
    }
    // No two regions meet.
    const [a, b] = out.regions;
    expect(a!.x < b!.x + b!.width && b!.x < a!.x + a!.width && a!.y < b!.y + b!.height && b!.y < a!.y + a!.height).toBe(false);
  });
});

// A password manager whose window sets only the legacy WM_NAME title (node-screenshots reports ""
// for it) or is known by its WM_CLASS alone is still an excluded app's window.
describe('windowRegions', () => {
  const size = { width: 1920, height: 1080 };
  it('knows an excluded window by any name the system gives it', () => {
    const win = { app: '', title: '', x: 100, y: 100, width: 800, height: 600 };
    expect(windowRegions([win], ['KeePassXC'], size)).toEqual([]);
    const legacy = windowRegions([{ ...win, names: ['Passwords.kdbx - KeePassXC'] }], ['KeePassXC'], size);
    expect(legacy).toEqual([{ x: 100, y: 100, width: 800, height: 600, kind: 'excluded window', rule: 'window:Passwords.kdbx - KeePassXC' }]);
    expect(windowRegions([{ ...win, names: ['keepassxc', 'KeePassXC'] }], ['KeePassXC'], size)).toHaveLength(1);
    expect(windowRegions([{ ...win, app: 'gedit', title: 'notes.txt', names: ['gedit', 'Gedit'] }], ['KeePassXC'], size)).toEqual([]);
  });

  it('fills a password field its window’s accessibility marked, whatever the excluded apps', () => {
    const field = { app: 'yad', title: 'password field', x: 125, y: 295, width: 168, height: 34, password: true as const };
    expect(windowRegions([field], [], size)).toEqual([{ x: 125, y: 295, width: 168, height: 34, kind: 'password', rule: 'accessibility:password text' }]);
    expect(windowRegions([{ ...field, x: 1900 }], ['KeePassXC'], size)).toEqual([{ x: 1900, y: 295, width: 20, height: 34, kind: 'password', rule: 'accessibility:password text' }]);
  });
});

// A settings form or a key-value table: the label in a cell of its own, its value in the next cell to
// the right. OCR reads the two cells as lines apart (a Grafana-like data source form: "Password" at
// one line, the value in its input box at the next), or as one line with no colon between them (an
// API client's headers table: "X-API-Key  9786e9…"), so neither the line rules nor the header and
// caption rules saw a label for the value. Words as tesseract read them from the held-out screens.
describe('detectRedactions: a value in the cell right of its label', () => {
  const size = { width: 1920, height: 1080 };
  const covers = (r: { x: number; y: number; width: number; height: number }, w: ReadWord) => r.x <= w.x && r.y <= w.y && r.x + r.width >= w.x + w.width && r.y + r.height >= w.y + w.height;
  const form: ReadWord[] = [
    { text: 'User', line: 1, x: 100, y: 205, width: 34, height: 16 },
    { text: 'grafana', line: 2, x: 300, y: 206, width: 62, height: 16 },
    { text: 'Password', line: 3, x: 100, y: 245, width: 70, height: 16 },
    { text: 'Summer69#t5oX', line: 4, x: 300, y: 246, width: 118, height: 16 },
    { text: 'Header', line: 5, x: 100, y: 285, width: 54, height: 16 },
    { text: 'X-API-Key', line: 5, x: 300, y: 285, width: 80, height: 16 },
    { text: '9786e9f91fa4b7f11815d16412a8f5a6', line: 5, x: 480, y: 285, width: 300, height: 16 },
  ];

  it('hides the value beside "Password" (a line of its own) and beside "X-API-Key" (the same line)', async () => {
    const out = await detectRedactions(form, size);
    const pw = form[3]!, key = form[6]!;
    expect(out.regions.some((r) => covers(r, pw))).toBe(true);
    expect(out.regions.some((r) => covers(r, key))).toBe(true);
    // The labels and the user name stay.
    for (const w of [form[0]!, form[1]!, form[2]!, form[5]!]) expect(out.regions.some((r) => covers(r, w))).toBe(false);
  });

  it('leaves a header row and words beside a label alone', async () => {
    const header: ReadWord[] = [
      { text: 'Password', line: 1, x: 100, y: 100, width: 70, height: 16 },
      { text: 'Last', line: 1, x: 300, y: 100, width: 30, height: 16 },
      { text: 'changed', line: 1, x: 336, y: 100, width: 60, height: 16 },
      { text: 'API', line: 2, x: 100, y: 400, width: 26, height: 16 },
      { text: 'key', line: 2, x: 132, y: 400, width: 26, height: 16 },
      { text: 'Created', line: 2, x: 300, y: 400, width: 56, height: 16 },
    ];
    expect((await detectRedactions(header, size)).regions).toEqual([]);
  });
});

// A sheet's header that names two things ("Password / PIN", "Username or password"): the joiner
// between its words cut the header into cells too close to stand alone, so no column was named and
// a focused cell's account number and a router's password leaked (words as tesseract read a Numbers
// sheet at 4K@2; the "]" is the focus ring's edge, read on the row beside the value).
describe('detectRedactions: a column whose header names two things', () => {
  const size = { width: 3840, height: 2160 };
  const w = (text: string, line: number, x: number, y: number, width: number, height = 16): ReadWord => ({ text, line, x, y, width, height });
  const sheet: ReadWord[] = [
    w('Service', 4, 74, 218, 88), w('Password', 6, 660, 218, 115), w('/', 6, 785, 218, 7, 18), w('PIN', 6, 802, 218, 39), w('Notes', 7, 986, 218, 69), w('Login', 5, 338, 218, 65, 20),
    w('Netflix', 8, 74, 268, 68), w('family@byron.name', 9, 336, 267, 221, 21), w('CopperHarbor8200', 10, 660, 269, 208, 20),
    w('Sparkasse', 11, 74, 318, 110, 20), w('card', 11, 193, 318, 46), w('Girocard', 12, 337, 318, 90), w('1678', 13, 660, 318, 53), w('PIN', 14, 986, 318, 32),
    w(']', 15, 944, 350, 20, 54), w('for', 15, 984, 368, 30), w('Grandma’s', 15, 1022, 368, 119), w('transfers', 15, 1150, 368, 96),
    w('Chase', 17, 74, 368, 65), w('checking', 17, 149, 368, 95, 20), w('routing', 18, 338, 368, 75, 20), w('061294253', 18, 423, 368, 123), w('849886658', 19, 659, 368, 124),
    w('iCloud', 21, 74, 417, 65), w('kids@byron.name', 22, 338, 418, 196, 20), w('FihEtnS#LMWm*Cv', 20, 660, 418, 211), w('Screen', 16, 985, 418, 73), w('Time', 16, 1067, 418, 52), w('code', 16, 1129, 418, 50),
    w('Router', 23, 74, 466, 71), w('admin', 24, 337, 466, 66), w('zkel40QOUXEGSONX', 25, 659, 465, 224, 19),
    w('same', 28, 659, 520, 58, 12), w('as', 28, 726, 520, 23, 12), w('Netflix', 28, 759, 516, 69), w('Disney+', 26, 74, 515, 90, 21),
  ];
  const covered = (out: { regions: { x: number; y: number; width: number; height: number }[] }, t: string) => {
    const word = sheet.find((x) => x.text === t)!;
    return out.regions.some((r) => r.x <= word.x + 2 && r.x + r.width >= word.x + word.width - 2 && r.y <= word.y + 2 && r.y + r.height >= word.y + word.height - 2);
  };

  it('hides each value under it, and nothing in the next column or a sentence in its own', async () => {
    const out = await detectRedactions(sheet, size);
    expect(covered(out, '849886658')).toBe(true);
    expect(covered(out, 'zkel40QOUXEGSONX')).toBe(true);
    for (const t of ['same', 'Netflix', 'for', 'Grandma’s', 'routing', 'Password', 'PIN']) expect(covered(out, t), t).toBe(false);
  });

  it('leaves a sentence whose words "or" joins, and what is under it', async () => {
    const sentence = [w('Reset', 1, 74, 218, 56), w('your', 1, 136, 218, 44), w('username', 1, 186, 218, 96), w('or', 1, 288, 218, 22), w('password', 1, 316, 218, 96), w('here', 1, 418, 218, 44), w('2026-12-01', 2, 316, 268, 110)];
    expect((await detectRedactions(sentence, size)).regions).toEqual([]);
  });
});

// An API client's environment (a Hoppscotch-like editor at 4K, a wide monospace type): a 256-digit
// hex token wrapped over six lines of its cell, a secret toggle ("👁 secret") a little more than a
// space after its first line. OCR cut the first line into six pieces 3–5 px apart, read a c as "¢"
// on the second, and the fourth again in scraps; the token's name is its row's first cell. Before,
// no line of it was hidden: the pieces were too many for a value, the toggle ran on from its cell,
// and the "¢" ended what could be more of it. Words as tesseract read them.
describe('detectRedactions: a long token wrapped in its cell, read in pieces', () => {
  const size = { width: 3840, height: 2160 };
  const w = (text: string, line: number, x: number, y: number, width: number, height = 25): ReadWord => ({ text, line, x, y, width, height });
  const cell: ReadWord[] = [
    w('base', 11, 2337, 255, 72, 27), w('url', 11, 2427, 255, 57, 33), w('https://cms.acme.io', 11, 2741, 256, 361, 31),
    w('strapi_token', 17, 2337, 328, 226, 32),
    w('482576b', 18, 2740, 328, 132), w('154', 18, 2877, 329, 53, 24), w('68', 18, 2934, 328, 53), w('6258h', 18, 2991, 328, 93), w('0bh5277d3955', 18, 3087, 328, 207), w('6Tfd8hA9fbdb6ca85h9', 18, 3299, 328, 323),
    w('~', 18, 3658, 329, 11, 30), w('secret', 18, 3685, 330, 97, 23), w('©', 18, 3797, 329, 11, 30),
    w('fe0f9393f5f104aea2c3cl19c6de673128ee3859¢c49531', 16, 2741, 374, 882),
    w('la221e7a4a6883a9f3607c9923a2dabbb5737199163af4', 19, 2742, 420, 881),
    w('y', 1010003, 3002, 467, 4, 7), w('[=', 1010003, 3010, 467, 15, 8), w('73', 1010001, 2922, 467, 26, 18), w('A240384db', 1010000, 2740, 466, 171), w('8hMec9350f28', 1010004, 3029, 466, 227),
    w('da3148845da4d95', 1010006, 3338, 466, 285), w('0049', 1010005, 3261, 467, 73), w('lary', 1010007, 3009, 474, 16, 10), w('caj', 1010002, 2953, 467, 47, 24), w('7', 1010008, 3012, 481, 14, 11),
    w('>', 1010009, 2940, 484, 4, 8), w('LJ', 1010010, 2917, 486, 5, 5),
    w('c062a9b5a728acc6228c866ablb2b2d3517aa85583e064', 21, 2740, 514, 882),
    w('9a69c980dc37ba3d712ddbl2a5', 22, 2740, 561, 495),
    w('directus_url', 23, 2336, 631, 200, 32), w('https://assets.acme.io', 24, 2741, 632, 400, 31),
  ];
  const covered = (regions: readonly { x: number; y: number; width: number; height: number }[], word: ReadWord) => regions.some((r) => r.x <= word.x + 4 && r.x + r.width >= word.x + word.width - 4 && r.y <= word.y + 4 && r.y + r.height >= word.y + word.height - 4);

  it('hides every line of it, and not its name, the toggle or the rows around it', async () => {
    const { regions } = await detectRedactions(cell, size);
    for (const y of [328, 374, 420, 514, 561]) for (const word of cell.filter((x) => x.y === y && x.x >= 2740 && x.x < 3640)) expect(covered(regions, word), word.text).toBe(true);
    for (const t of ['strapi_token', 'secret', 'https://cms.acme.io', 'https://assets.acme.io', 'directus_url']) expect(covered(regions, cell.find((x) => x.text === t)!), t).toBe(false);
  });

  it('joins a token OCR cut with no space between its pieces, and leaves words a space apart', async () => {
    const { joinTight } = await import('./context.ts');
    const first = joinTight(cell.filter((x) => x.line === 18)).map((x) => x.text);
    expect(first[0]).toBe('482576b154686258h0bh5277d39556Tfd8hA9fbdb6ca85h9');
    const prose = [w('Released', 1, 100, 100, 120), w('v2.11.0', 1, 230, 100, 100), w('on', 1, 340, 100, 30), w('2026-12-01', 1, 380, 100, 150), w('build', 1, 540, 100, 70), w('8f3a2b1c9d', 1, 620, 100, 150)];
    expect(joinTight(prose).map((x) => x.text)).toEqual(prose.map((x) => x.text));
  });
});

// A PBX's extension form (set K's FreePBX at 1080p): a help icon (ⓘ) between a field's label and its
// value, read as "©", made the label no cell of its own, and the voicemail PIN leaked. Words as
// tesseract read them.
describe('detectRedactions: an icon read as a sign between a label and its value', () => {
  const w = (text: string, line: number, x: number, y: number, width: number, height: number): ReadWord => ({ text, line, x, y, width, height });
  const form: ReadWord[] = [
    w('Voicemail', 9, 38, 300, 57, 10), w('PIN', 9, 101, 301, 17, 9), w('©', 9, 123, 300, 11, 11), w('1280', 9, 214, 305, 27, 9),
    w('Provisioning', 10, 27, 343, 71, 12), w('URL', 10, 105, 343, 20, 9), w('for', 10, 130, 342, 16, 10), w('the', 10, 151, 342, 18, 10), w('Yealink', 10, 175, 342, 40, 10),
  ];

  it('is no word: the value is read beside its label', async () => {
    const { regions } = await detectRedactions(form, { width: 1920, height: 1080 });
    expect(regions.some((r) => r.x <= 214 && r.x + r.width >= 241 && r.y <= 306)).toBe(true);
    expect(regions.every((r) => r.x > 120)).toBe(true);
  });
});

// A settings page in a forum screenshot (set L's OctoPrint, found on its end run): the input box's
// top edge, read as "-" on a line of its own between the caption "Global API Key" and the key, was
// taken for the caption's value, and the key under it leaked. Words as tesseract read them.
describe('detectRedactions: a field’s edge read as a sign between its caption and its value', () => {
  const w = (text: string, line: number, x: number, y: number, width: number, height: number): ReadWord => ({ text, line, x, y, width, height });
  const page: ReadWord[] = [
    w('Temperatures', 4, 67, 159, 75, 10), w('Global', 1000000, 206, 165, 34, 8), w('API', 1000000, 244, 165, 17, 8), w('Key', 1000000, 265, 165, 19, 10),
    w('ap', 5, 67, 180, 20, 8), w('-', 5, 205, 181, 5, 5), w('~', 5, 682, 181, 8, 5),
    w('692651D738AACECOCCS566D4056D6AOCE', 1000003, 213, 188, 211, 8), w('|', 1000004, 684, 194, 6, 12),
    w('Viebcam', 7, 67, 201, 47, 8), w('L', 7, 205, 200, 5, 6),
    w('Please', 8, 206, 211, 29, 7), w('note', 8, 239, 211, 20, 7), w('that', 8, 263, 211, 19, 7), w('changes', 8, 285, 211, 38, 9), w('te', 8, 327, 212, 9, 7), w('the', 8, 339, 211, 15, 7), w('API', 8, 357, 211, 14, 7), w('key', 8, 376, 211, 15, 9), w('are', 8, 395, 213, 14, 5), w('applied', 8, 413, 211, 33, 9), w('immediately.', 8, 450, 211, 59, 9),
  ];

  it('is no value: the key under it is the caption’s, and the note below stays', async () => {
    const { regions } = await detectRedactions(page, { width: 1920, height: 1080 });
    expect(regions.some((r) => r.x <= 214 && r.x + r.width >= 422 && r.y <= 189 && r.y + r.height >= 195)).toBe(true);
    expect(regions.some((r) => r.y + r.height > 212)).toBe(false);
  });
});

// A card number that wraps in a paragraph: an e-mail asks to "use the company card 4893" at the end
// of one line and goes on "1928 3805 4812, exp 07/29." on the next (as tesseract read the held-out
// e-mail screen). Each half alone is too short for a card; the halves are one number, boxed on each line.
describe('detectRedactions: a card number wrapped in a paragraph', () => {
  const size = { width: 1920, height: 1080 };
  const covers = (r: { x: number; y: number; width: number; height: number }, w: ReadWord) => r.x <= w.x && r.y <= w.y && r.x + r.width >= w.x + w.width && r.y + r.height >= w.y + w.height;
  const line = (texts: string[], line: number, y: number): ReadWord[] => {
    let x = 40;
    return texts.map((text) => {
      const w = { text, line, x, y, width: text.length * 9, height: 16 };
      x += w.width + 6;
      return w;
    });
  };
  const mail = [...line(['if', 'your', 'system', 'insists', 'on', 'a', 'card,', 'use', 'the', 'company', 'card', '4893'], 1, 178), ...line(['1928', '3805', '4812,', 'exp', '07/29.'], 2, 212)];

  it('hides both halves and leaves the words around them', async () => {
    const out = await detectRedactions(mail, size);
    for (const t of ['4893', '1928', '3805', '4812,']) expect(out.regions.some((r) => covers(r, mail.find((w) => w.text === t)!)), t).toBe(true);
    for (const t of ['company', 'exp', '07/29.', 'insists']) expect(out.regions.some((r) => covers(r, mail.find((w) => w.text === t)!)), t).toBe(false);
  });

  it('leaves numbers one a line alone when nothing says card', async () => {
    const rows = [...line(['Order', '4893'], 1, 100), ...line(['1928', '3805', '4812', 'shipped'], 2, 130)];
    expect((await detectRedactions(rows, size)).regions).toEqual([]);
  });
});

// Values with no label on their line, as tesseract read held-out set B's screens. A browser's saved
// passwords: site, user name and the revealed password, each cell read as a line of its own, and
// "Passwords" only as the page's heading — no header over the column (0 of 4 hidden before). A
// sticky note's "backup codes:" over two codes, one a line: the caption took only the first.
describe('detectRedactions: a password beside its login, a list under its caption', () => {
  const size = { width: 2560, height: 1440 };
  const covers = (r: { x: number; y: number; width: number; height: number }, w: ReadWord) => r.x <= w.x && r.y <= w.y && r.x + r.width >= w.x + w.width && r.y + r.height >= w.y + w.height;
  const hiddenOf = async (words: ReadWord[]) => {
    const out = await detectRedactions(words, size);
    return words.filter((w) => out.regions.some((r) => covers(r, w))).map((w) => w.text);
  };
  const saved: ReadWord[] = [
    { text: 'Passwords', line: 1, x: 61, y: 61, width: 102, height: 16 },
    { text: 'Search', line: 2, x: 61, y: 90, width: 45, height: 11 },
    { text: 'passwords', line: 2, x: 112, y: 90, width: 68, height: 11 },
    { text: 'github.com', line: 3, x: 75, y: 126, width: 77, height: 14 },
    { text: 'ada', line: 4, x: 560, y: 126, width: 28, height: 11 },
    { text: 'mail.', line: 5, x: 75, y: 159, width: 27, height: 14 },
    { text: 'example.org', line: 5, x: 107, y: 159, width: 84, height: 14 },
    { text: 'ada@example.org', line: 6, x: 560, y: 159, width: 125, height: 14 },
    { text: 'RLVOKSa=E1RP2q$T', line: 7, x: 1075, y: 161, width: 133, height: 14 },
    { text: 'bank', line: 8, x: 75, y: 193, width: 33, height: 13 },
    { text: 'example:', line: 8, x: 113, y: 193, width: 59, height: 13 },
    { text: 'adabyron', line: 9, x: 560, y: 193, width: 70, height: 13 },
    { text: 'routerlocal', line: 10, x: 75, y: 226, width: 74, height: 11 },
    { text: 'admin', line: 11, x: 560, y: 226, width: 42, height: 11 },
    { text: 'Tiger3o!1E98', line: 12, x: 1074, y: 228, width: 101, height: 14 },
    // A password with an @ whose ? OCR read as a space (another run of the same screen).
    { text: 'intranet.example', line: 13, x: 75, y: 259, width: 120, height: 11 },
    { text: 'ada', line: 14, x: 560, y: 259, width: 28, height: 11 },
    { text: 'Jj', line: 15, x: 1074, y: 261, width: 16, height: 14 },
    { text: '756@Xe+UcQ$2', line: 15, x: 1096, y: 261, width: 100, height: 14 },
  ];

  it("hides a revealed password in a row beside its site and user name, and nothing else of the table", async () => {
    expect(await hiddenOf(saved)).toEqual(['RLVOKSa=E1RP2q$T', 'Tiger3o!1E98', 'Jj', '756@Xe+UcQ$2']);
  });

  it('leaves identifiers, versions, names and pod names in a table beside a login alone', async () => {
    const row = (texts: string[], line: number, y: number): ReadWord[] => texts.map((text, i) => ({ text, line: line * 10 + i, x: 75 + i * 400, y, width: text.length * 9, height: 14 }));
    const table = [
      ...row(['ada@example.org', 'getUser2ById', 'MIT'], 1, 100),
      ...row(['github.com', 'v2.31.0-rc1', 'base64Url'], 2, 140),
      ...row(['admin', 'api-7d9f8b6c5d-x2k4p', 'Running'], 3, 180),
      ...row(['ada', 'ORD-7Q2KX9PLM4', 'Shipped'], 4, 220),
      ...row(['linus', 'Falcon54', '2026-12-05T09:12:33Z'], 5, 260),
      ...row(['grace', '9f86d081884c7d659a2feaa0c55ad015', 'sha256'], 6, 300),
    ];
    expect(await hiddenOf(table)).toEqual([]);
  });

  it('hides each code of a list under "backup codes:", the Wi-Fi key and the PIN of a note', async () => {
    const note: ReadWord[] = [
      { text: 'office', line: 1, x: 79, y: 83, width: 45, height: 13 },
      { text: 'wifi:', line: 1, x: 130, y: 83, width: 35, height: 13 },
      { text: 'RIVOKSa=EIRP2q$1', line: 1, x: 173, y: 83, width: 168, height: 13 },
      { text: 'vpn', line: 2, x: 78, y: 107, width: 31, height: 13 },
      { text: 'pin', line: 2, x: 115, y: 107, width: 26, height: 13 },
      { text: '662180', line: 2, x: 148, y: 107, width: 62, height: 13 },
      { text: 'backup', line: 3, x: 78, y: 132, width: 61, height: 17 },
      { text: 'codes:', line: 3, x: 146, y: 132, width: 52, height: 17 },
      { text: '9973-3615', line: 4, x: 79, y: 156, width: 89, height: 13 },
      { text: '3848-8072', line: 5, x: 79, y: 180, width: 89, height: 13 },
      { text: 'Keep', line: 6, x: 79, y: 204, width: 40, height: 13 },
      { text: 'them', line: 6, x: 125, y: 204, width: 40, height: 13 },
      { text: 'safe', line: 6, x: 171, y: 204, width: 36, height: 13 },
    ];
    expect(await hiddenOf(note)).toEqual(['RIVOKSa=EIRP2q$1', '662180', '9973-3615', '3848-8072']);
  });
});

// Prose about passwords as tesseract read it on the tuned corpus's docs page (two renderings): a
// label at a sentence's start is no column header ("Password:" before "must be at least…", its box
// short of the colon), and OCR's overlapping boxes in a proportional font ("after" over "3") do not
// close the sentence up into one value ("expresafter3days;").
describe('prose after a label', () => {
  const read = (rows: Array<[string, number, number, number, number, number]>): ReadWord[] => rows.map(([text, line, x, y, width, height]) => ({ text, line, x, y, width, height }));
  it('hides nothing in a paragraph about passwords and tokens', async () => {
    for (const rows of [
      [['Password:', 1, 80, 87, 53, 9], ['must', 1, 140, 75, 23, 31], ['be', 1, 166, 75, 11, 31], ['at', 1, 182, 88, 9, 8], ['least', 1, 195, 87, 23, 9], ['12', 1, 222, 87, 11, 9], ['characters', 1, 236, 87, 54, 9], ['and', 1, 293, 87, 20, 9], ['may', 1, 317, 90, 22, 7], ['not', 1, 342, 88, 17, 8], ['contain', 1, 362, 89, 39, 7], ['your', 1, 405, 90, 24, 7], ['user', 1, 433, 90, 22, 6], ['name', 1, 458, 90, 29, 6], ['Token:', 2, 80, 114, 32, 9], ['expres', 2, 118, 117, 38, 9], ['after', 2, 159, 114, 69, 12], ['3', 2, 188, 101, 8, 32], ['days;', 2, 204, 114, 24, 12], ['create', 2, 232, 116, 30, 7], ['a', 2, 266, 117, 5, 6], ['new', 2, 275, 117, 20, 6], ['one', 2, 300, 117, 19, 6], ['from', 2, 323, 114, 25, 9], ['the', 2, 352, 114, 15, 9], ['settings', 2, 371, 115, 41, 12], ['page.', 2, 415, 117, 24, 10], ['API', 3, 80, 142, 20, 9], ['key:', 3, 104, 142, 20, 12], ['se', 3, 128, 145, 16, 6], ['the', 3, 148, 142, 16, 9], ['Developers', 3, 168, 142, 58, 12], ['page.', 3, 230, 145, 24, 10], ['Secret:', 3, 261, 142, 31, 9], ['never', 3, 299, 145, 29, 6], ['paste', 3, 331, 143, 27, 11], ['it', 3, 362, 143, 6, 8], ['nto', 3, 372, 144, 20, 7], ['a', 3, 396, 145, 5, 6], ['ticket', 3, 405, 142, 31, 9], ['Set', 4, 80, 169, 16, 9], ['passwordVinLength', 4, 99, 169, 110, 13], ['=', 4, 213, 173, 7, 4], ['12', 4, 224, 169, 11, 9], ['and', 4, 238, 169, 20, 9], ['tokenTtlSeconds', 4, 262, 169, 86, 9], ['=', 4, 352, 173, 6, 4], ['3600', 4, 362, 169, 23, 9], ['in', 4, 389, 172, 10, 6], ['the', 4, 403, 169, 15, 9], ['conf', 4, 422, 169, 32, 13]],
      [['Password:', 1, 80, 87, 50, 9], ['must', 1, 140, 89, 23, 7], ['be', 1, 166, 75, 11, 31], ['at', 1, 182, 89, 9, 7], ['least', 1, 195, 87, 23, 9], ['12', 1, 223, 87, 10, 9], ['characters', 1, 236, 87, 54, 9], ['and', 1, 293, 87, 19, 9], ['may', 1, 317, 90, 22, 7], ['not', 1, 342, 89, 17, 7], ['contain', 1, 362, 89, 39, 7], ['your', 1, 405, 90, 24, 7], ['user', 1, 433, 90, 22, 6], ['name', 1, 458, 90, 29, 6], ['Tokens', 2, 80, 114, 32, 9], ['expires', 2, 118, 117, 37, 9], ['after', 2, 159, 114, 39, 9], ['3', 2, 188, 101, 8, 32], ['days;', 2, 202, 114, 26, 12], ['create', 2, 232, 116, 30, 7], ['a', 2, 266, 117, 5, 6], ['new', 2, 275, 117, 20, 6], ['one', 2, 300, 117, 19, 6], ['from', 2, 323, 114, 25, 9], ['the', 2, 352, 114, 15, 9], ['settings', 2, 371, 116, 40, 11], ['page.', 2, 415, 117, 24, 10], ['APT', 3, 80, 142, 20, 9], ['key:', 3, 104, 142, 18, 12], ['se', 3, 128, 145, 16, 6], ['the', 3, 148, 142, 16, 9], ['Developers', 3, 168, 142, 58, 12], ['page.', 3, 230, 145, 24, 9], ['Secret', 3, 261, 142, 31, 9], ['never', 3, 299, 145, 29, 6], ['paste', 3, 331, 144, 27, 10], ['it', 3, 362, 144, 6, 7], ['into', 3, 372, 144, 20, 7], ['a', 3, 396, 145, 5, 6], ['ticket,', 3, 405, 142, 28, 9], ['Set', 4, 80, 169, 16, 9], ['passwordVinLength', 4, 100, 169, 109, 13], ['=', 4, 213, 173, 6, 4], ['12', 4, 224, 169, 11, 9], ['and', 4, 238, 169, 19, 9], ['tokenTtSeconds', 4, 262, 169, 86, 9], ['=', 4, 352, 173, 6, 4], ['3600', 4, 362, 169, 23, 9], ['in', 4, 389, 172, 10, 6], ['the', 4, 403, 169, 15, 9], ['confi', 4, 422, 169, 32, 13]],
    ] as Array<Array<[string, number, number, number, number, number]>>) {
      const out = await detectRedactions(read(rows), { width: 1280, height: 800 });
      expect(out.regions).toEqual([]);
    }
  });
});

// package-lock.json on a 4K@2 screen as tesseract read it: the integrity string in scraps ("shab512",
// "AvIWCUXeBdNo/t", "rxbldSY¥"…), each scrap a cell of its own, one reading like a password and
// another like a login beside it — a saved-passwords row to the credential-row rule, but the row
// says "integrity".
describe('a lock file row read in scraps', () => {
  it('is not a saved password', async () => {
    const rows: Array<[string, number, number, number, number, number]> = [
      ['"integrity":', 57, 651, 1108, 192, 28], ['AvIWCUXeBdNo/t', 57, 1002, 1109, 233, 24], ['7/E', 57, 1408, 1109, 23, 25], ['BAYyV02]', 57, 1688, 1110, 136, 27], ['zHmMOPPNIBOj', 57, 1864, 1109, 177, 27], ['yWQgX0Grwk6QYefHSHLINngDQ:', 57, 2048, 1109, 408, 28],
      ['26', 63, 481, 1109, 31, 21], ['shab512', 63, 886, 1109, 96, 22], ['rxbldSY¥', 63, 1243, 1109, 122, 22], ['‘nD', 63, 1366, 1110, 38, 21], ['-6bR3RKtcPIs+F', 63, 1434, 1109, 228, 22], ['[', 63, 1831, 1110, 5, 14],
    ];
    const words: ReadWord[] = rows.map(([text, line, x, y, width, height]) => ({ text, line, x, y, width, height }));
    const out = await detectRedactions(words, { width: 3840, height: 2160 });
    expect(out.regions.filter((r) => r.rule === 'credential row')).toEqual([]);
  });

  // The same screen's key-value lines, each read as one word ('"version":"2.11.0",', its quotes curly
  // now and then) beside a package's name: a key and its value, not a saved password beside a login;
  // nor a block explorer's hex address read in part ('0x9£2492b0508').
  it('a key and its value read as one word is not a saved password', async () => {
    const rows: Array<[string, number, number, number, number, number]> = [
      ['tslib', 1, 300, 325, 80, 30], ['"version":"2.11.0",', 2, 732, 325, 394, 30],
      ['react', 3, 300, 603, 80, 30], ['"version":', 4, 730, 603, 180, 31], ['"8.5.3",', 4, 916, 603, 120, 31],
      ['acme', 5, 300, 186, 80, 30], ['"lockfileVersion":', 6, 655, 186, 330, 31], ['Br', 6, 990, 186, 40, 31],
      ['tslib', 7, 300, 700, 80, 30], ['“version”:', 8, 730, 700, 180, 31], ['"2.19.1",', 8, 916, 700, 140, 31],
      ['ada', 9, 300, 800, 60, 30], ['0x9£2492b0508', 10, 730, 800, 200, 31],
    ];
    const words: ReadWord[] = rows.map(([text, line, x, y, width, height]) => ({ text, line, x, y, width, height }));
    const out = await detectRedactions(words, { width: 3840, height: 2160 });
    expect(out.regions.filter((r) => r.rule === 'credential row')).toEqual([]);
  });
});

// A config page's variables as tesseract read set C's Heroku-like page at 1440p: each name's box and
// each value's box a line of its own, nothing between them — no label rule sees a name beside the
// value, and a hex value reads as a hash. The row joins them: the nearest cell to the left names it.
describe('detectRedactions: a value whose name is the cell to its left', () => {
  const covers = (r: { x: number; y: number; width: number; height: number }, w: ReadWord) => r.x <= w.x && r.y <= w.y && r.x + r.width >= w.x + w.width && r.y + r.height >= w.y + w.height;
  const rows: Array<[string, number, number, number, number, number]> = [
    ['MATLGUN', 5, 49, 175, 50, 30], ['APT_KEY', 5, 107, 188, 49, 9], ['key-bead5a13b£a10£098bd681473979843', 5, 276, 187, 257, 10], ['7', 5, 844, 184, 6, 6],
    ['SECRET_KEY_BASE', 6, 50, 225, 107, 10], ['STRIPE_WEBHOOK_SECRET', 7, 50, 262, 150, 10], ['TWILIO_ACCOUNT_SID', 8, 50, 300, 129, 10],
    ['98324d3£3d55be56de56ee8d25424e44e130aa9c5d0aad28265e9b0aleldlela', 9, 277, 224, 459, 9], ['whsec_hfBWf4IplKCezhnncgHcKpBrONJWSXaf', 10, 276, 261, 273, 11],
    ['ACab19a579c0£fe25607£3300877c38cc1d', 11, 275, 299, 245, 9], ['TWILIO_AUTH_TOKEN', 15, 50, 337, 122, 10], ['WEB_CONCURRENCY', 16, 49, 375, 108, 10],
    ['SENTRY_ENVIRONMENT', 17, 50, 412, 129, 10], ['al75e52ebbb41bB8cdlcc7548a43175a0', 18, 276, 336, 229, 9], ['2', 19, 276, 374, 6, 9], ['production', 20, 275, 411, 72, 11],
    ['ADMIN_PASSWORD', 24, 49, 449, 100, 9], ['~8=JFKETYEIGhL', 25, 276, 448, 99, 10],
    // The same for a public hash: a commit's row keeps its value.
    ['LAST_COMMIT_SHA', 30, 50, 487, 110, 10], ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b', 31, 276, 486, 290, 10],
  ];
  const words: ReadWord[] = rows.map(([text, line, x, y, width, height]) => ({ text, line, x, y, width, height }));
  it('hides each value named secret by the cell on its left, and leaves the names, an id, a hash and plain settings', async () => {
    const out = await detectRedactions(words, { width: 2560, height: 1440 });
    const hidden = words.filter((w) => out.regions.some((r) => covers(r, w))).map((w) => w.text);
    for (const t of ['key-bead5a13b£a10£098bd681473979843', '98324d3£3d55be56de56ee8d25424e44e130aa9c5d0aad28265e9b0aleldlela', 'al75e52ebbb41bB8cdlcc7548a43175a0', '~8=JFKETYEIGhL']) expect(hidden, t).toContain(t);
    for (const t of ['SECRET_KEY_BASE', 'TWILIO_AUTH_TOKEN', 'ADMIN_PASSWORD', 'TWILIO_ACCOUNT_SID', '2', 'production', '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b']) expect(hidden, t).not.toContain(t);
  });
});

// A value with nothing on its line that names it, where the words just before it do — as tesseract
// read held-out set C's screens (0 of these hidden before): a Wi-Fi dialog's key beside "Network
// security key" (the field's border read as "|") or alone under it when OCR garbled the caption; a
// credential prompt's revealed password under "Enter your credentials" and the account; a temporary
// password in a box of its own under the e-mail's sentence; an authenticator's base32 key in groups
// of four and its six-digit code; recovery codes under a heading with a paragraph between; a TOTP
// under its caption with a countdown beside it; a password in a short chat reply.
describe('detectRedactions: a lone value named by the words near it', () => {
  type Row = [string, number, number, number, number, number];
  const read = (rows: Row[]): ReadWord[] => rows.map(([text, line, x, y, width, height]) => ({ text, line, x, y, width, height }));
  // Across the word's whole width, at its middle (a box is fitted to the line's letters, not OCR's box).
  const covers = (r: { x: number; y: number; width: number; height: number }, w: ReadWord) => r.x <= w.x && r.x + r.width >= w.x + w.width && r.y <= w.y + w.height / 2 && r.y + r.height >= w.y + w.height / 2;
  const hiddenOf = async (rows: Row[], size = { width: 1920, height: 1080 }) => {
    const words = read(rows);
    const out = await detectRedactions(words, size);
    return words.filter((w) => out.regions.some((r) => covers(r, w))).map((w) => w.text);
  };

  it('hides a Wi-Fi dialog’s key beside its caption, or under it when OCR garbled the caption', async () => {
    const dialog = (key: Row[]): Row[] => [
      ['Connection', 1, 92, 128, 77, 11], ['Security', 1, 184, 128, 65, 14],
      ['Security', 2, 92, 160, 56, 14], ['type:', 2, 153, 161, 35, 13], ['|', 2, 241, 152, 9, 34], ['NPA2-Personal', 2, 256, 163, 100, 11],
      ['Encryption', 3, 92, 194, 73, 14], ['type:', 3, 171, 195, 34, 13], ['[mes', 3, 241, 186, 46, 34],
      ...key,
      ['@', 9, 92, 263, 10, 10], ['Show', 9, 109, 262, 36, 11], ['characters', 9, 151, 262, 73, 11],
    ];
    expect(await hiddenOf(dialog([['Network', 6, 92, 228, 57, 11], ['security', 6, 155, 228, 54, 14], ['key', 6, 215, 228, 23, 14], ['|', 6, 242, 219, 7, 35], ['19celZPJeEYVRLC', 6, 256, 232, 118, 13]]))).toContain('19celZPJeEYVRLC');
    expect(await hiddenOf(dialog([['Network', 7, 91, 228, 49, 43], ['securty', 7, 146, 228, 47, 43], ['bey', 7, 196, 228, 19, 43], ['|', 7, 331, 228, 4, 43], ['quartzfalcon72', 8, 232, 248, 88, 13]]))).toContain('quartzfalcon72');
    // A generated key of letters alone, both cases changing often.
    expect(await hiddenOf(dialog([['Network', 6, 92, 228, 57, 11], ['security', 6, 155, 228, 54, 14], ['key', 6, 215, 228, 23, 14], ['|', 6, 242, 219, 7, 35], ['QfbhwWBeRnoaR', 6, 256, 232, 104, 13]]))).toContain('QfbhwWBeRnoaR');
    // The security type above is not a key, nor a name in camelCase or with an acronym.
    expect(await hiddenOf(dialog([]))).toEqual([]);
    expect(await hiddenOf(dialog([['Network', 6, 92, 228, 57, 11], ['security', 6, 155, 228, 54, 14], ['key', 6, 215, 228, 23, 14], ['|', 6, 242, 219, 7, 35], ['PostgreSQL', 6, 256, 232, 80, 13]]))).toEqual([]);
  });

  it('hides a credential prompt’s revealed password, and leaves the account and the server', async () => {
    const prompt: Row[] = [
      ['windows', 0, 120, 124, 64, 11], ['Security', 0, 190, 124, 58, 14],
      ['Enter', 1, 121, 156, 44, 13], ['network', 1, 172, 155, 66, 14], ['credentials', 1, 245, 155, 91, 14],
      ['Enter', 2, 121, 188, 31, 9], ['your', 2, 156, 190, 27, 10], ['credentials', 2, 187, 187, 66, 10], ['to', 2, 257, 188, 11, 9], ['connect', 2, 273, 188, 47, 9], ['to:', 2, 325, 188, 11, 9], ['fileserver01', 2, 344, 187, 71, 10],
      ['ACMB\\ada', 3, 127, 222, 60, 12], ['byron', 3, 192, 222, 33, 13],
      ['L', 4, 120, 240, 4, 5], ['B', 5, 464, 232, 25, 50],
      ['Falcon79!wMaz', 6, 128, 259, 91, 10],
      ['L', 7, 120, 276, 4, 6], ['0', 8, 121, 292, 9, 9], ['Remember', 8, 135, 291, 66, 10], ['my', 8, 205, 294, 18, 10], ['credentials', 8, 227, 291, 66, 10],
    ];
    expect(await hiddenOf(prompt, { width: 2560, height: 1440 })).toEqual(['Falcon79!wMaz']);
    // At 4K@2 (13 px): the password read in touching pieces with a sign OCR made a \ or a ), and the
    // field's eye icon at its far end read as "ou".
    const at4k = (value: Row[]): Row[] => [
      ['Enter', 2, 242, 382, 70, 20], ['your', 2, 319, 382, 60, 20], ['credentials', 2, 386, 382, 140, 20], ['to', 2, 537, 382, 25, 20], ['connect', 2, 572, 382, 100, 20], ['to:', 2, 683, 382, 35, 20], ['fileserver01', 2, 727, 382, 150, 20],
      ['ACME\\ada.byron', 3, 254, 454, 190, 26],
      ...value, ['ou', 7, 1016, 544, 13, 13],
      ['O', 8, 242, 600, 20, 21], ['Remember', 8, 274, 600, 140, 21], ['my', 8, 425, 600, 40, 21], ['credentials', 8, 473, 600, 150, 21],
    ];
    expect(await hiddenOf(at4k([['Gap$x4\\', 7, 256, 533, 112, 25], ["'Mqbru", 7, 368, 533, 86, 25]]), { width: 3840, height: 2160 })).toEqual(['Gap$x4\\', "'Mqbru"]);
    expect(await hiddenOf(at4k([['ncnp44VKg)l', 7, 257, 533, 162, 25], ['RY', 7, 420, 533, 33, 19]]), { width: 3840, height: 2160 })).toEqual(['ncnp44VKg)l', 'RY']);
    // Its ^ read as a quote: '2i^R63xBiW^V42TB7'.
    const misread = prompt.map((r): Row => (r[0] === 'Falcon79!wMaz' ? ['2i"R63xBiW"~V42TB7', r[1], r[2], r[3], 130, r[5]] : r));
    expect(await hiddenOf(misread, { width: 2560, height: 1440 })).toEqual(['2i"R63xBiW"~V42TB7']);
  });

  it('hides a temporary password in a box of its own under the sentence about it', async () => {
    const mail: Row[] = [
      ['Your', 1, 232, 60, 45, 13], ['temporary', 1, 284, 60, 106, 17], ['password', 1, 398, 59, 94, 18],
      ['Hello', 5, 233, 122, 29, 10], ['Ada,', 5, 266, 122, 26, 11],
      ...['Your', 'account', 'password', 'was', 'reset', 'at', 'your', 'request.', 'Sign', 'in', 'with', 'the', 'temporary', 'password', 'below;', 'you', 'will', 'be'].map((t, i): Row => [t, 6, 232 + i * 36, 150, 32, 10]),
      ...['asked', 'to', 'choose', 'a', 'new', 'one.'].map((t, i): Row => [t, 7, 233 + i * 30, 167, 26, 10]),
      ['Falcon79!wMaz', 8, 504, 210, 119, 10],
      ...['This', 'message', 'was', 'sent', 'automatically.', 'Do', 'not', 'reply.'].map((t, i): Row => [t, 11, 232 + i * 40, 303, 36, 10]),
    ];
    expect(await hiddenOf(mail, { width: 2560, height: 1440 })).toEqual(['Falcon79!wMaz']);
  });

  it('hides an authenticator’s key in groups of four and the code under "enter the code"', async () => {
    const phone: Row[] = [
      ['Set', 0, 52, 159, 88, 37], ['up', 0, 162, 168, 64, 37], ['authenticator', 0, 248, 157, 380, 39], ['app', 0, 647, 167, 100, 38],
      ...["Can't", 'scan', 'the', 'QR', 'code?', 'Enter', 'this', 'key', 'in', 'your', 'app', 'instead:'].map((t, i): Row => [t, 1, 50 + i * 82, 260, 70, 26]),
      ['ITXN', 2, 88, 384, 74, 19], ['70PE', 3, 186, 382, 75, 20], ['MHEP', 3, 282, 383, 76, 19], ['CMYJ', 3, 383, 383, 78, 20], ['GBNS', 4, 482, 383, 75, 20], ['ZJGV', 4, 582, 383, 76, 20], ['RYGX', 4, 679, 383, 78, 20], ['OY7H', 4, 778, 382, 78, 20],
      ['Time', 5, 48, 511, 79, 26], ['based', 5, 142, 511, 94, 26], ['-', 5, 253, 523, 3, 4], ['6', 5, 272, 512, 17, 25], ['digits', 5, 304, 511, 87, 33],
      ...['Then', 'enter', 'the', 'code', 'your', 'app', 'shows:'].map((t, i): Row => [t, 6, 48 + i * 90, 607, 80, 26]),
      ['Ve', 7, 48, 678, 24, 26], ['RY', 8, 1096, 678, 26, 26],
      ['713421', 9, 84, 724, 221, 33],
      ['|', 10, 48, 776, 24, 28], ['J', 11, 1096, 776, 26, 28],
    ];
    expect(await hiddenOf(phone, { width: 1170, height: 2532 })).toEqual(['ITXN', '70PE', 'MHEP', 'CMYJ', 'GBNS', 'ZJGV', 'RYGX', 'OY7H', '713421']);
  });

  it('hides the key and the code when OCR read them in pieces (the phone screen at 16 px)', async () => {
    // The key's row read as three lines with icon scraps between, its last group wrapped; the code's
    // spaced digits read as "2 7 342" with its 1 read as "-", lines apart.
    const phone: Row[] = [
      ...["Can't", 'scan', 'the', 'QR', 'code?', 'Enter', 'this', 'key', 'in', 'your'].map((t, i): Row => [t, 0, 50 + i * 110, 312, 100, 37]),
      ['app', 1, 50, 390, 94, 36], ['instead:', 1, 162, 381, 176, 37],
      ['=', 2, 912, 538, 7, 7], ['y', 3, 896, 537, 4, 11], ['4', 3, 905, 538, 3, 10],
      ['6ITX', 4, 87, 537, 112, 37], ['C', 4, 810, 538, 10, 20], ['/.', 4, 839, 538, 37, 36],
      ['N70P', 5, 232, 537, 110, 37], ['EMHE', 5, 378, 538, 108, 35], ['PCMY', 5, 522, 537, 110, 37], ['JGBN', 5, 665, 537, 109, 37],
      ['VRYG', 9, 952, 537, 112, 37], ['oY', 10, 822, 553, 11, 11], ['\\', 11, 897, 562, 12, 12], ['v', 13, 822, 564, 4, 12],
      ['X0Y7', 15, 85, 609, 111, 37],
      ['Time', 16, 48, 747, 105, 37], ['based', 16, 171, 747, 143, 37], ['-', 16, 335, 766, 4, 6], ['6', 16, 358, 747, 24, 37], ['digits', 16, 399, 747, 116, 46],
      ...['Then', 'enter', 'the', 'code', 'your', 'app', 'shows:'].map((t, i): Row => [t, 17, 48 + i * 120, 864, 110, 37]),
      ['Va', 18, 48, 957, 24, 27], ['~', 19, 1096, 957, 26, 27],
      ['-', 20, 197, 1001, 13, 15], ['2', 21, 83, 1000, 30, 47], ['7', 21, 138, 1001, 27, 46], ['342', 23, 243, 1000, 136, 48],
    ];
    const hidden = await hiddenOf(phone, { width: 1170, height: 2532 });
    for (const t of ['6ITX', 'N70P', 'EMHE', 'PCMY', 'JGBN', 'VRYG', 'X0Y7', '2', '7', '342']) expect(hidden, t).toContain(t);
    // Another draw at 14 px: a small letter and a ] in the key's groups ('KwJV', '4]5Y').
    const other: Row[] = [
      ...["Can't", 'scan', 'the', 'QR', 'code?', 'Enter', 'this', 'key', 'in', 'your'].map((t, i): Row => [t, 0, 50 + i * 110, 280, 100, 32]),
      ['app', 1, 50, 353, 90, 32], ['instead:', 1, 150, 353, 160, 32],
      ...'YPPF IRGC WPZ4 KwJV Q2RA 4]5Y NWEL XAAP'.split(' ').map((t, i): Row => [t, 2, 85 + i * 127, 494, 100, 32]),
      ['Time', 3, 49, 632, 95, 32], ['based', 3, 155, 632, 120, 32], ['6', 3, 304, 632, 22, 32], ['digits', 3, 338, 632, 100, 40],
    ];
    expect(await hiddenOf(other, { width: 1170, height: 2532 })).toEqual(['YPPF', 'IRGC', 'WPZ4', 'KwJV', 'Q2RA', '4]5Y', 'NWEL', 'XAAP']);
    expect(hidden.filter((t) => /^[a-z]{3,}/i.test(t) && !/^[A-Z0-9]{4}$/.test(t))).toEqual([]);
  });

  // A table of recovery keys (set G's BitLocker page, as tesseract read it at 1440p): its column's
  // header says "Recovery key"; the next column's "Key ID" is public, and so are the devices' names.
  it('hides the values in a column headed "Recovery key", and leaves the key ids and the devices', async () => {
    const table: Row[] = [
      ['Device', 3, 56, 132, 47, 11], ['name', 3, 108, 135, 38, 8], ['Key', 4, 202, 132, 26, 14], ['ID', 4, 233, 132, 13, 11], ['Recovery', 6, 305, 132, 93, 14], ['key', 6, 375, 122, 27, 31],
      ['29CAE85C', 5, 202, 167, 70, 9], ['48213-90177', 7, 303, 167, 110, 11], ['GRACE-LAPTOP', 8, 56, 167, 115, 11],
      ['818A3448', 10, 203, 202, 69, 9], ['ADA-DESKTOP', 9, 55, 202, 105, 11], ['WXR7Q-4K2PM', 11, 304, 202, 110, 11],
    ];
    expect(await hiddenOf(table, { width: 2560, height: 1440 })).toEqual(['48213-90177', 'WXR7Q-4K2PM']);
  });

  // An emergency kit in a PDF reader (set G, 1440p 16 px): the secret key under its caption, read
  // with a space either side of some of its dashes — four pieces, which no value under a caption was.
  it('hides a key in dashed groups under its caption when OCR put spaces around its dashes', async () => {
    const kit: Row[] = [
      ['SECRET', 9, 941, 335, 53, 10], ['KEY', 9, 1000, 335, 25, 10],
      ['A3-CTNZNB-JHSSRQ-', 10, 951, 369, 385, 14], ['LLKSV', 10, 1130, 369, 60, 14], ['-', 10, 1196, 375, 8, 3], ['5VSH-V87WA-APYMD', 10, 1210, 369, 126, 14],
      ['MASTER', 11, 941, 412, 60, 12], ['PASSWORD', 11, 1006, 412, 80, 12], ['(write', 11, 1092, 412, 40, 13], ['it', 11, 1136, 412, 10, 12], ['by', 11, 1150, 412, 16, 13], ['hand)', 11, 1170, 412, 40, 13],
    ];
    expect(await hiddenOf(kit, { width: 2560, height: 1440 })).toEqual(['A3-CTNZNB-JHSSRQ-', 'LLKSV', '-', '5VSH-V87WA-APYMD']);
  });

  it('hides recovery codes under their heading with a paragraph between, and leaves the paragraph', async () => {
    const page: Row[] = [
      ['Two-factor', 0, 580, 46, 125, 16], ['recovery', 0, 714, 50, 101, 16], ['codes', 0, 824, 46, 67, 16],
      ...['Recovery', 'codes', 'can', 'be', 'used', 'to', 'access', 'your', 'account', 'in', 'the', 'event', 'you', 'lose', 'access'].map((t, i): Row => [t, 1, 581 + i * 50, 85, 44, 11]),
      ...['receive', 'two-factor', 'authentication', 'codes.'].map((t, i): Row => [t, 2, 581 + i * 80, 105, 72, 11]),
      ...['Keep', 'your', 'recovery', 'codes', 'as', 'safe', 'as', 'your', 'password.', 'We', 'recommend', 'saving', 'them'].map((t, i): Row => [t, 3, 624 + i * 52, 161, 46, 12]),
      ['manager.', 4, 606, 183, 65, 12],
      ['«', 5, 968, 226, 5, 5], ['409d3-fb6da', 5, 990, 221, 100, 12], ['*', 6, 597, 230, 5, 5], ['9b6f7-72632', 6, 619, 225, 100, 12],
      ['+', 7, 968, 252, 5, 5], ['febed-el0d4', 7, 990, 247, 100, 12], ['»', 8, 597, 256, 5, 5], ['716c4-3069c', 8, 619, 251, 100, 12],
      ['»', 9, 968, 278, 5, 5], ['eB8eb2-af2f2', 9, 990, 273, 100, 12], ['»', 10, 597, 282, 5, 5], ['43a8c-3b7cf', 10, 619, 277, 100, 12],
      ['+', 11, 968, 305, 5, 5], ['6165a-881lcd', 11, 990, 300, 99, 12], ['*', 12, 597, 309, 5, 5], ['3c256-32b92', 12, 619, 304, 100, 12],
      ['(Download', 13, 580, 354, 68, 18], ['Print', 14, 658, 354, 31, 18], ['Copy', 15, 694, 356, 36, 18],
    ];
    const hidden = await hiddenOf(page);
    expect(hidden.filter((t) => /\d/.test(t))).toEqual(['409d3-fb6da', '9b6f7-72632', 'febed-el0d4', '716c4-3069c', 'eB8eb2-af2f2', '43a8c-3b7cf', '6165a-881lcd', '3c256-32b92']);
    expect(hidden.filter((t) => /^[A-Za-z.(]+$/.test(t))).toEqual([]);
  });

  // An e-mail's backup codes in two columns of two groups of four digits, at 4K@2 in 13 px type: a
  // line of digits is as tall as a digit, and the space between a code's groups (20–21 px) is more
  // than 1.2 times that (17 px), so each group was taken for a column of its own and no code for one
  // (6 of 8 left in view).
  it('hides backup codes of two groups of digits whose space is wider than a digit is tall', async () => {
    const mail: Row[] = [
      ...['Backup', 'codes', 'for', 'multi-factor', 'sign-in,', 'each', 'works', 'once:'].map((t, i): Row => [t, 1, 941 + i * 90, 556, 80, 21]),
      ['1981', 2, 971, 608, 57, 17], ['4433', 2, 1048, 608, 58, 17], ['0842', 3, 1167, 608, 57, 17], ['0024', 3, 1245, 608, 57, 17],
      ['5455', 4, 970, 656, 58, 17], ['3387', 4, 1049, 656, 56, 17], ['2661', 5, 1166, 656, 58, 17], ['1407', 5, 1245, 656, 57, 17],
      ['Kind', 6, 941, 808, 50, 25], ['regards,', 6, 1000, 808, 100, 25],
    ];
    expect(await hiddenOf(mail, { width: 3840, height: 2160 })).toEqual(['1981', '4433', '0842', '0024', '5455', '3387', '2661', '1407']);
  });

  // A Kubernetes IDE's secret detail (set F, 1080p 14 px, as tesseract read it): each value under its
  // environment variable's name. "SESSION_SECRET" was no caption (\bsecret\b does not match inside a
  // name joined by underscores), so its 64 hex characters were left as a hash; the signing key's
  // first line was found in pieces, and its wrapped last six characters were not taken as more of it
  // (a piece followed the found one on its line).
  it('hides a value under an environment variable’s name, and a key’s wrapped end after the pieces OCR split it in', async () => {
    const detail: Row[] = [
      ['SESSION_SECRET', 33, 1433, 241, 109, 13],
      ['9672090684722595724690C6180582de5', 34, 1443, 268, 331, 10], ['fcd449b71cfe8996C736219', 34, 1777, 268, 114, 10],
      ['JWT_SIGNING_KEY', 36, 1433, 320, 123, 13],
      ['TCSCgb9+qoR0350KR2957FiRtA3022]', 37, 1442, 348, 245, 13], ['00]', 37, 1691, 348, 20, 13], ['CPBK23NVOGT', 37, 1715, 348, 83, 10], ['rmMugisann/8', 37, 1802, 339, 89, 29],
      ['slanFn', 38, 1443, 366, 45, 10],
      ['SMTP_USER', 39, 1433, 400, 80, 13], ['apikey', 40, 1443, 427, 48, 13],
    ];
    const hidden = await hiddenOf(detail);
    expect(hidden).toEqual(expect.arrayContaining(['9672090684722595724690C6180582de5', 'fcd449b71cfe8996C736219', 'TCSCgb9+qoR0350KR2957FiRtA3022]', 'slanFn']));
    expect(hidden.filter((t) => /_|^apikey$/.test(t))).toEqual([]);
    // A name joined by underscores that names something else is no caption: "SECRET_NAME" over a path.
    expect(await hiddenOf([['SECRET_NAME', 1, 1433, 241, 90, 13], ['prod/orders/app', 2, 1443, 268, 120, 10]])).toEqual([]);
  });

  // A console's account info (set F, 1080p 14 px, the first read and the second look combined):
  // the auth token's field border was read as a line of its own ("| |") above the token, and ended
  // the walk down from its caption; the test token was read again with a "®" for a glyph OCR was
  // unsure of, and was no longer a key's alphabet. Both tokens were left in view.
  it('hides a token under its caption past its field’s border read as a line, and ones with a misread sign or bracket in them', async () => {
    const account: Row[] = [
      ['Auth', 12, 726, 105, 27, 10], ['Token', 12, 758, 105, 33, 10], ['Account', 10, 258, 106, 48, 9], ['SID', 10, 311, 106, 18, 9], ['Hide', 10, 804, 105, 26, 10],
      ['[', 6, 17, 132, 8, 13], ['Messaging', 6, 30, 131, 70, 14], ['3c8498eb0d283e8fee800810e7a43el0', 6, 736, 133, 268, 11],
      ['(', 11, 258, 126, 1, 26], ['ACafb57bf7c39ead2c633a449658082b3', 11, 267, 133, 286, 11], ['|', 13, 701, 126, 1, 26], ['|', 13, 726, 126, 1, 26],
      ['Test', 25, 726, 447, 23, 9], ['Auth', 25, 753, 446, 27, 10], ['Token', 25, 785, 446, 33, 10], ['Test', 23, 258, 447, 23, 9], ['Account', 23, 286, 447, 47, 9], ['SID', 23, 338, 447, 18, 9],
      ['ACbd9d166146e11d7c637ee1€91069ab5', 24, 267, 475, 286, 11], ['ccB®5981a7b5b16932c57162fc21calda', 24, 737, 475, 268, 11],
    ];
    const hidden = await hiddenOf(account);
    expect(hidden.filter((t) => t.length > 20)).toEqual(['3c8498eb0d283e8fee800810e7a43el0', 'ccB®5981a7b5b16932c57162fc21calda']);
    // A developer portal's API key (set F, 1440p 16 px) with its j read as "]" where OCR split it.
    const portal: Row[] = [
      ['Consumer', 5, 294, 141, 78, 12], ['Keys', 5, 378, 141, 35, 16], ['acme-poster', 9, 34, 167, 95, 14], ['API', 9, 294, 171, 20, 10], ['Key', 9, 319, 171, 22, 13],
      ['NzMrEj', 6, 294, 194, 54, 15], ['SEC50E]', 6, 352, 194, 63, 15], ['yvSaZKWHAVPX', 6, 419, 194, 115, 15],
    ];
    expect(await hiddenOf(portal, { width: 2560, height: 1440 })).toEqual(['NzMrEj', 'SEC50E]', 'yvSaZKWHAVPX']);
  });

  // An exchange's API management on a phone (set F, 14 px at 3×), as tesseract first read it: both
  // keys read nearly whole but unsure, so the second look read them again — worse, in scraps — and
  // redactImage keeps the first read's findings a rule named (a box a line), not a run that only looks
  // random. The caption's boxes were inside the random run's and were dropped with it; and "Secret
  // Key" was no caption ("Secret" with a word after it in its cell). Both keys were left in view.
  it('keeps a caption’s box a line inside a larger box, and takes "Secret Key" for a caption', async () => {
    const phone: Row[] = [
      ['API', 11, 49, 455, 62, 31], ['Key', 11, 129, 455, 66, 40],
      ['gU3Ko2gZPaEHLGCal', 12, 50, 512, 396, 32], ['gLgRZ1SODDJINgmYduNgZwbM9gaC', 12, 462, 508, 637, 41],
      ['QGO9WOWHKJiQtP', 13, 50, 572, 354, 30], ['EjsCRc', 13, 413, 572, 111, 32],
      ['Secret', 14, 50, 663, 118, 33], ['Key', 14, 183, 663, 65, 40],
      ['AlLdgMk1lbKSw76TiYOvugJAVhEscDRiV.gzURIFJpwzOI', 15, 48, 718, 1050, 35], ['duhaOeKtKtzg2vKOMbcL', 16, 50, 776, 475, 32],
    ];
    const words = read(phone);
    const named = (await detectRedactions(words, { width: 1170, height: 2532 }, { lineBoxes: true })).regions.filter((r) => r.kind !== 'key-like text');
    expect(words.filter((w) => named.some((r) => covers(r, w))).map((w) => w.text)).toEqual(phone.slice(2, 6).concat(phone.slice(8)).map((r) => r[0]));
  });

  // The same detail at 1080p 12 px (the first read and the second look combined): the first read
  // boxed a scrap "61d" over the value's two lines where it lost characters, and the second look read
  // the value's pieces either side of it as lines of their own; the wrapped end "5133c27" is a short
  // hash alone. The walk down from "SESSION_SECRET" met the scrap and stopped; 64 hex were in view.
  it('hides a hex value under its caption in pieces either side of a tall scrap, and its wrapped end', async () => {
    const detail: Row[] = [
      ['SESSION_SECRET', 37, 1506, 219, 105, 12], ['61d', 38, 1704, 232, 22, 28],
      ['dacece7469738e2c30c2f58bchdl', 1020000, 1515, 243, 181, 8], ['1184ea7cc538c60f253d6efB', 1030000, 1736, 243, 157, 8],
      ['5133c27', 1020001, 1515, 259, 45, 8],
    ];
    expect(await hiddenOf(detail)).toEqual(['dacece7469738e2c30c2f58bchdl', '1184ea7cc538c60f253d6efB', '5133c27']);
  });

  // A mail provider's server tokens (set F, 4K@1 15 px, as tesseract read them): UUIDs under
  // "Server API tokens" with its action link "Generate another token" beside it, the t of "tokens"
  // read as an f. The caption was no cell of its own (the link's words run on from it) and named no
  // secret as read; both tokens were left as identifiers.
  it('hides tokens under a caption with an action link beside it, a t read as f', async () => {
    const tokens: Row[] = [
      ['Server', 5, 30, 163, 38, 10], ['API', 5, 72, 163, 18, 10], ['fokens', 5, 95, 163, 39, 10], ['Generate', 5, 145, 163, 59, 10], ['another', 5, 209, 163, 48, 10], ['token', 5, 256, 163, 39, 10],
      ['el%lbad2-23fa-40fa-8854-f6661d4e7540', 6, 40, 191, 322, 10], [' -', 6, 393, 195, 3, 2], ['created', 6, 409, 191, 62, 9], ['Nov', 6, 480, 191, 27, 9], ['2', 6, 517, 191, 6, 9],
      ['5c8c47c7-73b2-48fe-80ee-15225be7ca3l', 7, 40, 235, 321, 9], ['+', 8, 393, 239, 3, 2], ['created', 8, 409, 235, 62, 9], ['Dec', 8, 480, 235, 26, 9], ['6', 8, 518, 235, 6, 9], ['(new)', 8, 538, 235, 37, 11],
    ];
    expect(await hiddenOf(tokens, { width: 3840, height: 2160 })).toEqual(['el%lbad2-23fa-40fa-8854-f6661d4e7540', '5c8c47c7-73b2-48fe-80ee-15225be7ca3l']);
    // A UUID under a caption that names an id stays, link or not.
    expect(await hiddenOf([['Request', 5, 30, 163, 50, 10], ['ID', 5, 85, 163, 14, 10], ['Copy', 5, 120, 163, 30, 10], ['5c8c47c7-73b2-48fe-80ee-15225be7ca31', 7, 40, 185, 321, 9]], { width: 3840, height: 2160 })).toEqual([]);
  });

  // The console at 1440p 11 px: "Auth Token" with its words 9 px apart in letters 7 px tall, so
  // "Token" alone was the caption, and the column under it began a pixel right of the token's start.
  it('hides a token under a caption whose words stand wider apart than they are tall', async () => {
    const small: Row[] = [
      ['Aosount', 10, 211, 93, 32, 7], ['SID', 10, 247, 93, 14, 7], ['Auth', 12, 574, 93, 12, 7], ['Token', 12, 595, 93, 24, 7], ['Hid', 12, 628, 93, 18, 7],
      ['ACcAD4145671d293dc16045294baad96', 11, 219, 117, 225, 8], ['16.', 11, 434, 106, 15, 28], ['99f49belab26422613264b52e5bb0367', 11, 583, 117, 211, 8],
    ];
    expect(await hiddenOf(small, { width: 2560, height: 1440 })).toEqual(['99f49belab26422613264b52e5bb0367']);
  });

  // A password generator's panel (1080p 14 px, each character its own colour): OCR read the Copy
  // button under the generated password as "CT", 30 px tall — short and twice the caption's height,
  // but no scrap over two lines (nothing beside it). Taken for one, it was passed over, and the walk
  // down from "Password" went on past the panel's options, taking "Generator history" and its two
  // passwords with it: both were left in view.
  it('hides the passwords under a generator’s history, past a tall button nothing stands beside', async () => {
    const panel: Row[] = [
      ['Generator', 0, 1507, 11, 69, 11],
      ['Password', 2, 1500, 51, 52, 9], ['Passphrase', 2, 1563, 51, 63, 11], ['Usemame', 2, 1637, 51, 57, 9],
      ['jqc”~0DXou8”SL7RYjmo0OV', 1000000, 1512, 90, 220, 18],
      ['CT', 4, 1499, 130, 252, 30],
      ['Length', 5, 1500, 172, 40, 13], ['21', 5, 1545, 172, 11, 10],
      ['DAZ', 6, 1500, 190, 34, 10], ['[', 6, 1545, 191, 9, 9], ['a-z', 6, 1560, 193, 18, 7], ['@09', 6, 1588, 190, 32, 10], ['EA', 6, 1632, 191, 10, 9], ['|@#SN&”', 6, 1647, 190, 59, 11],
      ['Minimum', 7, 1500, 209, 54, 10], ['numbers', 7, 1559, 209, 51, 10], ['1', 7, 1616, 209, 3, 10], ['Minimum', 7, 1633, 209, 54, 10], ['special', 7, 1691, 209, 43, 12], ['1', 7, 1741, 209, 1, 10],
      ['Generator', 8, 1500, 237, 69, 11], ['history', 8, 1574, 237, 41, 13],
      ['S34#7SWT&$BTOGSH', 1010000, 1501, 264, 133, 13],
      ['tundra-saddle-pepper-falcon2', 10, 1500, 288, 234, 14],
    ];
    const hidden = await hiddenOf(panel);
    expect(hidden).toContain('S34#7SWT&$BTOGSH');
    expect(hidden).toContain('tundra-saddle-pepper-falcon2');
  });

  it('hides a TOTP under its caption (a countdown beside it) and a password in a short chat reply', async () => {
    const vault: Row[] = [
      ['Verification', 5, 806, 445, 104, 15], ['code', 5, 918, 445, 43, 15], ['(TOTP)', 5, 970, 445, 60, 18],
      ['267', 6, 808, 470, 35, 14], ['494', 6, 861, 470, 35, 14], ['®', 6, 939, 470, 17, 17], ['17', 6, 973, 471, 21, 13],
    ];
    expect(await hiddenOf(vault, { width: 3840, height: 2160 })).toEqual(['267', '494']);
    // The answer to a security question in the item's notes.
    const notes: Row[] = [['Notes', 1, 783, 824, 52, 20], ['security', 2, 781, 878, 85, 20], ['question', 2, 876, 878, 92, 20], ['(first', 2, 978, 878, 50, 20], ['pet):', 2, 1037, 878, 50, 20], ['Quartz71', 2, 1096, 878, 90, 20]];
    expect(await hiddenOf(notes, { width: 3840, height: 2160 })).toEqual(['Quartz71']);
    const chat: Row[] = [
      ['and', 8, 74, 382, 57, 26], ['the', 8, 145, 382, 52, 26], ['wifi', 8, 211, 382, 52, 26], ['at', 8, 279, 384, 30, 24], ['grandma’s?', 8, 322, 382, 190, 33],
      ["It's", 9, 681, 508, 44, 26], ['velvet414?2', 10, 738, 508, 182, 26], ['lowercase', 11, 936, 512, 161, 23],
    ];
    expect(await hiddenOf(chat, { width: 1170, height: 2532 })).toEqual(['velvet414?2']);
  });

  it('leaves what only looks like them where nothing near names a secret', async () => {
    // Order numbers in a list under a heading about orders, a server under a sentence about sign-in,
    // a GPG fingerprint in groups of four under "key" (as OCR read one: R and G for hex digits), a
    // build id alone under prose.
    const page: Row[] = [
      ['Your', 1, 80, 60, 40, 14], ['orders', 1, 126, 60, 50, 14],
      ['409d3-fb6da', 2, 80, 90, 100, 12], ['9b6f7-72632', 3, 80, 112, 100, 12], ['716c4-3069c', 4, 80, 134, 100, 12],
      ['Sign', 5, 80, 170, 30, 12], ['in', 5, 114, 170, 12, 12], ['to', 5, 130, 170, 14, 12], ['the', 5, 148, 170, 22, 12], ['server', 5, 174, 170, 40, 12],
      ['fileserver01', 6, 80, 192, 90, 12],
      ['Primary', 7, 80, 230, 50, 12], ['key', 7, 134, 230, 22, 12], ['fingerprint:', 7, 160, 230, 70, 12],
      ...'RGBE 6A54 0AE2 1388 8075 37A4 FARA B632 2C6C FDAB'.split(' ').map((t, i): Row => [t, 8, 80 + i * 44, 252, 40, 12]),
      ['Released', 9, 80, 290, 60, 12], ['with', 9, 144, 290, 30, 12], ['the', 9, 178, 290, 22, 12], ['new', 9, 204, 290, 26, 12], ['build', 9, 234, 290, 34, 12],
      ['rc2-build42', 10, 80, 312, 90, 12],
    ];
    expect(await hiddenOf(page)).toEqual([]);
  });
});

// A GPG public key exported in a terminal (set C at Retina size): OCR read a base64 line as scraps,
// one lower-case like a login and one mixed like a password, a column's gap apart — a saved-password
// row to the credential-row rule, inside the armoured public block.
describe('detectRedactions: a public key block read in scraps', () => {
  const rows: Array<[string, number, number, number, number, number]> = [
    ['-----BEGIN', 1, 10, 40, 120, 16], ['PGP', 1, 140, 40, 40, 16], ['PUBLIC', 1, 190, 40, 70, 16], ['KEY', 1, 270, 40, 40, 16], ['BLOCK-----', 1, 320, 40, 120, 16],
    ['mdnxqe', 2, 10, 80, 70, 16], ['aB3dE5fG7hK2', 2, 200, 80, 140, 16],
    ['-----END', 3, 10, 120, 100, 16], ['PGP', 3, 120, 120, 40, 16], ['PUBLIC', 3, 170, 120, 70, 16], ['KEY', 3, 250, 120, 40, 16], ['BLOCK-----', 3, 300, 120, 120, 16],
  ];
  const words: ReadWord[] = rows.map(([text, line, x, y, width, height]) => ({ text, line, x, y, width, height }));
  it('is no saved password; the same row outside the block still is', async () => {
    const size = { width: 1920, height: 1080 };
    expect((await detectRedactions(words, size)).regions.filter((r) => r.rule.startsWith('credential row'))).toEqual([]);
    const outside = words.filter((w) => w.line === 2);
    expect((await detectRedactions(outside, size)).regions.filter((r) => r.rule.startsWith('credential row'))).toHaveLength(1);
  });
});

// A stock sheet and a block explorer (set C): a cell that reads like a password beside a number (an
// article number, a block) is no saved password — a login has letters.
describe('detectRedactions: a number is no login', () => {
  it('leaves a password-like cell beside digits alone, and hides it beside a user name', async () => {
    const row = (login: string): ReadWord[] => [
      { text: login, line: 1, x: 60, y: 100, width: login.length * 9, height: 14 },
      { text: 'Tiger3o!1E98', line: 2, x: 400, y: 100, width: 108, height: 14 },
    ];
    const size = { width: 1920, height: 1080 };
    expect((await detectRedactions(row('4089108285973'), size)).regions).toEqual([]);
    expect((await detectRedactions(row('19439096'), size)).regions).toEqual([]);
    expect((await detectRedactions(row('ada'), size)).regions.map((r) => r.rule)).toEqual(['credential row']);
  });
});

// The tuned corpus's bank page at 1080p 14 px: an account table, "IBAN" in its first column and the
// number in the next, as tesseract read it — a Z read as 2 (the check digits fail), a group read
// short ("RCO"), a scrap the second look read inside "KGBP", a J read as ")" on another draw.
describe('detectRedactions: an IBAN beside its label, however OCR read its groups', () => {
  const size = { width: 1920, height: 1080 };
  const covers = (r: { x: number; y: number; width: number; height: number }, w: ReadWord) => r.x <= w.x && r.y <= w.y && r.x + r.width >= w.x + w.width && r.y + r.height >= w.y + w.height;
  const w = (text: string, line: number, x: number, width: number, y = 129, height = 9): ReadWord => ({ text, line, x, y, width, height });
  const table = [
    w('IBAN', 4, 39, 36, 132, 10),
    w('IT72', 5, 187, 30), w('2267', 5, 228, 31), w('4944', 5, 271, 30), w('142F', 5, 313, 31), w('RCO1', 5, 354, 32), w('KGBP', 5, 396, 32), w('I', 5, 396, 4), w('V2K', 5, 437, 25),
    w('BIC', 6, 39, 23, 162, 11), w('CCOBADEFFXXX', 7, 169, 102, 162, 11),
  ];

  it('hides the whole number and leaves the BIC', async () => {
    const out = await detectRedactions(table, size);
    for (const t of ['IT72', '2267', 'RCO1', 'KGBP', 'V2K']) expect(out.regions.some((r) => covers(r, table.find((x) => x.text === t)!)), t).toBe(true);
    expect(out.regions.some((r) => covers(r, table.find((x) => x.text === 'CCOBADEFFXXX')!))).toBe(false);
    const junk = [w('IBAN', 4, 39, 36, 132, 10), w('NL78', 5, 169, 32), w('WQM)', 5, 211, 32), w('7172', 5, 254, 31), w('4851', 5, 296, 32), w('63', 5, 338, 15)];
    expect((await detectRedactions(junk, size)).regions.some((r) => covers(r, junk[2]!))).toBe(true);
  });

  it('leaves words beside "IBAN" that are no account number', async () => {
    const words = [w('IBAN', 4, 39, 36, 132, 10), w('not', 5, 187, 24), w('on', 5, 216, 16), w('file', 5, 238, 24)];
    expect((await detectRedactions(words, size)).regions).toEqual([]);
  });
});

describe('detectRedactions: what wraps onto the next line', () => {
  type Row = [string, number, number, number, number, number];
  const read = (rows: Row[]): ReadWord[] => rows.map(([text, line, x, y, width, height]) => ({ text, line, x, y, width, height }));
  const hiddenOf = async (rows: Row[]) => {
    const words = read(rows);
    const out = await detectRedactions(words, { width: 1920, height: 1080 });
    return words.filter((w) => out.regions.some((r) => r.x <= w.x && r.x + r.width >= w.x + w.width && r.y <= w.y + w.height / 2 && r.y + r.height >= w.y + w.height / 2)).map((w) => w.text);
  };
  const log = (next: string): Row[] => [
    ['2026-12-05T10:48:16.738Z', 1, 4, 192, 197, 13], ['INFO', 1, 210, 192, 36, 13], ['token=Xk9fPq2LmN7vRt4WzY8bQc3Hd', 1, 260, 192, 300, 13],
    [next, 2, 4, 211, 197, 13], ['INFO', 2, 210, 211, 36, 13], ['http', 2, 260, 211, 30, 13], ['request', 2, 296, 211, 56, 13], ['done', 2, 358, 211, 34, 13],
  ];

  it("takes a key's continuation at the line's start, not the next log entry's timestamp", async () => {
    expect(await hiddenOf(log('2026-12-05T10:35:36.799Z'))).not.toContain('2026-12-05T10:35:36.799Z');
    expect(await hiddenOf(log('Gs7Lq0Wm3Pz9Kd'))).toContain('Gs7Lq0Wm3Pz9Kd');
  });
});

// A value under its caption is judged on the caption's words (as tesseract read a Slack app's page
// and an Algolia-like key page at 1080p 14 px): a label that names a secret ("Client Secret",
// "Signing Secret", "Admin API Key", a word or three before the label's noun) hides the value under
// it whatever its shape — 32 hex, which alone passes for a hash — and not the buttons beside it; a
// label that names an id or a public key leaves its value alone, and ends the column of a heading
// above it ("App Credentials" over "App ID").
describe('detectRedactions: a value judged by its caption', () => {
  const size = { width: 1920, height: 1080 };
  const covers = (r: { x: number; y: number; width: number; height: number }, w: ReadWord) => r.x <= w.x && r.y <= w.y && r.x + r.width >= w.x + w.width && r.y + r.height >= w.y + w.height;
  let line = 0;
  const row = (y: number, ...cells: Array<[string, number]>): ReadWord[] => {
    line++;
    return cells.flatMap(([text, x]) => text.split(' ').map((t, i, all) => ({ text: t, line, x: x + all.slice(0, i).join(' ').length * 8 + (i ? 8 : 0), y, width: t.length * 8, height: 12 })));
  };
  const page: ReadWord[] = [
    // The section's heading, a side bar's entry on its row (4K@1 15 px): not a table's header over the ids.
    ...row(117, ['Socket Mode', 18], ['App Credentials', 260]),
    ...row(159, ['App ID', 260]),
    ...row(185, ['A0BKWZP9QRF', 270]),
    ...row(223, ['Client ID', 260]),
    ...row(253, ['4214037210457.2265717479271', 270]),
    ...row(288, ['Client Secret', 260]),
    ...row(316, ['5632b92409d3fb64afebede10d4e8eb2', 270], ['Hide Regenerate', 655]),
    ...row(353, ['Signing Secret', 260]),
    ...row(381, ['af2f26165a881cd424e42a851214aa18', 270], ['Hide Regenerate', 655]),
    ...row(417, ['Admin API Key', 260]),
    ...row(445, ['ed7f1bfda80dd85ee750f57cde63a9bf', 270]),
    ...row(480, ['Token ID', 260]),
    ...row(508, ['9bf0f345539c6661894f6f3c3482c3f6', 270]),
    ...row(540, ['Public API key', 260]),
    ...row(568, ['3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c', 270]),
  ];
  it('hides what a secret\'s caption names and leaves what an id\'s or a public key\'s names', async () => {
    const out = await detectRedactions(page, size);
    const hidden = page.filter((w) => out.regions.some((r) => covers(r, w))).map((w) => w.text);
    expect(hidden).toEqual(['5632b92409d3fb64afebede10d4e8eb2', 'af2f26165a881cd424e42a851214aa18', 'ed7f1bfda80dd85ee750f57cde63a9bf']);
  });
});

// A generated password printed in groups to be typed (a phone's app password as tesseract read set
// E's at 12–13 px, a group read a letter long; one with a vowel in each group), not words of a sentence.
describe('groupedValue', () => {
  it('takes letter groups of one length with few vowels, and digit groups; not a sentence', () => {
    for (const v of ['zhps 1z1lm dkge mbkt', 'ianw iqhk lisb epzt', '4566 5307']) expect(groupedValue(v), v).toBe(true);
    for (const v of ['keep this safe here', 'then they were here', 'Mail on old tablet', '555 123 4567']) expect(groupedValue(v), v).toBe(false);
  });
});

// A value its own line names an identifier is that, whatever the words above it say: set G's message
// catalog had gettext's 'msgid "rw7AGL"' under "Regenerate secret" masked as a password (tuned on).
describe('namedNearby: a value named an identifier on its line', () => {
  const lines = (rows: string[]) => rows.flatMap((row, li) => {
    let x = 40;
    return row.split(' ').map((text) => {
      const w = { text, line: li, x, y: 40 + li * 30, width: text.length * 8, height: 14 };
      x += text.length * 8 + 5;
      return w;
    });
  });
  it('leaves a message id under words about a secret; a password so placed under them is still one', async () => {
    const { namedNearby } = await import('./context.ts');
    expect(namedNearby(lines(['Copy API key', 'Regenerate secret', '#: src/pages/login.tsx:42', 'msgid "rw7AGL"']))).toEqual([]);
    expect(namedNearby(lines(['Copy API key', 'Regenerate secret', '#: src/pages/login.tsx:42', 'secret "rw7AGL9x"'])).length).toBe(1);
    expect(namedNearby(lines(['What is the wifi password?', 'Tom said Xk9#mQ2v'])).length).toBe(1);
  });
  // Set J's Gitea admin page: a webhook's secret under "Secret (read-only, managed by config)", a
  // parenthetical of four words after its caption (2 of 4 leaked).
  it('takes the hex under a caption with a parenthetical of a few words, not a sentence under a caption', async () => {
    const { labelledBelow } = await import('./context.ts');
    const hex = 'cd22190610f20f7165313be3821ced16e454ae4e';
    const page = lines(['Webhook (push — deploy.acme.io)', 'Secret (read-only, managed by config)', hex]);
    expect(labelledBelow(page).map((f) => f.words.map((i) => page[i]?.text).join(' '))).toEqual([hex]);
    expect(labelledBelow(lines(['Secret (read-only, managed by config)', 'rotated every ninety days by the operator']))).toEqual([]);
  });
  // Set J's OCI console: an auth token with a colon and brackets in it, alone under "Generated token"
  // and a sentence about copying it (0 of 4 hidden: a password's shape refuses those signs).
  it('takes a generated token alone under words about one, signs and all; not an id, a hash or a path so placed', async () => {
    const { namedNearby } = await import('./context.ts');
    const under = (v: string) => namedNearby(lines(['Generated token', "Copy the generated token. It won't be shown again.", v, 'Copy'])).map((f) => f.rule);
    expect(under('2pp4.YD3g:BiOJP00_bR')).toEqual(['named nearby']);
    expect(under('K3P9-}H_<mgW}Y2Y5]1q')).toEqual(['named nearby']);
    for (const v of ['e6ddc9a9-b84d-447f-a601-455386047642', 'sha256:9f2a7c1e4b6d8f0a', '/home/ada/.config/token2', 'process.env.GITHUB_TOKEN2']) expect(under(v), v).toEqual([]);
  });
  // Set J's TextEdit note: an Apple app-specific password under "…app-specific password for altool:",
  // its dashes read with a space beside one ("pzan-nghi -imey-hhwe"): two words, four groups (0 of 4 hidden).
  it('takes a password in dashed groups OCR read apart at a dash, not words of a sentence so read', async () => {
    const { namedNearby } = await import('./context.ts');
    expect(namedNearby(lines(['Notes — release.', 'Apple ID app-specific password for altool:', 'pzan-nghi -imey-hhwe'])).map((f) => f.rule)).toEqual(['named nearby']);
    expect(namedNearby(lines(['Notes — release.', 'Apple ID app-specific password for altool:', 'keep-this -safe-here']))).toEqual([]);
  });
});


// Set K's captions of credentials no caption rule knew: an SNMP community string and a RADIUS
// secret beside their captions, an info icon after "Voicemail PIN", a column headed "Password / PIN",
// a client secret under a long remark in brackets, read in four pieces, an account's number in
// groups of four, LND's macaroon under "Admin macaroon (hex)".
describe('labelledBelow: captions of credentials', () => {
  /** Words at their x on a line; a row is a line's words, cells `gap` apart. */
  const row = (line: number, y: number, cells: Array<[number, string]>) =>
    cells.flatMap(([x0, cell]) => {
      let x = x0;
      return cell.split(' ').map((text) => {
        const w = { text, line, x, y, width: text.length * 8, height: 14 };
        x += text.length * 8 + 5;
        return w;
      });
    });
  const found = async (words: ReadWord[]) => {
    const { labelledBelow } = await import('./context.ts');
    return labelledBelow(words).map((f) => f.words.map((i) => words[i]?.text).join(' '));
  };
  it('takes a value beside "Community String", beside a caption with an info icon, and nothing beside "Version"', async () => {
    expect(await found([...row(0, 40, [[40, 'Version'], [260, 'SNMPv1 / v2c']]), ...row(1, 80, [[40, 'Community String'], [260, 'ASoR7k10ea5R8]']])])).toEqual(['ASoR7k10ea5R8]']);
    expect(await found(row(0, 40, [[40, 'Voicemail PIN ©'], [260, '1280']]))).toEqual(['1280']);
    expect(await found(row(0, 40, [[40, 'Community String'], [260, 'public']]))).toEqual([]);
  });
  it('takes each value under "Password / PIN", a password and a PIN alike', async () => {
    const sheet = [
      ...row(0, 40, [[40, 'Service'], [240, 'Login'], [440, 'Password / PIN'], [640, 'Notes']]),
      ...row(1, 70, [[40, 'Netflix'], [240, 'family@byron.name'], [440, 'CopperHarbor8200']]),
      ...row(2, 100, [[40, 'Sparkasse card'], [240, 'Girocard'], [440, '1678'], [640, 'PIN']]),
      ...row(3, 130, [[40, 'Chase checking'], [240, 'routing 061294253'], [440, '849886658']]),
      ...row(4, 160, [[40, 'Router'], [240, 'admin'], [440, 'zkel40QOUXEGSONX']]),
    ];
    expect(await found(sheet)).toEqual(expect.arrayContaining(['CopperHarbor8200', '1678', '849886658', 'zkel40QOUXEGSONX']));
    expect(await found(sheet)).not.toContain('061294253');
  });
  it('takes a hex secret in four pieces under a caption with a long remark in brackets', async () => {
    const page = [
      ...row(0, 40, [[40, 'Client ID 308cda86-1ceb-4c97-a936-1742924b5ba2']]),
      ...row(1, 70, [[40, 'Client Secret (copy it now, it will not be shown again)']]),
      ...row(2, 100, [[40, '4120176321540462c724999dc994eBbc 1325436502085 131db144cA7 T6550']]),
    ];
    expect(await found(page)).toEqual(['4120176321540462c724999dc994eBbc 1325436502085 131db144cA7 T6550']);
    expect(await found([...page.slice(0, -4), ...row(2, 100, [[40, 'rotated every ninety days by ops']])])).toEqual([]);
  });
  it('takes an account number in groups under "Account number", and a macaroon under its caption', async () => {
    expect(await found([...row(0, 40, [[40, 'Account number']]), ...row(1, 70, [[40, '0765 4127 2184 7094'], [400, 'ou']])])).toEqual(['0765 4127 2184 7094']);
    expect(await found([...row(0, 40, [[40, 'Account number']]), ...row(1, 70, [[40, 'Paid until 24 January 2027']])])).toEqual([]);
    const hex = '0201036c6e6402f801030a104b34fff63cd0ad8edf5e770aadaf7dbfed35166cfc6dd62cf2e52d959f9b8a09eec9';
    expect(await found([...row(0, 40, [[40, 'Admin macaroon (hex)']]), ...row(1, 70, [[40, hex]])])).toEqual([hex]);
  });
});

// Set K's headscale in tmux: the key printed after "headscale preauthkeys create", 48 hex alone on its line.
describe('printedValues: what a command that makes a key prints', () => {
  const lines = (rows: string[]) => rows.flatMap((r, li) => {
    let x = 10;
    return r.split(' ').map((text) => {
      const w = { text, line: li, x, y: 10 + li * 20, width: text.length * 8, height: 14 };
      x += text.length * 8 + 8;
      return w;
    });
  });
  it('takes the line under a command that creates or prints a key, not under one that lists them', async () => {
    const { printedValues, makesSecret } = await import('./context.ts');
    const hex = '44b9896b89572b38166748423209c1aBaa5TdSebaddc33fb';
    const under = (command: string) => printedValues(lines([`ada@hs:~$ ${command}`, hex, 'ada@hs:~$'])).length;
    expect(under('headscale preauthkeys create --user homelab --reusable --expiration 24h')).toBe(1);
    expect(under('vault token create -policy=ci')).toBe(1);
    expect(under('headscale preauthkeys list --user homelab')).toBe(0);
    expect(under('git rev-parse HEAD')).toBe(0);
    expect(makesSecret('kubeadm token create --print-join-command')).toBe(true);
    expect(makesSecret('docker create --name web nginx')).toBe(false);
  });

  // Set L's cockpit terminal: "cat /var/lib/rancher/k3s/server/node-token # the old k3s box" over k3s's
  // node token. The comment was read as more of the file's name, and the path's seven parts were too
  // many for a name: the file's own name says what it holds.
  it("takes what a file named secret holds, a comment after the command and a long path aside", async () => {
    const { printedValues } = await import('./context.ts');
    const token = 'K102381c9cd050902e953665205a5ee06225F7d359171a076b3c92c410361b8722::server:10059ac445693ea617dfeedb1473db50';
    const under = (command: string) => printedValues(lines([`[root@cp-01 ~]# ${command}`, token, '[root@cp-01 ~]#'])).length;
    expect(under('cat /var/lib/rancher/k3s/server/node-token # the old k3s box, for the migration')).toBe(1);
    expect(under('cat /var/lib/rancher/k3s/server/node-token')).toBe(1);
    expect(under('cat /var/lib/rancher/k3s/server/node-name # the old k3s box')).toBe(0);
  });
});

// A form's row "Linear account (Access Token)" beside its token (the caption screens' integration
// form): the name is in the brackets; judged without them ("Linear account") it named nothing, and
// the token leaked. A remark in brackets after a name is still set aside.
describe('labelledValue: a name in brackets', () => {
  it('names the value beside it; a remark in brackets after a name is set aside', async () => {
    const { labelledValue } = await import('./context.ts');
    expect(labelledValue('9/7436996989108285 :eb2af2£26165a881cd424242', 'Linear account (Access Token)', true)).toBe(true);
    expect(labelledValue('41201769a154ed02c724999dc994e8bc13aa5d365b2088ef31', 'Client Secret (copy it now, it will not be shown again)', true)).toBe(true);
    expect(labelledValue('9/7436996989108285 :eb2af2£26165a881cd424242', 'Linear account (workspace)', true)).toBe(false);
  });
});
