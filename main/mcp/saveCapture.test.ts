import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { safeFileName } from '../../common/fileNames.ts';
import { saveCapture } from './saveCapture.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capture-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('safeFileName', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\system.ini', 'system.ini'],
    ['/etc/shadow', 'shadow'],
    ['C:\\Users\\me\\secret.png', 'secret.png'],
    ['..%2F..%2Fescape.bin', 'escape.bin'],
    ['%252e%252e%252fdouble.bin', 'double.bin'],
    ['.bashrc', 'bashrc'],
    ['report (final).pdf', 'report_final_.pdf'],
    ['café.wav', 'cafe.wav'],
    ['CON', '_CON'],
    ['nul.txt', '_nul.txt'],
    ['name\u0000with\u0007control.png', 'name_with_control.png'],
  ])('%j → %j', (raw, safe) => {
    expect(safeFileName(raw, 'fallback')).toBe(safe);
  });

  it('empty and dot-only names get the fallback', () => {
    for (const raw of ['', '.', '..', '../', '...', '/', '%2e%2e', '   ', undefined]) expect(safeFileName(raw, 'tool-audio')).toBe('tool-audio');
  });

  it('long names are cut to 120 characters keeping the extension', () => {
    const name = safeFileName(`${'a'.repeat(300)}.png`, 'x');
    expect(name).toHaveLength(120);
    expect(name.endsWith('.png')).toBe(true);
  });
});

describe('saveCapture', () => {
  it('stays inside the folder and suffixes collisions', async () => {
    const captures = join(dir, 'captures');
    const a = await saveCapture(captures, 'tone.wav', Buffer.from('one'));
    const b = await saveCapture(captures, '../tone.wav', Buffer.from('two'));
    const c = await saveCapture(captures, '/abs/tone.wav', Buffer.from('three'));
    expect([a, b, c]).toEqual([join(captures, 'tone.wav'), join(captures, 'tone-1.wav'), join(captures, 'tone-2.wav')]);
    expect((await readFile(b, 'utf8'))).toBe('two');
    expect((await readdir(captures)).sort()).toEqual(['tone-1.wav', 'tone-2.wav', 'tone.wav']); // no temp files left
    expect(await readdir(dir)).not.toContain('tone.wav');
  });

  it('concurrent saves of one name each get their own file', async () => {
    const captures = join(dir, 'captures');
    const paths = await Promise.all(Array.from({ length: 8 }, (_, i) => saveCapture(captures, 'same.bin', Buffer.from([i]))));
    expect(new Set(paths).size).toBe(8);
  });
});
