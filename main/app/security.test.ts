import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, isExternalLink } from './security.ts';

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
