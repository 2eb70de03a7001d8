import { describe, expect, it } from 'vitest';
import { parseRoute, routeHash } from './route.ts';

describe('routes', () => {
  it('reads the hash the windows load', () => {
    expect(parseRoute('')).toEqual({ name: 'chat' });
    expect(parseRoute('#/')).toEqual({ name: 'chat' });
    expect(parseRoute('#/c/20260101-abc123')).toEqual({ name: 'chat', conversationId: '20260101-abc123' });
    expect(parseRoute('#ask')).toEqual({ name: 'ask' });
    expect(parseRoute('#/ask')).toEqual({ name: 'ask' });
    expect(parseRoute('#/settings/mcp')).toEqual({ name: 'settings', section: 'mcp' });
    // The harness's token rides after the route until the page takes it out.
    expect(parseRoute('#ask&token=abc')).toEqual({ name: 'ask' });
    expect(parseRoute('#/c/x1&token=abc')).toEqual({ name: 'chat', conversationId: 'x1' });
    // Not an id: the chat, not a request for "../x".
    expect(parseRoute('#/c/..%2Fx')).toEqual({ name: 'chat' });
  });

  it('writes what it reads', () => {
    for (const route of [{ name: 'chat' as const }, { name: 'chat' as const, conversationId: 'abc' }, { name: 'ask' as const }, { name: 'settings' as const, section: 'vision' }]) {
      expect(parseRoute(routeHash(route))).toEqual(route);
    }
  });
});
