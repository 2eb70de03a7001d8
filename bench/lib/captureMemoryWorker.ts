// Captures and gates in one process, the way the harness or `glance mcp serve` does them over a
// session: node bench/lib/captureMemoryWorker.ts <count> <gap ms>
// (DISPLAY set to an X display showing a page). Prints one JSON line: resident memory (VmRSS, MB)
// after each of the checkpoints, and the malloc settings the process started with.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';
import { FileAttachmentStore } from '../../main/images/attachmentStore.ts';
import { ImageIntake } from '../../main/images/imageIntake.ts';
import { targetFor } from '../../main/images/profiles.ts';

const [count, gap] = process.argv.slice(2).map(Number) as [number, number];
const CHECKPOINTS = new Set([1, 5, 10, 20, 35, 50, 70, count]);
const rss = async () => Number(/VmRSS:\s+(\d+)/.exec(await readFile('/proc/self/status', 'utf8'))![1]) / 1024;

const dir = await mkdtemp(join(tmpdir(), 'glance-bench-capmem-'));
try {
  const capturer = new NodeScreenshotsCapturer({ timeoutMs: 20_000 });
  const intake = new ImageIntake({ config: { limits: { ...DEFAULT_LIMITS }, allowedRoots: [] }, store: new FileAttachmentStore(dir) });
  const target = targetFor('ollama', 'gemma3', { vision: 'yes', visionSource: 'ollama-capabilities' });
  const after: Record<number, number> = { 0: await rss() };
  for (let i = 1; i <= count; i++) {
    const shot = await capturer.capture('primary');
    if (!shot.ok) throw new Error(shot.message);
    const attached = await intake.admit({ source: shot.capture.png, name: 'screenshot.png', origin: 'screenshot', requestedBy: 'user' }, target, 'user');
    if (!attached.ok) throw new Error(attached.message);
    if (CHECKPOINTS.has(i)) after[i] = await rss();
    await new Promise((r) => setTimeout(r, gap));
  }
  const malloc = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('MALLOC_')));
  process.stdout.write(`${JSON.stringify({ after, malloc })}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
