// The capture worker (started by nodeScreenshotsCapturer.ts, kept for the life of the process):
// grabs and encodes on its own thread and isolate, answering each request with the PNG moved,
// not copied, to the caller. It says `ready` once node-screenshots has loaded, or why it cannot.
import { parentPort } from 'node:worker_threads';
import { grab, type GrabRequest, type GrabResult } from './nativeGrab.ts';

export type WorkerRequest = { id: number; request: GrabRequest };
export type WorkerMessage =
  | { kind: 'ready' }
  | { kind: 'unavailable'; message: string }
  | { kind: 'result'; id: number; result: GrabResult }
  | { kind: 'error'; id: number; message: string };

const port = parentPort;
if (port) {
  const post = (m: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  try {
    const { Monitor } = await import('node-screenshots');
    port.on('message', ({ id, request }: WorkerRequest) => {
      grab(() => Monitor.all(), request).then(
        (result) => {
          if (!result.ok) return post({ kind: 'result', id, result });
          const png = new Uint8Array(result.png); // its own ArrayBuffer, which can move
          post({ kind: 'result', id, result: { ...result, png } }, [png.buffer]);
        },
        (error: unknown) => post({ kind: 'error', id, message: error instanceof Error ? error.message : String(error) }),
      );
    });
    post({ kind: 'ready' });
  } catch (error) {
    post({ kind: 'unavailable', message: error instanceof Error ? error.message : String(error) });
  }
}
