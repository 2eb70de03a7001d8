import { describe, expect, it } from 'vitest';
import { formatTokens, groupDigits } from './imageFormat.ts';

describe('groupDigits', () => {
  it("reads as toLocaleString('en-US') does for whole numbers, without Intl", () => {
    for (const n of [0, 7, 999, 1000, 1105, 65_536, 999_999, 1_000_000, 131_072, 1_234_567_890, -1, -4096, -1_000_000]) {
      expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
    }
  });

  it('rounds to a whole number', () => {
    expect(groupDigits(1234.4)).toBe('1,234');
    expect(groupDigits(1234.5)).toBe('1,235');
    expect(groupDigits(-0.4)).toBe('0');
  });
});

describe('formatTokens', () => {
  it('is "≈N tokens", or empty when unknown', () => {
    expect(formatTokens(1105)).toBe('≈1,105 tokens');
    expect(formatTokens(null)).toBe('');
    expect(formatTokens(undefined)).toBe('');
  });
});
