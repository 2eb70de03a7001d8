import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codeHash, DETECTOR_VERSION } from './detectorVersion.ts';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe("the detector's name", () => {
  it('changes with any module of the detector, not with its tests', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'glance-detector-'));
    made.push(dir);
    await writeFile(join(dir, 'findings.ts'), 'export const RULES = [];\n');
    await writeFile(join(dir, 'findings.test.ts'), 'it("x", () => {});\n');
    const before = codeHash([dir]);
    await writeFile(join(dir, 'findings.test.ts'), 'it("y", () => {});\n');
    expect(codeHash([dir])).toBe(before);
    await writeFile(join(dir, 'findings.ts'), 'export const RULES = [1];\n');
    expect(codeHash([dir])).not.toBe(before);
    // A module added (the build's JavaScript counts as the source does).
    const changed = codeHash([dir]);
    await writeFile(join(dir, 'context.js'), 'export {};\n');
    expect(codeHash([dir])).not.toBe(changed);
  });

  it("is this build's: the hash of main/privacy and main/ocr", () => {
    expect(DETECTOR_VERSION).toMatch(/^d6-[0-9a-f]{16}$/);
  });
});
