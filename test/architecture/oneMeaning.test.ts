// One meaning per name, one helper per job (issue 24): anything thrown becomes words through
// main/errors.ts, and "redact" names only the image door's privacy stage — the log and error
// cleaner is scrubSecrets.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
function files(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}
const product = ['main', 'common', 'renderer', 'preload'].flatMap(files);
const read = (f: string) => readFileSync(join(root, f), 'utf8');

describe('one helper, one meaning', () => {
  it('no hand-written "error instanceof Error ? error.message : String(error)" and no second errorText', () => {
    const handWritten = product.filter((f) => f !== 'common/errors.ts' && /(\w+) instanceof Error \? \1\.message\b/.test(read(f)));
    expect(handWritten).toEqual([]);
    expect(product.filter((f) => /function errorText\(/.test(read(f)))).toEqual(['main/errors.ts']);
  });

  it('"redact" is the privacy stage only: the scrubber of logs and errors has its own name', () => {
    const elsewhere = product.filter((f) => !/(^|\/)privacy(\/|\.ts$)/.test(f) && /export (async )?function redact\w*\(|\bredact\??: \(text/.test(read(f)));
    expect(elsewhere).toEqual([]);
    expect(read('main/scrubSecrets.ts')).toMatch(/export function scrubSecrets\(/);
  });

  it('"origin" is provenance and "target" the model an image is made for: a page\'s origin and a capture\'s scope have their own names', () => {
    const urlOrigin = product.filter((f) => /\b(const|let)\s+origin\s*=\s*(req\.headers|new URL|`http|'')|\bfunction \w+\(origin: string\)/.test(read(f)));
    expect(urlOrigin).toEqual([]);
    expect(product.filter((f) => /\bCaptureTarget\b|capture\(target\b/.test(read(f)))).toEqual([]);
    expect(read('main/capture/screenCapturer.ts')).toMatch(/capture\(scope: CaptureScope/);
  });
});
