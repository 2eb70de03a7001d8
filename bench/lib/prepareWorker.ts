// One measurement in a process of its own, so its peak RSS is its own:
//   node bench/lib/prepareWorker.ts <input file> <profile JSON> <runs> [<payload out file>]
// Prints one JSON line: per-run wall and CPU milliseconds, RSS before and at peak, and the last result.
// CPU time (every thread of the process: the event loop and libuv's pool) is steadier than wall
// time on a shared machine, where other work takes turns on the same cores.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { FileAttachmentStore } from '../../main/images/attachmentStore.ts';
import { ImageIntake } from '../../main/images/imageIntake.ts';
import type { ImageProfile } from '../../main/images/types.ts';
import { peakRssMb } from './peakRss.ts';

export type WorkerReport = {
  runsMs: number[];
  /** User + system CPU time of the whole process during each run. */
  runsCpuMs: number[];
  rssBeforeMb: number;
  rssPeakMb: number;
  result: { ok: true; mime: string; width: number; height: number; bytes: number } | { ok: false; code: string; message: string };
};

const [inputPath, profileJson, runsText, outPath] = process.argv.slice(2);
if (!inputPath || !profileJson || !runsText) {
  process.stderr.write('usage: prepareWorker.ts <input file> <profile JSON> <runs> [<payload out file>]\n');
  process.exit(2);
}
const profile = JSON.parse(profileJson) as ImageProfile;
const runs = Number(runsText);
const input = new Uint8Array(await readFile(inputPath));
const dataDir = await mkdtemp(join(tmpdir(), 'glance-bench-'));
try {
  const intake = new ImageIntake({ config: { limits: { ...DEFAULT_LIMITS }, allowedRoots: [] }, store: new FileAttachmentStore(dataDir) });
  const prepare = () => intake.admit({ source: input, origin: 'bench', requestedBy: 'user' }, { profile }, 'check');
  const rssBeforeMb = peakRssMb();
  // Two untimed runs: first-use costs (libvips start-up, thread pool) are not per-image costs.
  await prepare();
  await prepare();
  const runsMs: number[] = [];
  const runsCpuMs: number[] = [];
  let last = await prepare();
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    last = await prepare();
    runsMs.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    runsCpuMs.push((used.user + used.system) / 1000);
  }
  if (last.ok && outPath) await writeFile(outPath, last.image.data);
  const report: WorkerReport = {
    runsMs,
    runsCpuMs,
    rssBeforeMb,
    rssPeakMb: peakRssMb(),
    result: last.ok
      ? { ok: true, mime: last.image.mime, width: last.image.width, height: last.image.height, bytes: last.image.bytes }
      : { ok: false, code: last.code, message: last.message },
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
