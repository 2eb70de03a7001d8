// An excluded app's window (a password manager) is filled in everything made from a capture, not
// only in the first copy: a zoom into it, read_text of the capture or of a region, and a blind
// model's transcription. Real tesseract, the real door and engine, the fixture model server.
// The capture is generated: two windows of known text side by side; the right one is "KeePassXC".
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../common/settings.ts';
import type { PrivacySettings, RedactPolicy } from '../../common/privacy.ts';
import { windowsInRegion } from '../../main/images/cropImage.ts';
import { engineSuite, ofType } from '../chat/engineHarness.ts';
import { textImage } from '../fixtures/textImage.ts';

const suite = engineSuite();
const privacy = (redact: RedactPolicy): PrivacySettings => ({ ...defaultSettings().privacy, redact });

// Ordinary words no secret rule hides: only the window exclusion can keep them from the model.
const NOTES = ['Invoice draft for Northwind', 'Total due twelve hundred'];
const VAULT_LINES = ['Vault entry Marguerite', 'Username Holloway banking'];
const VAULT = { app: 'KeePassXC', title: 'Passwords.kdbx - KeePassXC', x: 660, y: 0, width: 620, height: 720 };

async function desktop(): Promise<Buffer> {
  const [left, right] = await Promise.all([
    textImage({ lines: NOTES, width: 640, height: 720, fontPx: 22 }),
    textImage({ lines: VAULT_LINES, width: 620, height: 720, fontPx: 22 }),
  ]);
  return sharp({ create: { width: 1280, height: 720, channels: 3, background: '#ffffff' } })
    .composite([
      { input: left.png, left: 0, top: 0 },
      { input: right.png, left: 660, top: 0 },
    ])
    .png()
    .toBuffer();
}

const capture = async () => ({ source: await desktop(), name: 'screen.png', origin: 'screenshot', requestedBy: 'user' as const, windows: [VAULT] });

function toolTexts(i: number): string {
  return suite.server().requests[i]!.messages.filter((m) => m.role === 'tool').map((m) => m.text).join('\n');
}

describe("an excluded app's window in what is made from a capture", () => {
  it('read_text of the capture reads the other window and none of the vault (and does read it when redaction is off)', async () => {
    for (const redact of ['always', 'never'] as const) {
      const h = await suite.harness({ privacy: privacy(redact) });
      suite.server().reset();
      suite.server().script({ toolCalls: [{ name: 'read_text', arguments: {} }] }, { text: 'done' });
      const { outcome } = await h.turn({ model: 'llava-seer', text: 'Read my screen', attachments: [await capture()] });
      expect(outcome.status).toBe('done');
      const text = toolTexts(1);
      expect(text).toMatch(/Northwind/);
      if (redact === 'always') expect(text).not.toMatch(/Marguerite|Holloway|banking/);
      // The control: OCR reads the vault's words when nothing is hidden, so their absence above is the fill.
      else expect(text).toMatch(/Marguerite/);
    }
  }, 300_000);

  it('read_text of a region and a zoom into the vault come back filled', async () => {
    const h = await suite.harness({ privacy: privacy('always') });
    const first = await h.turn({ model: 'llava-seer', text: 'Look', attachments: [await capture()] });
    const [attached] = ofType(first.events, 'image_attached');
    const id = attached!.attachmentId;
    const info = (await h.core.attachments.info(id))!;
    const s = info.width / 1280;
    // The right half in the shown copy's pixels, a little wider than the vault (the region's own
    // corner is in the notes window, so the crop's window offset is exercised).
    const region = { x: Math.round(600 * s), y: 0, width: Math.round(680 * s), height: Math.round(200 * s) };
    suite.server().reset();
    suite.server().script({ toolCalls: [{ name: 'read_text', arguments: { image: id, ...region } }] }, { toolCalls: [{ name: 'zoom_image', arguments: { image: id, ...region } }] }, { text: 'done' });
    const { outcome } = await h.turn({ model: 'llava-seer', text: 'Closer', attachments: [{ attachmentId: id }] });
    expect(outcome.status).toBe('done');
    expect(toolTexts(1)).not.toMatch(/Marguerite|Holloway|banking/);
    const body = suite.server().requests[2]!.body as { messages: { images?: string[] }[] };
    const zoomed = Buffer.from(body.messages.flatMap((m) => m.images ?? []).at(-1)!, 'base64');
    const { data, info: z } = await sharp(zoomed).raw().toBuffer({ resolveWithObject: true });
    // Everything right of the vault's left edge (60 original pixels into the 680-wide region) is the fill.
    const edge = Math.ceil((60 / 680) * z.width) + 2;
    let other = 0;
    for (let y = 0; y < z.height; y += 4) {
      for (let x = edge; x < z.width; x += 4) {
        const at = (y * z.width + x) * z.channels;
        if ([data[at], data[at + 1], data[at + 2]].join() !== '40,40,40') other++;
      }
    }
    expect(other).toBe(0);
    expect((await h.core.ocr.read(zoomed)).text).not.toMatch(/Marguerite|Holloway/);
  }, 300_000);

  it("a blind model's transcription holds the notes and none of the vault", async () => {
    const h = await suite.harness({ privacy: privacy('always') });
    const { events } = await h.turn({ model: 'blind-llm', text: 'What does this say?', attachments: [await capture()] });
    const [transcribed] = ofType(events, 'image_transcribed');
    expect(transcribed?.text).toMatch(/Northwind/);
    const sent = suite.server().requests[0]!.messages.filter((m) => m.role === 'user').map((m) => m.text).join('\n');
    expect(sent).toMatch(/Northwind/);
    expect(sent).not.toMatch(/Marguerite|Holloway|banking/);
  }, 300_000);
});

describe('windowsInRegion', () => {
  const w = [{ app: 'KeePassXC', title: 't', x: 100, y: 50, width: 200, height: 100 }];
  it('clips to the region and makes the window relative to its corner', () => {
    expect(windowsInRegion(w, { width: 1000, height: 500 }, { width: 1000, height: 500 }, { x: 150, y: 0, width: 100, height: 80 })).toEqual([
      { app: 'KeePassXC', title: 't', x: 0, y: 50, width: 100, height: 30 },
    ]);
  });
  it('scales to a smaller copy outward, and drops a window wholly outside', () => {
    expect(windowsInRegion(w, { width: 1000, height: 500 }, { width: 333, height: 167 })).toEqual([{ app: 'KeePassXC', title: 't', x: 33, y: 16, width: 67, height: 35 }]);
    expect(windowsInRegion(w, { width: 1000, height: 500 }, { width: 1000, height: 500 }, { x: 400, y: 0, width: 100, height: 100 })).toEqual([]);
  });
});
