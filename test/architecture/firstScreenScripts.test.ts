// The scripts a window loads before its first frame (index.html's entry and modulepreloads) hold
// no zod: its ~90 KB are compiled and run on the way to a conversation's first paint, and the
// renderer needs zod only where Settings checks what a person typed (its own chunk). A runtime
// import from a module that builds schemas at its top level (common/privacy.ts) brings it back.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRenderer } from '../e2e/browserHarness.ts';

/** A string every build of zod v4's core carries (its base type's name). */
const ZOD = '$ZodType';

describe('the first screen’s scripts', () => {
  it('leave zod to the Settings chunk', async () => {
    const dir = await buildRenderer();
    const html = await readFile(join(dir, 'index.html'), 'utf8');
    const first = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\.\/([^"]+\.js)"/g)].map((m) => m[1]!);
    expect(first.length).toBeGreaterThanOrEqual(3);
    for (const file of first) expect((await readFile(join(dir, file), 'utf8')).includes(ZOD), file).toBe(false);
    // The marker is the right one: the chunk loaded with Settings has it.
    const all = (await readdir(join(dir, 'assets'))).filter((f) => f.endsWith('.js') && !first.includes(`assets/${f}`));
    const later = await Promise.all(all.map(async (f) => (await readFile(join(dir, 'assets', f), 'utf8')).includes(ZOD)));
    expect(later).toContain(true);
  }, 120_000);
});
