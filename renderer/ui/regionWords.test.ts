import { describe, expect, it } from 'vitest';
import { regionWords } from './regionWords.ts';

describe('regionWords', () => {
  it('says where a region is in words', () => {
    const size = { width: 1280, height: 720 };
    expect(regionWords({ kind: 'jwt', x: 393, y: 209, width: 358, height: 26 }, size)).toBe('jwt, top centre, 358×26 px');
    expect(regionWords({ kind: 'jwt', x: 461, y: 350, width: 358, height: 26 }, size)).toBe('jwt, centre, 358×26 px');
    expect(regionWords({ kind: 'api key', x: 10, y: 10, width: 100, height: 20 }, size)).toBe('api key, top left, 100×20 px');
    expect(regionWords({ kind: 'password', x: 1100, y: 650, width: 100, height: 20 }, size)).toBe('password, bottom right, 100×20 px');
    expect(regionWords({ kind: 'secret', x: 10, y: 350, width: 100, height: 20 }, size)).toBe('secret, left edge, middle, 100×20 px');
    expect(regionWords({ kind: 'secret', x: 10, y: 350, width: 100, height: 20 })).toBe('secret, 100×20 px');
  });
});
