// Wayland capture, run for real: headless sway (wlroots) with two outputs — the second at scale 2 —
// and two foot terminals of known colour, one floating at a known place, one tiled on the second
// output. Glance's route in a sway session (sway's IPC for outputs and windows, grim for the
// pixels through wlroots screencopy) is checked against swaymsg's own answers and, pixel for
// pixel, against grim run as a control; so is its route on another wlroots compositor (the outputs
// read over the Wayland socket). No DISPLAY: node-screenshots cannot list outputs here.
// Its own process: the capturer reads the session from process.env.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import type { Capture, CaptureResult, WindowInfo } from '../../main/capture/screenCapturer.ts';
import { startSway, swayMissing, swayViews, type Sway } from '../fixtures/sway.ts';

const run = promisify(execFile);
const missing = swayMissing(['foot']);

const RED = { app: 'glance-red', title: 'Red notes', color: 'ff0000', rgb: '255,0,0' };
const BLUE = { app: 'glance-blue', title: 'Blue board', color: '0000ff', rgb: '0,0,255' };

let sway: Sway;
const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });

beforeAll(async () => {
  if (missing.length) return;
  sway = await startSway([
    'output HEADLESS-1 resolution 1024x768 position 0 0',
    'default_border normal 2',
    'default_floating_border normal 2',
    'workspace 1 output HEADLESS-1',
    'workspace 2 output HEADLESS-2',
    `for_window [app_id="${RED.app}"] floating enable`,
    `assign [app_id="${BLUE.app}"] workspace 2`,
    'xwayland disable',
  ]);
  delete process.env.DISPLAY;
  Object.assign(process.env, sway.env);
  await sway.msg('create_output');
  await sway.msg('output', 'HEADLESS-2', 'resolution', '640x480', 'position', '1024', '0', 'scale', '2');
  for (const w of [BLUE, RED]) {
    // Text and cursor in the background colour: the window is one colour to check.
    const config = await sway.writeFile(`${w.app}.ini`, `[colors]\nbackground=${w.color}\nforeground=${w.color}\n[cursor]\ncolor=${w.color} ${w.color}\n`);
    await sway.msg('exec', `env LANG=C.UTF-8 foot -c ${config} --app-id ${w.app} --title '${w.title}' sleep 600`);
  }
  const deadline = Date.now() + 20_000;
  while ((await swayViews(sway)).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  // Sized and placed once it is mapped (measured: a resize in for_window was sometimes undone by foot's first size).
  const placed = async () => (await swayViews(sway)).find((v) => v.app_id === RED.app)?.rect;
  while (Date.now() < deadline) {
    await sway.msg(`[app_id="${RED.app}"]`, 'resize', 'set', '480', '320');
    await sway.msg(`[app_id="${RED.app}"]`, 'move', 'position', '100', '80');
    await new Promise((r) => setTimeout(r, 200));
    const rect = await placed();
    if (rect?.width === 480 && rect.x === 100) break;
  }
}, 60_000);

afterAll(async () => {
  await sway?.stop();
});

function ok(result: CaptureResult): Capture {
  if (!result.ok) throw new Error(`capture failed: ${result.code}: ${result.message}`);
  return result.capture;
}

async function rgb(png: Uint8Array): Promise<{ data: Buffer; width: number; at(x: number, y: number): string }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, at: (x, y) => {
      const i = (Math.floor(y) * info.width + Math.floor(x)) * 3;
      return [...data.subarray(i, i + 3)].join();
    },
  };
}

/** grim itself, as the control: the output's RGB pixels. */
async function grimControl(output: string): Promise<Buffer> {
  const { stdout } = await run('grim', ['-t', 'ppm', '-o', output, '-'], { env: { ...process.env }, encoding: 'buffer', maxBuffer: 1 << 28 });
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(stdout.subarray(0, 64).toString('latin1'))!;
  return stdout.subarray(header[0].length);
}

/** Both windows painted (foot maps, then draws): capture until the colours are there. */
async function painted(): Promise<WindowInfo[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const list = await capturer.listWindows();
    const red = list.find((w) => w.title === RED.title);
    if (red && list.some((w) => w.title === BLUE.title)) {
      const shot = await rgb(ok(await capturer.capture('primary')).png);
      const second = await rgb(ok(await capturer.capture({ display: 'HEADLESS-2' })).png);
      if (shot.at(red.x + red.width / 2, red.y + red.height / 2) === RED.rgb && second.at(320, 300) === BLUE.rgb) return list;
    }
    if (Date.now() > deadline) return list;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(missing.length > 0)(`Wayland: headless sway, captured through sway's IPC and grim (needs ${missing.join(', ') || 'nothing missing'})`, () => {
  it('lists both outputs as sway has them: place, logical size, scale', async () => {
    const outputs = (await sway.msg('-t', 'get_outputs')) as { name: string; rect: { x: number; y: number; width: number; height: number }; scale: number }[];
    expect(outputs.map((o) => o.name).sort()).toEqual(['HEADLESS-1', 'HEADLESS-2']);
    const displays = await capturer.listDisplays();
    expect(displays[0]).toMatchObject({ id: 'HEADLESS-1', x: 0, y: 0, width: 1024, height: 768, scaleFactor: 1, primary: true });
    for (const o of outputs) expect(displays.find((d) => d.id === o.name)).toMatchObject({ ...o.rect, scaleFactor: o.scale });
    expect(displays.find((d) => d.id === 'HEADLESS-2')).toMatchObject({ x: 1024, width: 320, height: 240, scaleFactor: 2, primary: false });
  });

  it('captures an output: the same pixels grim gives, the red window where sway put it', async () => {
    const list = await painted();
    const c = ok(await capturer.capture('primary'));
    expect([c.width, c.height]).toEqual([1024, 768]);
    const shot = await rgb(c.png);
    expect(shot.data.equals(await grimControl('HEADLESS-1'))).toBe(true);
    const red = list.find((w) => w.title === RED.title)!;
    expect(shot.at(red.x + 40, red.y + red.height - 20)).toBe(RED.rgb);
    expect(shot.at(5, 760)).not.toBe(RED.rgb); // the desktop around it
    // The second output at scale 2: device pixels, blue filling its tiled window.
    const second = ok(await capturer.capture({ display: 'HEADLESS-2' }));
    expect([second.width, second.height]).toEqual([640, 480]);
    const blue = await rgb(second.png);
    expect(blue.data.equals(await grimControl('HEADLESS-2'))).toBe(true);
    expect(blue.at(320, 300)).toBe(BLUE.rgb);
    // Both on one canvas at the largest scale (2): the first output doubled, the second beside it.
    const all = ok(await capturer.capture('all'));
    expect([all.width, all.height]).toEqual([(1024 + 320) * 2, 768 * 2]);
    const canvas = await rgb(all.png);
    expect(canvas.at((red.x + 40) * 2, (red.y + red.height - 20) * 2)).toBe(RED.rgb);
    expect(canvas.at(1024 * 2 + 320, 300)).toBe(BLUE.rgb);
  });

  it("lists the windows with sway's geometry (content and frame), app ids and titles", async () => {
    const list = await painted();
    const views = await swayViews(sway);
    for (const known of [RED, BLUE]) {
      const view = views.find((v) => v.app_id === known.app)!;
      const w = list.find((l) => l.title === known.title);
      expect(w).toMatchObject({
        id: String(view.id),
        app: known.app,
        focused: view.focused,
        x: view.rect.x + view.window_rect.x,
        y: view.rect.y + view.window_rect.y,
        width: view.window_rect.width,
        height: view.window_rect.height,
      });
      expect(w!.frame).toEqual({ x: view.rect.x, y: view.rect.y - view.deco_rect.height, width: view.rect.width, height: view.rect.height + view.deco_rect.height });
    }
    // The floating window is where the config moved it, its title bar above its content.
    const red = list.find((l) => l.title === RED.title)!;
    expect(red.frame).toMatchObject({ x: 100, y: 80, width: 480, height: 320 });
    expect(red.y).toBeGreaterThan(red.frame!.y);
  });

  it("captures a client's window by its title: its content, in its colour, on either output", async () => {
    const list = await painted();
    const red = list.find((w) => w.title === RED.title)!;
    const c = ok(await capturer.capture({ window: 'red notes' }));
    expect(c.window).toMatchObject({ app: RED.app, title: RED.title });
    expect([c.width, c.height]).toEqual([red.width, red.height]);
    const shot = await rgb(c.png);
    for (const [x, y] of [[c.width - 3, 3], [3, c.height - 3], [c.width - 3, c.height - 3], [c.width / 2, c.height / 2]] as const) expect(shot.at(x, y)).toBe(RED.rgb);
    // By its app id, on the scale-2 output: twice its logical size in pixels.
    const blueWindow = list.find((w) => w.title === BLUE.title)!;
    const b = ok(await capturer.capture({ window: BLUE.app }));
    expect(b.display.id).toBe('HEADLESS-2');
    expect([b.width, b.height]).toEqual([blueWindow.width * 2, blueWindow.height * 2]);
    expect((await rgb(b.png)).at(b.width / 2, b.height / 2)).toBe(BLUE.rgb);
  });

  it("'under-cursor' is where sway's focus is (it follows the pointer; no pointer is readable here): that output, that window", async () => {
    const list = await painted();
    await sway.msg('focus', 'output', 'HEADLESS-2');
    const second = ok(await capturer.capture('under-cursor', { windowUnderPointer: true }));
    expect(second.display.id).toBe('HEADLESS-2');
    expect(second.underPointer?.title).toBe(BLUE.title);
    // The red window moved off the output's centre: the focused window, not the middle of the screen.
    await sway.msg(`[app_id="${RED.app}"]`, 'move', 'position', '520', '420');
    await sway.msg('focus', 'output', 'HEADLESS-1');
    try {
      const red = (await capturer.listWindows()).find((w) => w.title === RED.title)!;
      expect(red.x).toBeGreaterThan(512);
      const c = ok(await capturer.capture('under-cursor', { windowUnderPointer: true }));
      expect([c.display.id, c.width, c.height]).toEqual(['HEADLESS-1', 1024, 768]);
      expect(c.underPointer).toEqual({ app: RED.app, title: RED.title, region: { x: red.x, y: red.y, width: red.width, height: red.height } });
    } finally {
      await sway.msg(`[app_id="${RED.app}"]`, 'move', 'position', '100', '80');
    }
    expect(list.some((w) => w.title === RED.title)).toBe(true);
  });

  it("another wlroots compositor (no sway IPC, no XWayland): the outputs it lists over the Wayland socket, grim's pixels, no windows", async () => {
    await painted();
    const sock = process.env.SWAYSOCK;
    delete process.env.SWAYSOCK;
    try {
      const outputs = (await sway.msg('-t', 'get_outputs')) as { name: string; rect: { x: number; y: number; width: number; height: number }; scale: number }[];
      const displays = await capturer.listDisplays();
      expect(displays.map((d) => d.id).sort()).toEqual(outputs.map((o) => o.name).sort());
      for (const o of outputs) expect(displays.find((d) => d.id === o.name)).toMatchObject({ ...o.rect, scaleFactor: o.scale });
      expect(displays[0]).toMatchObject({ id: 'HEADLESS-1', primary: true });
      const second = ok(await capturer.capture({ display: 'HEADLESS-2' }));
      expect([second.width, second.height]).toEqual([640, 480]);
      expect((await rgb(second.png)).data.equals(await grimControl('HEADLESS-2'))).toBe(true);
      expect(await capturer.listWindows()).toEqual([]);
      expect(await capturer.capture({ window: RED.title })).toMatchObject({ ok: false, code: 'no-window' });
    } finally {
      process.env.SWAYSOCK = sock;
    }
  });

  it('without grim: capture-unavailable, saying to install grim', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const result = await capturer.capture('primary');
      expect(result).toMatchObject({ ok: false, code: 'capture-unavailable' });
      expect(!result.ok && result.message).toContain('install the grim package');
    } finally {
      process.env.PATH = path;
    }
  });
});
