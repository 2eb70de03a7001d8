// Issue 11: zoom_image and read_text through the real engine, against the seeing fixture model
// server scripted to call them with given regions; local OCR for a blind model. The image is a
// 3200×1800 page of 14 px text: fitted to 1568 px for the model (text ~7 px, unreadable), a
// zoom cut from the original brings it back at native size — checked with OCR of the very
// bytes that reached the server, against the same region of the overview it was shown.
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AttachmentInfo } from '../../common/images.ts';
import { profileFor, targetFor } from '../../main/images/profiles.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';
import { accuracy, Ocr } from '../fixtures/ocr.ts';
import { invoiceLines, textImage, type TextImage } from '../fixtures/textImage.ts';
import { makeHarness, ofType, type Harness } from './engineHarness.ts';

let server: ModelServer;
let h: Harness;
let ocr: Ocr;
let page: TextImage;
let attached: AttachmentInfo;

beforeAll(async () => {
  server = await createModelServer();
  h = await makeHarness({ ollama: server.url, openai: server.openaiBaseUrl }, { limits: { maxImageDeliveriesPerTurn: 3 } });
  ocr = new Ocr();
  page = await textImage({ lines: invoiceLines(12), width: 3200, height: 1800, x: 40, y: 40, fontPx: 14 });
  const target = targetFor('ollama', 'llava-seer', { vision: 'yes', visionSource: 'ollama-capabilities' });
  const result = await h.core.intake.admit({ source: page.png, name: 'invoice.png', origin: 'user', requestedBy: 'user' }, { ...target, profile: profileFor('ollama') }, 'user');
  if (!result.ok) throw new Error(result.message);
  attached = result.attachment;
}, 60_000);

afterAll(async () => {
  await ocr?.close();
  await h?.close();
  await server?.close();
});

beforeEach(() => server.reset());

/** The text's box in the shown (fitted) copy's pixels, with a margin. */
function shownBox() {
  const s = attached.width / page.width;
  return {
    x: Math.max(0, Math.floor((page.box.x - 10) * s)),
    y: Math.max(0, Math.floor((page.box.y - 10) * s)),
    width: Math.ceil((page.box.width + 20) * s),
    height: Math.ceil((page.box.height + 20) * s),
  };
}

describe('zoom_image', () => {
  it('shows the model a region cut from the original: legible where the overview is not, ids that resolve', async () => {
    expect(attached.width).toBeLessThanOrEqual(1568);
    const region = shownBox();
    server.script({ toolCalls: [{ name: 'zoom_image', arguments: region }] }, { text: 'The first order is …' });
    const { outcome, events } = await h.turn({ model: 'llava-seer', text: 'What is the first order number?', attachments: [{ attachmentId: attached.id }] });
    expect(outcome.status).toBe('done');
    expect(server.requests[0]!.toolNames).toEqual(expect.arrayContaining(['zoom_image', 'read_text']));
    const [result] = ofType(events, 'tool_result');
    expect(result?.ok, result?.text).toBe(true);
    // The label ids resolve: the source image and the zoom are both stored.
    const ids = [...(result?.text.matchAll(/image ([a-f0-9]{16,64})/g) ?? [])].map((m) => m[1]!);
    expect(ids).toEqual([attached.id, result!.attachmentIds![0]]);
    for (const id of ids) expect(await h.core.attachments.info(id)).toBeDefined();
    const zoom = await h.core.attachments.get(result!.attachmentIds![0]!);
    expect(zoom).toBeDefined();
    // Native resolution: about 3200/1568 ≈ 2× the shown region, from the kept original.
    expect(zoom!.info.width).toBeGreaterThanOrEqual(Math.floor(region.width * (page.width / attached.width)) - 1);
    expect(ofType(events, 'image_delivered')).toEqual([{ type: 'image_delivered', attachmentIds: [zoom!.info.id], origin: 'zoom_image' }]);
    // What reached the server in the next step is exactly that payload, on a user message.
    const sent = server.requests[1]!.images.at(-1)!;
    expect({ role: sent.role, mime: sent.mime, width: sent.width, height: sent.height, bytes: sent.bytes }).toEqual({
      role: 'user',
      mime: zoom!.info.mime,
      width: zoom!.info.width,
      height: zoom!.info.height,
      bytes: zoom!.data.byteLength,
    });
    const deliveryText = server.requests[1]!.messages.findLast((m) => m.role === 'user')!.text;
    expect(deliveryText).toContain(zoom!.info.id);

    // Sharper than the overview: the zoom reads as the known lines, the same region of the overview does not.
    const zoomed = accuracy(await ocr.read(zoom!.data, { x: 0, y: 0, width: zoom!.info.width, height: zoom!.info.height }), page.lines);
    const overview = await h.core.attachments.get(attached.id);
    const whole = accuracy(await ocr.read(overview!.data, region), page.lines);
    expect(zoomed.characters).toBeGreaterThanOrEqual(0.9);
    expect(whole.characters).toBeLessThan(zoomed.characters - 0.3);
    // Retracted at the end of the turn, like every tool image.
    expect(ofType(events, 'image_retracted')[0]?.attachmentIds).toEqual([zoom!.info.id]);
  }, 120_000);

  it('refuses bad regions and unknown, foreign or retracted images in plain words, and nothing is shown', async () => {
    // Turn 1: a zoom whose image is then retracted.
    server.script({ toolCalls: [{ name: 'zoom_image', arguments: { x: 0, y: 0, width: 100, height: 60 } }] }, { text: 'ok' });
    const first = await h.turn({ model: 'llava-seer', text: 'look', attachments: [{ attachmentId: attached.id }] });
    const zoomId = ofType(first.events, 'tool_result')[0]!.attachmentIds![0]!;
    const conversationId = first.outcome.conversationId;

    const bad = [
      { args: { x: Number.NaN, y: 0, width: 10, height: 10 }, want: /x must be a number/ },
      { args: { x: 'left', y: 0, width: 10, height: 10 }, want: /x must be a number/ },
      { args: { x: -5, y: 0, width: 10, height: 10 }, want: /must be 0 or more/ },
      { args: { x: 0, y: 0, width: 0, height: 10 }, want: /at least 1 pixel/ },
      { args: { x: 5000, y: 0, width: 10, height: 10 }, want: new RegExp(`outside the ${attached.width}×${attached.height} image`) },
      { args: { x: 0, y: 0, width: 10, height: 10, image: 'not-an-id' }, want: /must be an image id/ },
      { args: { x: 0, y: 0, width: 10, height: 10, image: 'f'.repeat(16) }, want: /no image f{16} in this conversation/ },
      { args: { x: 0, y: 0, width: 10, height: 10, image: zoomId }, want: new RegExp(`no longer shown to you.*show_attachment\\("${zoomId}"\\)`) },
    ];
    server.script(...bad.map((b) => ({ toolCalls: [{ name: 'zoom_image', arguments: b.args }] })), { text: 'giving up' });
    // One tool call per step: the engine's step cap is 12, the list has 8.
    const second = await h.turn({ model: 'llava-seer', text: 'zoom again', conversationId });
    expect(second.outcome.status).toBe('done');
    const results = ofType(second.events, 'tool_result');
    expect(results).toHaveLength(bad.length);
    results.forEach((r, i) => {
      expect(r.ok).toBe(false);
      expect(r.text).toMatch(bad[i]!.want);
    });
    expect(ofType(second.events, 'image_delivered')).toEqual([]);
    // A huge width is clamped to the image's edge, not refused.
    server.script({ toolCalls: [{ name: 'zoom_image', arguments: { x: attached.width - 50, y: 0, width: 1e12, height: 40, image: attached.id } }] }, { text: 'ok' });
    const third = await h.turn({ model: 'llava-seer', text: 'edge', conversationId });
    const edge = ofType(third.events, 'tool_result')[0]!;
    expect(edge.ok, edge.text).toBe(true);
    expect(edge.text).toMatch(/^Zoomed into 50×40 at /);
  }, 120_000);
});

describe('zoom_image and the per-turn delivery cap', () => {
  it('a zoom counts as a delivery: past the cap the model is told, nothing more is shown; an expired image is refused', async () => {
    const capped = await makeHarness({ ollama: server.url, openai: server.openaiBaseUrl }, { limits: { maxImageDeliveriesPerTurn: 1 } });
    try {
      const target = targetFor('ollama', 'llava-seer', { vision: 'yes', visionSource: 'ollama-capabilities' });
      const own = await capped.core.intake.admit({ source: page.png, name: 'invoice.png', origin: 'user', requestedBy: 'user' }, { ...target, profile: profileFor('ollama') }, 'user');
      if (!own.ok) throw new Error(own.message);
      const region = { x: 0, y: 0, width: 200, height: 100, image: own.attachment.id };
      server.script({ toolCalls: [{ name: 'zoom_image', arguments: region }] }, { toolCalls: [{ name: 'zoom_image', arguments: { ...region, x: 100 } }] }, { text: 'ok' });
      const { events } = await capped.turn({ model: 'llava-seer', text: 'zoom twice', attachments: [{ attachmentId: own.attachment.id }] });
      const [first, second] = ofType(events, 'tool_result');
      expect(first!.text).toMatch(/shown to you in the next message/);
      expect(second!.ok).toBe(true);
      expect(second!.text).toMatch(/Not shown: the limit of 1 image deliveries for this turn is reached/);
      expect(ofType(events, 'image_delivered')).toHaveLength(1);

      // Gone from the store (retention): a plain refusal, not a crash.
      const conversationId = ofType(events, 'done')[0]!.conversationId;
      expect(await capped.core.attachments.remove(own.attachment.id)).toBe(true);
      server.script({ toolCalls: [{ name: 'zoom_image', arguments: region }] }, { text: 'ok' });
      const later = await capped.turn({ model: 'llava-seer', text: 'again', conversationId });
      expect(ofType(later.events, 'tool_result')[0]!.text).toMatch(/no longer stored \(it expired under the retention setting\)/);
    } finally {
      await capped.close();
    }
  }, 120_000);
});

describe('read_text', () => {
  it('returns the exact digits of the original, whole or a region', async () => {
    const region = shownBox();
    server.script(
      { toolCalls: [{ name: 'read_text', arguments: { image: attached.id, ...region } }] },
      { toolCalls: [{ name: 'read_text', arguments: {} }] },
      { text: 'done' },
    );
    const { outcome, events } = await h.turn({ model: 'llava-seer', text: 'Read the order numbers exactly.', attachments: [{ attachmentId: attached.id }] });
    expect(outcome.status).toBe('done');
    const [regionRead, wholeRead] = ofType(events, 'tool_result');
    for (const r of [regionRead!, wholeRead!]) {
      expect(r.ok, r.text).toBe(true);
      expect(r.text).toMatch(/^Text read by local OCR \(tesseract\.js 7 \(eng\)\) from image [a-f0-9]{16}/);
      const text = r.text.slice(r.text.indexOf('<<<'));
      expect(accuracy(text.replace(/^<<<\n|\n>>>$/g, ''), page.lines).characters).toBeGreaterThanOrEqual(0.9);
      // The order numbers and amounts, digit for digit.
      const words = text.replace(/\s+/g, ' ');
      for (const line of page.lines) {
        const [, order, amount] = /^Order (\d+) .* total ([\d.]+) EUR$/.exec(line)!;
        expect(words).toContain(`${order} item`);
        expect(words).toContain(`total ${amount} EUR`);
      }
    }
    expect(regionRead!.text).toContain('(from the full-resolution original)');
    // read_text shows no image.
    expect(ofType(events, 'image_delivered')).toEqual([]);
  }, 120_000);
});

describe('local OCR for a blind model', () => {
  it('a text-bearing image reaches a blind model as labelled text; the UI is told it went as text', async () => {
    const { outcome, events } = await h.turn({ model: 'blind-llm', text: 'What does this say?', attachments: [{ source: page.png, name: 'invoice.png', origin: 'user', requestedBy: 'user' }] });
    expect(outcome.status).toBe('done');
    const [t] = ofType(events, 'image_transcribed');
    expect(t).toMatchObject({ origin: 'user', engine: 'tesseract.js 7 (eng)' });
    expect(t!.chars).toBeGreaterThan(400);
    const request = server.requests[0]!;
    expect(request.images).toEqual([]);
    expect(request.toolNames).not.toContain('zoom_image');
    expect(request.toolNames).not.toContain('read_text');
    const user = request.messages.findLast((m) => m.role === 'user')!.text;
    expect(user).toContain('Text read from invoice.png by local OCR (tesseract.js 7 (eng)');
    expect(accuracy(user.slice(user.indexOf('<<<') + 4, user.lastIndexOf('>>>')), page.lines).characters).toBeGreaterThanOrEqual(0.9);
    // Stored with its original (the user sees the image), never sent as pixels.
    const a = await h.core.attachments.info(t!.attachmentId);
    expect(a?.original).toBeDefined();
  }, 120_000);

  it('a reading longer than a small context window is cut to fit, and the UI and the stored turn say how much went', async () => {
    const small = await createModelServer({ models: [{ name: 'small-blind', capabilities: ['completion'], contextLength: 768 }] });
    const hs = await makeHarness({ ollama: small.url, openai: small.openaiBaseUrl });
    try {
      const lines = invoiceLines(40, 11);
      const long = await textImage({ lines, width: 900, height: 960, x: 20, y: 20, fontPx: 14 });
      const { outcome, events } = await hs.turn({ model: 'small-blind', text: 'Sum the totals.', attachments: [{ source: long.png, name: 'orders.png', origin: 'user', requestedBy: 'user' }] });
      expect(outcome.status).toBe('done');
      const [read, cut] = ofType(events, 'image_transcribed');
      expect(read!.sentChars).toBeUndefined();
      expect(cut).toMatchObject({ attachmentId: read!.attachmentId, chars: read!.chars, text: read!.text });
      expect(cut!.sentChars).toBeGreaterThanOrEqual(1000);
      expect(cut!.sentChars).toBeLessThan(cut!.chars);
      // What reached the server: the question whole, the reading's first and last lines, the cut said in words.
      const user = small.requests[0]!.messages.findLast((m) => m.role === 'user')!.text;
      expect(user.startsWith('Sum the totals.')).toBe(true);
      expect(user).toMatch(/\[… \d+ characters cut to fit the model's context window …\]/);
      const sent = user.slice(user.indexOf('<<<') + 4, user.lastIndexOf('>>>'));
      const sentLines = sent.trim().split('\n');
      expect(accuracy(sentLines.slice(0, 2).join('\n'), lines.slice(0, 2)).characters).toBeGreaterThanOrEqual(0.9);
      expect(accuracy(sentLines.slice(-2).join('\n'), lines.slice(-2)).characters).toBeGreaterThanOrEqual(0.9);
      expect(small.requests[0]!.body).toMatchObject({ options: { num_ctx: 768 } });
      // Kept with the turn, so a reopened conversation still says it.
      const stored = await hs.core.conversations.get(outcome.conversationId);
      const message = stored!.messages.find((m) => m.role === 'user');
      expect(message?.role === 'user' && message.transcripts?.[read!.attachmentId]?.sentChars).toBe(cut!.sentChars);
    } finally {
      await hs.close();
      await small.close();
    }
  }, 120_000);

  it('an image without text is still refused as model-blind and nothing is sent', async () => {
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } }).blur(4).png().toBuffer();
    const { outcome, events } = await h.turn({ model: 'blind-llm', text: 'What is this?', attachments: [{ source: photo, name: 'photo.png', origin: 'user', requestedBy: 'user' }] });
    expect(outcome.status).toBe('refused');
    expect(ofType(events, 'image_refused').map((e) => e.code)).toEqual(['model-blind']);
    expect(ofType(events, 'image_transcribed')).toEqual([]);
    expect(server.requests).toEqual([]);
  }, 60_000);
});
