// Hardening values (architecture §8) that can be read and tested without Electron; the windows'
// webPreferences are in windows.ts, where static checkers can see them.
/**
 * The renderer's CSP. `img-src data: blob:` is for thumbnails; nothing remote, no eval, no
 * inline script. A Vite dev server adds its origin (and HMR socket, and the inline React
 * refresh preamble) in development only.
 */
export function contentSecurityPolicy(devServerUrl?: string): string {
  const dev = devServerUrl ? new URL(devServerUrl) : undefined;
  const devScript = dev ? ` ${dev.origin} 'unsafe-inline'` : '';
  const devConnect = dev ? ` ${dev.origin} ${dev.protocol === 'https:' ? 'wss' : 'ws'}://${dev.host}` : '';
  return [
    "default-src 'self'",
    "img-src 'self' data: blob:",
    `script-src 'self'${devScript}`,
    "style-src 'self' 'unsafe-inline'",
    `connect-src 'self'${devConnect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Links in answers open in the user's browser; nothing else leaves the app. */
export function isExternalLink(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * The one permission the windows use: writing to the clipboard ("Copy message", the viewer's "Copy
 * image": navigator.clipboard.write/writeText ask for `clipboard-sanitized-write`), and only for
 * Glance's own pages (`app://glance`, or the dev server in development). Everything else is refused.
 */
export function allowsPermission(permission: string, requestingUrl: string | undefined, pageOrigins: readonly string[]): boolean {
  if (permission !== 'clipboard-sanitized-write' || !requestingUrl) return false;
  try {
    // app:// is not a special scheme: its URL's `origin` is "null", so the origin is put together here.
    const url = new URL(requestingUrl);
    return pageOrigins.includes(`${url.protocol}//${url.host}`);
  } catch {
    return false;
  }
}

/**
 * The one download the windows make: the image viewer's Save, an `<a download>` of the image the page
 * already holds (a data: or blob: URL of Glance's own page). Electron then asks where to save it. Any
 * other download (a link to a site, a file: URL) is cancelled.
 */
export function allowsDownload(url: string, pageOrigins: readonly string[]): boolean {
  if (/^data:image\/(png|jpeg|webp|gif);base64,/i.test(url)) return true;
  if (!url.startsWith('blob:')) return false;
  return pageOrigins.some((origin) => url.startsWith(`blob:${origin}/`));
}
