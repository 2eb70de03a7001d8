// What the no-bytes-in-history checks read (architecture §5, persistence): the stored conversation files as
// text, and whether a text holds image bytes written as text.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Every stored conversation file, as text. */
export async function conversationFiles(dataDir: string): Promise<string[]> {
  const dir = join(dataDir, 'conversations');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
  return Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')));
}

/** Something that looks like image bytes as text: a long base64 run, a data URI, a PNG header in base64. */
export function hasBase64Run(text: string): boolean {
  return /[A-Za-z0-9+/]{200,}/.test(text) || /data:image\//.test(text) || text.includes('iVBORw0KGgo');
}
