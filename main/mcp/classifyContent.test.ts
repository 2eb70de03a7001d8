import { describe, expect, it } from 'vitest';
import { classifyContent, dropMangled, mangledBinary } from './classifyContent.ts';

describe('text or binary', () => {
  it('binary vs text: MIME or name decides when given (SVG is text), else NUL / strict UTF-8', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(await classifyContent(svg, { mime: 'image/svg+xml' })).toBe('text');
    expect(await classifyContent(svg, { name: 'logo.svg' })).toBe('text');
    expect(await classifyContent(Buffer.from('# Hi'), { name: 'README.md' })).toBe('text');
    expect(await classifyContent(Buffer.from('plain'), { name: 'x.png' })).toBe('binary');
    expect(await classifyContent(Buffer.from('plain'), { mime: 'application/octet-stream' })).toBe('binary');
    expect(await classifyContent(Buffer.from('naïve text ✓'), {})).toBe('text');
    expect(await classifyContent(Buffer.from([0x61, 0x00, 0x62]), {})).toBe('binary');
    expect(await classifyContent(Buffer.from([0xff, 0xfe, 0x41]), { name: 'unknown.xyz' })).toBe('binary');
  });

  it('the mangled-binary signature needs ≥ 8 U+FFFD in ≥ 1 KB', () => {
    const text = (n: number, length: number) => '\uFFFD'.repeat(n) + 'a'.repeat(length - n);
    expect(mangledBinary(text(8, 1024))).toEqual({ chars: 1024, replacements: 8 });
    expect(mangledBinary(text(7, 4096))).toBeUndefined(); // a document with a few glitches
    expect(mangledBinary(text(50, 1023))).toBeUndefined(); // too short to judge
  });
});

describe('dropMangled', () => {
  const noise = '\uFFFD'.repeat(40) + 'x'.repeat(2000);
  it('leaves ordinary text alone (one scan, no parse)', () => {
    expect(dropMangled('hello '.repeat(500))).toBeUndefined();
  });
  it('drops a whole plain-text block of mangled binary', () => {
    const out = dropMangled(noise);
    expect(out?.text).toMatch(/^\[content dropped: .*2040 characters, 40 U\+FFFD/);
    expect(out?.dropped).toEqual([{ field: '', chars: 2040, replacements: 40 }]);
  });
  it('in JSON only the mangled fields go, by path', () => {
    const out = dropMangled(JSON.stringify({ name: 'a.jpg', file: { content: noise }, list: ['ok'] }));
    const json = JSON.parse(out!.text) as { name: string; file: { content: string }; list: string[] };
    expect(json.name).toBe('a.jpg');
    expect(json.list).toEqual(['ok']);
    expect(json.file.content).toMatch(/^\[content dropped/);
    expect(out?.dropped.map((d) => d.field)).toEqual(['file.content']);
  });
});
