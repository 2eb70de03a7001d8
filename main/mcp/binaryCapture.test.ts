import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { makeBarChart } from '../../test/fixtures/chart.ts';
import { FileAttachmentStore } from '../images/attachmentStore.ts';
import { ImageIntake } from '../images/imageIntake.ts';
import { BinaryCapture, classifyContent, decodeBase64Strict, mangledBinary, readBinaryPayload, safeCaptureName, saveCapture, type CaptureContext } from './binaryCapture.ts';
import type { CaptureRule } from './config.ts';

const RULE: CaptureRule = { tools: ['get_file_contents'], contentField: 'content', nameField: 'name', encodingField: 'encoding' };

let dir: string;
let capture: BinaryCapture;
const ctx = (extra: Partial<CaptureContext> = {}): CaptureContext => ({ server: 'gitea', tool: 'get_file_contents', origin: 'gitea__get_file_contents', rules: [RULE], ...extra });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capture-'));
  const store = new FileAttachmentStore(dir);
  capture = new BinaryCapture({ intake: new ImageIntake({ config: { limits: DEFAULT_LIMITS, allowedRoots: [] }, store }), store, capturesDir: join(dir, 'captures') });
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('safeCaptureName', () => {
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
    expect(safeCaptureName(raw, 'fallback')).toBe(safe);
  });

  it('empty and dot-only names get the fallback', () => {
    for (const raw of ['', '.', '..', '../', '...', '/', '%2e%2e', '   ', undefined]) expect(safeCaptureName(raw, 'tool-audio')).toBe('tool-audio');
  });

  it('long names are cut to 120 characters keeping the extension', () => {
    const name = safeCaptureName(`${'a'.repeat(300)}.png`, 'x');
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

describe('payloads and verdicts', () => {
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

  it('decodes base64 strictly (line breaks allowed)', () => {
    expect(Buffer.from(decodeBase64Strict('aGVs\nbG8=')!).toString()).toBe('hello');
    expect(decodeBase64Strict('aGVsbG8')).toBeDefined(); // unpadded
    expect(decodeBase64Strict('aGVsbG8*')).toBeUndefined();
    expect(decodeBase64Strict('aGV=sbG8')).toBeUndefined();
    expect(decodeBase64Strict('')).toBeUndefined();
  });

  it('binary vs text: MIME or name decides when given (SVG is text), else NUL / strict UTF-8', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(await classifyContent(svg, { mime: 'image/svg+xml' })).toBe('text');
    expect(await classifyContent(svg, { name: 'logo.svg' })).toBe('text');
    expect(await classifyContent(Buffer.from('# Hi'), { name: 'README.md' })).toBe('text');
    expect(await classifyContent(Buffer.from('plain'), { name: 'x.png' })).toBe('binary');
    expect(await classifyContent(Buffer.from('plain'), { mime: 'application/octet-stream' })).toBe('binary');
    expect(await classifyContent(Buffer.from('naïve text ✓'), {})).toBe('text');
    expect(await classifyContent(Buffer.from([0x61, 0x00, 0x62]), {})).toBe('binary');
    expect(await classifyContent(Buffer.from([0xff, 0xfe, 0x41]), { name: 'unknown.xyz' })).toBe('binary');
  });

  it('the mangled-binary signature needs ≥ 8 U+FFFD in ≥ 1 KB', () => {
    const text = (n: number, length: number) => '\uFFFD'.repeat(n) + 'a'.repeat(length - n);
    expect(mangledBinary(text(8, 1024))).toEqual({ chars: 1024, replacements: 8 });
    expect(mangledBinary(text(7, 4096))).toBeUndefined(); // a document with a few glitches
    expect(mangledBinary(text(50, 1023))).toBeUndefined(); // too short to judge
  });
});

describe('BinaryCapture.process', () => {
  it('replaces an image block by a descriptor, keeps other blocks untouched', async () => {
    const chart = await makeBarChart();
    const outcome = await capture.process(
      { content: [{ type: 'text', text: 'before' }, { type: 'image', data: chart, mimeType: 'image/png' }, { type: 'resource_link', uri: 'file:///x.txt', name: 'x.txt' }] },
      ctx({ tool: 'snap', origin: 'srv__snap', rules: [] }),
    );
    expect(outcome.images).toHaveLength(1);
    expect(outcome.text.split('\n')).toEqual(['before', expect.stringMatching(/^\[image captured from srv__snap: snap-1\.png, .*240×120/), '[resource link: x.txt file:///x.txt]']);
  });

  it('a rule over a JSON array captures each element', async () => {
    const chart = await makeBarChart();
    const text = JSON.stringify([
      { name: 'a.png', encoding: 'base64', content: chart.toString('base64'), sha: '1' },
      { name: 'b.md', encoding: 'base64', content: Buffer.from('# B, a markdown file long enough').toString('base64'), sha: '2' },
    ]);
    const outcome = await capture.process({ content: [{ type: 'text', text }] }, ctx());
    const json = JSON.parse(outcome.text) as { content: string; sha: string; encoding: string }[];
    expect(json[0]).toMatchObject({ sha: '1', encoding: 'captured', content: expect.stringMatching(/^\[image captured/) });
    expect(json[1]).toMatchObject({ sha: '2', encoding: 'utf-8', content: '# B, a markdown file long enough' });
  });

  it('a rule leaves a field alone when the encoding says text, or the tool does not match', async () => {
    const plain = JSON.stringify({ name: 'x.png', encoding: 'utf-8', content: 'SGVsbG8gd29ybGQsIHRoaXMgaXMgYmFzZTY0IQ==' });
    expect((await capture.process({ content: [{ type: 'text', text: plain }] }, ctx())).text).toBe(plain);
    expect((await capture.process({ content: [{ type: 'text', text: plain }] }, ctx({ tool: 'other' }))).text).toBe(plain);
    expect((await capture.process({ content: [{ type: 'text', text: 'not json' }] }, ctx())).text).toBe('not json');
  });

  it('a payload that is not what the rule claimed passes the original through', async () => {
    const claimsPng = JSON.stringify({ name: 'x.png', encoding: 'base64', content: Buffer.from('this is not a png at all, only words').toString('base64') });
    const outcome = await capture.process({ content: [{ type: 'text', text: claimsPng }] }, ctx());
    expect(outcome.text).toBe(claimsPng);
    expect(outcome.notes.join()).toMatch(/not the image it claimed to be/);
  });

  it('a field that is neither base64 nor mangled stays; a claimed-base64 note is kept', async () => {
    const text = JSON.stringify({ name: 'x.txt', encoding: 'base64', content: 'plain words, not base64, with spaces in them' });
    const outcome = await capture.process({ content: [{ type: 'text', text }] }, ctx());
    expect(outcome.text).toBe(text);
    expect(outcome.notes).toEqual(['"content" claimed base64 but is not; left as the server sent it']);
  });

  it('a passthrough is capped with a note; descriptors are never cut', async () => {
    const small = new BinaryCapture({ intake: { prepare: async () => ({ ok: false, code: 'corrupt', message: 'bad' }) }, store: undefined as never, capturesDir: join(dir, 'c'), maxTextChars: 10 });
    const outcome = await small.process({ content: [{ type: 'text', text: 'x'.repeat(50) }, { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' }] }, ctx({ rules: [] }));
    expect(outcome.text.split('\n')).toEqual(['x'.repeat(10), expect.stringMatching(/^\[image from .* not kept: .*corrupt: bad\]$/), '[… result cut: 50 characters of text, only the first 10 shown]']);
  });

  it('structuredContent is the text when there are no content blocks; unknown blocks lose long strings', async () => {
    expect((await capture.process({ content: [], structuredContent: { temperature: 21 } }, ctx({ rules: [] }))).text).toBe('{"temperature":21}');
    const odd = await capture.process({ content: [{ type: 'video', data: 'A'.repeat(5000) }] }, ctx({ rules: [] }));
    expect(odd.text).toBe('{"type":"video","data":"[5000 characters elided]"}');
  });

  it('never throws, even for garbage', async () => {
    for (const result of [{}, { content: 'x' }, { content: [null, 3, { type: 'image' }, { type: 'resource', resource: { uri: 'a', blob: '***' } }] }]) {
      await expect(capture.process(result, ctx())).resolves.toMatchObject({ ok: true });
    }
  });

  it('isError results are processed too and stay ok:false', async () => {
    const outcome = await capture.process({ isError: true, content: [{ type: 'text', text: 'boom' }] }, ctx({ rules: [] }));
    expect(outcome).toMatchObject({ ok: false, text: 'boom' });
  });

  it('writes files only inside the captures folder', async () => {
    await writeFile(join(dir, 'marker'), '');
    const outcome = await capture.process(
      { content: [{ type: 'resource', resource: { uri: 'x://h/..%2F..%2F..%2Fmarker', mimeType: 'application/octet-stream', blob: Buffer.from([0, 1, 2]).toString('base64') } }] },
      ctx({ rules: [] }),
    );
    expect(outcome.files[0]?.path).toBe(join(dir, 'captures', 'marker.bin'));
    expect(await readFile(join(dir, 'marker'), 'utf8')).toBe('');
  });
});
