import { describe, expect, it } from 'vitest';
import { CallGuard, isConnectFailure, networkErrorCode } from './callGuard.ts';

describe('CallGuard', () => {
  it('a caller abort is a cancel, not a timeout', () => {
    const caller = new AbortController();
    const guard = new CallGuard(caller.signal, 60_000);
    caller.abort();
    expect(guard.signal.aborted).toBe(true);
    expect(guard.cancelled).toBe(true);
    expect(guard.timedOut).toBe(false);
    guard.dispose();
  });

  it('silence longer than the timeout aborts; each touch restarts the clock', async () => {
    // 30 touches 25 ms apart outlast the 500 ms timeout only because each touch restarts it.
    const guard = new CallGuard(undefined, 500);
    for (let i = 0; i < 30; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      guard.touch();
    }
    expect(guard.signal.aborted).toBe(false);
    await new Promise((resolve) => guard.signal.addEventListener('abort', resolve));
    expect(guard.timedOut).toBe(true);
    expect(guard.cancelled).toBe(false);
    guard.dispose();
  });
});

describe('network errors', () => {
  it('finds the code under fetch\'s TypeError, including an AggregateError of both address families', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:11434'), { code: 'ECONNREFUSED' });
    const aggregate = new AggregateError([refused], 'all failed');
    const error = new TypeError('fetch failed', { cause: aggregate });
    expect(networkErrorCode(error)).toBe('ECONNREFUSED');
    expect(isConnectFailure(error)).toBe(true);
    expect(isConnectFailure(new Error('model "x" not found'))).toBe(false);
  });
});
