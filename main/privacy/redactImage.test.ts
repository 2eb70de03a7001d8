import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ReadWord } from './locate.ts';
import { apart, redactImage, type ReadWords } from './redactImage.ts';

// A fault after the words were read is said as what it was: the image was read, finding or hiding
// its secrets failed, and it is not sent as it is. (It used to reject, and `glance ask` said
// "Stopped before the image was read".)
describe('redactImage when detection fails', () => {
  const image = { data: new Uint8Array([1, 2, 3]), mime: 'image/png' };
  const words: ReadWord[] = [{ text: 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', line: 1, x: 10, y: 10, width: 600, height: 20 }];
  const read = (w: ReadWord[]): ReadWords => async () => ({ ok: true, words: w, size: { width: 800, height: 600 } });

  it('a fault in its pixels is a value that says so', async () => {
    const out = await redactImage(image, { readWords: read(words), pixels: () => sharp(Buffer.from('not an image')) });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.code).toBe('detect-failed');
    expect(out.message).toMatch(/read this image but failed while looking again at what it could not read/);
    expect(out.message).toMatch(/not sent to a remote model/);
  });

  it('a fault while finding is a value that says so', async () => {
    // An engine that gave a word without text: the rules cannot run over it.
    const broken = [{ ...words[0]!, text: undefined as unknown as string }];
    const out = await redactImage(image, { readWords: read(broken), pixels: () => sharp({ create: { width: 800, height: 600, channels: 3, background: '#fff' } }) });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.code).toBe('detect-failed');
    expect(out.message).toMatch(/failed while finding the secrets in the text it read/);
  });
});

// The first read's findings are kept when the second look reads their lines worse, each line's box
// its own: the bench:redact generator's devtools pane as tesseract first read it, a JWT wrapped over
// two lines whose second line's words came back twice as tall as its text. One box over both lines
// reached the user-agent line under them, and OCR lost that line's words in the masked image.
describe('the first read’s boxes, one a line', () => {
  const rows: Array<[string, number, number, number, number, number]> = [
    ['authorization:', 6, 49, 212, 122, 12], ['Bearer', 6, 184, 212, 52, 12], ['eyJhbGci0iJIUZIINITSINRSCCIGIKPXVCIQ.', 6, 247, 212, 329, 15], ['eyIzdWI101JtQNCAOFNrC2ESTiwibnFtZSI6IKRhbm', 6, 581, 212, 375, 15],
    ['EqUnV5ZXMiLCIpYXQ105E3MDABNTUYNZFO.', 7, 85, 238, 701, 16], ['fSNnPydOEWXESTAKDZ', 7, 403, 228, 158, 32], ['MS', 7, 569, 228, 19, 32], ['2S018IXUKTF', 7, 590, 228, 97, 32], ['j3BI1IpPyY', 7, 697, 228, 94, 32],
    ['user-agent:', 8, 49, 264, 95, 15], ['Mozilla/5.8', 8, 157, 264, 97, 13], ['(X11;', 8, 267, 264, 39, 15], ['Linux', 8, 319, 264, 43, 12],
  ];
  const words: ReadWord[] = rows.map(([text, line, x, y, width, height]) => ({ text, line, x, y, width, height }));
  const overTwoLines = (r: { y: number; height: number }) => r.y < 218 && r.y + r.height > 246;

  it('never gives one box over two lines, and the boxes of lines one above the other do not meet', async () => {
    const { detectRedactions } = await import('./detect.ts');
    expect((await detectRedactions(words, { width: 1280, height: 720 })).regions.some(overTwoLines)).toBe(true);
    const kept = (await detectRedactions(words, { width: 1280, height: 720 }, { lineBoxes: true })).regions;
    expect(kept.length).toBeGreaterThan(1);
    expect(kept.some(overTwoLines)).toBe(false);
    const cut = apart(kept);
    for (const a of cut) for (const b of cut) if (a !== b) expect(a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height).toBe(false);
    expect(cut.some((r) => r.y + r.height > 264)).toBe(false);
  });
});

// A listing's column headed by an id, a version or a hash holds the table's data: what only its shape
// made a secret there is left (an object store's "Version ID" column was 68.5% masked by the entropy
// rule). A header or a row that names a secret, and a vendor rule's finding, still hide.
describe('a column under a header that names an identifier', () => {
  const blank = () => sharp({ create: { width: 1400, height: 500, channels: 3, background: '#fff' } });
  const table = (header: string, cells: readonly string[], extra: ReadWord[] = []): ReadWord[] => {
    const words: ReadWord[] = [];
    let line = 0;
    const cell = (text: string, x: number, y: number) => words.push({ text, x, y, width: text.length * 8, height: 14, line: line++ });
    cell('Name', 40, 40);
    cell('Size', 360, 40);
    header.split(' ').forEach((t, i) => cell(t, 520 + i * 70, 40));
    cell('Storage', 1100, 40);
    words.push({ text: 'class', x: 1166, y: 40, width: 40, height: 14, line: line - 1 });
    cells.forEach((v, r) => {
      const y = 80 + r * 34;
      cell(`exports/2026-12-0${r + 1}/orders.csv.gz`, 40, y);
      cell(`${r + 3}.1`, 360, y);
      words.push({ text: 'MB', x: 392, y, width: 16, height: 14, line: line - 1 });
      cell(v, 520, y);
      cell('Standard', 1100, y);
    });
    return [...words, ...extra];
  };
  const ids = ['Hz096HEKL4OOuAadE4OBMIJOCXdtG79D', '4oT2rrj3WkR2j7iZge6maluTLoEywlyQ', 'mAwtkxG2KEL.p_lmgIHCCmL_Yyovcnod', 'gnvFWXd4_UYTk4s1QjMN6Blai7ogAmuP'];
  const redact = async (words: ReadWord[]) => {
    const out = await redactImage({ data: new Uint8Array([1]), mime: 'image/png' }, { readWords: async () => ({ ok: true, words, size: { width: 1400, height: 500 } }), pixels: blank });
    if (!out.ok) throw new Error(out.message);
    return out.regions;
  };

  it('leaves the cells of a "Version ID" column', async () => {
    expect(await redact(table('Version ID', ids))).toEqual([]);
  });

  // Set E's payments list at 4K@1: the side bar's "Customers" between the header and the first row,
  // "Developers" beside that row a little higher, ended the column at once (its fail-safe box stayed).
  it('leaves them with a side bar beside the table', async () => {
    const side: ReadWord[] = [['Transactions', 26], ['Customers', 47], ['Developers', 74], ['Settings', 100]].map(([text, y], i) => ({ text: text as string, x: 0, y: y as number, width: 28, height: 14, line: 800 + i }));
    expect(await redact(table('Version ID', ids, side).map((w) => (w.line < 800 ? { ...w, x: w.x + 60 } : w)))).toEqual([]);
  });

  it('hides them under a header that names a secret, and from a row that names one down', async () => {
    expect((await redact(table('Secret key', ids))).length).toBe(ids.length);
    expect((await redact(table('Secret ID', ids))).length).toBe(ids.length);
    const after: ReadWord[] = [
      { text: 'Client', x: 40, y: 80 + 4 * 34, width: 48, height: 14, line: 900 },
      { text: 'secret', x: 92, y: 80 + 4 * 34, width: 48, height: 14, line: 900 },
      { text: 'Qx7vR2mK9pL4sT8wZ3nB6yH1cF5gJ0dA', x: 520, y: 80 + 4 * 34, width: 256, height: 14, line: 901 },
    ];
    const regions = await redact(table('Version ID', ids, after));
    expect(regions).toHaveLength(1);
    expect(Math.abs((regions[0]?.y ?? 0) - (80 + 4 * 34))).toBeLessThan(6);
  });

  it('still hides what a vendor rule finds there', async () => {
    const regions = await redact(table('Version ID', [...ids.slice(0, 3), 'ghp_R8sT2vX9kL4mN7pQ1wZ5yB3cD6fG0hJ2aE4u']));
    expect(regions.map((r) => r.kind)).toEqual(['github token']);
  });

  // Set G's trace waterfall and message catalog (tuned on): a row of the table names its item in its
  // other cells — an operation "api auth.verify", a message "Password must be at least 12 characters"
  // — and the id column's cell beside it was taken for a secret so named (a named cell; a lone value
  // under words about a password). Their captions ("Service & Operation", "ID (hash)") were no
  // captions, and such a row ended the column.
  const rowsOf = (heads: ReadonlyArray<[string, number]>, rows: ReadonlyArray<ReadonlyArray<[string, number]>>): ReadWord[] => {
    const words: ReadWord[] = [];
    let line = 0;
    const put = (text: string, x: number, y: number) => {
      let at = x;
      for (const t of text.split(' ')) {
        words.push({ text: t, x: at, y, width: t.length * 8, height: 14, line });
        at += t.length * 8 + 4;
      }
      line++;
    };
    heads.forEach(([t, x]) => put(t, x, 40));
    rows.forEach((row, r) => row.forEach(([t, x]) => put(t, x, 80 + r * 34)));
    return words;
  };
  const spans = ['1863c4f5e12933ec', '0ebf85f8301144f9', '84f0786a917a6a67', 'af74e02e839bf29f'];
  const ops = ['api POST /v1/checkout', 'api auth.verify', 'orders CreateOrder', 'payments AuthorizeCard'];
  it("leaves an id column's cells beside a row's name that says auth, and under a sentence about passwords", async () => {
    expect(await redact(rowsOf([['Service & Operation', 40], ['Span ID', 400], ['Duration', 700]], spans.map((v, i) => [[ops[i] as string, 40], [v, 400], [`${i + 2}65 ms`, 700]])))).toEqual([]);
    const msgs = ['Sign in', 'Forgot your password?', 'Password must be at least 12 characters', 'Your session has expired'];
    const mids = ['rw7AGL', 'GY84w2', 'PTYBO7', 'Ae0z41'];
    expect(await redact(rowsOf([['ID (hash)', 40], ['Source', 200], ['Translation', 700], ['Revision', 1000]], mids.map((v, i) => [[v, 40], [msgs[i] as string, 200], ['Anmelden …', 700], [`${i}f4b7e8c`, 1000]])))).toEqual([]);
  });
  // A row that names a secret and is not shaped like the table's (below it, two cells where it has
  // three) still ends the column; a header that names a secret makes none.
  it('still hides a value under a secret caption, and a row below the listing that names one', async () => {
    const heads: Array<[string, number]> = [['Service & Operation', 40], ['Span ID', 400], ['Duration', 700]];
    const rows = spans.map((v, i): Array<[string, number]> => [[ops[i] as string, 40], [v, 400], [`${i + 2}65 ms`, 700]]);
    expect((await redact(rowsOf(heads, [...rows, [['Auth token', 40], ['Qx7vR2mK9pL4sT8wZ3nB6yH1cF5gJ0dA', 400]]]))).length).toBe(1);
    expect((await redact(rowsOf([['Service', 40], ['Auth token', 400], ['Duration', 700]], [[['api', 40], ['Qx7vR2mK9pL4sT8wZ3nB6yH1cF5gJ0dA', 400], ['265 ms', 700]]]))).length).toBe(1);
  });
});

// A crash report's frames (set F, Retina 15 px): the first read read an address as a hex number and
// was unsure of it; the second look read it again as "07{f81a311f4bf", and beside the library's name
// (a login to the credential-row rule) it was taken for a saved password. Where the first read read an
// identifier, a cell that only its shape beside a login made a password is left. And a register's hex
// value is no login ("fp: 0x1511230270536bfa lr: O0xafa5p225d9d84314", set F at 4K@2).
describe("a crash report's addresses", () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="80"><rect width="1000" height="80" fill="#fff"/><g font-family="monospace" font-size="24" fill="#000"><text x="20" y="44">libsystem_c.dylib</text><text x="400" y="44">0x00007ff81a311f4bf</text><text x="720" y="44">abort + 615</text></g></svg>`;
  const first: Array<ReadWord & { confidence: number }> = [
    { text: 'libsystem_c.dylib', x: 20, y: 26, width: 245, height: 24, line: 1, confidence: 90 },
    { text: '0x00007ff81a311f4bf', x: 400, y: 26, width: 274, height: 24, line: 1, confidence: 0 },
    { text: 'abort', x: 720, y: 26, width: 72, height: 24, line: 1, confidence: 96 },
    { text: '+', x: 806, y: 26, width: 14, height: 24, line: 1, confidence: 96 },
    { text: '615', x: 834, y: 26, width: 43, height: 24, line: 1, confidence: 96 },
  ];
  it('an address the first read read is not a password when read again worse', async () => {
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    let calls = 0;
    const readWords: ReadWords = async (image) => {
      if (calls++ === 0) return { ok: true, words: first, size: { width: 1000, height: 80 } };
      const { width = 0, height = 0 } = await sharp(image.data).metadata();
      return { ok: true, words: [['0x0', 0.02, 0.06], ['~~', 0.2, 0.04], ['07{f81a311f4bf', 0.25, 0.65]].map(([text, x, w]) => ({ text: text as string, x: width * (x as number), y: height * 0.25, width: width * (w as number), height: height * 0.5, line: 0, confidence: 60 }) as ReadWord), size: { width, height } };
    };
    const out = await redactImage({ data: png, mime: 'image/png' }, { readWords, pixels: () => sharp(png) });
    expect(calls).toBeGreaterThan(1);
    expect(out.ok && out.regions).toEqual([]);
  });
  it('a hex number is no login', async () => {
    const { credentialRows } = await import('./context.ts');
    const words: ReadWord[] = [['fp:', 114, 30], ['0x1511230270536bfa', 156, 250], ['lr:', 450, 30], ['O0xafa5p225d9d84314', 492, 270]].map(([text, x, width], i) => ({ text: text as string, x: x as number, y: 711, width: width as number, height: 20, line: i }));
    expect(credentialRows(words)).toEqual([]);
  });
});
