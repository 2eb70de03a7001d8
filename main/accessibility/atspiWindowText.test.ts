import { describe, expect, it } from 'vitest';
import { matchScore, overlapRatio, tidy, toWindowBox, type Visited } from './atspiWindowText.ts';
import { netAddress } from './atspiBus.ts';
import { unavailableOn } from './windowText.ts';

const WINDOW = { title: 'Build log', x: 100, y: 50, width: 400, height: 300 };

describe('toWindowBox', () => {
  it('moves screen extents into the window’s pixels and clips them to it', () => {
    expect(toWindowBox({ x: 110, y: 60, width: 50, height: 20 }, WINDOW)).toEqual({ x: 10, y: 10, width: 50, height: 20 });
    expect(toWindowBox({ x: 90, y: 340, width: 50, height: 40 }, WINDOW)).toEqual({ x: 0, y: 290, width: 40, height: 10 });
    expect(toWindowBox({ x: 110, y: 60, width: 50, height: 20 }, { ...WINDOW, scale: 2 })).toEqual({ x: 20, y: 20, width: 100, height: 40 });
  });

  it('gives no box to what is off screen or outside the window', () => {
    expect(toWindowBox({ x: -(2 ** 31), y: -(2 ** 31), width: 1, height: 1 }, WINDOW)).toBeUndefined();
    expect(toWindowBox({ x: 110, y: 400, width: 50, height: 20 }, WINDOW)).toBeUndefined();
    expect(toWindowBox({ x: 110, y: 60, width: 0, height: 20 }, WINDOW)).toBeUndefined();
  });
});

describe('matchScore', () => {
  const frame = { x: 100, y: 28, width: 400, height: 322 }; // a title bar's worth taller
  it('prefers an exact title in the window’s place', () => {
    const exact = matchScore(WINDOW, 'Build log', frame, true);
    expect(exact).toBeGreaterThan(matchScore(WINDOW, 'Build log', { x: 700, y: 500, width: 100, height: 100 }, true));
    expect(exact).toBeGreaterThan(matchScore(WINDOW, 'Build', frame, true));
    expect(exact).toBeGreaterThan(matchScore(WINDOW, 'Build log', frame, false));
  });

  it('is 0 for another title elsewhere', () => {
    expect(matchScore(WINDOW, 'Notes', { x: 700, y: 500, width: 100, height: 100 }, true)).toBe(0);
    expect(overlapRatio(WINDOW, { x: 700, y: 500, width: 100, height: 100 })).toBe(0);
  });

  it('matches an untitled window by its place alone', () => {
    expect(matchScore({ ...WINDOW, title: '' }, '', WINDOW, true)).toBeGreaterThan(0);
  });
});

describe('tidy', () => {
  const el = (role: string, name: string, text: string) => ({ role, name, text });
  it('puts elements in tree order and says each word once', () => {
    const visited: Visited[] = [
      { order: [1, 0], element: el('static', 'Version 4.2 fixes the', 'Version 4.2 fixes the') },
      { order: [0], element: el('heading', 'Release notes', 'Release notes') },
      { order: [0, 0], element: el('static', 'Release notes', 'Release notes') },
      { order: [1], element: el('paragraph', '', 'Version 4.2 fixes the and speeds up search.') },
      { order: [1, 1], element: el('link', 'export bug', 'export bug') },
      { order: [1, 1, 0], element: el('static', 'export bug', 'export bug') },
      { order: [1, 2], element: el('static', 'and speeds up search.', 'and speeds up search.') },
      { order: [2], element: el('text', '', 'Line 1\nLine 2') },
    ];
    expect(tidy(visited).map((e) => `${e.role}:${e.text}`)).toEqual([
      'heading:Release notes',
      'static:Version 4.2 fixes the',
      'link:export bug',
      'static:and speeds up search.',
      'text:Line 1\nLine 2',
    ]);
  });

  it('keeps a container’s name when its descendants carry its words', () => {
    const visited: Visited[] = [
      { order: [], element: el('document web', 'Release notes', 'Release notes\nbody') },
      { order: [0], element: el('heading', '', 'Release notes') },
      { order: [1], element: el('paragraph', '', 'body') },
    ];
    expect(tidy(visited)).toEqual([el('document web', 'Release notes', ''), el('heading', '', 'Release notes'), el('paragraph', '', 'body')]);
  });
});

describe('netAddress', () => {
  it('opens unix paths and abstract names through Node’s own sockets', () => {
    expect(netAddress('unix:path=/tmp/dbus-B8t1,guid=97b6')).toBe('unix:socket=/tmp/dbus-B8t1');
    expect(netAddress('unix:abstract=/tmp/dbus-x%2cy,guid=1')).toBe('unix:socket=\u0000/tmp/dbus-x,y');
    expect(netAddress('unixexec:path=/bin/x;tcp:host=127.0.0.1,port=4000')).toBe('tcp:host=127.0.0.1,port=4000');
  });

  it('says which address it cannot open', () => {
    expect(() => netAddress('launchd:env=DBUS_LAUNCHD_SESSION_BUS_SOCKET')).toThrow(/names no unix socket or tcp port/);
  });
});

describe('unavailableOn', () => {
  it('says on macOS and Windows that the window’s text is not read there yet, and that OCR is used', async () => {
    expect(await unavailableOn('darwin').read()).toEqual({ ok: false, code: 'not-available', message: expect.stringMatching(/macOS accessibility API \(AX\) is not available on this platform yet; .*OCR/), ms: 0 });
    expect(await unavailableOn('win32').read()).toMatchObject({ ok: false, message: expect.stringContaining('Windows UI Automation') });
  });
});
