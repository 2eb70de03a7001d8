import { describe, expect, it } from 'vitest';
import { decodeBase64Strict, splitDataUrl } from './base64.ts';

describe('one strict base64 decoder', () => {
  it('decodes base64 strictly (line breaks allowed)', () => {
    expect(Buffer.from(decodeBase64Strict('aGVs\nbG8=')!).toString()).toBe('hello');
    expect(decodeBase64Strict('aGVsbG8')).toBeDefined(); // unpadded
    expect(decodeBase64Strict('aGVsbG8*')).toBeUndefined();
    expect(decodeBase64Strict('aGV=sbG8')).toBeUndefined();
    expect(decodeBase64Strict('')).toBeUndefined();
  });

  it('URL-safe, padding and any whitespace only when asked', () => {
    expect(decodeBase64Strict('-_-_')).toBeUndefined();
    expect(decodeBase64Strict('-_-_', { urlSafe: true })).toEqual(new Uint8Array(Buffer.from('-_-_', 'base64url')));
    expect(decodeBase64Strict('aGVsbG8', { padded: true })).toBeUndefined();
    expect(decodeBase64Strict('aGVs bG8=')).toBeUndefined();
    expect(Buffer.from(decodeBase64Strict('aGVs bG8=', { whitespace: 'any', padded: true })!).toString()).toBe('hello');
  });

  it('splits a data: URL', () => {
    expect(splitDataUrl('data:image/png;base64,AAAA')).toEqual({ meta: 'image/png;base64', payload: 'AAAA', base64: true });
    expect(splitDataUrl('data:image/svg+xml,%3Csvg')).toEqual({ meta: 'image/svg+xml', payload: '%3Csvg', base64: false });
    expect(splitDataUrl('data:nocomma')).toBeUndefined();
    expect(splitDataUrl('https://x/y')).toBeUndefined();
  });
});
