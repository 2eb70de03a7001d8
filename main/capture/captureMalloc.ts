// glibc's malloc settings for a process that captures the screen more than once
// (docs/benchmarks-perf.md, "Why glibc keeps it"). A 4K RGBA frame is 31.6 MiB, under glibc's
// 32 MiB ceiling for its *dynamic* mmap threshold: the first frame is mmapped, freeing it raises
// the threshold to its size, and every later frame is carved from an arena that keeps the pages
// (520–590 MB resident after 20 captures, flat). A fixed threshold (setting it turns the dynamic
// raise off) gives every frame its own mapping, returned to the system when it is freed; two arenas
// instead of 8 × cores bounds what libvips' and the grab's threads keep.
//
// glibc reads these once, when the process starts, so they cannot be set from inside it: the
// launchers start a child with them — bin/glance.js for `glance mcp serve`, the harness's main —
// unless they are already set. Electron: its main process is started by the Electron binary, so the
// packaged launcher (the .desktop Exec line or a wrapper script) has to set them (docs/
// benchmarks-perf.md); whether Chromium's allocator shim serves the native modules' malloc there
// instead of glibc could not be checked here (no Electron binary).
import { spawn } from 'node:child_process';

export const CAPTURE_MALLOC: Readonly<Record<string, string>> = Object.freeze({
  MALLOC_MMAP_THRESHOLD_: String(4 * 1024 * 1024),
  MALLOC_ARENA_MAX: '2',
});

/** Set by a relaunch, so the child does not relaunch again; or by a user who wants glibc's defaults. */
const MARK = 'GLANCE_MALLOC_SET';

/** Whether this process should be started again with CAPTURE_MALLOC: glibc (Linux), and none of it set yet. */
export function wantsMallocRelaunch(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux' || env[MARK] !== undefined) return false;
  return Object.keys(CAPTURE_MALLOC).every((k) => env[k] === undefined);
}

/** The environment the relaunched process gets. */
export function mallocEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, ...CAPTURE_MALLOC, [MARK]: '1' };
}

/**
 * Runs this same script again (same Node, flags and arguments) with CAPTURE_MALLOC, stdio shared,
 * and resolves with its exit code (128 + the signal's number if a signal ended it). The parent only
 * waits: SIGTERM and SIGHUP are passed on; Ctrl+C's SIGINT reaches the child from the terminal
 * itself (same process group), so the parent only keeps it from ending the parent first — passing
 * it on as well would give the child a second SIGINT, which ends a Node process without its cleanup.
 */
export function relaunchWithMalloc(): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: mallocEnv() });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  const ignore = () => undefined;
  process.on('SIGTERM', forward);
  process.on('SIGHUP', forward);
  process.on('SIGINT', ignore);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGTERM', forward);
      process.off('SIGHUP', forward);
      process.off('SIGINT', ignore);
      resolve(code ?? (signal ? 128 + (signalNumbers[signal] ?? 1) : 1));
    });
  });
}

const signalNumbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
