// The model looks at one window and gets its own words beside its pixels: screenshot_desktop
// {window} on a real desktop with accessibility (Xvfb + openbox + the AT-SPI bus and registry started
// here), real GTK applications (zenity's text view holding a token far below the visible part, a yad
// form with a password field), redaction on. The text leaves through the egress (the token hidden);
// the password field's box is hidden in the image; without accessibility the answer says so in one line.
// And `glance mcp serve`'s capture_screen {window} over stdio, which hides secrets always by default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSettings } from '../../common/settings.ts';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { accessibleDesktopMissing, openAccessibleDesktop, untilExposed, type AccessibleDesktop } from '../fixtures/atspiSession.ts';
import { engineSuite, ofType } from '../chat/engineHarness.ts';
import { stdioClient, textOf } from '../mcpServer/serveHelpers.ts';

const skip = accessibleDesktopMissing(['zenity', 'yad']);
if (skip) console.warn(`accessibility tool tests skipped: ${skip}`);

// A GitHub token's shape (ghp_ and 36 characters): the egress hides it in text bound for a model.
const TOKEN = `ghp_${'a1B2c3D4e5F6g7H8i9J0'}k1L2m3N4o5P6q7R8`;
const LOG = { title: 'Deploy log — Glance a11y', lines: [...Array.from({ length: 120 }, (_, i) => `step ${i + 1} ok`), `export GITHUB_TOKEN=${TOKEN}`, 'deploy finished'] };
const FORM = { title: 'Vault login — Glance a11y', secret: 'correct-horse-battery' };

let desktop: AccessibleDesktop;
let dir: string;
const suite = engineSuite();
const server = suite.server;
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });
const privacy = { ...defaultSettings().privacy, redact: 'always' as const };

beforeAll(async () => {
  if (skip) return;
  desktop = await openAccessibleDesktop({ width: 1280, height: 800 });
  dir = await mkdtemp(join(tmpdir(), 'glance-a11y-tool-'));
  await writeFile(join(dir, 'log.txt'), LOG.lines.join('\n'));
  desktop.session.start('zenity', ['--text-info', '--filename', join(dir, 'log.txt'), '--title', LOG.title, '--width', '560', '--height', '380']);
  desktop.session.start('yad', ['--form', '--title', FORM.title, '--field=User', '--field=Password:H', 'ada', FORM.secret]);
  // Both are listed and have joined the registry.
  await untilExposed(capturer, [LOG.title, FORM.title]);
});

afterAll(async () => {
  await desktop?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('screenshot_desktop { window } with the window’s own words', () => {
  it('gives the model the window’s text beside its image, scrolled-off lines included, a token in it hidden', async () => {
    const h = await suite.harness({ capturer, privacy });
    server().script({ toolCalls: [{ name: 'screenshot_desktop', arguments: { window: LOG.title } }] });
    const turn = await h.turn({ model: 'llava-seer', text: 'What does my deploy log say?' });
    expect(turn.outcome.status).toBe('done');
    const result = ofType(turn.events, 'tool_result').find((r) => r.name === 'screenshot_desktop')!;
    expect(result.ok).toBe(true);
    expect(result.text).toContain("The window's own text, read exactly from its accessibility tree (app \"zenity\"");
    expect(result.text).toContain('step 1 ok');
    expect(result.text).toContain('deploy finished');
    expect(result.text).toContain('[hidden: github token]');
    expect(result.text).not.toContain(TOKEN);
    // What the model server received: the same words, the token hidden there too.
    const sent = JSON.stringify(server().requests[1]!.body);
    expect(sent).toContain('deploy finished');
    expect(sent).not.toContain(TOKEN);
    await h.close();
  });

  it('read_text on that image answers from the window’s own words where they lie, and by OCR where there are none', async () => {
    const h = await suite.harness({ capturer, privacy });
    server().script(
      { toolCalls: [{ name: 'screenshot_desktop', arguments: { window: LOG.title } }] },
      // Inside the text view: its words, exact, the lines scrolled off included.
      { toolCalls: [{ name: 'read_text', arguments: { x: 60, y: 80, width: 200, height: 100 } }] },
      // Over the buttons' row, where no element holds text: OCR.
      { toolCalls: [{ name: 'read_text', arguments: { x: 300, y: 340, width: 250, height: 36 } }] },
    );
    const turn = await h.turn({ model: 'llava-seer', text: 'Read my deploy log exactly.' });
    expect(turn.outcome.status).toBe('done');
    const [inView, overButtons] = ofType(turn.events, 'tool_result').filter((r) => r.name === 'read_text');
    expect(inView!.text).toContain("from the window's own accessibility tree (exact; read when the window was captured; 1 secret hidden on this device)");
    expect(inView!.text).toContain('step 1 ok');
    expect(inView!.text).toContain('deploy finished');
    expect(inView!.text).toContain('[hidden: github token]');
    expect(inView!.text).not.toContain(TOKEN);
    expect(overButtons!.text).toMatch(/^Text read by local OCR|^Local OCR .* found no text/);
    await h.close();
  });

  it('hides a password field’s box in the image, named as found by accessibility', async () => {
    const h = await suite.harness({ capturer, privacy });
    server().script({ toolCalls: [{ name: 'screenshot_desktop', arguments: { window: FORM.title } }] });
    const turn = await h.turn({ model: 'llava-seer', text: 'Look at the login window.' });
    const result = ofType(turn.events, 'tool_result').find((r) => r.name === 'screenshot_desktop')!;
    expect(result.text).toContain('password text: [hidden: password field]');
    expect(result.text).not.toContain(FORM.secret);
    const info = await h.core.attachments.info(result.attachmentIds![0]!);
    const hidden = info!.redactions!.filter((r) => r.rule === 'accessibility:password text');
    expect(hidden).toHaveLength(1);
    expect(hidden[0]).toMatchObject({ kind: 'password' });
    expect(hidden[0]!.width).toBeGreaterThan(100);
    await h.close();
  });

  it('says in one line that there is no accessible text when the session has no accessibility bus, and shows the image', async () => {
    const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
    delete process.env.DBUS_SESSION_BUS_ADDRESS;
    try {
      const h = await suite.harness({ capturer });
      server().script({ toolCalls: [{ name: 'screenshot_desktop', arguments: { window: LOG.title } }] });
      const turn = await h.turn({ model: 'llava-seer', text: 'What does my deploy log say?' });
      const result = ofType(turn.events, 'tool_result').find((r) => r.name === 'screenshot_desktop')!;
      expect(result.ok).toBe(true);
      expect(result.attachmentIds).toHaveLength(1);
      expect(result.text).toContain('Accessibility is not available: there is no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set); the window\'s text is read by OCR.');
      expect(result.text).not.toContain('step 1 ok');
      await h.close();
    } finally {
      process.env.DBUS_SESSION_BUS_ADDRESS = saved;
    }
  });
});

describe.skipIf(skip)('glance mcp serve: capture_screen { window } with the window’s own words', () => {
  it('gives the caller the window’s text beside its image, the token hidden', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'glance-a11y-serve-'));
    const stdio = await stdioClient({ env: desktop.session.env, dataDir });
    try {
      const result = await stdio.client.callTool({ name: 'capture_screen', arguments: { window: LOG.title } });
      expect(result.isError, textOf(result)).toBeFalsy();
      const text = textOf(result);
      expect(text).toContain("The window's own text, read exactly from its accessibility tree (app \"zenity\"");
      expect(text).toContain('step 120 ok');
      expect(text).toContain('[hidden: github token]');
      expect(JSON.stringify(result)).not.toContain(TOKEN);
      // read_text on that capture: the window's own words where they lie, exact.
      const id = /call zoom with image "([^"]+)"/.exec(text)![1]!;
      const words = await stdio.client.callTool({ name: 'read_text', arguments: { image: id, region: { x: 60, y: 80, width: 200, height: 100 } } });
      expect(words.isError, textOf(words)).toBeFalsy();
      expect(textOf(words)).toContain("from the window's own accessibility tree (exact; read when the window was captured; 1 secret hidden on this device)");
      expect(textOf(words)).toContain('step 120 ok');
      expect(words.structuredContent).toMatchObject({ confidence: 100, words: [{ text: '[hidden]' }] });
      expect(JSON.stringify(words)).not.toContain(TOKEN);
      const form = await stdio.client.callTool({ name: 'capture_screen', arguments: { window: FORM.title } });
      expect(textOf(form)).toContain('password text: [hidden: password field]');
      expect(JSON.stringify(form)).not.toContain(FORM.secret);
    } finally {
      await stdio.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
