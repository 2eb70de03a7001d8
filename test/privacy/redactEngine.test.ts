// Issue 25 through the real engine, the door and real tesseract, against the fixture model server:
// what the server receives holds none of the planted secrets (OCR of the very bytes it got), the
// label says what was hidden, a zoom into a hidden region comes back hidden, read_text and a
// blind model's text hold none, an MCP-style tool image is redacted, a loopback model under
// "remote" gets the image as it was, and an image OCR cannot check is not sent at all.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../common/settings.ts';
import type { PrivacySettings, RedactPolicy } from '../../common/privacy.ts';
import { resolveModel } from '../../main/core/modelResolver.ts';
import { OcrError, type TextReader } from '../../main/ocr/textReader.ts';
import type { Tool } from '../../main/tools/tool.ts';
import { engineSuite, ofType, type Harness } from '../chat/engineHarness.ts';
import { readable, secretScreen, type SecretScreen } from '../fixtures/secretScreens.ts';

const suite = engineSuite();
const privacy = (redact: RedactPolicy): PrivacySettings => ({ ...defaultSettings().privacy, redact });

/** Every image the fixture server received in request `i` (Ollama: base64 in messages[].images), as bytes. */
function receivedImages(i: number): Buffer[] {
  const body = suite.server().requests[i]!.body as { messages: { images?: string[] }[] };
  return body.messages.flatMap((m) => (m.images ?? []).map((b64) => Buffer.from(b64, 'base64')));
}

async function ocrText(h: Harness, png: Uint8Array): Promise<string> {
  return (await h.core.ocr.read(await sharp(png).greyscale().png().toBuffer())).text;
}

async function attach(h: Harness, screen: SecretScreen) {
  return { source: screen.png, name: `${screen.kind}.png`, origin: 'user', requestedBy: 'user' as const };
}

describe('redaction in the engine (real tesseract, fixture model server)', () => {
  it('"always": the model gets the .env screen masked, labelled with what was hidden; the original stays as it was', async () => {
    const h = await suite.harness({ privacy: privacy('always') });
    const screen = await secretScreen('env', { width: 1280, height: 720, seed: 1 });
    const { outcome, events } = await h.turn({ model: 'llava-seer', text: 'What is on my screen?', attachments: [await attach(h, screen)] });
    expect(outcome.status).toBe('done');
    const [sent] = receivedImages(0);
    expect(sent).toBeDefined();
    const read = await ocrText(h, sent!);
    expect(screen.secrets.filter((s) => readable(s, read)), read).toEqual([]);
    const [redacted] = ofType(events, 'image_redacted');
    const [attached] = ofType(events, 'image_attached');
    expect(redacted?.attachmentId).toBe(attached?.attachmentId);
    expect(redacted!.regions.length).toBeGreaterThan(0);
    expect(events.indexOf(redacted!)).toBe(events.indexOf(attached!) + 1);
    // Regions are in the original's pixels, inside it.
    for (const r of redacted!.regions) expect(r.x + r.width <= 1280 && r.y + r.height <= 720).toBe(true);
    const label = suite.server().requests[0]!.messages.find((m) => m.role === 'user')!.text;
    expect(label).toMatch(/\d+ regions? hidden on this device \((database url|api key|slack token|password|key-like text)/);
    const info = await h.core.attachments.info(attached!.attachmentId);
    expect(info?.redactions).toEqual(redacted!.regions);
    const original = await h.core.attachments.original(info!);
    expect(Buffer.compare(Buffer.from(original!.data), screen.png)).toBe(0);
  }, 240_000);

  it('"remote" (the default): a model on loopback gets the image as it was, and nothing says hidden', async () => {
    const h = await suite.harness({ privacy: privacy('remote') });
    const screen = await secretScreen('terminal', { width: 1280, height: 720, seed: 1 });
    const { events } = await h.turn({ model: 'llava-seer', text: 'Read this', attachments: [await attach(h, screen)] });
    expect(ofType(events, 'image_redacted')).toEqual([]);
    const read = await ocrText(h, receivedImages(0)[0]!);
    expect(screen.secrets.some((s) => readable(s, read)), read).toBe(true);
  }, 240_000);

  it('a zoom into a hidden region comes back hidden, and read_text of it holds no secret', async () => {
    const h = await suite.harness({ privacy: privacy('always') });
    const screen = await secretScreen('checkout', { width: 1280, height: 720, seed: 1 });
    const { target } = await resolveModel({ kind: 'ollama', model: 'llava-seer', baseUrl: suite.server().url });
    const first = await h.core.intake.admit(await attach(h, screen), target, 'user');
    if (!first.ok) throw new Error(first.message);
    const card = first.attachment.redactions!.find((r) => r.kind === 'card number')!;
    expect(card).toBeDefined();
    // The rectangle in the shown copy's pixels around the hidden card number, with room around it.
    const s = first.attachment.width / 1280;
    const region = { x: Math.max(0, Math.round((card.x - 40) * s)), y: Math.max(0, Math.round((card.y - 30) * s)), width: Math.round((card.width + 80) * s), height: Math.round((card.height + 60) * s) };
    suite.server().script({ toolCalls: [{ name: 'zoom_image', arguments: { image: first.attachment.id, ...region } }] }, { toolCalls: [{ name: 'read_text', arguments: { image: first.attachment.id } }] }, { text: 'done' });
    const { outcome, events } = await h.turn({ model: 'llava-seer', text: 'What is the card number?', attachments: [{ attachmentId: first.attachment.id }] });
    expect(outcome.status).toBe('done');
    const results = ofType(events, 'tool_result');
    const zoomId = results.find((r) => r.name === 'zoom_image')!.attachmentIds![0]!;
    const zoom = await h.core.attachments.get(zoomId);
    const zoomText = await ocrText(h, zoom!.data);
    expect(readable(screen.secrets[0]!, zoomText), zoomText).toBe(false);
    const readText = results.find((r) => r.name === 'read_text')!;
    expect(readText.ok, readText.text).toBe(true);
    for (const secret of screen.secrets) expect(readable(secret, readText.text), readText.text).toBe(false);
    // The original's regions are filled before it is read (architecture §3b); the text says what was hidden.
    expect(readText.text).toMatch(/filled before reading: \d+ regions? hidden on this device \([^)]*(card number|iban)/);
  }, 300_000);

  it("a blind model's OCR text holds none of the secrets", async () => {
    const h = await suite.harness({ privacy: privacy('always') });
    const screen = await secretScreen('terminal', { width: 1280, height: 720, seed: 1 });
    const { events } = await h.turn({ model: 'blind-llm', text: 'What does this say?', attachments: [await attach(h, screen)] });
    const [transcribed] = ofType(events, 'image_transcribed');
    expect(transcribed).toBeDefined();
    const sentText = suite.server().requests[0]!.messages.filter((m) => m.role === 'user').map((m) => m.text).join('\n');
    expect(sentText).toMatch(/\[hidden: /);
    for (const secret of screen.secrets) expect(readable(secret, sentText), sentText).toBe(false);
    for (const secret of screen.secrets) expect(readable(secret, transcribed!.text ?? '')).toBe(false);
  }, 240_000);

  it('a tool image captured as MCP results are (purpose "capture") reaches the model redacted', async () => {
    const screen = await secretScreen('pem', { width: 1280, height: 720, seed: 1 });
    const holder: { h?: Harness } = {};
    const tool: Tool = {
      needsVision: true,
      spec: { name: 'keys__show', description: 'Show the key file.', parameters: { type: 'object', properties: {} } },
      async run(_args, context) {
        const result = await holder.h!.core.intake.admit({ source: screen.png, name: 'key.png', origin: 'keys__show', requestedBy: 'model' }, context.imageTarget!, 'capture');
        if (!result.ok) return { ok: false, text: result.message };
        return { ok: true, text: `Captured [image ${result.attachment.id}]`, images: [result.attachment] };
      },
    };
    const h = (holder.h = await suite.harness({ privacy: privacy('always') }));
    h.core.tools.add(tool);
    suite.server().script({ toolCalls: [{ name: 'keys__show', arguments: {} }] }, { text: 'It is a key.' });
    const { events } = await h.turn({ model: 'llava-seer', text: 'Show me the key' });
    expect(ofType(events, 'image_redacted').length).toBe(1);
    const delivered = receivedImages(1);
    expect(delivered.length).toBe(1);
    const read = await ocrText(h, delivered[0]!);
    expect(screen.secrets.filter((s) => readable(s, read)), read).toEqual([]);
  }, 240_000);

  it('when OCR fails the image is refused for the remote copy, saying why, and the model gets nothing', async () => {
    const failing: TextReader = {
      engine: 'failing',
      read: () => Promise.reject(new OcrError('timeout', 'Local OCR took longer than 90 s and was stopped.')),
      close: async () => undefined,
    };
    const h = await suite.harness({ privacy: privacy('always'), ocr: failing });
    const screen = await secretScreen('env', { width: 640, height: 400, seed: 1 });
    const { outcome, events } = await h.turn({ model: 'llava-seer', text: 'What is this?', attachments: [await attach(h, screen)] });
    expect(outcome.status).not.toBe('done');
    const [refused] = ofType(events, 'image_refused');
    expect(refused).toMatchObject({ code: 'redaction-failed', message: expect.stringMatching(/could not check this image for secrets.*took longer than 90 s.*not sent to a remote model/) });
    expect(suite.server().requests.length).toBe(0);

    // "Send anyway", the person's explicit choice for this image: it goes as it is, and its copy says so.
    const again = await h.turn({ model: 'llava-seer', text: 'What is this?', attachments: [{ ...(await attach(h, screen)), sendAnyway: true }] });
    expect(again.outcome.status).toBe('done');
    expect(receivedImages(0)).toHaveLength(1);
    const [attached] = ofType(again.events, 'image_attached');
    expect((await h.core.attachments.info(attached!.attachmentId))?.uncheckedOnRequest).toBe(true);
    // Only that image: the next one without the choice is refused again.
    const third = await h.turn({ model: 'llava-seer', text: 'And this?', attachments: [await attach(h, screen)] });
    expect(ofType(third.events, 'image_refused')[0]).toMatchObject({ code: 'redaction-failed' });
    expect(suite.server().requests.length).toBe(1);
  }, 60_000);
});
