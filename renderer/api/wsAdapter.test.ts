import { describe, expect, it } from 'vitest';
import { encodePayload } from './wsAdapter.ts';

const decode = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

describe('encodePayload', () => {
  it('sends bytes as base64 wherever they are, and everything else as it is', () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    expect(encodePayload({ source: { kind: 'bytes', name: 'a.png', bytes }, model: { provider: 'ollama', name: 'x' } })).toEqual({
      source: { kind: 'bytes', name: 'a.png', bytes: { $bytes: 'AAEC+v8=' } },
      model: { provider: 'ollama', name: 'x' },
    });
    expect(encodePayload([1, 'a', null, { b: true }])).toEqual([1, 'a', null, { b: true }]);
  });

  it('encodes large buffers (chunked, no stack overflow)', () => {
    const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
    const encoded = encodePayload(big) as { $bytes: string };
    expect(decode(encoded.$bytes)).toEqual(big);
  });
});
