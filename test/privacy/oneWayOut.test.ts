// Issue 40 "One way out" through the real engine, door, egress and tesseract, against the fixture
// model server: what is hidden belongs to the original, so every exit — a zoom or a region read of a
// piece of a secret, a stored copy re-sent to another model, show_attachment — gives a remote model
// nothing readable. "Remote" is the target's `remote` verdict, which resolveModel takes from
// isThisComputer (main/thisComputer.test.ts); the fixture server itself listens on loopback.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { PrivacySettings, RedactPolicy } from '../../common/privacy.ts';
import { defaultSettings } from '../../common/settings.ts';
import type { ModelChoice } from '../../main/chat/chatEngine.ts';
import { resolveModel } from '../../main/core/modelResolver.ts';
import { engineSuite, ofType, type Harness } from '../chat/engineHarness.ts';
import { readable, secretScreen } from '../fixtures/secretScreens.ts';

const suite = engineSuite();
const privacy = (redact: RedactPolicy): PrivacySettings => ({ ...defaultSettings().privacy, redact });

/** The same model as if its server were not on this computer (as for any non-loopback base URL). */
function remote(choice: ModelChoice): ModelChoice {
  return { ...choice, remote: true, target: { ...choice.target, remote: true } };
}

function receivedImages(i: number): Buffer[] {
  const body = suite.server().requests[i]!.body as { messages: { images?: string[] }[] };
  return body.messages.flatMap((m) => (m.images ?? []).map((b64) => Buffer.from(b64, 'base64')));
}

async function ocrText(h: Harness, png: Uint8Array): Promise<string> {
  return (await h.core.ocr.read(await sharp(png).greyscale().png().toBuffer())).text;
}

describe('one way out (real tesseract, fixture model server)', () => {
  it('zoom_image and read_text of only the second half of each secret give a remote model nothing readable', async () => {
    const h = await suite.harness({ privacy: privacy('remote') });
    const screen = await secretScreen('env', { width: 1280, height: 720, seed: 3 });
    const local = await resolveModel({ kind: 'ollama', model: 'llava-seer', baseUrl: suite.server().url });
    const chat = remote(local);
    const first = await h.core.intake.admit({ source: screen.png, name: 'env.png', origin: 'user', requestedBy: 'user' }, chat.target, 'user');
    if (!first.ok) throw new Error(first.message);
    const regions = (first.attachment.redactions ?? []).filter((r) => r.width > 80).slice(0, 3);
    expect(regions.length).toBeGreaterThan(0);
    // The right half of each hidden region, in the shown copy's pixels: a piece with no label and no prefix.
    const s = first.attachment.width / screen.width;
    const halves = regions.map((r) => ({ x: Math.round((r.x + r.width / 2) * s), y: Math.round(r.y * s), width: Math.max(8, Math.round((r.width / 2) * s)), height: Math.max(8, Math.round(r.height * s)) }));
    const image = first.attachment.id;
    suite.server().script(
      { toolCalls: halves.flatMap((half) => [{ name: 'zoom_image', arguments: { image, ...half } }, { name: 'read_text', arguments: { image, ...half } }]) },
      { text: 'done' },
    );
    const events: Parameters<Parameters<typeof h.core.engine.runTurn>[1]>[0][] = [];
    const outcome = await h.core.engine.runTurn({ chat, text: 'Read me the keys', attachments: [{ attachmentId: image }] }, (e) => events.push(e));
    expect(outcome.status, outcome.error?.message).toBe('done');
    const results = ofType(events, 'tool_result');
    const zooms = results.filter((r) => r.name === 'zoom_image');
    const reads = results.filter((r) => r.name === 'read_text');
    expect(zooms.length).toBe(halves.length);
    expect(reads.length).toBe(halves.length);
    for (const read of reads) for (const secret of screen.secrets) expect(readable(secret, read.text), read.text).toBe(false);
    // What the server received in the step after the tools: the zooms as delivered (OCR of those very bytes).
    const delivered = receivedImages(1);
    expect(delivered.length).toBeGreaterThan(0);
    for (const png of delivered) {
      const text = await ocrText(h, png);
      for (const secret of screen.secrets) expect(readable(secret, text), text).toBe(false);
    }
  }, 300_000);

  it('a conversation begun with a model on this computer and continued with a remote one sends the remote copy, secrets hidden', async () => {
    const h = await suite.harness({ privacy: privacy('remote') });
    const screen = await secretScreen('terminal', { width: 1280, height: 720, seed: 2 });
    const local = await resolveModel({ kind: 'ollama', model: 'llava-seer', baseUrl: suite.server().url });
    expect(local.remote).toBe(false);
    const first = await h.core.engine.runTurn({ chat: local, text: 'What is this?', attachments: [{ source: screen.png, name: 'term.png', origin: 'user', requestedBy: 'user' }] }, () => undefined);
    expect(first.status).toBe('done');
    // The local model got the screen as it is (the control: OCR can read the secrets in what was sent).
    const clear = await ocrText(h, receivedImages(0)[0]!);
    expect(screen.secrets.some((secret) => readable(secret, clear)), clear).toBe(true);
    const events: { type: string }[] = [];
    const second = await h.core.engine.runTurn({ conversationId: first.conversationId, chat: remote(local), text: 'And what does the last line say?' }, (e) => events.push(e));
    expect(second.status, second.error?.message).toBe('done');
    const sent = receivedImages(1);
    expect(sent.length).toBe(1);
    const text = await ocrText(h, sent[0]!);
    for (const secret of screen.secrets) expect(readable(secret, text), text).toBe(false);
    const label = suite.server().requests[1]!.messages.filter((m) => m.role === 'user')[0]!.text;
    expect(label).toMatch(/regions? hidden on this device/);
  }, 300_000);

  it("show_attachment and analyze_image reach only the conversation's own images", async () => {
    const h = await suite.harness({ privacy: privacy('never') });
    const chat = await resolveModel({ kind: 'ollama', model: 'llava-seer', baseUrl: suite.server().url });
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c03030' } }).png().toBuffer();
    const other = await h.core.engine.runTurn({ chat, text: 'one', attachments: [{ source: png, name: 'red.png', origin: 'user', requestedBy: 'user' }] }, () => undefined);
    const otherConversation = await h.core.conversations.get(other.conversationId);
    const foreign = otherConversation!.messages.find((m) => m.role === 'user')!.attachmentIds[0]!;
    suite.server().reset();
    suite.server().script(
      { toolCalls: [{ name: 'show_attachment', arguments: { attachmentId: foreign } }, { name: 'analyze_image', arguments: { attachmentId: foreign, prompt: 'what colour?' } }] },
      { text: 'done' },
    );
    const events: { type: string; name?: string; ok?: boolean; text?: string }[] = [];
    const outcome = await h.core.engine.runTurn({ chat, text: 'Show me the image from my other chat' }, (e) => events.push(e));
    expect(outcome.status).toBe('done');
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      ['show_attachment', false],
      ['analyze_image', false],
    ]);
    expect(results[0]!.text).toMatch(/No stored image has the id|in this conversation/);
    // Nothing of the other chat's image reached the model.
    for (let i = 0; i < suite.server().requests.length; i++) expect(receivedImages(i)).toEqual([]);
  }, 120_000);
});
