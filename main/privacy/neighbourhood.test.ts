// Values named by a word in their neighbourhood, on words laid out as OCR reads them: set L's leaks
// (a chat's codes, a note's account number, a cookie in a chat, a key in a list's row, a token under
// its caption) and the near misses that must stay: a zip's, an error's, an order's number, a year, a
// key's id, a prompt over a login.
import { describe, expect, it } from 'vitest';
import { linesOf } from './context.ts';
import type { ReadWord } from './locate.ts';
import { codeShaped, namesCode, namesToken, neighbourValues, tokenShaped } from './neighbourhood.ts';

type Row = [text: string, x: number, y: number, height?: number];
/** Each row's words laid left to right from x, 8 px a character, one line a row. */
const laid = (rows: Row[]): ReadWord[] =>
  rows.flatMap(([row, x0, y, height = 14], li) => {
    let x = x0;
    return row.split(' ').map((text) => {
      const w = { text, line: li, x, y, width: text.length * 8, height };
      x += text.length * 8 + 6;
      return w;
    });
  });
const found = (rows: Row[]) => {
  const words = laid(rows);
  return neighbourValues(words, linesOf(words)).map((f) => f.words.map((i) => (words[i] as ReadWord).text).join(' '));
};

describe('neighbourValues', () => {
  it('a code its clause names, in a chat bubble or a note', () => {
    expect(found([['Your parcel is in the Amazon Locker. Pickup code is on the way', 500, 87], ['pickup code 124608 can you get it on your way? I’m at work', 500, 157]])).toEqual(['124608']);
    expect(found([['oh and the bank sent me this, is it normal? “Ihr TAN für die Überweisung: 577248. Geben Sie diese niemals weiter."', 500, 373]])).toEqual(['577248.']);
    expect(found([['Nationwide current account', 330, 119], ['Sort code 91-06-19 Acc no 01507232', 330, 135]])).toEqual(['01507232']);
    // …not a zip's, an error's or an order's number, nor a year, nor a number far from the word.
    expect(found([['zip code 94110 for the delivery', 500, 100], ['it failed with error code 500123 again', 500, 140], ['order number 48213377 shipped', 500, 180]])).toEqual([]);
    expect(found([['the code was written in 2019 by Ada', 500, 100], ['code review for 4 files and 1234 lines changed today', 500, 140]])).toEqual([]);
  });

  it('a secret that is a word, named just before its "=" or colon', () => {
    expect(found([['Online: memorable word = gravity (they ask for 3 letters of it)', 317, 200]])).toEqual(['gravity']);
    expect(found([['Online: memorable word = the name of my first pet', 317, 200], ['Online: username = gravity', 317, 240]])).toEqual([]);
  });

  it('a code that starts a reply under a question naming it or what it opens', () => {
    const chat: Row[] = [['Mum', 38, 42], ['sure. and the bike lock?', 2548, 229], ['Grace', 37, 234], ['1-9-5-8 same as the shed', 514, 290]];
    expect(found(chat)).toEqual(['1-9-5-8']);
    // Not under a question about something else, nor under a statement.
    expect(found([['what time is the train?', 2548, 229], ['1958 from platform 4', 514, 272]])).toEqual([]);
    expect(found([['and the bike lock is fixed', 2548, 229], ['1-9-5-8 same as the shed', 514, 272]])).toEqual([]);
  });

  it("a credential its clause names after a colon, a row's words name, or its caption names", () => {
    expect(found([['thx. also rabbit on the warehouse side needs the erlang cookie for the cluster: ZOWSGMBSHNFRSRQXOSSS', 302, 652]])).toEqual(['ZOWSGMBSHNFRSRQXOSSS']);
    // Not a piece of an ARN OCR read apart at a colon (the look-alike screens' aws cli output).
    expect(found([['arn:aws:secretsmanager:us-east-1:586437172485: secret: prod/orders-db-NbKLaE', 0, 427]])).toEqual([]);
    // A list's row: the title and its sub-line left, the key in a box at the row's right.
    const row: Row[] = [['Spiritfarer', 218, 540, 25], ['GOG.com key', 219, 580, 15], ['9MV84QFMOBXPDZRAFF', 1451, 561, 22]];
    expect(found(row)).toEqual(['9MV84QFMOBXPDZRAFF']);
    expect(found([['Spiritfarer', 218, 540, 25], ['GOG.com key ID', 219, 580, 15], ['9MV84QFMOBXPDZRAFF', 1451, 561, 22]])).toEqual([]);
    // A caption over a field: hex, which alone passes for a hash, is named by it.
    expect(found([['Steam Game Server Login Token (Valheim box)', 698, 334, 15], ['0694D7446FA209CD489FCA8C8D0C4E86', 707, 368, 9]])).toEqual(['0694D7446FA209CD489FCA8C8D0C4E86']);
    expect(found([['Commit hash of the build', 698, 334, 15], ['0694d7446fa209cd489fca8c8d0c4e86', 707, 368, 9]])).toEqual([]);
    // A disk's serial under its column's header is public (set J's lsblk: a serial named a secret's root masked it).
    const header: ReadWord[] = [['NAME', 8], ['SIZE', 144], ['FSTYPE', 191], ['MOUNTPOINT', 306], ['SERIAL', 412]].map(([text, x]) => ({ text: text as string, line: 0, x: x as number, y: 164, width: (text as string).length * 8, height: 9 }));
    const disk = [...header, { text: 'nvme0n1', line: 1, x: 9, y: 186, width: 56, height: 12 }, { text: 'ST3TUITXSRQ31Y4B9Q', line: 1, x: 412, y: 186, width: 120, height: 12 }];
    expect(neighbourValues(disk, linesOf(disk))).toEqual([]);
    // A prompt over a login is no caption of it.
    expect(found([['Enter your credentials to connect to: fileserver01', 121, 188], ['ACME\\ada.byron', 127, 222]])).toEqual([]);
  });
});

describe('the shapes and the names', () => {
  it('codes of digits and credentials, not words, dates or public identifiers', () => {
    for (const v of ['124608', '6-7-6-4', '01507232', '577248.']) expect(codeShaped(v), v).toBe(true);
    for (const v of ['2026', '2026-12-07', '123', '12:30']) expect(codeShaped(v), v).toBe(false);
    for (const v of ['FY9KW-T2G4A-B7KPM', 'IQADKGUDDMZGWEDULZKB', '4ef889f6869cc6b6cacf654b19914949']) expect(tokenShaped(v), v).toBe(true);
    for (const v of ['CONFIGURATIONOVERRIDES', 'DeviceID=bf92dax9trfqky505ufozu', 'https://example.com/a1b2c3d4e5', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq']) expect(tokenShaped(v), v).toBe(false);
  });

  it('names a credential unless a word makes it public', () => {
    expect(namesToken(['the', 'erlang', 'cookie', 'for', 'the', 'cluster:'])).toBe(true);
    expect(namesToken(['APIKeY'])).toBe(true);
    expect(namesToken(['cookie', 'policy'])).toBe(false);
    expect(namesToken(['public', 'key'])).toBe(false);
    expect(namesCode(['pickup', 'code'])).toBe(true);
    expect(namesCode(['postal', 'code'])).toBe(false);
    expect(namesCode(['TAN', 'für', 'die', 'Überweisung:'])).toBe(true);
    expect(namesCode(['TAN', 'für', 'die', 'Überweisung'])).toBe(false);
  });
});
