// The bearer token of `glance mcp serve --http` (architecture §14): made once, kept in the data dir as
// `mcp-serve-token` readable by the user only (0600), so a client's config keeps working across
// runs. Printed only when it is made; afterwards the server says where it is kept.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fsAtomic.ts';

const SERVE_TOKEN_FILE = 'mcp-serve-token';
const TOKEN = /^[A-Za-z0-9_-]{32,}$/;

export async function serveToken(dataDir: string): Promise<{ token: string; path: string; created: boolean }> {
  const path = join(dataDir, SERVE_TOKEN_FILE);
  const kept = await readFile(path, 'utf8').then((t) => t.trim(), () => undefined);
  if (kept !== undefined && TOKEN.test(kept)) {
    // Someone loosened it (a copy, a restore): only the user may read a key to their screen.
    if (((await stat(path)).mode & 0o077) !== 0) await chmod(path, 0o600);
    return { token: kept, path, created: false };
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  await writeFileAtomic(path, `${token}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
  return { token, path, created: true };
}
