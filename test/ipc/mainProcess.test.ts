// The real Electron entry point (main/app/main.ts) started under plain Node with a fake
// `electron` module (Electron's binary cannot run here — see fakeElectron/electron.ts). It
// checks the wiring: hardened windows, every channel registered, the sender check, a hotkey
// that is taken reported (and fixed from Settings), keys kept out of settings.json, a clean quit.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOKE_CHANNELS } from '../../common/ipc.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
type Line = { kind: string; data: unknown };
let dataDir: string;
let lines: Line[];
let stderr = '';
let exitCode: number | null;

const of = (kind: string) => lines.filter((l) => l.kind === kind).map((l) => l.data);
const results = () => of('result') as { channel: string; url: string; result: { ok: boolean; code?: string; value?: unknown } }[];

/** Runs main.ts on the fake with `env` over a fresh data folder; the script's observations come back. */
async function runMain(dir: string, env: Record<string, string>): Promise<{ lines: Line[]; stderr: string; exitCode: number | null }> {
  // Ollama "lives" on a loopback port that was just free: nothing answers there.
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  await writeFile(join(dir, 'settings.json'), JSON.stringify({ version: 1, providers: { ollama: { host: `http://127.0.0.1:${port}` } } }));
  const child = spawn(process.execPath, ['--import', './test/ipc/fakeElectron/register.ts', 'main/app/main.ts'], {
    cwd: root,
    env: { ...process.env, GLANCE_DATA_DIR: dir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  const parsed = stdout
    .split('\n')
    .filter((l) => l.startsWith('FAKE '))
    .map((l) => JSON.parse(l.slice(5)) as Line);
  return { lines: parsed, stderr: err, exitCode: code };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'glance-main-'));
  ({ lines, stderr, exitCode } = await runMain(dataDir, { XDG_SESSION_TYPE: 'x11', WAYLAND_DISPLAY: '' }));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('main process (real main.ts, fake electron)', () => {
  it('starts, runs the script and quits cleanly', () => {
    expect(exitCode, stderr).toBe(0);
    expect(of('quit')).toEqual([true]);
  });

  it('registers the app:// scheme before ready and names the .desktop file', () => {
    expect(of('registerSchemesAsPrivileged')).toEqual([[{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]]);
    expect(of('setDesktopName')).toEqual(['dev.glance.app.desktop']);
    expect(of('protocol.handle')).toEqual(['app']);
    expect(of('served')).toEqual([{ status: 200, type: 'text/html; charset=utf-8', nosniff: 'nosniff' }]);
  });

  it('makes two hardened windows loading app:// pages', () => {
    const windows = of('BrowserWindow') as { title: string; webPreferences: Record<string, unknown> }[];
    expect(windows.map((w) => w.title).sort()).toEqual(['Ask Glance', 'Glance']);
    for (const w of windows) {
      expect(w.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false, devTools: true });
      expect(String(w.webPreferences.preload)).toMatch(/preload\/index\.cjs$/);
    }
    expect((of('loadURL') as string[]).sort()).toEqual(['app://glance/index.html', 'app://glance/index.html#/ask']);
  });

  it('answers every channel of the contract, and only the app’s own pages', () => {
    expect(of('channels')).toEqual([[...INVOKE_CHANNELS].sort()]);
    const evil = results().find((r) => r.url.startsWith('https://evil'));
    expect(evil?.result).toMatchObject({ ok: false, code: 'forbidden-sender' });
    expect(results().filter((r) => !r.url.startsWith('https://evil')).every((r) => r.result.ok)).toBe(true);
  });

  it('reports a taken hotkey (notice, notification, app:info) and clears it once Settings pick a free one', () => {
    const message = 'Ctrl+Shift+Space is taken by another app — pick another in Settings.';
    expect(of('notification')).toEqual([{ title: 'Glance', body: message }]);
    const infos = results().filter((r) => r.channel === 'app:info').map((r) => r.result.value as { hotkey: unknown; notices: { code: string }[] });
    expect(infos[0]?.hotkey).toEqual({ accelerator: 'CommandOrControl+Shift+Space', registered: false, message });
    expect(infos[0]?.notices.map((n) => n.code)).toContain('hotkey-unavailable');
    expect(infos[1]?.hotkey).toEqual({ accelerator: 'Alt+Shift+G', registered: true });
    expect(infos[1]?.notices.map((n) => n.code)).not.toContain('hotkey-unavailable');
    expect((of('trayMenu') as string[][]).at(-1)?.[0]).toBe('Screenshot and ask (Alt+Shift+G)');
  });

  it('the hotkey captures through the API and opens the ask window with the outcome', () => {
    const sent = of('send') as { channel: string; payload: { target?: string; result?: { ok: boolean; origin?: string; code?: string; message?: string } } }[];
    const incoming = sent.filter((s) => s.channel === 'attachments:incoming');
    expect(incoming).toHaveLength(1);
    // No model server listens here: the refusal names why, in words, instead of capturing for nobody.
    expect(incoming[0]?.payload).toMatchObject({ target: 'ask', result: { ok: false, origin: 'hotkey', code: 'unreachable' } });
    expect(incoming[0]?.payload.result?.message).toBeTruthy();
    // The ask window (made first, hidden) is now shown, placed on the display under the cursor.
    expect(of('askVisible')).toEqual([[true, true]]);
    expect(of('setBounds')).toEqual([{ x: 320, y: 193, width: 640, height: 260 }]);
  });

  it('nothing main sends a window is lost while its page has loaded but not yet subscribed (the hotkey just after launch)', () => {
    // The fake page subscribes 1.5 s after its load, as a slow first import would: the hotkey's
    // capture, settings changes and notices sent before then were held for it, not dropped.
    expect(of('lost')).toEqual([]);
    const sent = of('send') as { channel: string }[];
    expect(sent.filter((s) => s.channel === 'attachments:incoming')).toHaveLength(1);
  });

  it('pushes settings changes and the basic_text warning to the windows', () => {
    const sent = of('send') as { channel: string; payload: { hotkey?: string; code?: string } }[];
    expect(sent.some((s) => s.channel === 'settings:changed' && s.payload.hotkey === 'Alt+Shift+G')).toBe(true);
    expect(sent.some((s) => s.channel === 'app:notice' && s.payload.code === 'secrets-insecure')).toBe(true);
  });

  it('keeps the key in secrets.json as ciphertext only', async () => {
    const key = 'sk-or-v1-fakefakefakefakefakefakefake';
    expect(await readdir(dataDir)).toEqual(expect.arrayContaining(['settings.json', 'secrets.json']));
    for (const file of await readdir(dataDir)) expect(await readFile(join(dataDir, file), 'utf8')).not.toContain(key);
    expect(stderr).not.toContain(key);
    expect(JSON.stringify(lines)).not.toContain(key);
  });

  it('denies permissions, navigation and new windows; links open in the browser', () => {
    expect(of('permission')).toEqual([{ request: false, check: false }]);
    expect(of('clipboard')).toEqual([{ app: true, appCheck: true, other: false, read: false }]);
    expect(of('downloads')).toEqual([{ viewerImage: true, viewerBlob: true, remote: false, otherData: false }]);
    expect(of('navigation')).toEqual([{ prevented: true, open: { action: 'deny' }, openFile: { action: 'deny' } }]);
    expect(of('openExternal')).toEqual(['https://ollama.com/']);
  });
});

describe('main process on a Wayland session (fake electron, as strict as Electron there)', () => {
  let run: Awaited<ReturnType<typeof runMain>>;
  let dir: string;
  const seen = (kind: string) => run.lines.filter((l) => l.kind === kind).map((l) => l.data);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'glance-main-wayland-'));
    // The portal's .desktop entry is written under XDG_DATA_HOME: a folder of the test's own.
    run = await runMain(dir, { XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0', XDG_DATA_HOME: join(dir, 'share') });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('asks nothing Wayland cannot answer: no pointer position, no placing, no showInactive', () => {
    expect(run.exitCode, run.stderr).toBe(0);
    expect(seen('unsupported')).toEqual([]);
    // The ask window takes its size; the compositor places it.
    expect(seen('setSize')).toEqual([{ width: 640, height: 260 }]);
    expect(seen('setBounds')).toEqual([]);
  });

  it('a key changed in Settings replaces the portal binding: only the new key captures', () => {
    expect(seen('shortcuts')).toEqual([['Alt+Shift+G']]);
  });

  it('the hotkey opens the ask window there too, and nothing sent to a window is lost', () => {
    expect(seen('askVisible')).toEqual([[true, true]]);
    expect(seen('lost')).toEqual([]);
  });
});
