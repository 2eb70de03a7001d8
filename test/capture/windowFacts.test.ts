// Window facts as the X server has them, on a real desktop: Xvfb, openbox, and X clients that set
// only the legacy WM_NAME (xmessage, ImageMagick's display — no _NET_WM_NAME). Every fact the
// capturer gives is compared with what xprop and xwininfo say about the same window.
// DISPLAY is set for this whole file (its own forked process): node-screenshots connects once.
// Debian packages: xvfb, openbox, x11-utils (xmessage, xprop, xwininfo), imagemagick (display).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import type { Capture, CaptureResult, WindowInfo } from '../../main/capture/screenCapturer.ts';
import { openDesktop, rgbAt, type Desktop } from '../support/desktop.ts';
import { engineSuite, ofType } from '../chat/engineHarness.ts';

const run = promisify(execFile);
const missing = ['xmessage', 'display', 'xprop', 'xwininfo', 'openbox'].filter((b) => !onPath(b));

function onPath(binary: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => {
    try {
      return statSync(`${dir}/${binary}`).isFile();
    } catch {
      return false;
    }
  });
}

// Two windows whose titles differ only in their tail, both legacy WM_NAME only, of known colour.
const BUILD = { title: 'Build log', color: '#ff0000', geometry: '360x120+40+60' };
const OLD_BUILD = { title: 'Build log (yesterday)', color: '#0000ff', geometry: '360x120+460+60' };
const CHART = { title: 'Disk usage chart', color: '#00ff00', x: 200, y: 300, width: 240, height: 140 };

let desktop: Desktop;
const children: ChildProcess[] = [];
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });
const suite = engineSuite();

beforeAll(async () => {
  if (missing.length) return;
  desktop = await openDesktop({ width: 1024, height: 768 }, [], { thisProcess: true });
  const start = (cmd: string, args: string[]) => children.push(spawn(cmd, args, { env: desktop.x.env, stdio: 'ignore' }));
  for (const w of [BUILD, OLD_BUILD]) start('xmessage', ['-title', w.title, '-geometry', w.geometry, '-xrm', `*background: ${w.color}`, `${w.title}: done`]);
  start('display', ['-title', CHART.title, '-geometry', `+${CHART.x}+${CHART.y}`, '-size', `${CHART.width}x${CHART.height}`, `xc:${CHART.color}`]);
}, 60_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  await desktop?.close();
});

function ok(result: CaptureResult): Capture {
  if (!result.ok) throw new Error(`capture failed: ${result.code}: ${result.message}`);
  return result.capture;
}

/** Every window listed by its title and painted (a window is listed a few frames before it draws). */
async function listAll(): Promise<WindowInfo[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const list = await capturer.listWindows();
    const at = (known: { title: string }, dx: number, dy: number) => {
      const w = list.find((l) => l.title === known.title);
      return w ? { x: w.x + dx, y: w.y + dy } : undefined;
    };
    const spots = [[at(BUILD, 2, 2), '255,0,0'], [at(OLD_BUILD, 2, 2), '0,0,255'], [at(CHART, CHART.width / 2, CHART.height / 2), '0,255,0']] as const;
    if (spots.every(([p]) => p)) {
      const shot = ok(await capturer.capture('primary')).png;
      const painted = await Promise.all(spots.map(async ([p, rgb]) => (await rgbAt(shot, p!.x, p!.y)) === rgb));
      if (painted.every(Boolean)) return list;
    }
    if (Date.now() > deadline) return list;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const x = (...args: string[]) => run(args[0]!, args.slice(1), { env: desktop.x.env }).then((r) => r.stdout);

/** What xwininfo says of a window: its absolute place and size. */
async function xwininfo(id: string): Promise<{ x: number; y: number; width: number; height: number; parent: string; root: string }> {
  const out = (await x('xwininfo', '-id', id)) + (await x('xwininfo', '-id', id, '-tree'));
  const num = (label: string) => Number(new RegExp(`${label}:\\s+(-?\\d+)`).exec(out)?.[1]);
  return {
    x: num('Absolute upper-left X'),
    y: num('Absolute upper-left Y'),
    width: num('Width'),
    height: num('Height'),
    parent: /Parent window id: (0x[0-9a-f]+)/.exec(out)![1]!,
    root: /Root window id: (0x[0-9a-f]+)/.exec(out)![1]!,
  };
}

describe.skipIf(missing.length > 0)(`window facts under openbox (needs ${missing.join(', ') || 'nothing missing'})`, () => {
  it('titles and apps of windows that set only WM_NAME and WM_CLASS, as xprop reads them', async () => {
    const list = await listAll();
    for (const known of [BUILD, OLD_BUILD, CHART]) {
      const w = list.find((l) => l.title === known.title);
      expect(w, `${known.title} listed`).toBeDefined();
      const props = await x('xprop', '-id', w!.id, 'WM_NAME', '_NET_WM_NAME', 'WM_CLASS');
      expect(props).toContain('_NET_WM_NAME:  not found.');
      expect(props).toContain(`WM_NAME(STRING) = "${known.title}"`);
      const wmClass = /WM_CLASS\(STRING\) = "([^"]*)", "([^"]*)"/.exec(props)!;
      expect(w!.app).toBe(wmClass[2]);
    }
    expect(list.find((w) => w.title === BUILD.title)!.app).toBe('Xmessage');
  });

  it('content and frame geometry equal what xwininfo says', async () => {
    const list = await listAll();
    for (const known of [BUILD, OLD_BUILD, CHART]) {
      const w = list.find((l) => l.title === known.title)!;
      const content = await xwininfo(w.id);
      expect({ x: w.x, y: w.y, width: w.width, height: w.height }).toEqual({ x: content.x, y: content.y, width: content.width, height: content.height });
      // openbox reparents the window into its frame: the child of the root above it.
      let frameId = content.parent;
      for (let info = await xwininfo(frameId); info.parent !== info.root; info = await xwininfo(frameId)) frameId = info.parent;
      const frame = await xwininfo(frameId);
      expect(w.frame).toEqual({ x: frame.x, y: frame.y, width: frame.width, height: frame.height });
      // And the frame is the content grown by the extents openbox publishes.
      const extents = /_NET_FRAME_EXTENTS\(CARDINAL\) = (\d+), (\d+), (\d+), (\d+)/.exec(await x('xprop', '-id', w.id, '_NET_FRAME_EXTENTS'))!.slice(1).map(Number);
      const [left, right, top, bottom] = extents as [number, number, number, number];
      expect(w.frame).toEqual({ x: w.x - left, y: w.y - top, width: w.width + left + right, height: w.height + top + bottom });
    }
    expect(list.find((w) => w.title === CHART.title)).toMatchObject({ width: CHART.width, height: CHART.height });
  });

  it('a window is found by its legacy title, and two alike are told apart by their pixels', async () => {
    await listAll();
    const build = ok(await capturer.capture({ window: 'Build log' }));
    expect(build.window?.title).toBe(BUILD.title);
    const old = ok(await capturer.capture({ window: 'yesterday' }));
    expect(old.window?.title).toBe(OLD_BUILD.title);
    expect(build.window?.id).not.toBe(old.window?.id);
    // xmessage paints its shell's background at the window's edge.
    expect(await rgbAt(build.png, 2, 2)).toBe('255,0,0');
    expect(await rgbAt(old.png, 2, 2)).toBe('0,0,255');
    const chart = ok(await capturer.capture({ window: 'disk usage' }));
    expect([chart.width, chart.height]).toEqual([CHART.width, CHART.height]);
    expect(await rgbAt(chart.png, CHART.width / 2, CHART.height / 2)).toBe('0,255,0');
  });

  it('screenshot_desktop {"window": "Build log"} shows the model that window, named by its legacy title', async () => {
    await listAll();
    const h = await suite.harness({ capturer });
    suite.server().script({ toolCalls: [{ name: 'screenshot_desktop', arguments: { window: 'Build log' } }] });
    const turn = await h.turn({ model: 'llava-seer', text: 'Did the build pass?' });
    expect(turn.outcome.status).toBe('done');
    const result = ofType(turn.events, 'tool_result').find((r) => r.name === 'screenshot_desktop')!;
    expect(result.text).toContain('Captured window "Build log" of app "Xmessage" (360×120 screen pixels');
    const shown = suite.server().requests[1]!;
    expect(shown.images[0]).toMatchObject({ width: 360, height: 120 });
  });
});
