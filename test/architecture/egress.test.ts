// One way out (architecture §3b): no product code outside the door (main/images) and the egress
// (main/egress) reads an attachment's bytes — a stored copy or an original — except the reads listed
// here, each of which shows the image to the person or only counts it, and never sends it. A new read
// fails this test until it goes through the egress or is listed with its reason. The page's §3b names
// every way out the egress module lists.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WAYS_OUT } from '../../main/egress/egress.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Reads of attachment bytes that never go to a model or an MCP client, by file, with the reason. */
const NOT_A_WAY_OUT: Record<string, string> = {
  'main/api/attachmentHandlers.ts': "the thumbnail and the viewer: the person's own screen",
  'main/chat/contextEstimate.ts': 'the Context meter counts the request; nothing is sent',
};

function productFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return productFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [relative(ROOT, path)] : [];
  });
}

/** A call that reads an attachment's bytes from the store: `.get(` or `.original(` on a store. */
const READS_BYTES = /\b(?:attachments|store|#store|attachmentStore)\s*\.\s*(?:get|original|source)\s*\(/g;

describe('one way out', () => {
  it('only the door and the egress read attachment bytes (the rest are listed, and send nothing)', () => {
    const readers = productFiles(join(ROOT, 'main'))
      .filter((f) => !f.startsWith('main/images/') && !f.startsWith('main/egress/'))
      .filter((f) => new RegExp(READS_BYTES.source).test(readFileSync(join(ROOT, f), 'utf8')));
    expect(readers.filter((f) => !(f in NOT_A_WAY_OUT))).toEqual([]);
    // Each listed exception still reads (a stale entry would hide a new way out behind its name).
    for (const f of Object.keys(NOT_A_WAY_OUT)) expect(readers, f).toContain(f);
  });

  it('the pattern finds a read where one is written', () => {
    const sample = 'const got = await this.#deps.attachments.get(id);\nconst o = await store.original(info);';
    expect(sample.match(READS_BYTES)).toHaveLength(2);
  });

  it('docs/architecture.md §3b names every way out the egress lists, and where it passes', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const section = doc.split(/^## §/m).find((s) => s.startsWith('3b '));
    expect(section).toBeDefined();
    for (const way of WAYS_OUT) {
      const method = way.through.split(' ')[0]!.split('(')[0]!;
      expect(section, way.way).toContain(method);
      expect(readFileSync(join(ROOT, way.from.endsWith('.ts') ? way.from : `${way.from}/serveMcp.ts`), 'utf8').length).toBeGreaterThan(0);
    }
  });
});
