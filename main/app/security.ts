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
