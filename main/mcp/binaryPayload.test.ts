import { describe, expect, it } from 'vitest';
import { readBinaryPayload } from './binaryPayload.ts';

describe('binary payloads', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

  it('reads base64 text, a data: URL, raw bytes, a serialised Buffer, and base64 text handed over as bytes', () => {
    const b64 = png.toString('base64');
    for (const value of [b64, `data:image/png;base64,${b64}`, png, new Uint8Array(png), { type: 'Buffer', data: [...png] }, Buffer.from(b64, 'latin1')]) {
      const result = readBinaryPayload(value);
      expect(result.ok && Buffer.from(result.bytes).equals(png), JSON.stringify(value).slice(0, 40)).toBe(true);
    }
    expect(readBinaryPayload('not base64!')).toMatchObject({ ok: false });
    expect(readBinaryPayload(42)).toMatchObject({ ok: false });
  });
});
