import { describe, expect, it } from 'vitest';
import { scrubSecrets } from './scrubSecrets.ts';

const PNG_BASE64 = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 31) % 256)).toString('base64');

describe('scrubSecrets', () => {
  it('removes known secret values wherever they appear', () => {
    const key = 'my-private-key-1234';
    expect(scrubSecrets(`POST failed: key=${key}; retry with ${key}`, [key])).toBe('POST failed: key=[redacted]; retry with [redacted]');
  });

  it.each([
    ['Authorization: Bearer abcdefghijklmnop', 'Authorization: Bearer [redacted]'],
    ['{"authorization":"Basic dXNlcjpwYXNz"}', '{"authorization":"Basic [redacted]"}'],
    ['x-api-key: 0123456789abcdef', 'x-api-key: [redacted]'],
    ['sent bearer eyJhbGciOiJIUzI1NiJ9.e30.abc', 'sent bearer [redacted]'],
    ['{"apiKey":"hunter2-but-longer","model":"llava"}', '{"apiKey":"[redacted]","model":"llava"}'],
    ['GET https://api.example.com/v1?api_key=abc123&x=1', 'GET https://api.example.com/v1?api_key=[redacted]&x=1'],
    ['OpenAI said: Incorrect API key provided: sk-proj-abcdefghijklmnopqrstuvwx', 'OpenAI said: Incorrect API key provided: [redacted-key]'],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'token [redacted-key]'],
    ['key sk-or-v1-0123456789abcdef0123456789abcdef', 'key [redacted-key]'],
  ])('strips key-shaped text: %s', (input, expected) => {
    expect(scrubSecrets(input)).toBe(expected);
  });

  it('replaces data: URIs and long base64 runs with their length', () => {
    const line = `sent {"images":["${PNG_BASE64}"],"url":"data:image/png;base64,${PNG_BASE64}"}`;
    const out = scrubSecrets(line);
    expect(out).not.toContain(PNG_BASE64.slice(0, 200));
    expect(out).toContain(`data:image/png;base64,[${PNG_BASE64.length} chars redacted]`);
    expect(out).toContain(`[base64 ${PNG_BASE64.length} chars redacted]`);
    expect(out.length).toBeLessThan(200);
  });

  it('replaces bytes serialised as a number list', () => {
    const list = JSON.stringify(Array.from({ length: 500 }, (_, i) => i % 256));
    expect(scrubSecrets(`payload ${list} end`)).toBe('payload [500 bytes redacted] end');
  });

  it('leaves ordinary text alone: ids, hashes, paths, sizes', () => {
    const text = 'attachment 0123456789abcdef sha256 ' + 'ab'.repeat(32) + ' at /home/me/shot.png is 1568×882 · 212 KB';
    expect(scrubSecrets(text)).toBe(text);
  });
});
