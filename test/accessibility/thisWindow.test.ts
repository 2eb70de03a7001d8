// The hotkey's "This window" with the window's own words: a real desktop with accessibility (Xvfb +
// openbox + the AT-SPI bus and registry started here), real GTK applications (zenity's text view
// holding a token far below its visible part, a yad form with a password field), the pointer moved
// with a real X request, and the app's own calls (capture:screenshot under the cursor, then
// attachments:crop with the window, then chat:send) through the real IPC router to a model server
// on loopback. The words read right after the pixels go with the cut to the model, the token hidden
// (redaction on); a password field is filled in the image and hidden in the words; a region of the
// window keeps the words that lie in it; without accessibility the ask window gets one line why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CaptureAttachment, CropAttachment } from '../../common/ipcPayloads.ts';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { accessibleDesktopMissing, openAccessibleDesktop, untilExposed, type AccessibleDesktop } from '../fixtures/atspiSession.ts';
import { createModelServer, DEFAULT_MODELS, VISION_MODELS, type ModelServer } from '../fixtures/modelServer.ts';
import { pointAtWindow } from '../support/xPointer.ts';
import { apiHarness, value, type ApiHarness } from '../api/apiHarness.ts';

const skip = accessibleDesktopMissing(['zenity', 'yad']);
if (skip) console.warn(`"This window" accessibility tests skipped: ${skip}`);

// A GitHub token's shape (ghp_ and 36 characters): the egress hides it in text bound for a model.
const TOKEN = `ghp_${'Z9y8X7w6V5u4T3s2R1q0'}p9O8n7M6l5K4j3I2`;
// Another, on the third line: on screen, so the window's words give its own box.
const SHOWN = `ghp_${'Q1w2E3r4T5y6U7i8O9p0'}A1s2D3f4G5h6J7k8`;
const LOG = {
  title: 'Release notes — Glance this window',
  lines: ['line 1: build green', 'line 2: build green', `ci token ${SHOWN}`, ...Array.from({ length: 150 }, (_, i) => `line ${i + 4}: build green`), `export GITHUB_TOKEN=${TOKEN}`, 'release shipped'],
};
const FORM = { title: 'Bank login — Glance this window', secret: 'tr0ub4dor-and-3' };
// Captured only without the accessibility bus: pixels no earlier cut had (the same pixels cut again keep the words read then).
const SCRATCH = { title: 'Scratch pad — Glance this window', text: 'scratch notes, never read over accessibility' };
const model = { provider: 'ollama', name: 'llava-seer' } as const;

let desktop: AccessibleDesktop;
let dir: string;
let server: ModelServer;
let api: ApiHarness;
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

/** The hotkey with the pointer over `title`: the display capture, and "This window" cut from it. */
async function askWindow(title: string): Promise<{ shot: CaptureAttachment; cut: CropAttachment }> {
  await pointAtWindow(capturer, title, { env: desktop.x.env });
  const shot = value<CaptureAttachment>(await api.call('capture:screenshot', { display: 'under-cursor', model }));
  expect(shot.underPointer?.title).toBe(title);
  const { region, app, title: named } = shot.underPointer!;
  const cut = value<CropAttachment>(await api.call('attachments:crop', { id: shot.id, region, window: { app, title: named }, model }));
  return { shot, cut };
}

async function send(turnId: string, text: string, ids: string[]) {
  value(await api.call('chat:send', { turnId, text, attachmentIds: ids, model }));
  const events = await api.turnEvents(turnId);
  expect(events.at(-1)).toMatchObject({ type: 'done' });
  return Object.assign(server.requests.at(-1)!, { events });
}

beforeAll(async () => {
  if (skip) return;
  desktop = await openAccessibleDesktop({ width: 1280, height: 800 });
  dir = await mkdtemp(join(tmpdir(), 'glance-this-window-'));
  await writeFile(join(dir, 'notes.txt'), LOG.lines.join('\n'));
  desktop.session.start('zenity', ['--text-info', '--filename', join(dir, 'notes.txt'), '--title', LOG.title, '--width', '560', '--height', '380']);
  desktop.session.start('yad', ['--form', '--title', FORM.title, '--geometry=340x180+920+560', '--field=User', '--field=Password:H', 'ada', FORM.secret]);
  await writeFile(join(dir, 'scratch.txt'), SCRATCH.text);
  desktop.session.start('yad', ['--text-info', '--filename', join(dir, 'scratch.txt'), '--title', SCRATCH.title, '--geometry=300x180+20+600']);
  // All three are listed and have joined the registry.
  await untilExposed(capturer, [LOG.title, FORM.title, SCRATCH.title]);
  server = await createModelServer({ models: [...DEFAULT_MODELS, ...VISION_MODELS] });
  api = await apiHarness({ providers: { ollama: { host: server.url }, openai: [] }, capturer, prefix: 'glance-this-window-', settings: { privacy: { redact: 'always' } } as never });
}, 120_000);

afterAll(async () => {
  await api?.close();
  await server?.close();
  await desktop?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('"This window" with the window’s own words', () => {
  it('sends the window’s text beside its cut, scrolled-off lines included, the token hidden', async () => {
    const { cut } = await askWindow(LOG.title);
    expect(cut.window).toMatchObject({ title: LOG.title });
    // The ask window is told how much goes with it.
    expect(cut.windowText).toMatchObject({ app: 'zenity' });
    expect((cut.windowText as { chars: number }).chars).toBeGreaterThan(LOG.lines.join('\n').length - 10);
    const request = await send('this-window-log', 'What do my release notes say?', [cut.id]);
    expect(request.images).toHaveLength(1);
    const sent = JSON.stringify(request.body);
    expect(sent).toContain("The window's own text, read exactly from its accessibility tree (app \\\"zenity\\\"");
    expect(sent).toContain('line 1: build green');
    // Far below what the window shows: only accessibility has it.
    expect(sent).toContain('release shipped');
    expect(sent).toContain('[hidden: github token]');
    expect(sent).not.toContain(TOKEN);
    expect(sent).not.toContain(SHOWN);
    // The chat shows what went with the image, in the turn and after a reload.
    const shown = request.events.find((e) => e.type === 'image_window_text');
    expect(shown).toMatchObject({ attachmentId: cut.id, text: expect.stringContaining('release shipped') });
    const done = request.events.at(-1) as { conversationId: string };
    const view = value<{ turns: { events: { type: string }[] }[] }>(await api.call('conversations:get', { id: done.conversationId }));
    expect(view.turns[0]!.events.filter((e) => e.type === 'image_window_text')).toHaveLength(1);
  });

  it('hides a secret on screen at the box its words give, exact, and nothing for one scrolled out of view', async () => {
    const { cut } = await askWindow(LOG.title);
    const fromWords = (cut.redactions ?? []).filter((r) => r.rule.startsWith('accessibility:'));
    // One: the token on the third line (the one 150 lines below is not on screen).
    expect(fromWords).toHaveLength(1);
    expect(fromWords[0]).toMatchObject({ kind: 'github token' });
    // One line high, a token's width, on the third line of the text view (about 20 px a line from its top).
    expect(fromWords[0]!.height).toBeLessThan(40);
    expect(fromWords[0]!.width).toBeGreaterThan(200);
    expect(fromWords[0]!.width).toBeLessThan(cut.width - 40);
    expect(fromWords[0]!.y).toBeLessThan(120);
  });

  it('fills a password field in the cut and hides it in the words', async () => {
    const { cut } = await askWindow(FORM.title);
    expect(cut.windowText).toMatchObject({ app: 'yad' });
    const hidden = (cut.redactions ?? []).filter((r) => r.rule === 'accessibility:password text');
    expect(hidden).toHaveLength(1);
    const request = await send('this-window-form', 'Why can I not log in?', [cut.id]);
    const sent = JSON.stringify(request.body);
    expect(sent).toContain('[hidden: password field]');
    expect(sent).not.toContain(FORM.secret);
  });

  it('keeps the words that lie in a region of the window, and none for a region without text', async () => {
    const { cut } = await askWindow(LOG.title);
    // The upper half of the window: inside the text view.
    const inView = value<CropAttachment>(await api.call('attachments:crop', { id: cut.id, region: { x: 20, y: 20, width: Math.floor(cut.width / 2), height: Math.floor(cut.height / 3) }, model }));
    expect(inView.windowText).toMatchObject({ app: 'zenity' });
    const request = await send('this-window-region', 'Read this part.', [inView.id]);
    expect(JSON.stringify(request.body)).toContain('release shipped');
    // The bottom strip (the dialog's buttons): no element there holds text.
    const buttons = value<CropAttachment>(await api.call('attachments:crop', { id: cut.id, region: { x: 0, y: cut.height - 40, width: cut.width, height: 40 }, model }));
    expect(buttons.windowText).toBeUndefined();
  });

  it('says in one line why there are no words when the session has no accessibility bus, and the cut still goes', async () => {
    const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
    delete process.env.DBUS_SESSION_BUS_ADDRESS;
    try {
      const { cut } = await askWindow(SCRATCH.title);
      expect(cut.windowText).toEqual({ unavailable: expect.stringContaining('there is no session D-Bus') });
      const request = await send('this-window-nobus', 'What do my notes say?', [cut.id]);
      expect(request.images).toHaveLength(1);
      expect(JSON.stringify(request.body)).not.toContain('never read over accessibility');
    } finally {
      process.env.DBUS_SESSION_BUS_ADDRESS = saved;
    }
  });
});
