// The hotkey's path through the door: a capture's raw pixels (FrameInput) are fitted for the model
// without a PNG first, and the lossless original is kept after the payload — reachable as soon as
// anyone asks for it, and never lost when the disk refuses it.
import sharp from 'sharp';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RawFrame } from '../../common/images.ts';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { textImage } from '../../test/fixtures/textImage.ts';
import { FileAttachmentStore } from './attachmentStore.ts';
import { normaliseFrame } from './fitFrame.ts';
import { ImageIntake } from './imageIntake.ts';
import { normaliseImage } from './normalise.ts';
import { targetFor } from './profiles.ts';
import type { PixelStage } from './types.ts';

const LIMITS = { ...DEFAULT_LIMITS };
let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'glance-frame-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** A screen of text as a capture would hand it over: RGB pixels, and the PNG of the same pixels. */
async function screen(width = 1600, height = 900): Promise<{ frame: RawFrame; png: Buffer }> {
  const lines = Array.from({ length: Math.floor(height / 30) }, (_, i) => (width >= 1000 ? `const value${i} = compute(${i * 37}, "row ${i}") // note ${i}` : `v${i} = f(${i * 37})`));
  const page = await textImage({ lines, width, height, fontPx: 14 });
  const { data, info } = await sharp(page.png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const frame: RawFrame = { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
  const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
  return { frame, png };
}

async function pixelsOf(bytes: Uint8Array): Promise<Buffer> {
  return (await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })).data;
}

const gemma = () => targetFor('ollama', 'gemma3', undefined, 'yes');
const input = (frame: RawFrame) => ({ frame, name: 'screenshot.png', origin: 'screenshot', requestedBy: 'user' as const });

describe('a frame is fitted for the model as its PNG would be', () => {
  it.each([
    ['gemma3 (squashed to 896²)', 'gemma3'],
    ['an unknown Ollama model (1568 px)', 'mystery-vision'],
    ['qwen2.5-vl (its own size)', 'qwen2.5vl:7b'],
  ])('%s: the same bytes as from the capture’s PNG', async (_label, model) => {
    const { frame, png } = await screen();
    const { profile } = targetFor('ollama', model, undefined, 'yes');
    const fromFrame = await normaliseFrame(frame, profile, LIMITS);
    const fromPng = await normaliseImage(png, { kind: 'png', mime: 'image/png' }, profile, LIMITS);
    if (!fromFrame.ok || !fromPng.ok) throw new Error('not normalised');
    expect([fromFrame.image.width, fromFrame.image.height]).toEqual([fromPng.image.width, fromPng.image.height]);
    expect(fromFrame.image.mime).toBe(fromPng.image.mime);
    expect(Buffer.from(fromFrame.image.data).equals(Buffer.from(fromPng.image.data))).toBe(true);
  });

  it('a frame over the pixel limit is refused in words, nothing decoded', async () => {
    const frame: RawFrame = { data: new Uint8Array(300 * 200 * 3), width: 300, height: 200, channels: 3 };
    const refused = await normaliseFrame(frame, gemma().profile, { maxInputPixels: 50_000 });
    expect(refused).toMatchObject({ ok: false, code: 'too-many-pixels' });
  });
});

describe('the door keeps a frame’s original after the payload', () => {
  it('stores the payload at once, and the original — the frame’s pixels exactly — is reachable from the record it returned', async () => {
    const { frame } = await screen();
    const store = new FileAttachmentStore(dataDir);
    const intake = new ImageIntake({ config: { limits: LIMITS, allowedRoots: [] }, store });
    const admitted = await intake.admit(input(frame), gemma(), 'user');
    if (!admitted.ok) throw new Error(admitted.message);
    expect(admitted.attachment).toMatchObject({ width: 896, height: 896, source: { width: 1600, height: 900 } });
    // Asked for before it is written (the ask window's crop): it is waited for, not missed.
    const original = await store.original(admitted.attachment);
    expect(original?.mime).toBe('image/png');
    expect((await pixelsOf(original!.data)).equals(Buffer.from(frame.data))).toBe(true);
    expect(await admitted.originalKept).toEqual({ ok: true });
    // On disk for another process, and the copy is remembered for the target: a send reuses it.
    const fresh = new FileAttachmentStore(dataDir);
    const info = await fresh.info(admitted.attachment.id);
    expect(info?.original?.sha256).toBe(original!.sha256);
    const again = await new ImageIntake({ config: { limits: LIMITS, allowedRoots: [] }, store: fresh }).admit({ attachmentId: admitted.attachment.id }, gemma(), 'user');
    expect(again).toMatchObject({ ok: true, attachment: { id: admitted.attachment.id } });
  });

  it('an original the disk refuses is reported, served from memory, and written once the disk takes it', async () => {
    const { frame } = await screen(800, 450);
    const store = new FileAttachmentStore(dataDir);
    const intake = new ImageIntake({ config: { limits: LIMITS, allowedRoots: [] }, store });
    // The originals folder cannot be made: a file sits where it should be.
    const first = await intake.admit(input({ data: new Uint8Array(8 * 8 * 3), width: 8, height: 8, channels: 3 }), targetFor('openai', 'gpt-4o', undefined, 'yes'), 'user');
    expect(first.ok && (await first.originalKept)).toEqual({ ok: true });
    await rm(join(dataDir, 'attachments', 'originals'), { recursive: true, force: true });
    await writeFile(join(dataDir, 'attachments', 'originals'), 'not a folder');
    const admitted = await intake.admit(input(frame), gemma(), 'user');
    if (!admitted.ok) throw new Error(admitted.message);
    const kept = await admitted.originalKept;
    expect(kept).toMatchObject({ ok: false, message: expect.stringMatching(/original of screenshot.*could not be saved.*kept in memory/) });
    // The payload is there and the send can go; the original is not lost.
    expect(await store.get(admitted.attachment.id)).toBeDefined();
    const fromMemory = await store.original(admitted.attachment);
    expect((await pixelsOf(fromMemory!.data)).equals(Buffer.from(frame.data))).toBe(true);
    // The disk is fixed: the next read writes it, and a fresh store finds it.
    await rm(join(dataDir, 'attachments', 'originals'), { force: true });
    await store.original(admitted.attachment);
    const fresh = new FileAttachmentStore(dataDir);
    const info = await fresh.info(admitted.attachment.id);
    const onDisk = info && (await fresh.original(info));
    expect(onDisk?.sha256).toBe(fromMemory!.sha256);
  });
});

describe('the pixel stage still sees a frame before any copy is made', () => {
  it('a stage that reads the pixels gets the frame’s PNG; its masked pixels are what the model gets', async () => {
    const { frame } = await screen(800, 450);
    const black = await sharp({ create: { width: 800, height: 450, channels: 3, background: '#000000' } }).png().toBuffer();
    const seen: Buffer[] = [];
    const stage: PixelStage = {
      begin(image) {
        return {
          settle: async () => {
            const data = typeof image.data === 'function' ? await image.data() : image.data;
            seen.push(await pixelsOf(data));
            return { data: black, redactions: [{ x: 0, y: 0, width: 800, height: 450, kind: 'secret', rule: 'test' }] };
          },
        };
      },
    };
    const store = new FileAttachmentStore(dataDir);
    const intake = new ImageIntake({ config: { limits: LIMITS, allowedRoots: [] }, store, pixelStage: stage });
    const admitted = await intake.admit(input(frame), gemma(), 'user');
    if (!admitted.ok) throw new Error(admitted.message);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.equals(Buffer.from(frame.data))).toBe(true);
    const payload = await store.get(admitted.attachment.id);
    expect((await pixelsOf(payload!.data)).some((v) => v !== 0)).toBe(false);
    expect(admitted.attachment.redactions).toHaveLength(1);
    // The original stays as it came: the frame, unmasked.
    const original = await store.original(admitted.attachment);
    expect((await pixelsOf(original!.data)).equals(Buffer.from(frame.data))).toBe(true);
  });

  it('a stage that refuses stops the frame: nothing is stored', async () => {
    const { frame } = await screen(400, 300);
    const store = new FileAttachmentStore(dataDir);
    const refusing: PixelStage = { begin: () => ({ settle: async () => ({ ok: false, code: 'redaction-failed', message: 'could not be checked' }) }) };
    const result = await new ImageIntake({ config: { limits: LIMITS, allowedRoots: [] }, store, pixelStage: refusing }).admit(input(frame), gemma(), 'user');
    expect(result).toEqual({ ok: false, code: 'redaction-failed', message: 'could not be checked' });
    expect(await store.list()).toEqual([]);
  });
});
