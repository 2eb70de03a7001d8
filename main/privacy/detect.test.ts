import { describe, expect, it } from 'vitest';
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
