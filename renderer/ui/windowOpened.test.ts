import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The module keeps one window's state: each test loads a fresh copy.
async function load() {
  vi.resetModules();
  return import('./windowOpened.ts');
}

describe('windowOpened', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('holds queued work until the window says it has opened, then runs it after that frame', async () => {
    const { afterWindowOpened, windowOpened } = await load();
    const ran: string[] = [];
    afterWindowOpened(() => ran.push('models'));
    afterWindowOpened(() => ran.push('times'));
    await vi.advanceTimersByTimeAsync(100);
    expect(ran).toEqual([]);
    windowOpened();
    expect(ran).toEqual([]); // not in the frame being drawn
    await vi.advanceTimersByTimeAsync(50);
    expect(ran).toEqual(['models', 'times']);
    afterWindowOpened(() => ran.push('later'));
    expect(ran).toEqual(['models', 'times', 'later']); // once open, at once
  });

  it('runs queued work after a second at the latest when no view says so', async () => {
    const { afterWindowOpened } = await load();
    const ran = vi.fn();
    afterWindowOpened(ran);
    await vi.advanceTimersByTimeAsync(999);
    expect(ran).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toHaveBeenCalledOnce();
  });
});
