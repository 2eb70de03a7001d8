// The name of the detector that finds what to hide: a hash of its code as this build runs it —
// main/privacy's and main/ocr's modules (their tests aside). Findings are kept beside an original
// under this name (main/images/redactStage.ts), so a build whose rules or reading differ in any way
// never reuses what an older one found: an upgrade that hides more reads a kept image again.
// (A name bumped by hand went stale: 124 changes to the rules landed under one name.)
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** A hash of the modules in `folders` (TypeScript source or the build's JavaScript; not tests), in name order. */
export function codeHash(folders: readonly string[]): string {
  const hash = createHash('sha256');
  for (const folder of folders) {
    const names = readdirSync(folder).filter((n) => /\.(?:ts|js|mjs|cjs)$/.test(n) && !/\.test\.|\.d\.ts$/.test(n)).sort();
    for (const name of names) hash.update(name).update('\0').update(readFileSync(join(folder, name))).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** This build's detector: `d6-` and the hash of main/privacy and main/ocr. */
export const DETECTOR_VERSION = `d6-${codeHash([here, join(here, '..', 'ocr')])}`;
