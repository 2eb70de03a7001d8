import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Net, Protocol } from 'electron';
import { describe, expect, it } from 'vitest';
import { registerAppProtocol, resolveAppPath } from './appProtocol.ts';

const ROOT = '/opt/glance/dist/renderer';

describe('resolveAppPath', () => {
  it('maps app://glance URLs to files under the renderer folder', () => {
    expect(resolveAppPath('app://glance/', ROOT)).toBe(`${ROOT}/index.html`);
    expect(resolveAppPath('app://glance/index.html#/ask', ROOT)).toBe(`${ROOT}/index.html`);
    expect(resolveAppPath('app://glance/assets/index-abc.js', ROOT)).toBe(`${ROOT}/assets/index-abc.js`);
    expect(resolveAppPath('app://glance/assets/a%20b.css?v=1', ROOT)).toBe(`${ROOT}/assets/a b.css`);
    // A client-side route serves the app shell.
    expect(resolveAppPath('app://glance/settings', ROOT)).toBe(`${ROOT}/index.html`);
  });

  it('refuses other hosts and schemes, traversal and bad encodings', () => {
    expect(resolveAppPath('app://other/index.html', ROOT)).toBeUndefined();
    expect(resolveAppPath('file:///etc/passwd', ROOT)).toBeUndefined();
    // The URL parser already folds dot segments: this one stays inside the folder.
    expect(resolveAppPath('app://glance/%2e%2e/%2e%2e/secrets.json', ROOT)).toBe(`${ROOT}/secrets.json`);
    // Encoded slashes survive the parser; decoding them must not escape the folder.
    expect(resolveAppPath('app://glance/..%2f..%2fmain%2fapp%2fmain.js', ROOT)).toBeUndefined();
    expect(resolveAppPath('app://glance/%E0%A4%A', ROOT)).toBeUndefined();
    expect(resolveAppPath('app://glance/a%00.js', ROOT)).toBeUndefined();
    expect(resolveAppPath('not a url', ROOT)).toBeUndefined();
  });
});

describe('registerAppProtocol', () => {
  it('serves the built files with their types, the CSP and nosniff, whatever type a file:// fetch gives', async () => {
    const root = await mkdtemp(join(tmpdir(), 'glance-app-protocol-'));
    try {
      await mkdir(join(root, 'assets'));
      await writeFile(join(root, 'index.html'), '<!doctype html><script type="module" src="/assets/index-abc.js"></script>');
      await writeFile(join(root, 'assets', 'index-abc.js'), 'export const a = 1;');
      await writeFile(join(root, 'assets', 'index-abc.css'), 'body{}');
      await writeFile(join(root, 'assets', 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
      let handler: ((request: Request) => Promise<Response>) | undefined;
      const protocol = { handle: (_scheme: string, h: (request: Request) => Promise<Response>) => void (handler = h) } as unknown as Protocol;
      // As strict as it gets: the file's bytes with no type at all (Electron's guess is not relied on).
      const net = { fetch: async (url: string) => new Response(await readFile(fileURLToPath(url)), { status: 200 }) } as unknown as Net;
      registerAppProtocol(protocol, net, root);
      const get = (path: string) => handler!(new Request(`app://glance${path}`));
      const types = Object.fromEntries(await Promise.all(['/index.html', '/assets/index-abc.js', '/assets/index-abc.css', '/assets/icon.svg', '/settings'].map(async (p) => [p, (await get(p)).headers.get('content-type')])));
      expect(types).toEqual({
        '/index.html': 'text/html; charset=utf-8',
        '/assets/index-abc.js': 'text/javascript; charset=utf-8',
        '/assets/index-abc.css': 'text/css; charset=utf-8',
        '/assets/icon.svg': 'image/svg+xml',
        '/settings': 'text/html; charset=utf-8',
      });
      const page = await get('/index.html');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await (await get('/assets/index-abc.js')).text()).toBe('export const a = 1;');
      expect((await handler!(new Request('app://other/index.html'))).status).toBe(404);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
