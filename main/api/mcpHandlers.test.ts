// "Show log" reads the end of a server's log file: whole lines, a note when it was cut, nothing
// for a server that has logged nothing yet.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logTail } from './mcpHandlers.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-log-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('logTail', () => {
  it('gives a short log whole, and the last whole lines of a long one', async () => {
    const short = join(dir, 'short.log');
    await writeFile(short, 'one\ntwo\n');
    expect(await logTail(short)).toEqual({ text: 'one\ntwo\n', bytes: 8, truncated: false });

    const long = join(dir, 'long.log');
    const lines = Array.from({ length: 100 }, (_, i) => `line ${String(i).padStart(3, '0')} ${'x'.repeat(40)}\n`);
    await writeFile(long, lines.join(''));
    const tail = await logTail(long, 1000);
    expect(tail.truncated).toBe(true);
    expect(tail.bytes).toBe(lines.join('').length);
    expect(tail.text.length).toBeLessThanOrEqual(1000);
    // Cut at a line start: every line is whole, and the last one is the file's last.
    expect(tail.text.split('\n').filter(Boolean).every((l) => /^line \d{3} x{40}$/.test(l))).toBe(true);
    expect(tail.text.endsWith(lines.at(-1)!)).toBe(true);
  });

  it('a log not written yet is empty, not an error', async () => {
    expect(await logTail(join(dir, 'none.log'))).toEqual({ text: '', bytes: 0, truncated: false });
  });
});
