// The preload as it ships: built with the package's own `build:preload` command, then run in
// a fresh V8 context whose `require` hands out a fake `electron` (Electron's binary cannot run
// here; this is the one boundary we fake). Anything else the bundle requires is an error.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../../common/ipc.ts';
import { PATH_FOR_FILE_METHOD, eventMethodName, invokeMethodName } from '../../common/ipcChannels.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
let outDir: string;
let bundle: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'glance-preload-'));
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const script = pkg.scripts['build:preload'] ?? '';
  // The same command, with the output redirected to a temp folder.
  const [tool, ...args] = script.split(/\s+/).map((a) => (a.startsWith('--outfile=') ? `--outfile=${join(outDir, 'index.cjs')}` : a));
  expect(tool).toBe('esbuild');
  expect(args).toContain('--format=cjs');
  await promisify(execFile)(join(root, 'node_modules', '.bin', 'esbuild'), args, { cwd: root });
  bundle = await readFile(join(outDir, 'index.cjs'), 'utf8');
});
afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

type Listener = (event: unknown, payload: unknown) => void;

function loadPreload(invokeImpl: (channel: string, payload: unknown) => Promise<unknown> = async () => ({ ok: true, value: null })) {
  const exposed = new Map<string, unknown>();
  const listeners = new Map<string, Set<Listener>>();
  const invoked: { channel: string; payload: unknown }[] = [];
  const required: string[] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (channel: string, payload: unknown) => {
        invoked.push({ channel, payload });
        return invokeImpl(channel, payload);
      },
      on: (channel: string, l: Listener) => void (listeners.get(channel) ?? listeners.set(channel, new Set()).get(channel)!).add(l),
      removeListener: (channel: string, l: Listener) => void listeners.get(channel)?.delete(l),
    },
    webUtils: { getPathForFile: (file: { name: string; path?: string }) => file.path ?? '' },
  };
  const module = { exports: {} };
  runInNewContext(bundle, {
    module,
    exports: module.exports,
    require: (name: string) => {
      required.push(name);
      if (name === 'electron') return electron;
      throw new Error(`the preload required "${name}"`);
    },
  });
  const emit = (channel: string, payload: unknown) => {
    for (const l of listeners.get(channel) ?? []) l({ sender: 'the IpcRendererEvent' }, payload);
  };
  return { exposed, invoked, required, listeners, emit };
}

describe('preload', () => {
  it('is CommonJS that requires electron and nothing else', () => {
    expect(bundle).toMatch(/require\("electron"\)/);
    expect(bundle).not.toMatch(/^\s*(import|export)\s/m);
    const requires = [...bundle.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
    expect(new Set(requires)).toEqual(new Set(['electron']));
    expect(bundle).not.toContain('zod');
    const { required } = loadPreload();
    expect(required).toEqual(['electron']);
  });

  it('exposes exactly one method per channel of common/ipc.ts, plus pathForFile, as window.glance', () => {
    const { exposed } = loadPreload();
    expect([...exposed.keys()]).toEqual(['glance']);
    const api = exposed.get('glance') as Record<string, unknown>;
    const expected = [...INVOKE_CHANNELS.map(invokeMethodName), ...EVENT_CHANNELS.map(eventMethodName), PATH_FOR_FILE_METHOD].sort();
    expect(Object.keys(api).sort()).toEqual(expected);
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('each method invokes its own channel with the request (an empty object when none is given)', async () => {
    const { exposed, invoked } = loadPreload(async (channel) => ({ ok: true, value: channel }));
    const api = exposed.get('glance') as Record<string, (r?: unknown) => Promise<unknown>>;
    for (const channel of INVOKE_CHANNELS) {
      const request = { probe: channel };
      expect(await api[invokeMethodName(channel)]!(request)).toEqual({ ok: true, value: channel });
    }
    expect(invoked).toEqual(INVOKE_CHANNELS.map((channel) => ({ channel, payload: { probe: channel } })));
    await api.settingsGet!();
    expect(invoked.at(-1)).toEqual({ channel: 'settings:get', payload: {} });
  });

  it('a failed invoke answers { ok:false, code:"ipc-failed" } instead of throwing', async () => {
    const { exposed } = loadPreload(async () => {
      throw new Error("No handler registered for 'chat:send'");
    });
    const api = exposed.get('glance') as Record<string, (r?: unknown) => Promise<unknown>>;
    expect(await api.chatSend!({})).toEqual({ ok: false, code: 'ipc-failed', message: "chat:send: No handler registered for 'chat:send'" });
  });

  it('subscriptions deliver the payload only (never the IpcRendererEvent) and unsubscribe cleanly', () => {
    const { exposed, emit, listeners } = loadPreload();
    const api = exposed.get('glance') as Record<string, (cb: (p: unknown) => void) => () => void>;
    for (const channel of EVENT_CHANNELS) {
      const got: unknown[][] = [];
      const off = api[eventMethodName(channel)]!((...args: unknown[]) => got.push(args));
      emit(channel, { n: 1 });
      off();
      emit(channel, { n: 2 });
      expect(got).toEqual([[{ n: 1 }]]);
      expect(listeners.get(channel)?.size).toBe(0);
    }
    expect(() => api.onChatEvent!('not a function' as never)).toThrow(/listener must be a function/);
  });

  it('pathForFile goes through webUtils.getPathForFile ("" when the file has no path)', () => {
    const { exposed } = loadPreload();
    const api = exposed.get('glance') as { pathForFile: (f: unknown) => string };
    expect(api.pathForFile({ name: 'a.png', path: '/home/me/a.png' })).toBe('/home/me/a.png');
    expect(api.pathForFile({ name: 'pasted.png' })).toBe('');
  });
});
