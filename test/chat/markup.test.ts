// Marks the person drew reach the model drawn into the copy it gets (sharp compositing an SVG
// at the fitted size), listed in its label in that copy's pixels; the conversation stores the
// marks, never pixels; the original stays as it was; another model's copy has them redrawn in
// the right place at its own size.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Mark } from '../../common/marks.ts';
import { profileFor, targetFor } from '../../main/images/profiles.ts';
import { solidPng, WHITE } from '../fixtures/images.ts';
import { DEFAULT_MODELS, VISION_MODELS } from '../fixtures/modelServer.ts';
import { engineSuite, type Harness } from './engineHarness.ts';
import { conversationFiles, hasBase64Run } from '../support/storedText.ts';

const suite = engineSuite({ models: [...DEFAULT_MODELS, ...VISION_MODELS] });
const server = suite.server;
// 3136×1960 white: fitted to 1568×980 for llava-seer (Ollama profile), squashed to 896×896 for gemma3.
const W = 3136;
const H = 1960;
const BOX: Mark = { kind: 'box', x: 800, y: 600, width: 400, height: 200, color: '#ff0000', note: 'this button' };
const MARKER: Mark = { kind: 'marker', x: 2400, y: 1400, color: '#0000ff' };

async function attachWhite(h: Harness) {
  const png = await solidPng(W, H, WHITE);
  const target = targetFor('ollama', 'llava-seer', { vision: 'yes', visionSource: 'ollama-capabilities' });
  const result = await h.core.intake.admit({ source: png, name: 'screen.png', origin: 'user', requestedBy: 'user' }, { ...target, profile: profileFor('ollama') }, 'user');
  if (!result.ok) throw new Error(result.message);
  return { png, attachment: result.attachment };
}

/** The one image of the last request, decoded as the server received it. */
async function sentImage() {
  const body = server().requests.at(-1)!.body as { messages: { images?: string[] }[] };
  const [b64] = body.messages.flatMap((m) => m.images ?? []);
  const { data, info } = await sharp(Buffer.from(b64!, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (Math.round(y) * info.width + Math.round(x)) * info.channels;
    return [data[i]!, data[i + 1]!, data[i + 2]!] as const;
  };
  return { width: info.width, height: info.height, at };
}
const isRed = ([r, g, b]: readonly number[]) => r! > 200 && g! < 80 && b! < 80;
const isBlue = ([r, g, b]: readonly number[]) => b! > 200 && r! < 80 && g! < 80;
const isWhite = ([r, g, b]: readonly number[]) => r! > 235 && g! > 235 && b! > 235;

describe('mark-up', () => {
  it('draws the marks into the copy sent, lists them in its pixels, stores them (not pixels), keeps the original', async () => {
    const h = await suite.harness();
    const { png, attachment } = await attachWhite(h);
    const { outcome } = await h.turn({ model: 'llava-seer', text: 'What is this?', attachments: [{ attachmentId: attachment.id }], marks: { [attachment.id]: [BOX, MARKER] } });
    expect(outcome.status).toBe('done');

    const sent = await sentImage();
    // Fitted by llava-seer's rule (smaller than the original); the marks at that scale.
    expect(sent.width).toBeLessThan(W);
    const s = sent.width / W;
    expect(sent.height / H).toBeCloseTo(s, 2);
    const [bx, by, bw, bh] = [800 * s, 600 * s, 400 * s, 200 * s];
    // The box's four edges red, its inside and outside white.
    expect(isRed(sent.at(bx + bw / 2, by))).toBe(true);
    expect(isRed(sent.at(bx, by + bh / 2))).toBe(true);
    expect(isRed(sent.at(bx + bw, by + bh / 2))).toBe(true);
    expect(isRed(sent.at(bx + bw / 2, by + bh))).toBe(true);
    expect(isWhite(sent.at(bx + bw / 2, by + bh / 2))).toBe(true);
    expect(isWhite(sent.at(bx + bw + 60, by + bh / 2))).toBe(true);
    // The marker: a blue disc at its place, white around it.
    expect(isBlue(sent.at(2400 * s - 8, 1400 * s - 8))).toBe(true);
    expect(isWhite(sent.at(2400 * s + 100, 1400 * s))).toBe(true);

    const user = server().requests[0]!.messages.find((m) => m.role === 'user')!;
    expect(user.text).toContain(`shown as ${sent.width}×${sent.height}`);
    const r = Math.round;
    expect(user.text).toContain(`marks: 1 box (${r(bx)},${r(by)},${r(bw)},${r(bh)}) "this button"; 2 marker (${r(2400 * s)},${r(1400 * s)})]`);

    const [file] = await conversationFiles(h.dataDir);
    const stored = JSON.parse(file!) as { messages: { role: string; marks?: Record<string, Mark[]> }[] };
    expect(stored.messages[0]!.marks).toEqual({ [attachment.id]: [BOX, MARKER] });
    expect(hasBase64Run(file!)).toBe(false);
    // The original is kept exactly as it entered: no mark in its bytes.
    const original = await h.core.attachments.original(attachment);
    expect(createHash('sha256').update(original!.data).digest('hex')).toBe(createHash('sha256').update(png).digest('hex'));
    const stillWhite = await sharp(original!.data).extract({ left: 800, top: 600, width: 1, height: 1 }).raw().toBuffer();
    expect([...stillWhite]).toEqual([255, 255, 255]);
  });

  it('redraws the marks at another model\u2019s size, in the same place on the picture', async () => {
    const h = await suite.harness();
    const { attachment } = await attachWhite(h);
    const { outcome, events } = await h.turn({ model: 'gemma3:4b', text: 'And now?', attachments: [{ attachmentId: attachment.id }], marks: { [attachment.id]: [BOX] } });
    expect(JSON.stringify(events.filter((e) => e.type === 'image_refused' || e.type === 'error')) + outcome.status).toBe('[]done');
    const sent = await sentImage();
    // gemma3 squashes to 896² (each axis at most the square's side): 896×896 here.
    const sx = sent.width / W;
    const sy = sent.height / H;
    expect(isRed(sent.at((800 + 200) * sx, 600 * sy))).toBe(true);
    expect(isRed(sent.at(800 * sx, (600 + 100) * sy))).toBe(true);
    expect(isWhite(sent.at((800 + 200) * sx, (600 + 100) * sy))).toBe(true);
    const user = server().requests[0]!.messages.find((m) => m.role === 'user')!;
    expect(user.text).toContain(`marks: 1 box (${Math.round(800 * sx)},${Math.round(600 * sy)},${Math.round(400 * sx)},${Math.round(200 * sy)}) "this button"`);
  });

  it('an image without marks is sent as it was', async () => {
    const h = await suite.harness();
    const { attachment } = await attachWhite(h);
    await h.turn({ model: 'llava-seer', text: 'Plain', attachments: [{ attachmentId: attachment.id }] });
    const sent = await sentImage();
    const s = sent.width / W;
    expect(isWhite(sent.at((800 + 200) * s, 600 * s))).toBe(true);
    expect(server().requests[0]!.messages.find((m) => m.role === 'user')!.text).not.toContain('marks:');
  });
});
