// No display at all, and a DISPLAY nobody serves: clear failures as values, never a crash.
// Its own test file (its own process): node-screenshots must not have connected to a display.
import { beforeAll, describe, expect, it } from 'vitest';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';

beforeAll(() => {
  for (const name of ['DISPLAY', 'WAYLAND_DISPLAY', 'XDG_SESSION_TYPE']) delete process.env[name];
});

describe('capture without a display', () => {
  it('no DISPLAY and no Wayland session: no-display, saying so; no displays listed', async () => {
    const capturer = new NodeScreenshotsCapturer();
    for (const target of ['primary', 'under-cursor', 'all', { display: '1' }] as const) {
      const result = await capturer.capture(target);
      expect(result).toMatchObject({ ok: false, code: 'no-display' });
      if (!result.ok) expect(result.message).toContain('DISPLAY is not set');
    }
    expect(await capturer.listDisplays()).toEqual([]);
  });

  it('a DISPLAY nobody serves: no-display naming the display, and the process lives on', async () => {
    process.env.DISPLAY = ':65001';
    try {
      const result = await new NodeScreenshotsCapturer().capture('primary', { region: { x: 0, y: 0, width: 10, height: 10 } });
      expect(result).toEqual({
        ok: false,
        code: 'no-display',
        message: 'Cannot reach the X display :65001: nothing is listening on X display :65001. Is the desktop session running, and is DISPLAY right?',
      });
    } finally {
      delete process.env.DISPLAY;
    }
  });
});
