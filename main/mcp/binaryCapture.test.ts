import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { makeBarChart } from '../../test/fixtures/chart.ts';
import { FileAttachmentStore } from '../images/attachmentStore.ts';
import { ImageIntake } from '../images/imageIntake.ts';
import { BinaryCapture, type CaptureContext } from './binaryCapture.ts';
import type { CaptureRule } from './config.ts';

const RULE: CaptureRule = { tools: ['get_file_contents'], contentField: 'content', nameField: 'name', encodingField: 'encoding' };

let dir: string;
let capture: BinaryCapture;
const ctx = (extra: Partial<CaptureContext> = {}): CaptureContext => ({ server: 'gitea', tool: 'get_file_contents', origin: 'gitea__get_file_contents', rules: [RULE], ...extra });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capture-'));
  const store = new FileAttachmentStore(dir);
  capture = new BinaryCapture({ intake: new ImageIntake({ config: { limits: DEFAULT_LIMITS, allowedRoots: [] }, store }), capturesDir: join(dir, 'captures') });
});
afterEach(async () => rm(dir, { recursive: true, force: true }));


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

  it("a resource link marked for the person only (audience without 'assistant') is not read into the model's turn", async () => {
    const chart = await makeBarChart();
    const reads: string[] = [];
    const readResource = async (uri: string) => (reads.push(uri), [{ uri, mimeType: 'image/png', blob: chart.toString('base64') }]);
    const link = (annotations?: unknown) => ({ type: 'resource_link', uri: 'glance://captures/abc', name: 'full.png', mimeType: 'image/png', ...(annotations ? { annotations } : {}) });
    const forPerson = await capture.process({ content: [link({ audience: ['user'] })] }, ctx({ tool: 'snap', origin: 'srv__snap', rules: [], readResource }));
    expect(reads).toEqual([]);
    expect(forPerson.images).toHaveLength(0);
    expect(forPerson.text).toBe('[resource link: full.png glance://captures/abc, image/png]');
    const forBoth = await capture.process({ content: [link({ audience: ['user', 'assistant'] })] }, ctx({ tool: 'snap', origin: 'srv__snap', rules: [], readResource }));
    expect(reads).toEqual(['glance://captures/abc']);
    expect(forBoth.images).toHaveLength(1);
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
    const small = new BinaryCapture({ intake: { admit: (async () => ({ ok: false, code: 'corrupt', message: 'bad' })) as never }, capturesDir: join(dir, 'c'), maxTextChars: 10 });
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
