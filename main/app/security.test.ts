import { describe, expect, it } from 'vitest';
import { allowsDownload, allowsPermission, contentSecurityPolicy, isExternalLink } from './security.ts';

describe('window hardening', () => {
  it('uses the strict CSP in production: no remote or inline script, images from self, data: and blob: only', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/unsafe-eval|https?:|ws:/);
  });

  it('lets a dev server in only when one is given', () => {
    const csp = contentSecurityPolicy('http://localhost:5173');
    expect(csp).toContain("script-src 'self' http://localhost:5173 'unsafe-inline'");
    expect(csp).toContain("connect-src 'self' http://localhost:5173 ws://localhost:5173");
  });

  it('opens only http(s) links externally', () => {
    expect(isExternalLink('https://ollama.com/library')).toBe(true);
    expect(isExternalLink('file:///etc/passwd')).toBe(false);
    expect(isExternalLink('javascript:alert(1)')).toBe(false);
    expect(isExternalLink('smb://host/share')).toBe(false);
  });
});

describe('what a window may ask for (Electron 45 asks the session by permission name)', () => {
  const pages = ['app://glance'];
  it('writing the clipboard from Glance\'s own page (Copy message, Copy image), nothing else', () => {
    expect(allowsPermission('clipboard-sanitized-write', 'app://glance/index.html', pages)).toBe(true);
    expect(allowsPermission('clipboard-sanitized-write', 'https://evil.example/', pages)).toBe(false);
    expect(allowsPermission('clipboard-sanitized-write', undefined, pages)).toBe(false);
    for (const other of ['clipboard-read', 'media', 'geolocation', 'notifications', 'openExternal', 'fullscreen']) {
      expect(allowsPermission(other, 'app://glance/index.html', pages), other).toBe(false);
    }
  });

  it("the viewer's Save (a data: or blob: image of Glance's page) downloads; nothing else does", () => {
    expect(allowsDownload('data:image/png;base64,iVBORw0KGgo=', pages)).toBe(true);
    expect(allowsDownload('blob:app://glance/7d2c7b6e-1b1f-4a8e-9d7e-0d7f1b1c2a3b', pages)).toBe(true);
    expect(allowsDownload('blob:https://evil.example/7d2c', pages)).toBe(false);
    expect(allowsDownload('https://example.com/setup.exe', pages)).toBe(false);
    expect(allowsDownload('file:///etc/passwd', pages)).toBe(false);
    expect(allowsDownload('data:text/html;base64,PHNjcmlwdD4=', pages)).toBe(false);
  });
});
