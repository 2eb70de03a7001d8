// The tiny X11 client against real servers: the pointer read where xdotool put it, with and without
// MIT-MAGIC-COOKIE-1 authorization (as on a desktop, where ~/.Xauthority holds the cookie).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeX11Display } from '../../main/capture/x11Pointer.ts';
import { warpPointer } from '../support/xPointer.ts';
import { startXvfb, type XServer } from '../fixtures/xvfb.ts';

let open: XServer;
let guarded: XServer;

beforeAll(async () => {
  [open, guarded] = await Promise.all([startXvfb({ width: 800, height: 600 }), startXvfb({ width: 640, height: 480, auth: true })]);
});

afterAll(async () => {
  await Promise.all([open?.stop(), guarded?.stop()]);
});

describe('x11Pointer', () => {
  it('moves the pointer and reads it back, clamped to the screen by the server', async () => {
    await warpPointer({ x: 123, y: 456 }, { env: open.env });
    expect(await probeX11Display({ env: open.env })).toEqual({ ok: true, pointer: { x: 123, y: 456 } });
    await warpPointer({ x: 5000, y: -20 }, { env: open.env });
    expect(await probeX11Display({ env: open.env })).toEqual({ ok: true, pointer: { x: 799, y: 0 } });
  });

  it('authenticates with the cookie from XAUTHORITY, and is refused (in words) without it', async () => {
    await warpPointer({ x: 10, y: 20 }, { env: guarded.env });
    expect(await probeX11Display({ env: guarded.env })).toEqual({ ok: true, pointer: { x: 10, y: 20 } });
    const { XAUTHORITY: _, ...withoutCookie } = guarded.env;
    const refused = await probeX11Display({ env: { ...withoutCookie, HOME: '/nonexistent' } });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.reason).toMatch(/^X server refused the connection: .*[Aa]uthoriz/);
  });
});
