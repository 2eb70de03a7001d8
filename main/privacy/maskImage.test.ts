// Masks are opaque fills: every pixel inside a region is the fill, whatever was under it; none outside changes.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { windowRegions } from './detect.ts';
import { maskImage } from './maskImage.ts';
import { redactsFor } from './redactImage.ts';

describe('maskImage', () => {
  it('fills each region with one flat colour and leaves the rest alone', async () => {
    const noise = Buffer.alloc(64 * 48 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
    const png = await sharp(noise, { raw: { width: 64, height: 48, channels: 3 } }).png().toBuffer();
    const out = await maskImage(sharp(png), [{ x: 10, y: 5, width: 20, height: 10 }]);
    const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3));
    const inside = new Set<string>();
    for (let y = 5; y < 15; y++) for (let x = 10; x < 30; x++) inside.add(at(x, y).join(','));
    expect([...inside]).toEqual(['40,40,40']);
    expect(at(9, 5)).toEqual(Array.from(noise.subarray((5 * 64 + 9) * 3, (5 * 64 + 9) * 3 + 3)));
    expect(at(30, 14)).toEqual(Array.from(noise.subarray((14 * 64 + 30) * 3, (14 * 64 + 30) * 3 + 3)));
  });
});

describe('window exclusions', () => {
  it('fills windows whose app or title names an excluded app, clipped to the image', () => {
    const windows = [
      { app: 'KeePassXC', title: 'Passwords.kdbx', x: -20, y: 100, width: 400, height: 300 },
      { app: 'firefox', title: 'Bitwarden Web Vault — Mozilla Firefox', x: 500, y: 0, width: 600, height: 400 },
      { app: 'code', title: 'billing — Visual Studio Code', x: 0, y: 0, width: 800, height: 600 },
    ];
    expect(windowRegions(windows, ['keepassxc', 'Bitwarden'], { width: 1000, height: 700 })).toEqual([
      { x: 0, y: 100, width: 380, height: 300, kind: 'excluded window', rule: 'window:KeePassXC' },
      { x: 500, y: 0, width: 500, height: 400, kind: 'excluded window', rule: 'window:firefox' },
    ]);
  });
});

describe('redactsFor', () => {
  it('redacts for a remote endpoint under "remote", never for loopback; always and never mean what they say', () => {
    expect(redactsFor('remote', 'https://api.openai.com/v1')).toBe(true);
    expect(redactsFor('remote', 'http://192.168.1.20:11434')).toBe(true);
    expect(redactsFor('remote', 'http://127.0.0.1:11434')).toBe(false);
    expect(redactsFor('remote', 'http://localhost:1234/v1')).toBe(false);
    expect(redactsFor('remote', 'http://[::1]:8080')).toBe(false);
    expect(redactsFor('remote', undefined)).toBe(true);
    expect(redactsFor('always', 'http://127.0.0.1:11434')).toBe(true);
    expect(redactsFor('never', 'https://api.openai.com/v1')).toBe(false);
  });
});
