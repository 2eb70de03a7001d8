import { describe, expect, it } from 'vitest';
import { resolveAppPath } from './appProtocol.ts';

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
