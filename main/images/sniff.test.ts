import { describe, expect, it } from 'vitest';
import { HTML, JSON_TEXT, SVG, TEXT, bmpBytes, heicHeader, pdfBytes, quadrantImage, type FixtureFormat } from '../../test/fixtures/images.ts';
import { sniffImage } from './sniff.ts';

describe('sniffImage', () => {
  it.each<[FixtureFormat, string, string]>([
    ['png', 'png', 'image/png'],
    ['jpeg', 'jpeg', 'image/jpeg'],
    ['webp', 'webp', 'image/webp'],
    ['gif', 'gif', 'image/gif'],
    ['tiff', 'tiff', 'image/tiff'],
    ['avif', 'avif', 'image/avif'],
  ])('recognises %s by its bytes', async (format, kind, mime) => {
    expect(await sniffImage(await quadrantImage(format))).toEqual({ ok: true, kind, mime });
  });

  it.each<[string, Uint8Array, RegExp]>([
    ['SVG with an XML declaration', Buffer.from(SVG), /SVG drawing/],
    ['bare SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>'), /SVG drawing/],
    ['PDF', pdfBytes(), /PDF document/],
    ['HTML', Buffer.from(HTML), /HTML web page/],
    ['plain text', Buffer.from(TEXT), /plain text/],
    ['JSON', Buffer.from(JSON_TEXT), /JSON/],
    ['XML', Buffer.from('<?xml version="1.0"?><note><to>you</to></note>'), /XML document/],
    ['an empty file', new Uint8Array(0), /empty/],
    ['a ZIP archive', Buffer.from('504b0304140000000800', 'hex'), /ZIP archive/],
    ['random bytes', Buffer.from([0x00, 0x13, 0x37, 0xfe, 0x01, 0x02, 0x03, 0x04, 0x99, 0x00, 0x42]), /does not recognise/],
  ])('refuses %s as not-an-image, naming it', async (_what, data, message) => {
    const result = await sniffImage(data);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('not-an-image');
    expect(result.message).toMatch(message);
  });

  it('lets HEIC through to be decoded and converted (libheif-js)', async () => {
    expect(await sniffImage(heicHeader())).toEqual({ ok: true, kind: 'heic', mime: 'image/heic' });
  });

  it('refuses BMP by name', async () => {
    const result = await sniffImage(bmpBytes());
    expect(result).toMatchObject({ ok: false, code: 'unsupported-format' });
    if (!result.ok) expect(result.message).toMatch(/BMP/);
  });
});
