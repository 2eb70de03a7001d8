// Every `architecture §N` a comment cites exists in docs/architecture.md, and a quoted term after
// it ("Store", "Bounds") is in that section — a citation that points at nothing misleads the next
// reader more than none. Product code cites no tracker issue numbers or files outside the repo:
// they point at nothing a reader of the repository can open.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'out') return [];
    if (statSync(join(root, path)).isDirectory()) return files(path);
    return /\.(ts|tsx|js|cjs|mjs)$/.test(name) ? [path] : [];
  });
}

/** Section id ("3", "4a") → its text, from the `## §N` headings. */
export function sections(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = markdown.split(/^## §/m).slice(1);
  for (const part of parts) {
    const id = /^([0-9]+[a-z]?)\b/.exec(part)?.[1];
    if (id) out.set(id, part.replace(/\*\*|`/g, '').toLowerCase());
  }
  return out;
}

/** Every citation in a text: `architecture §5`, `architecture.md §3 "Store"`, `architecture §12, §10`. */
export function citations(text: string): { section: string; term?: string }[] {
  const out: { section: string; term?: string }[] = [];
  for (const m of text.matchAll(/architecture(?:\.md)? ((?:§[0-9a-z.]+(?: "[^"\n]+")?(?:,\s*| and )?)+)/g)) {
    for (const c of m[1]!.matchAll(/§([0-9a-z.]+?)\.?(?: "([^"\n]+)")?(?=[^0-9a-z.]|\.(?![0-9a-z])|$)/g)) out.push({ section: c[1]!, ...(c[2] ? { term: c[2] } : {}) });
  }
  return out;
}

const doc = sections(readFileSync(join(root, 'docs/architecture.md'), 'utf8'));
// This file's own examples are not citations.
const all = ['main', 'common', 'renderer', 'preload', 'test', 'bench', 'scripts'].flatMap(files).filter((f) => f !== 'test/architecture/citations.test.ts');
const product = all.filter((f) => /^(main|common|renderer|preload)\//.test(f) && !/\.test\.tsx?$/.test(f));

describe('doc citations', () => {
  it('reads the forms the code uses', () => {
    expect(citations('see (architecture §3 "Store"), and architecture §12, §10; architecture.md §4a. (architecture §5.6)')).toEqual([
      { section: '3', term: 'Store' },
      { section: '12' },
      { section: '10' },
      { section: '4a' },
      { section: '5.6' },
    ]);
    expect(doc.get('3')).toContain('store');
  });

  it('every architecture § a comment cites exists, with its quoted term', () => {
    const broken: string[] = [];
    for (const file of all) {
      for (const { section, term } of citations(readFileSync(join(root, file), 'utf8'))) {
        const body = doc.get(section);
        if (body === undefined) broken.push(`${file}: §${section} is not a section of docs/architecture.md`);
        else if (term && !body.includes(term.replace(/\*\*|`/g, '').toLowerCase())) broken.push(`${file}: §${section} does not mention "${term}"`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('product code cites no tracker issue numbers and no files outside the repository', () => {
    const outside = product.flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      return [...text.matchAll(/\bissues? #?\d+|\bCONVENTIONS\b|\bDESIGN\.md\b/gi)].map((m) => `${file}: ${m[0]}`);
    });
    expect(outside).toEqual([]);
  });
});
