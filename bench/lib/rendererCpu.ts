// CPU time of Chromium's renderer main threads, read from /proc (Linux): on a shared two-core
// machine a cold page load's wall time moves ±15% between identical runs, the main thread's CPU
// about ±5%, so before/after comparisons read both.
import { readdirSync, readFileSync } from 'node:fs';

/** utime + stime (ms) of a /proc stat line. */
function cpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms (USER_HZ 100)
}

/** The summed CPU time (ms) of every Chromium renderer's main thread now; undefined without /proc. */
export function rendererMainThreadsMs(): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  let total = 0;
  for (const pid of pids) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes('--type=renderer')) continue;
      // A process's main thread is the task whose id is the process id.
      total += cpuMs(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}
