import { describe, expect, it } from 'vitest';
import { CallGuard } from './callGuard.ts';
import { codeForStatus, mapProviderFailure, type ProviderWording } from './providerErrors.ts';

const words: ProviderWording = {
  where: 'Server at x',
  unreachable: 'cannot reach x',
  noListing: 'no listing at x',
  modelNotFound: (m) => `no ${m} at x`,
  imageRejectedHint: 'Pick a model that can see.',
  auth: (s) => `auth ${s}`,
  requestTimeoutMs: 1000,
  streamIdleTimeoutMs: 1000,
};

describe('one status map for every provider', () => {
  it.each([
    [400, 'rejected-input'],
    [413, 'rejected-input'],
    [415, 'rejected-input'],
    [422, 'rejected-input'],
    [401, 'auth'],
    [403, 'auth'],
    [404, 'model-not-found'],
    [429, 'rate-limited'],
    [500, 'provider-error'],
    [503, 'provider-error'],
  ])('HTTP %i → %s', (status, code) => {
    expect(codeForStatus(status)).toBe(code);
    const guard = new CallGuard(undefined, 60_000);
    const mapped = mapProviderFailure(new Error('boom'), { guard, model: 'm', phase: 'request', what: 'chat', status, detail: 'boom' }, words);
    expect(mapped.code).toBe(code);
    expect(mapped.status).toBe(status);
    guard.dispose();
  });

  it('a 404 on the listing says the server is not that kind; an image rejection says what to do', () => {
    const guard = new CallGuard(undefined, 60_000);
    expect(mapProviderFailure(new Error('x'), { guard, model: undefined, phase: 'request', what: 'metadata', status: 404, detail: 'x' }, words).message).toBe('no listing at x');
    const rejected = mapProviderFailure(new Error('x'), { guard, model: 'm', phase: 'request', what: 'chat', status: 413, detail: 'image too large' }, words);
    expect(rejected.message).toBe('m rejected the image: image too large. Pick a model that can see.');
    guard.dispose();
  });
});

describe('clean at birth', () => {
  it("a server's body echoing the key and an image is scrubbed and bounded where the ProviderError is made", () => {
    const guard = new CallGuard(undefined, 60_000);
    const key = 'sk-live-0123456789abcdefghij';
    const body = `invalid request ${key} with image ${'QUJD'.repeat(400)} ${'x'.repeat(5000)}`;
    const mapped = mapProviderFailure(new Error(body), { guard, model: 'm', phase: 'request', what: 'chat', status: 400, detail: body, secrets: [key] }, words);
    guard.dispose();
    expect(mapped.code).toBe('rejected-input');
    expect(mapped.message).not.toContain(key);
    expect(mapped.message).not.toMatch(/(QUJD){20}/);
    expect(mapped.message.length).toBeLessThan(600);
  });
});
