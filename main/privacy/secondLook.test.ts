// The second look's pieces on what tesseract gave on the corpus's look-alike screens: a word read
// again beside its twin, a scrap of two letters over a token, a hash read as scraps, a tracking number.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { boxOver, type ReadWord } from './locate.ts';
import { alongInk, captionOf, combineReads, flattenPaper, greyOf, markShare, readingQuality, secondLook, softInk, tokenRuns, unmark, unreadBlocks, type Grey } from './secondLook.ts';

type Word = ReadWord & { confidence: number };
const word = (text: string, line: number, x: number, width: number, confidence: number, y = 14, height = 12): Word => ({ text, line, x, y, width, height, confidence });

describe('combineReads', () => {
  // A trace log (the tuned corpus): the second look read a row the first had read surely, and both
  // copies stood on the row as one run, "span_id=00877c38cc19a175span_id=00877c38cc19a175" — key-like
  // to the entropy rule, where either alone is a trace id.
  it('drops a word read again over a surer twin', () => {
    const first = [word('INFO', 3, 10, 40, 96), word('span_id=00877c38cc19a175', 3, 60, 178, 80)];
    const again = [word('span_id=00877c38cc19a175', 1_000_000, 60, 178, 51)];
    expect(combineReads(first, again).map((w) => w.text)).toEqual(['INFO', 'span_id=00877c38cc19a175']);
  });

  // docker-compose (held-out set A): a scrap "AY" read surely inside a token read at 53 replaced the
  // token, and only the junk read again under it was left to be judged.
  it('keeps a token that a sure scrap covers only a little of, and replaces one the words read again cover', () => {
    const first = [word('NPM_TOKEN:', 23, 278, 70, 90), word('npm_s0afE1bOkcjgSN41gMJPyLBOyTTt4XZy3Ua3', 23, 357, 287, 53)];
    const again = [word('FRET1TRALA~AS~ACNA', 1_000_006, 408, 84, 23), word('AY', 1_000_006, 590, 11, 85)];
    const out = combineReads(first, again).map((w) => w.text);
    expect(out).toContain('npm_s0afE1bOkcjgSN41gMJPyLBOyTTt4XZy3Ua3');
    expect(out).not.toContain('FRET1TRALA~AS~ACNA');
    const split = [word('sk-ant-api03-IMA8co_OdWDhGD9zA-E-hMrDx60c8Et—-1phC21', 22, 415, 495, 10)];
    const parts = [word('-ant-api03', 1_000_002, 432, 70, 41), word('-IMA8co_OdWDhGD9zA-', 1_000_003, 504, 130, 71), word('-1phC21jU57cWB8Ucz36bNpnt', 1_000_005, 734, 176, 18)];
    expect(combineReads(split, parts).map((w) => w.text)).toEqual(parts.map((w) => w.text));
  });
});

describe('combineReads: the row a word read again joins', () => {
  // Devtools (the tuned corpus, 1080p, 16 px): a JWT's last line in the headers pane, read again,
  // joined the network table's row 1,250 px to its left and half a line lower ("200" in the Status
  // column); that row's band cut the token's box to its lower half and its tops were left showing.
  it('joins the nearest word about level with it, not a row across the screen', () => {
    const first = [
      word('main.3f9als', 28, 25, 90, 0, 198, 15),
      word('200', 32, 170, 26, 96, 198, 12),
      word('script', 33, 247, 41, 94, 198, 15),
      word('X00WAQnoBB315tztpotHl8loc', 8, 1450, 239, 23, 188, 15),
    ];
    const again = [word('Xx00WAQnoBB315tztpotHl81loc', 1_000_011, 1450, 239, 30, 188, 15)];
    const out = combineReads(first, again);
    const token = out.findIndex((w) => w.text.startsWith('Xx00'));
    expect(out[token]!.line).not.toBe(32);
    const box = boxOver(out, [token], { width: 1920, height: 1080 })!;
    expect(box.y).toBeLessThanOrEqual(188);
    expect(box.y + box.height).toBeGreaterThanOrEqual(203);
  });
});

describe('tokenRuns', () => {
  // One line of dense, unbroken ink 300 px long and 12 high (a token's shape), on white.
  const grey: Grey = (() => {
    const width = 400, height = 40;
    const data = new Uint8Array(width * height).fill(255);
    for (let y = 14; y < 26; y++) for (let x = 20; x < 320; x++) if (x % 3 === 0 || (y === 14 || y === 25)) data[y * width + x] = 20;
    return { data, width, height };
  })();
  const block = { x: 0, y: 0, width: 400, height: 40 };

  it('hides the run when what OCR read there is nothing it knows', () => {
    expect(tokenRuns(grey, block, [])).toHaveLength(1);
    expect(tokenRuns(grey, block, [word('xK9#qPz!Lm', 5, 20, 300, 4)])).toHaveLength(1);
    expect(tokenRuns(grey, block, [word('Xk8PqL2mZrTbWnYcQw', 5, 20, 300, 9)])).toHaveLength(1);
  });

  // The held-out CI log: the second look read a job's UUID as three scraps, none a UUID alone.
  it('leaves a hash one reading cut into scraps, a reference of capitals and digits, a line of code', () => {
    const scraps = [word('O0alca8b4-', 1_000_000, 20, 60, 33), word('1462-', 1_000_000, 82, 34, 74), word('48f3-a909-8cd8881cdd1l2', 1_000_000, 118, 202, 16)];
    expect(tokenRuns(grey, block, scraps)).toEqual([]);
    expect(tokenRuns(grey, block, [word('1ZRX03GN8001156371', 7, 20, 300, 9)])).toEqual([]);
    expect(tokenRuns(grey, block, [word('resetPassword(userId:', 4, 20, 300, 24)])).toEqual([]);
    // A card's digits run together are not a reference: the fail-safe still hides them.
    expect(tokenRuns(grey, block, [word('4111111111111111', 7, 20, 300, 9)])).toHaveLength(1);
  });
});

describe('what the second look reads', () => {
  // White, with an icon (40 × 28 px of strokes, as a toolbar's glyph or a badge's logo) and two
  // runs of text-like ink on a line of their own, none under a word the first read was sure of.
  const grey: Grey = (() => {
    const width = 600, height = 200;
    const data = new Uint8Array(width * height).fill(255);
    const strokes = (x0: number, y0: number, w: number, h: number) => {
      for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) if (x % 3 === 0 || y === y0 || y === y0 + h - 1) data[y * width + x] = 30;
    };
    // The icon's strokes go both ways (a glyph's curves), so its cells are ink all through.
    for (let y = 40; y < 68; y++) for (let x = 40; x < 80; x++) if (((x >> 1) + (y >> 1)) % 2) data[y * width + x] = 30;
    strokes(120, 40, 300, 14);
    strokes(120, 120, 300, 14);
    return { data, width, height };
  })();

  it('leaves an icon about square, reads a line of ink', () => {
    const blocks = unreadBlocks(grey, []);
    expect(blocks.some((b) => b.x <= 40 && b.x + b.width >= 80)).toBe(false);
    expect(blocks.filter((b) => b.width >= 280)).toHaveLength(2);
  });

  it('reads its blocks side by side, each once', async () => {
    // Each read waits for the other block's read to start (or gives up after 5 s): read one after
    // the other, no two are ever under way at once.
    let now = 0, most = 0, calls = 0;
    const started: Array<() => void> = [];
    const read = async () => {
      calls++;
      most = Math.max(most, ++now);
      for (const go of started.splice(0)) go();
      if (calls < 2) await new Promise<void>((r) => (started.push(r), setTimeout(r, 5000)));
      now--;
      return { ok: true as const, words: [], size: { width: 1, height: 1 } };
    };
    const look = await secondLook(grey, [], read);
    expect(calls).toBe(look.blocks);
    expect(look.blocks).toBe(2);
    expect(most).toBe(2);
  }, 20_000);

  // An 80-column terminal at 1440p (the tuned corpus): the crop of an unread line below an AWS key id
  // showed the key's feet and underscores in its margin; tesseract read them as a dozen 5 px scraps
  // ("Btlid", "Vw", "iow") that joined the key's line, squashed its band, and the key's box was cut
  // to its lower half: the tops of its capitals were left showing.
  it('drops what it reads in the crop’s margin, the cut-off edge of the lines around the block', async () => {
    const read = async (image: { data: Uint8Array }) => {
      const { width = 0, height = 0 } = await sharp(image.data).metadata();
      const words = [
        { text: 'Btlid', line: 0, x: 20, y: 0, width: 60, height: 8, confidence: 60 },
        { text: 'xK9qPzLm', line: 1, x: 20, y: height / 2 - 10, width: 200, height: 20, confidence: 60 },
      ];
      return { ok: true as const, words, size: { width, height } };
    };
    const look = await secondLook(grey, [], read);
    expect(look.words.map((w) => w.text)).toEqual(['xK9qPzLm', 'xK9qPzLm']);
  });

  // A GPG public key exported in a terminal at 4K (held-out set C): the block's base64 lines in small
  // type, read unsure or not at all, were hidden as unread ink — most of the screen's text. Between a
  // BEGIN line that names a public key and its END line they are what anyone may have; a private
  // key's block is still hidden.
  it('leaves unread lines inside a public key block, not inside a private one', async () => {
    const read = async () => ({ ok: true as const, words: [], size: { width: 1, height: 1 } });
    const armour = (kind: string) => [
      ...['-----BEGIN', 'PGP', kind, 'KEY', 'BLOCK-----'].map((text, i) => ({ text, line: 1, x: 120 + i * 60, y: 8, width: 56, height: 12, confidence: 90 })),
      ...['-----END', 'PGP', kind, 'KEY', 'BLOCK-----'].map((text, i) => ({ text, line: 2, x: 120 + i * 60, y: 170, width: 56, height: 12, confidence: 90 })),
    ];
    expect((await secondLook(grey, armour('PUBLIC'), read)).failSafe).toEqual([]);
    expect((await secondLook(grey, armour('PRIVATE'), read)).failSafe).toHaveLength(2);
  });
});

describe('blurred ink', () => {
  // A line of glyph-like ink (strokes both ways), 300 × 14 px on grey paper, sharp or blurred by a
  // box three pixels each way: faint light text under a frosted bar steps by less than STEP between
  // neighbours, and only the steps three pixels apart find it.
  const line = (ink: number, paper: number, blur: number): Grey => {
    const width = 400, height = 60;
    let data = new Uint8Array(width * height).fill(paper);
    for (let y = 20; y < 34; y++) for (let x = 40; x < 340; x++) if (((x >> 1) + (y >> 1)) % 3 === 0) data[y * width + x] = ink;
    for (let pass = 0; pass < blur; pass++) {
      const next = new Uint8Array(data);
      for (let y = 1; y < height - 1; y++) {
        for (let x = 1; x < width - 1; x++) {
          let sum = 0;
          for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) sum += data[(y + dy) * width + x + dx] as number;
          next[y * width + x] = Math.round(sum / 9);
        }
      }
      data = next;
    }
    return { data, width, height };
  };
  const box = { x: 32, y: 12, width: 320, height: 32 };

  it('tells blurred ink from sharp ink of any contrast', () => {
    expect(softInk(line(30, 240, 0), box)).toBe(false);
    expect(softInk(line(200, 160, 0), box)).toBe(false);
    expect(softInk(line(30, 240, 2), box)).toBe(true);
  });

  it('finds a faint blurred line the steps between neighbours miss, and leaves sharp lines as they were', () => {
    const faint = line(230, 150, 2);
    const blocks = unreadBlocks(faint, []);
    expect(blocks.some((b) => b.x <= 48 && b.x + b.width >= 330)).toBe(true);
    expect(unreadBlocks(line(30, 240, 0), [])).toEqual([{ x: 40, y: 16, width: 304, height: 24 }]);
  });
});

describe('coloured marks', () => {
  // A screenshot tool's red pen: an ellipse drawn through a chat's lines joined them into one shape.
  it('marks coloured pixels, not grey or black ones (nor anti-aliased black on white)', async () => {
    const rgb = Buffer.from([224, 32, 27, 255, 235, 59, 40, 40, 40, 128, 128, 128, 250, 244, 246, 0, 0, 238]);
    const grey = await greyOf(sharp(rgb, { raw: { width: 6, height: 1, channels: 3 } }).png());
    expect([...(grey.marks ?? [])]).toEqual([1, 1, 0, 0, 0, 1]);
    expect(markShare(grey, { x: 0, y: 0, width: 6, height: 1 })).toBeCloseTo(0.5);
  });

  it('makes a crop’s coloured pixels its paper, and leaves its ink', () => {
    // A 4×2 crop at (1, 0) of a 6-wide image: paper 240, ink 20, a pen's pixels (grey 90) marked.
    const marks = new Uint8Array([0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0]);
    const px = new Uint8Array([240, 90, 240, 20, 240, 240, 90, 90]);
    unmark(px, marks, 6, { x: 1, y: 0, width: 4, height: 2 });
    expect([...px]).toEqual([240, 240, 240, 20, 240, 240, 240, 240]);
  });
});

describe('alongInk', () => {
  // A row of glyphs 16 px tall on white: each `w` columns of ink, then `gap` columns of paper.
  const row = (runs: readonly (readonly [number, number])[]): Grey => {
    const width = 400, height = 24, data = new Uint8Array(width * height).fill(255);
    let x = 10;
    for (const [w, gap] of runs) {
      for (let c = x; c < x + w; c++) for (let y = 6; y < 18; y++) data[y * width + c] = 30;
      x += w + gap;
    }
    return { data, width, height };
  };
  const box = { x: 8, y: 4, width: 100, height: 16, kind: 'secret' as const, rule: 'entropy' };

  it('follows a monospace token past its narrow glyphs’ wider gaps (an l or an i in its cell), to its end', () => {
    // A wrapped access token in an 80-column terminal: its box ended before an "l" whose gap, 3 px,
    // was more than the 2 px a 16 px box allowed, and the rest of its line leaked.
    const glyphs = Array.from({ length: 40 }, (_, i) => [4, i % 6 === 5 ? 3 : 1] as const);
    const out = alongInk(row(glyphs), box);
    expect(out.x + out.width).toBeGreaterThanOrEqual(10 + glyphs.reduce((n, [w, g]) => n + w + g, 0) - 3);
  });

  it('stops at a space: the next word is not the token’s', () => {
    const glyphs = [...Array.from({ length: 25 }, () => [4, 1] as const), [4, 6] as const, ...Array.from({ length: 10 }, () => [4, 1] as const)];
    const out = alongInk(row(glyphs), box);
    expect(out.x + out.width).toBeLessThan(10 + 25 * 5 + 4 + 6);
  });
});

describe('flattenPaper', () => {
  // A chat bubble as the second look sees it once inverted: a light page (225), a mid-grey bubble
  // (135: #1f8bff under white text on a dark page) and black strokes in it. Read as it was, the
  // bubble and its text were one dark box.
  it("makes a bubble's fill paper, and leaves its text the only ink", () => {
    const width = 200, height = 60;
    const px = new Uint8Array(width * height).fill(225);
    for (let y = 10; y < 50; y++) for (let x = 40; x < 180; x++) px[y * width + x] = 135;
    for (let y = 22; y < 38; y++) for (let x = 60; x < 160; x += 6) px[y * width + x] = px[y * width + x + 1] = 0;
    flattenPaper(px, width, height, 10);
    expect(px[30 * width + 63]).toBeGreaterThan(240); // the bubble between strokes
    expect(px[5 * width + 5]).toBe(255); // the page
    expect(px[30 * width + 60]).toBe(0); // a stroke
  });
});

// A phone's lock screen at 3× (set G): its notifications' lines are 40 px tall, and the second look
// read them at twice that — tesseract made "y yr kdz2 Ya GC." of a Wi-Fi key it reads whole at its
// own size. Small type is still enlarged.
describe('secondLook: the size a crop is read at', () => {
  /** One line of glyph-like ink `tall` px high (a chequer of 3 px squares), nothing read over it. */
  const line = (tall: number): Grey => {
    const width = 600, height = tall + 200;
    const data = new Uint8Array(width * height).fill(255);
    for (let y = 40; y < 40 + tall; y++) for (let x = 20; x < 580; x++) if ((Math.floor(x / 3) + Math.floor(y / 3)) % 2) data[y * width + x] = 0;
    return { data, width, height };
  };
  const heightsRead = async (grey: Grey) => {
    const heights: number[] = [];
    const read = async (image: { data: Uint8Array }) => {
      const { width = 0, height = 0 } = await sharp(image.data).metadata();
      heights.push(height);
      return { ok: true as const, words: [], size: { width, height } };
    };
    await secondLook(grey, [], read);
    return heights;
  };
  it('reads tall lines at their own size and short ones at twice theirs', async () => {
    const tall = await heightsRead(line(40));
    expect(tall.length).toBe(1);
    expect(tall[0]).toBeLessThan(80);
    const short = await heightsRead(line(12));
    expect(short.length).toBe(1);
    expect(short[0]).toBeGreaterThan(40);
  });

  // 4K@2 text at 14–15 px: lines 28–32 px tall, read at their own size like a phone's 40 px lines.
  it('reads lines about 30 px tall at their own size, the size of 4K@2 text at 15 px', async () => {
    const mid = await heightsRead(line(30));
    expect(mid.length).toBe(1);
    expect(mid[0]).toBeLessThan(60);
  });

  it('reads very large lines smaller, about 32 px tall', async () => {
    const big = await heightsRead(line(120));
    expect(big.length).toBe(1);
    expect(big[0]).toBeLessThan(100);
  });

  // A toolkit dialog on a black desktop (zenity's Wi-Fi share on Xvfb), whose lines the first read
  // missed: the light window on black is, on the screen made 4× smaller, one glyph 150 px tall —
  // taken for very large type and read made smaller, as "=" and "-"; its lines at their own size
  // were never read, and the password beside "Password:" leaked.
  describe('a light window on a dark desktop', () => {
    const dialog = (): Grey => {
      const width = 900, height = 400;
      const data = new Uint8Array(width * height).fill(0);
      for (let y = 100; y < 260; y++) data.fill(246, y * width + 100, y * width + 760);
      const ink = (x0: number, y0: number, x1: number, y1: number) => {
        for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if ((Math.floor(x / 3) + Math.floor(y / 3)) % 2) data[y * width + x] = 0;
      };
      ink(120, 130, 150, 190);
      for (const y of [130, 145, 160]) ink(180, y, 620, y + 14);
      return { data, width, height };
    };
    const reads = async (words: (n: number) => Word[]) => {
      const heights: number[] = [];
      await secondLook(dialog(), [], async (image) => {
        const { width = 0, height = 0 } = await sharp(image.data).metadata();
        heights.push(height);
        return { ok: true as const, words: words(heights.length), size: { width, height } };
      });
      return heights;
    };

    it('reads them at their own size when the large reading read nothing', async () => {
      // (The window read made smaller, its 60 px icon taken for the line: 384 → 160 px; then the
      // three lines, 48 px, enlarged twice over, and the icon.)
      const heights = await reads(() => []);
      expect(heights).toHaveLength(3);
      expect(heights).toContain(128);
    });

    it('reads nothing more when the large reading read words', async () => {
      const heights = await reads((n) => (n === 1 ? [word('Password:', 1, 2, 40, 90, 2, 8), word('Summer60', 1, 44, 30, 88, 2, 8)] : []));
      expect(heights).toEqual([160]);
    });
  });
});

describe('captionOf: a header turned 90° as an upright caption', () => {
  // "Password" printed upwards, 14 px wide and 70 tall, centred over a column whose cells start 40 px
  // to its left: the caption stands at its foot, from the cell's left, a line tall.
  it('stands at the foot of its column, from the left of the cell under it', () => {
    const cells = [word('Harbor66#WwHw', 5, 300, 110, 20, 150, 12), word('B2.14', 5, 200, 40, 90, 150, 12)];
    const caption = captionOf({ text: 'Password', confidence: 95, line: 2_000_000, box: { x: 340, y: 60, width: 14, height: 70 } }, cells);
    expect(caption).toMatchObject({ text: 'Password', x: 300, height: 14 });
    expect(caption.y + caption.height).toBe(130);
  });

  it('prefers a reading of words to one of scraps', () => {
    expect(readingQuality([{ text: 'Password', confidence: 95 }])).toBeGreaterThan(0.9);
    expect(readingQuality([{ text: 'H', confidence: 72 }, { text: 'pJ2x', confidence: 20 }, { text: 'in', confidence: 65 }])).toBeLessThan(0.3);
  });
});
