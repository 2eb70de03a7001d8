// A window's own words, read for real: Xvfb + openbox, the accessibility bus and registry started
// here (test/fixtures/atspiSession.ts), and applications from Debian packages — zenity's text view
// (200 lines, most scrolled off), a yad form with a password field holding a value, a VTE terminal
// (sakura), and Chromium showing a page. Windows are found as the capturer lists them
// (node-screenshots), as the product does. DISPLAY is set for this file's own forked process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AtspiWindowText } from '../../main/accessibility/atspiWindowText.ts';
import type { ReadOptions, WindowRef, WindowTextRead, WindowTextResult } from '../../main/accessibility/windowText.ts';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import type { WindowInfo } from '../../main/capture/screenCapturer.ts';
import { accessibleDesktopMissing, openAccessibleDesktop, type AccessibleDesktop, type AtspiSession } from '../fixtures/atspiSession.ts';

const CHROMIUM = process.env.GLANCE_CHROMIUM ?? '/usr/bin/chromium';
const skip = accessibleDesktopMissing(['zenity', 'yad', 'sakura', CHROMIUM]);
if (skip) console.warn(`accessibility tests skipped: ${skip}`);

const LOG = { title: 'Build log — Glance a11y', lines: Array.from({ length: 200 }, (_, i) => `Line ${i + 1}: step ${(i * 7919) % 1000} passed`) };
const FORM = { title: 'Sign in — Glance a11y', secret: 'Tr0ub4dor&3-horse' };
const TERM = { title: 'Terminal — Glance a11y' };
const PAGE = { title: 'Release notes — Glance a11y' };
const PAGE_HTML = `<!doctype html><title>${PAGE.title}</title><body style="font:16px sans-serif">
<h1>Release notes</h1><p>Version 4.2 fixes the <a href="#x">export bug</a> and speeds up search.</p>
<label>Password <input type="password" value="${FORM.secret}"></label>
<div style="height:3000px"></div><p>Footer line far below the fold</p></body>`;

let desktop: AccessibleDesktop;
let session: AtspiSession;
let dir: string;
let zenity: ChildProcess;
const reader = new AtspiWindowText();
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

beforeAll(async () => {
  if (skip) return;
  // The reader finds the bus the way the product does: from this process's environment.
  desktop = await openAccessibleDesktop({ width: 1280, height: 900 });
  session = desktop.session;
  dir = await mkdtemp(join(tmpdir(), 'glance-a11y-'));
  await writeFile(join(dir, 'log.txt'), LOG.lines.join('\n'));
  await writeFile(join(dir, 'page.html'), PAGE_HTML);
  zenity = session.start('zenity', ['--text-info', '--filename', join(dir, 'log.txt'), '--title', LOG.title, '--width', '520', '--height', '360']);
  session.start('yad', ['--form', '--title', FORM.title, '--field=User', '--field=Password:H', 'ada', FORM.secret]);
  session.start('sakura', ['-t', TERM.title, '-e', "sh -c 'seq 1 300 | sed s/^/row-/; echo READY-PROMPT; exec sleep 1000'"], { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config') });
  session.start(
    CHROMIUM,
    [
      '--no-sandbox',
      '--test-type',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--force-renderer-accessibility',
      '--force-device-scale-factor=1',
      `--user-data-dir=${join(dir, 'chromium')}`,
      '--window-position=600,300',
      '--window-size=640,480',
      `--app=file://${join(dir, 'page.html')}`,
    ],
    { ACCESSIBILITY_ENABLED: '1' },
  );
});

afterAll(async () => {
  await desktop?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The window as the capturer lists it, once it is listed (up to 20 s). */
async function listed(title: string): Promise<WindowInfo> {
  const end = Date.now() + 20_000;
  for (;;) {
    const found = (await capturer.listWindows()).find((w) => w.title === title);
    if (found) return found;
    if (Date.now() > end) throw new Error(`no window titled ${title}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Reads the window until its application has joined the registry and `ready` holds (up to 20 s). */
async function readWhen(window: WindowRef, ready: (r: WindowTextRead) => boolean, options: ReadOptions = {}): Promise<WindowTextRead> {
  const end = Date.now() + 20_000;
  let last: WindowTextResult | undefined;
  while (Date.now() < end) {
    last = await reader.read(window, { timeoutMs: 5000, ...options });
    if (last.ok && ready(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the window's text never came: ${JSON.stringify(last).slice(0, 500)}`);
}

const inside = (box: { x: number; y: number; width: number; height: number } | undefined, w: WindowInfo) =>
  box !== undefined && box.x >= 0 && box.y >= 0 && box.x + box.width <= w.width && box.y + box.height <= w.height && box.width > 0 && box.height > 0;

describe.skipIf(skip)('a window’s own words over AT-SPI', () => {
  it('reads a GTK text view whole, scrolled-off lines included, with roles and boxes in the window’s pixels', async () => {
    const w = await listed(LOG.title);
    const read = await readWhen(w, (r) => r.elements.some((e) => e.role === 'text'));
    expect(read.app).toBe('zenity');
    const view = read.elements.find((e) => e.role === 'text')!;
    expect(view.text.split('\n')).toEqual(LOG.lines);
    // The view shows a dozen lines; the last one is far below them.
    expect(view.text).toContain('Line 200: step');
    expect(inside(view.box, w)).toBe(true);
    expect(view.box!.height).toBeLessThan(w.height);
    const buttons = read.elements.filter((e) => e.role === 'push button').map((e) => e.name);
    expect(buttons).toEqual(expect.arrayContaining(['OK', 'Cancel']));
    for (const e of read.elements) if (e.box) expect(inside(e.box, w)).toBe(true);
    expect(read.truncated).toBe(false);
  });

  it('marks a password field with its box and never reads its value', async () => {
    const w = await listed(FORM.title);
    const read = await readWhen(w, (r) => r.elements.some((e) => e.password));
    const password = read.elements.filter((e) => e.password);
    expect(password).toHaveLength(1);
    expect(password[0]).toMatchObject({ role: 'password text', text: '' });
    expect(inside(password[0]!.box, w)).toBe(true);
    expect(JSON.stringify(read)).not.toContain(FORM.secret);
    // The form's other words are there: the labels and the user name.
    const words = read.elements.map((e) => `${e.name} ${e.text}`).join(' ');
    expect(words).toContain('User');
    expect(words).toContain('Password');
    expect(read.elements.some((e) => e.role === 'text' && e.text === 'ada')).toBe(true);
  });

  it('reads a VTE terminal’s screen', async () => {
    const w = await listed(TERM.title);
    const read = await readWhen(w, (r) => r.elements.some((e) => e.role === 'terminal' && e.text.includes('READY-PROMPT')));
    const terminal = read.elements.find((e) => e.role === 'terminal')!;
    expect(terminal.text).toContain('row-300');
    expect(inside(terminal.box, w)).toBe(true);
  });

  it('reads a Chromium page: heading, link and text in order, the password field hidden, the part below the fold without a box', async () => {
    const w = await listed(PAGE.title);
    const read = await readWhen(w, (r) => r.elements.some((e) => e.text.includes('Footer line')));
    expect(read.app).toBe('Chromium');
    const heading = read.elements.find((e) => e.role === 'heading');
    expect(heading).toMatchObject({ text: 'Release notes' });
    const link = read.elements.find((e) => e.role === 'link');
    expect(link).toMatchObject({ text: 'export bug' });
    const texts = read.elements.map((e) => e.text).filter(Boolean);
    expect(texts.indexOf('Release notes')).toBeLessThan(texts.indexOf('export bug'));
    expect(texts.join(' ')).toContain('speeds up search.');
    const password = read.elements.find((e) => e.password);
    expect(password).toMatchObject({ role: 'password text', text: '' });
    expect(inside(password!.box, w)).toBe(true);
    expect(JSON.stringify(read)).not.toContain(FORM.secret);
    const footer = read.elements.find((e) => e.text.includes('Footer line far below the fold'))!;
    expect(footer.box).toBeUndefined();
    expect(inside(heading!.box, w)).toBe(true);
  });

  it('stops at its node and character limits and says it was cut', async () => {
    const w = await listed(LOG.title);
    await readWhen(w, (r) => r.elements.some((e) => e.role === 'text'));
    const fewNodes = await reader.read(w, { timeoutMs: 5000, maxNodes: 3 });
    expect(fewNodes).toMatchObject({ ok: true, truncated: true });
    expect((fewNodes as WindowTextRead).nodes).toBeLessThanOrEqual(3);
    const fewChars = await reader.read(w, { timeoutMs: 5000, maxChars: 100 });
    expect(fewChars).toMatchObject({ ok: true, truncated: true });
    const view = (fewChars as WindowTextRead).elements.find((e) => e.role === 'text')!;
    expect(view.text).toBe(LOG.lines.join('\n').slice(0, 100));
  });

  it('names a window no application exposes, and a session without accessibility, in one line', async () => {
    const nowhere = await reader.read({ title: 'No such window', x: 1200, y: 880, width: 10, height: 10 }, { timeoutMs: 5000 });
    expect(nowhere).toMatchObject({ ok: false, code: 'no-window' });
    expect((nowhere as { message: string }).message).toMatch(/^No application exposes this window over accessibility .*OCR\.$/);
    const noSession = await new AtspiWindowText({ DISPLAY: desktop.x.display }).read({ title: LOG.title, x: 0, y: 0, width: 10, height: 10 });
    expect(noSession).toMatchObject({ ok: false, code: 'not-available' });
    expect((noSession as { message: string }).message).toContain('DBUS_SESSION_BUS_ADDRESS is not set');
  });

  // Last: it stops zenity for good.
  it('cuts off an application that stops answering at the time limit; other windows still read', async () => {
    const w = await listed(LOG.title);
    await readWhen(w, (r) => r.elements.some((e) => e.role === 'text'));
    zenity.kill('SIGSTOP');
    const stalled = await reader.read(w, { timeoutMs: 1500 });
    expect(stalled).toMatchObject({ ok: false, code: 'timeout' });
    expect((stalled as { message: string }).message).toContain('OCR');
    const form = await reader.read(await listed(FORM.title), { timeoutMs: 5000 });
    expect(form).toMatchObject({ ok: true, app: 'yad' });
    // An abort ends the read at once, whatever is pending.
    const controller = new AbortController();
    const aborted = reader.read(w, { timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await aborted).toMatchObject({ ok: false, code: 'timeout', message: expect.stringContaining('was stopped') });
  });
});
