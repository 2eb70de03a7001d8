// One prepare in a process of its own, so its peak RSS is its own:
//   node bench/lib/memoryWorker.ts <checkout root> <input file> <profile key> [--floor]
// Prints one JSON line: RSS before reading (Node, the modules, sharp: the base) and at peak,
// the file's size and what came out (size and channels of the decoded, fitted pixels).
// --floor: instead of prepare, the bare pipeline sharp(file).resize(fitted).jpeg(q80), for reference.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { peakRssMb } from './peakRss.ts';
import type * as Limits from '../../common/limits.ts';
import type * as Store from '../../main/images/attachmentStore.ts';
import type * as Intake from '../../main/images/imageIntake.ts';
import type * as Profiles from '../../main/images/profiles.ts';

export type MemoryReport = {
  baseMb: number;
  peakMb: number;
  fileBytes: number;
  result: { ok: true; mime: string; width: number; height: number; channels: number } | { ok: false; code: string };
};

const [root, file, profileKey, mode] = process.argv.slice(2) as [string, string, 'ollama' | 'openai', string | undefined];
const { ImageIntake } = (await import(join(root, 'main/images/imageIntake.ts'))) as typeof Intake;
const { FileAttachmentStore } = (await import(join(root, 'main/images/attachmentStore.ts'))) as typeof Store;
const { DEFAULT_PROFILES } = (await import(join(root, 'main/images/profiles.ts'))) as typeof Profiles;
const { DEFAULT_LIMITS } = (await import(join(root, 'common/limits.ts'))) as typeof Limits;
await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).png().toBuffer(); // libvips loaded: part of the base
const dir = await mkdtemp(join(tmpdir(), 'glance-bench-mem-'));
try {
  const intake = new ImageIntake({ config: { limits: { ...DEFAULT_LIMITS }, allowedRoots: [] }, store: new FileAttachmentStore(dir) });
  const baseMb = peakRssMb();
  const profile = DEFAULT_PROFILES[profileKey];
  const r =
    mode === '--floor'
      ? await floor(file, profile)
      : await intake.admit({ source: file, origin: 'bench', requestedBy: 'user' }, { profile }, 'check');
  const peakMb = peakRssMb();
  const report: MemoryReport = {
    baseMb,
    peakMb,
    fileBytes: (await stat(file)).size,
    result: r.ok
      ? { ok: true, mime: r.image.mime, width: r.image.width, height: r.image.height, channels: (await sharp(r.image.data).metadata()).channels }
      : { ok: false, code: r.code },
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}

/** The bare pipeline to the profile's long edge and pixel count, shaped like a prepare result. */
async function floor(path: string, profile: { maxLongEdge: number; maxPixels: number }) {
  const data = await readFile(path);
  const meta = await sharp(data).metadata();
  const w = meta.autoOrient?.width ?? meta.width;
  const h = meta.autoOrient?.height ?? meta.height;
  const scale = Math.min(1, profile.maxLongEdge / Math.max(w, h), Math.sqrt(profile.maxPixels / (w * h)));
  const out = await sharp(data, { autoOrient: true }).resize(Math.floor(w * scale), Math.floor(h * scale), { fit: 'fill' }).jpeg({ quality: 80 }).toBuffer({ resolveWithObject: true });
  return { ok: true as const, image: { data: out.data, mime: 'image/jpeg', width: out.info.width, height: out.info.height } };
}
