// The capture worker's lifecycle, without a display: it starts, turns a failed grab into a
// rejection (the worker lives on), and once stopped rejects every grab with the reason.
// DISPLAY is unset for this file (its own forked process), so the native side has nothing to grab.
import { describe, expect, it } from 'vitest';
import { CaptureWorkerClient } from '../../main/capture/captureWorkerClient.ts';

describe('CaptureWorkerClient', () => {
  it('starts, rejects a grab the native side cannot do and stays up, drops a grab given up on, and rejects every grab once closed', async () => {
    delete process.env.DISPLAY;
    delete process.env.WAYLAND_DISPLAY;
    const client = await CaptureWorkerClient.start();
    expect(client).toBeDefined();
    expect(client!.alive).toBe(true);
    const grab = { monitorId: '4242', copyOutputData: false };
    await expect(client!.grab(grab)).rejects.toThrow(Error);
    expect(client!.alive).toBe(true);
    // A grab given up on (the capture timed out) rejects with the reason at once.
    const controller = new AbortController();
    const given = client!.grab(grab, controller.signal);
    controller.abort(new Error('timed out'));
    await expect(given).rejects.toThrow('timed out');
    await expect(client!.grab(grab, AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
    const inFlight = client!.grab(grab).catch((error: Error) => error.message);
    await client!.close();
    expect(client!.alive).toBe(false);
    expect(await inFlight).toMatch(/gone|display|connect|stopped/i);
    await expect(client!.grab(grab)).rejects.toThrow('the capture worker stopped (closed)');
  });
});
