import { describe, expect, it } from 'vitest';
import { parseDisplayName } from './x11Connection.ts';
import { probeX11Display } from './x11Pointer.ts';

describe('parseDisplayName', () => {
  it('reads local, unix, TCP and IPv6 display names', () => {
    expect(parseDisplayName(':0')).toEqual({ host: '', display: 0, screen: 0 });
    expect(parseDisplayName(':12.1')).toEqual({ host: '', display: 12, screen: 1 });
    expect(parseDisplayName('unix:3')).toEqual({ host: 'unix', display: 3, screen: 0 });
    expect(parseDisplayName('localhost:10.0')).toEqual({ host: 'localhost', display: 10, screen: 0 });
    expect(parseDisplayName('[::1]:2')).toEqual({ host: '[::1]', display: 2, screen: 0 });
  });
  it('rejects what it cannot connect to', () => {
    expect(parseDisplayName('')).toBeUndefined();
    expect(parseDisplayName('/private/tmp/com.apple.launchd.x/org.xquartz:0')).toBeUndefined();
    expect(parseDisplayName('wayland-0')).toBeUndefined();
  });
});

describe('probeX11Display without a server', () => {
  it('says why in words instead of throwing', async () => {
    expect(await probeX11Display({ env: {} })).toEqual({ ok: false, reason: 'DISPLAY is not set' });
    expect(await probeX11Display({ env: { DISPLAY: 'nonsense' } })).toEqual({ ok: false, reason: 'cannot parse DISPLAY "nonsense"' });
    // Display numbers this high are never used by -displayfd servers on a test machine.
    const unused = await probeX11Display({ env: { DISPLAY: ':65000' } });
    expect(unused).toEqual({ ok: false, reason: 'nothing is listening on X display :65000' });
  });
});
