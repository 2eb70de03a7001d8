// The malloc settings a capturing process starts with: wanted on glibc when none is set,
// and a relaunch runs the same script again with them, passing its exit code and SIGTERM through.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTURE_MALLOC, mallocEnv, wantsMallocRelaunch } from './captureMalloc.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glance-malloc-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A script that relaunches itself, as bin/glance.js and the harness do, then reports its environment. */
async function script(body: string): Promise<string> {
  const file = join(dir, `s${Math.random().toString(36).slice(2)}.ts`);
  const module = join(import.meta.dirname, 'captureMalloc.ts');
  await writeFile(file, `import { relaunchWithMalloc, wantsMallocRelaunch } from ${JSON.stringify(module)};\nif (wantsMallocRelaunch()) process.exitCode = await relaunchWithMalloc();\nelse { ${body} }\n`);
  return file;
}

function run(file: string, env: NodeJS.ProcessEnv, onSpawn?: (pid: number) => void): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    let told = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!told && stdout.includes('ready')) {
        told = true;
        onSpawn?.(child.pid!);
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout }));
  });
}

const bare = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MALLOC_') && k !== 'GLANCE_MALLOC_SET'));

describe('captureMalloc', () => {
  it('is wanted on Linux when none of the settings is set, and not again in the relaunched process', () => {
    expect(wantsMallocRelaunch({}, 'linux')).toBe(true);
    expect(wantsMallocRelaunch({ MALLOC_ARENA_MAX: '8' }, 'linux')).toBe(false); // the user chose
    expect(wantsMallocRelaunch({}, 'darwin')).toBe(false);
    expect(wantsMallocRelaunch(mallocEnv({}), 'linux')).toBe(false);
    expect(mallocEnv({ A: '1' })).toMatchObject({ A: '1', ...CAPTURE_MALLOC });
  });

  it.runIf(process.platform === 'linux')('runs the script again with the settings and passes its exit code back', async () => {
    const file = await script(`console.log(JSON.stringify({ threshold: process.env.MALLOC_MMAP_THRESHOLD_, arenas: process.env.MALLOC_ARENA_MAX, pid: process.pid, ppid: process.ppid })); process.exitCode = 3;`);
    const { code, stdout } = await run(file, bare());
    expect(code).toBe(3);
    const seen = JSON.parse(stdout) as { threshold: string; arenas: string; pid: number; ppid: number };
    expect(seen).toMatchObject({ threshold: CAPTURE_MALLOC.MALLOC_MMAP_THRESHOLD_, arenas: CAPTURE_MALLOC.MALLOC_ARENA_MAX });
    // Already set (by the user or a launcher): the script runs in the first process.
    const direct = await run(file, { ...bare(), MALLOC_ARENA_MAX: '4' });
    expect(JSON.parse(direct.stdout)).toMatchObject({ arenas: '4' });
  }, 30_000);

  it.runIf(process.platform === 'linux')('passes SIGTERM to the relaunched process, which cleans up and exits', async () => {
    const file = await script(`process.once('SIGTERM', () => { console.log('cleaned up'); process.exit(0); }); console.log('ready'); setInterval(() => undefined, 1000);`);
    const { code, stdout } = await run(file, bare(), (pid) => process.kill(pid, 'SIGTERM'));
    expect(stdout).toContain('cleaned up');
    expect(code).toBe(0);
  }, 30_000);
});
