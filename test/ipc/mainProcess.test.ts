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

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'glance-main-'));
  // Ollama "lives" on a loopback port that was just free: nothing answers there.
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, providers: { ollama: { host: `http://127.0.0.1:${port}` } } }));
  const child = spawn(process.execPath, ['--import', './test/ipc/fakeElectron/register.ts', 'main/app/main.ts'], {
    cwd: root,
    env: { ...process.env, GLANCE_DATA_DIR: dataDir, XDG_SESSION_TYPE: 'x11', WAYLAND_DISPLAY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  exitCode = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  lines = stdout
    .split('\n')
    .filter((l) => l.startsWith('FAKE '))
    .map((l) => JSON.parse(l.slice(5)) as Line);
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
    expect(of('navigation')).toEqual([{ prevented: true, open: { action: 'deny' }, openFile: { action: 'deny' } }]);
    expect(of('openExternal')).toEqual(['https://ollama.com/']);
  });
});
