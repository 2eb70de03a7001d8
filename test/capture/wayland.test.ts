// Wayland sessions where capture cannot work, for real: node-screenshots takes its Wayland route
// (portal / wlroots screencopy) whenever the environment says Wayland, and finds monitors
// through XWayland. The port must say capture is unavailable and why, in words.
// Its own process: node-screenshots keeps its first X connection for the life of the process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { onPath } from '../../main/capture/wlroots.ts';
import { startXvfb, type XServer } from '../fixtures/xvfb.ts';

let runtimeDir: string;
let xwayland: XServer | undefined;

beforeAll(async () => {
  runtimeDir = await mkdtemp(join(tmpdir(), 'glance-wayland-'));
  delete process.env.DISPLAY;
  // An empty runtime dir and no session bus: no compositor, no portal, nothing to answer.
  Object.assign(process.env, {
    XDG_SESSION_TYPE: 'wayland',
    WAYLAND_DISPLAY: 'wayland-glance-test',
    XDG_RUNTIME_DIR: runtimeDir,
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(runtimeDir, 'no-bus')}`,
  });
});

afterAll(async () => {
  await xwayland?.stop();
  await rm(runtimeDir, { recursive: true, force: true });
});

describe('Wayland', () => {
  it('without XWayland or grim: capture-unavailable, saying there is no XWayland and what to do', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const capturer = new NodeScreenshotsCapturer({ timeoutMs: 10_000 });
      const result = await capturer.capture('under-cursor');
      expect(result).toMatchObject({ ok: false, code: 'capture-unavailable' });
      if (!result.ok) {
        expect(result.message).toMatch(/^Screen capture is unavailable: this is a Wayland session without XWayland/);
        expect(result.message).toContain('install grim');
        expect(result.message).toContain('log in to an X11 session');
      }
      expect(await capturer.listDisplays()).toEqual([]);
    } finally {
      process.env.PATH = path;
    }
  });

  it.skipIf(!onPath('grim', process.env))('without XWayland, grim installed (skipped: grim is not on PATH), but no compositor answering: capture-unavailable, naming the socket', async () => {
    const capturer = new NodeScreenshotsCapturer({ timeoutMs: 10_000 });
    const result = await capturer.capture('primary');
    expect(result).toMatchObject({ ok: false, code: 'capture-unavailable' });
    expect(!result.ok && result.message).toContain(`cannot reach the Wayland compositor at ${join(runtimeDir, 'wayland-glance-test')}`);
    expect(await capturer.listDisplays()).toEqual([]);
  });

  it('with XWayland but no screenshot portal or screencopy: capture-unavailable naming the portal', async () => {
    // An X server stands in for XWayland: monitors are found through it, the pixels must come from Wayland.
    xwayland = await startXvfb({ width: 640, height: 480 });
    process.env.DISPLAY = xwayland.display;
    const capturer = new NodeScreenshotsCapturer({ timeoutMs: 10_000 });
    expect((await capturer.listDisplays()).map((d) => [d.width, d.height])).toEqual([[640, 480]]);
    const result = await capturer.capture('primary');
    expect(result).toMatchObject({ ok: false, code: 'capture-unavailable' });
    if (!result.ok) {
      expect(result.message).toMatch(/^Screen capture is unavailable in this Wayland session: the compositor did not provide a screenshot \(.+\)\./);
      expect(result.message).toContain('xdg-desktop-portal');
    }
  });
});
