// Issue 11 part 1: every image that enters keeps its original bytes in the content-addressed
// store, named after what the bytes are; the model gets derived copies, made once per target;
// crops and the viewer work from the original; retention takes an original with its last image.
import { pngForPassthrough } from '../../main/images/pngChunks.ts';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import type { Services } from '../../main/core/composeServices.ts';
import { testServices } from '../support/testServices.ts';
import { sweepAttachments } from '../../main/chat/retention.ts';
import { cropAttachment } from '../../main/images/cropImage.ts';
import { originalForViewer } from '../../main/images/originalForViewer.ts';
import { profileFor, targetFor } from '../../main/images/profiles.ts';
import { BinaryCapture } from '../../main/mcp/binaryCapture.ts';
import { exifRotatedJpeg, photoRaw, quadrantImage } from '../fixtures/images.ts';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const seeing = (profile = profileFor('ollama')) => ({ ...targetFor('ollama', 'llava', { vision: 'yes', visionSource: 'ollama-capabilities' }), profile });

/** 3000×1500 with a 1-px black grid every 4 px on white: fitted to 1568 px the grid blurs to grey, the original keeps it. */
async function finePattern(): Promise<Buffer> {
  const width = 3000;
  const height = 1500;
  const data = Buffer.alloc(width * height * 3, 255);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (x % 4 === 0 || y % 4 === 0) data.fill(0, (y * width + x) * 3, (y * width + x) * 3 + 3);
  return sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** Standard deviation of the luma: a sharp grid is high, a blurred one low. */
async function contrast(png: Uint8Array): Promise<number> {
  const stats = await sharp(png).greyscale().stats();
  return stats.channels[0]!.stdev;
}

let dataDir: string;
let core: Services;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'glance-originals-'));
  core = testServices({ dataDir });
});
afterEach(async () => rm(dataDir, { recursive: true, force: true }));

describe('originals', () => {
  it('a drop keeps its exact bytes, named after the sniffed type (not the given name); the model gets the fitted copy', async () => {
    const { data: jpeg, upright } = await exifRotatedJpeg();
    const result = await core.intake.admit({ source: jpeg, name: 'holiday.png', origin: 'user', requestedBy: 'user' }, seeing(), 'user');
    if (!result.ok) throw new Error(result.message);
    const a = result.attachment;
    expect(a.original).toEqual({ sha256: sha(jpeg), mime: 'image/jpeg' });
    const files = (await readdir(join(dataDir, 'attachments', 'originals'))).filter((n) => !n.endsWith('.derived.json'));
    expect(files).toEqual([`${sha(jpeg)}.jpg`]);
    expect(sha(await readFile(join(dataDir, 'attachments', 'originals', files[0]!)))).toBe(sha(jpeg));
    const original = await core.attachments.original(a);
    expect(original && Buffer.from(original.data).equals(jpeg)).toBe(true);
    // The payload is another thing: metadata-free, upright.
    expect(a.sha256).not.toBe(sha(jpeg));
    expect([a.width, a.height]).toEqual([upright.width, upright.height]);
  });

  it('issue 30 item 12: an image stored unchanged has its original under attachments/originals/ too (one rule)', async () => {
    // Only critical chunks (sharp adds pHYs), so the PNG's own bytes are the payload.
    const png = Buffer.from(pngForPassthrough(await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 250, g: 10, b: 10 } } }).png().toBuffer())!);
    const result = await core.intake.admit({ source: png, name: 'dot.png', origin: 'user', requestedBy: 'user' }, seeing(), 'user');
    if (!result.ok) throw new Error(result.message);
    expect(result.attachment.sha256).toBe(sha(png)); // sent as it came
    expect(result.attachment.original).toEqual({ sha256: sha(png), mime: 'image/png' });
    const files = (await readdir(join(dataDir, 'attachments', 'originals'))).filter((n) => !n.endsWith('.derived.json'));
    expect(files).toEqual([`${sha(png)}.png`]);
    expect(sha(await readFile(join(dataDir, 'attachments', 'originals', files[0]!)))).toBe(sha(png));
  });

  it('WebP bytes named .png are kept as .webp', async () => {
    const webp = await quadrantImage('webp', 640, 480);
    const result = await core.intake.admit({ source: webp, name: 'shot.png', origin: 'user', requestedBy: 'user' }, seeing(), 'user');
    if (!result.ok) throw new Error(result.message);
    expect((await readdir(join(dataDir, 'attachments', 'originals'))).filter((n) => !n.endsWith('.derived.json'))).toEqual([`${sha(webp)}.webp`]);
    // The payload file is named after its own type too.
    expect(core.attachments.pathOf(result.attachment).endsWith(result.attachment.mime === 'image/png' ? '.png' : '.jpg')).toBe(true);
  });

  it('an MCP image block is kept byte-exact to what the server sent', async () => {
    const png = await sharp(photoRaw(1600, 900), { raw: { width: 1600, height: 900, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
    const capture = new BinaryCapture({ intake: core.intake, capturesDir: join(dataDir, 'captures') });
    const outcome = await capture.process(
      { content: [{ type: 'image', data: png.toString('base64'), mimeType: 'image/png' }] },
      { server: 'pw', tool: 'browser_take_screenshot', origin: 'pw__browser_take_screenshot', rules: [], imageTarget: seeing() },
    );
    expect(outcome.images).toHaveLength(1);
    const original = await core.attachments.original(outcome.images[0]!);
    expect(original?.mime).toBe('image/png');
    expect(original && sha(original.data)).toBe(sha(png));
  });

  it('re-fitting for another model starts from the original and is done once per target', async () => {
    const big = await finePattern();
    const small = await core.intake.admit({ source: big, name: 'grid.png', origin: 'user', requestedBy: 'user' }, seeing({ ...profileFor('ollama'), maxLongEdge: 600, maxPixels: 600 * 300 }), 'user');
    if (!small.ok) throw new Error(small.message);
    expect(small.attachment.width).toBe(600);
    const wide = seeing(profileFor('openai'));
    const refit = await core.intake.admit({ attachmentId: small.attachment.id }, wide, 'user');
    if (!refit.ok) throw new Error(refit.message);
    // From the 3000 px original, not the 600 px copy (which would not be enlarged).
    expect(refit.attachment.width).toBe(2048);
    expect(refit.attachment.original?.sha256).toBe(sha(big));
    const payloads = async () => (await readdir(join(dataDir, 'attachments'))).filter((n) => n.endsWith('.json')).length;
    const before = await payloads();
    const again = await core.intake.admit({ attachmentId: small.attachment.id }, wide, 'user');
    expect(again.ok && again.attachment.id).toBe(refit.attachment.id);
    expect(await payloads()).toBe(before);
    // A blind target is refused by the gate, as always.
    const blind = await core.intake.admit({ attachmentId: small.attachment.id }, { ...wide, vision: 'no', visionSource: 'settings' }, 'user');
    expect(blind.ok ? 'sent' : blind.code).toBe('model-blind');
  });

  it("a capture's pixel ratio survives a re-fit: the legibility estimate for the new model still counts Retina text as twice as large", async () => {
    const big = await finePattern();
    const first = await core.intake.admit({ source: big, name: 'retina.png', origin: 'screenshot', requestedBy: 'user', pixelRatio: 2 }, seeing(), 'user');
    if (!first.ok) throw new Error(first.message);
    expect(first.attachment.source.pixelRatio).toBe(2);
    const other = seeing({ ...profileFor('ollama'), maxLongEdge: 1000, maxPixels: 1000 * 500 });
    const refit = await core.intake.admit({ attachmentId: first.attachment.id }, other, 'user');
    if (!refit.ok) throw new Error(refit.message);
    // The same re-fit of a capture at ratio 1 estimates text half as large.
    const plain = await core.intake.admit({ source: big, name: 'plain.png', origin: 'screenshot', requestedBy: 'user' }, { profile: other.profile }, 'check');
    if (!plain.ok) throw new Error(plain.message);
    expect(refit.attachment.width).toBe(plain.image.width);
    expect(refit.attachment.legibility!.textPx).toBeCloseTo(plain.image.legibility.textPx * 2, 0);
  });

  it('an image attached for a model is not prepared again when it is sent to that model (the gate runs once)', async () => {
    const big = await finePattern();
    const target = seeing();
    const added = await core.intake.admit({ source: big, name: 'once.png', origin: 'user', requestedBy: 'user' }, target, 'user');
    if (!added.ok) throw new Error(added.message);
    // A prepared copy always ends in the store: no put means nothing was prepared again.
    let prepares = 0;
    const put = core.attachments.put.bind(core.attachments);
    core.attachments.put = (...args) => {
      prepares++;
      return put(...args);
    };
    try {
      const sent = await core.intake.admit({ attachmentId: added.attachment.id }, target, 'user');
      expect(sent.ok && sent.attachment.id).toBe(added.attachment.id);
      expect(prepares).toBe(0);
    } finally {
      core.attachments.put = put;
    }
  });

  it('a crop of the shown copy is cut from the original at native resolution (sharper than the copy)', async () => {
    const big = await finePattern();
    const result = await core.intake.admit({ source: big, name: 'grid.png', origin: 'user', requestedBy: 'user' }, seeing(), 'user');
    if (!result.ok) throw new Error(result.message);
    const a = result.attachment;
    expect(a.width).toBeLessThanOrEqual(1568);
    const crop = await cropAttachment(core.attachments, a, { x: 100, y: 100, width: 200, height: 100 }, DEFAULT_LIMITS);
    if (!crop.ok) throw new Error(crop.message);
    expect(crop.fromOriginal).toBe(true);
    const scale = 3000 / a.width;
    expect(crop.source.x).toBe(Math.round(100 * scale));
    expect(crop.source.width).toBeGreaterThanOrEqual(Math.floor(200 * scale));
    expect(crop.source.width).toBeLessThanOrEqual(Math.ceil(200 * scale) + 1);
    const stored = await core.attachments.get(a.id);
    const fromCopy = await sharp(stored!.data).extract({ left: 100, top: 100, width: 200, height: 100 }).png().toBuffer();
    expect(await contrast(crop.png)).toBeGreaterThan((await contrast(fromCopy)) * 1.5);
  });

  it('refuses regions outside the image, negative, NaN or empty, in plain words', async () => {
    const result = await core.intake.admit({ source: await quadrantImage('png', 400, 300), origin: 'user', requestedBy: 'user' }, seeing(), 'user');
    if (!result.ok) throw new Error(result.message);
    const outside = await cropAttachment(core.attachments, result.attachment, { x: 500, y: 10, width: 20, height: 20 }, DEFAULT_LIMITS);
    expect(outside.ok ? '' : outside.message).toMatch(/outside the 400×300 image/);
    // A huge width is clamped to the image's edge.
    const huge = await cropAttachment(core.attachments, result.attachment, { x: 390, y: 0, width: 1e12, height: 300 }, DEFAULT_LIMITS);
    expect(huge.ok && [huge.shown.width, huge.source.width]).toEqual([10, 10]);
  });

  it('the viewer gets the original at full resolution; a TIFF is converted losslessly to PNG', async () => {
    const tiff = await quadrantImage('tiff', 2400, 1800);
    const result = await core.intake.admit({ source: tiff, name: 'scan.tif', origin: 'user', requestedBy: 'user' }, seeing(), 'user');
    if (!result.ok) throw new Error(result.message);
    const view = await originalForViewer(core.attachments, result.attachment, DEFAULT_LIMITS);
    if (!view.ok) throw new Error(view.message);
    expect({ mime: view.mime, width: view.width, height: view.height, fromOriginal: view.fromOriginal, original: view.original }).toEqual({
      mime: 'image/png',
      width: 2400,
      height: 1800,
      fromOriginal: true,
      original: { mime: 'image/tiff', bytes: tiff.byteLength },
    });
    const meta = await sharp(view.data).metadata();
    expect([meta.format, meta.width]).toEqual(['png', 2400]);
  });

  it('retention deletes an original with the last image made from it', async () => {
    const big = await finePattern();
    const one = await core.intake.admit({ source: big, name: 'grid.png', origin: 'user', requestedBy: 'user' }, seeing(), 'user');
    if (!one.ok) throw new Error(one.message);
    const two = await core.intake.admit({ attachmentId: one.attachment.id }, seeing(profileFor('openai')), 'user');
    if (!two.ok) throw new Error(two.message);
    const originals = () => readdir(join(dataDir, 'attachments', 'originals')).then((n) => n.filter((x) => !x.endsWith('.derived.json')));
    expect(await originals()).toEqual([`${sha(big)}.png`]);
    const conversation = core.conversations.create('kept');
    conversation.messages.push({ role: 'user', id: 'u1', text: 'look', attachmentIds: [two.attachment.id], createdAt: new Date().toISOString() });
    await core.conversations.save(conversation);
    const later = new Date(Date.now() + 365 * 86_400_000);
    // One payload goes, the referenced one keeps the original alive.
    expect((await sweepAttachments({ ...core, retentionDays: 30, now: later })).removed).toEqual([one.attachment.id]);
    expect(await originals()).toEqual([`${sha(big)}.png`]);
    await core.conversations.delete(conversation.id);
    expect((await sweepAttachments({ ...core, retentionDays: 30, now: later })).removed).toEqual([two.attachment.id]);
    expect((await readdir(join(dataDir, 'attachments', 'originals'))).filter((n) => !n.endsWith('.derived.json'))).toEqual([]);
  });
});
