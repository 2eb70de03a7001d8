// HEIC/HEIF (iPhone photos): decoded with libheif-js (libheif + libde265 compiled to WebAssembly,
// no system library), in a worker thread so a 12 MP photo does not stall the event loop. The
// pixel cap applies before anything is decoded: the image's size comes from the header's
// `ispe` boxes (ISO/IEC 23008-12), read here without touching the coded data, so a bomb is
// refused in microseconds, exactly like the other formats' header check.
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import type { Limits } from '../../common/limits.ts';
import { tooManyPixels, type DecodeRefusal } from './decodeInput.ts';
import { errorMessage } from '../errors.ts';

type HeicPixels = { ok: true; data: Buffer; width: number; height: number; channels: 4 };

/** A decode that takes longer than this is stopped (the worker is ended). */
const DECODE_TIMEOUT_MS = 30_000;

/**
 * The largest image size declared in the header (`meta` → `iprp` → `ipco` → `ispe`), or
 * undefined when there is none. The largest, not the primary's: a bomb hidden in a thumbnail
 * or grid tile is refused too.
 */
export function heicHeaderSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let best: { width: number; height: number } | undefined;
  const walk = (start: number, end: number, depth: number) => {
    let at = start;
    while (at + 8 <= end && depth < 8) {
      let size = view.getUint32(at);
      const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
      let header = 8;
      if (size === 1) {
        if (at + 16 > end) return;
        const big = view.getBigUint64(at + 8);
        size = big > BigInt(end - at) ? end - at : Number(big);
        header = 16;
      } else if (size === 0) size = end - at;
      if (size < header || at + size > end) return; // cut short or lying: stop, never read past the buffer
      if (type === 'meta') walk(at + header + 4, at + size, depth + 1); // FullBox: version + flags
      else if (type === 'iprp' || type === 'ipco') walk(at + header, at + size, depth + 1);
      else if (type === 'ispe' && size >= header + 12) {
        const width = view.getUint32(at + header + 4);
        const height = view.getUint32(at + header + 8);
        if (!best || width * height > best.width * best.height) best = { width, height };
      }
      at += size;
    }
  };
  walk(0, bytes.byteLength, 0);
  return best;
}

/** Upright RGBA pixels of the primary image, the pixel cap checked on the header first. */
export async function decodeHeic(bytes: Uint8Array, limits: Pick<Limits, 'maxInputPixels'>, options: { signal?: AbortSignal } = {}): Promise<HeicPixels | DecodeRefusal> {
  const size = heicHeaderSize(bytes);
  if (!size || !size.width || !size.height) {
    return { ok: false, code: 'corrupt', message: 'This HEIC/HEIF file is damaged or cut short: its header gives no image size. Save or export it again.' };
  }
  if (size.width * size.height > limits.maxInputPixels) return tooManyPixels(size.width, size.height, limits.maxInputPixels);
  options.signal?.throwIfAborted();
  const here = import.meta.url;
  // Source (.ts, under Node's type stripping) and build (.js) each start their own sibling.
  const worker = new Worker(new URL(here.endsWith('.ts') ? './heicWorker.ts' : './heicWorker.js', here), {
    // Room for the wasm heap of a capped image (RGBA + decoder buffers), not more.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
    // libheif prints its complaints to stdout; the refusal carries the reason instead.
    stdout: true,
    stderr: true,
  });
  try {
    const result = await new Promise<{ ok: true; width: number; height: number; data: Uint8Array } | { ok: false; message: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`decoding took longer than ${DECODE_TIMEOUT_MS / 1000} s`)), DECODE_TIMEOUT_MS);
      const onAbort = () => reject(options.signal?.reason instanceof Error ? options.signal.reason : new Error('aborted'));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      worker.once('message', (m: { ok: true; width: number; height: number; data: Uint8Array } | { ok: false; message: string }) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        resolve(m);
      });
      worker.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      const copy = new Uint8Array(bytes);
      worker.postMessage({ bytes: copy, maxPixels: limits.maxInputPixels }, [copy.buffer]);
    });
    if (!result.ok) return { ok: false, code: 'corrupt', message: `This HEIC/HEIF photo cannot be decoded (${result.message}). Export it as JPEG and attach that.` };
    if (result.width * result.height > limits.maxInputPixels) return tooManyPixels(result.width, result.height, limits.maxInputPixels);
    return { ok: true, data: Buffer.from(result.data.buffer, result.data.byteOffset, result.data.byteLength), width: result.width, height: result.height, channels: 4 };
  } catch (error) {
    options.signal?.throwIfAborted();
    return { ok: false, code: 'corrupt', message: `This HEIC/HEIF photo cannot be decoded (${errorMessage(error)}). Export it as JPEG and attach that.` };
  } finally {
    void worker.terminate();
  }
}

/** The decoded photo as a lossless PNG, for the intake's one normalise path (fast deflate: it is read once). */
export async function heicAsPng(bytes: Uint8Array, limits: Pick<Limits, 'maxInputPixels'>, signal?: AbortSignal): Promise<Uint8Array | DecodeRefusal> {
  const decoded = await decodeHeic(bytes, limits, signal ? { signal } : {});
  if (!decoded.ok) return decoded;
  return sharp(decoded.data, { raw: { width: decoded.width, height: decoded.height, channels: 4 } }).png({ compressionLevel: 1 }).toBuffer();
}

export function isHeic(mime: string): boolean {
  return mime === 'image/heic' || mime === 'image/heif';
}
