// This process's own peak resident set, in MB. Not process.resourceUsage().maxRSS: on Linux that
// is getrusage's ru_maxrss, which a child inherits from its parent at spawn (the kernel keeps the
// high-water mark across fork and exec), so a worker started by a bench that holds 400 MB of
// generated inputs reported 400 MB before it had read anything. /proc/self/status's VmHWM is the
// high-water mark of this process's own address space, which exec starts afresh.
import { readFileSync } from 'node:fs';

export function peakRssMb(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) / 1024;
  } catch {
    // Not Linux: fall through.
  }
  return process.resourceUsage().maxRSS / 1024;
}
