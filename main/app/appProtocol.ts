// `app://glance/…` serves the built renderer. A custom scheme (rather than file://) gives the
// pages a real origin for CSP 'self' and the IPC sender check, and confines them to one folder.
import { extname, join, relative, isAbsolute, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Net, Protocol } from 'electron';
import { contentSecurityPolicy } from './security.ts';

const APP_SCHEME = 'app';
const APP_HOST = 'glance';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** The file an app:// URL names inside `root`, or undefined (wrong host, traversal, bad encoding). */
export function resolveAppPath(url: string, root: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return undefined;
  }
  if (pathname.includes('\0')) return undefined;
  const file = normalize(join(root, pathname === '/' || pathname === '' ? 'index.html' : pathname));
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  // A client-side route ("/settings") serves the app shell.
  return extname(file) === '' ? join(root, 'index.html') : file;
}

/**
 * The type each built file is served with, by its extension: set here rather than left to what
 * `net.fetch` of a file:// URL guesses, because with `nosniff` a module script without a JavaScript
 * type is refused and the window stays blank.
 */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(file: string): string | undefined {
  return CONTENT_TYPES[extname(file).toLowerCase()];
}

/** Call once, after `app` is ready. `protocol.registerSchemesAsPrivileged` must have run before. */
export function registerAppProtocol(protocol: Protocol, net: Net, root: string, devServerUrl?: string): void {
  const csp = contentSecurityPolicy(devServerUrl);
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppPath(request.url, root);
    if (!file) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).href);
    const headers = new Headers(response.headers);
    const type = contentTypeFor(file);
    if (type) headers.set('Content-Type', type);
    headers.set('Content-Security-Policy', csp);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
}

// codeCache: Chromium keeps V8's compiled code only for http(s) unless a scheme asks for it, so
// without it every launch parses and compiles the app's scripts again (~70 ms of the first
// window's main thread on the bench machine, measured in the harness's traces).
export const APP_SCHEME_PRIVILEGES = [
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
];
