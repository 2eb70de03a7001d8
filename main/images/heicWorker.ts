// Worker thread for heic.ts: one HEIC/HEIF decode with libheif-js (WebAssembly), then it ends.
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../errors.ts';

type HeifImage = {
  get_width(): number;
  get_height(): number;
  display(target: { data: Uint8ClampedArray; width: number; height: number }, done: (result: { data: Uint8ClampedArray } | null) => void): void;
};
type Libheif = { HeifDecoder: new () => { decode(bytes: Uint8Array): HeifImage[] } };

const require = createRequire(import.meta.url);

parentPort?.once('message', (message: { bytes: Uint8Array; maxPixels: number }) => {
  const post = (m: unknown, transfer: ArrayBuffer[] = []) => parentPort?.postMessage(m, transfer);
  try {
    const libheif = require('libheif-js/wasm-bundle') as Libheif;
    const images = new libheif.HeifDecoder().decode(message.bytes);
    const image = images[0];
    if (!image) return post({ ok: false, message: 'libheif found no image it can decode in it' });
    const width = image.get_width();
    const height = image.get_height();
    // The header said less (or the check is bypassed): never allocate past the cap.
    if (width * height > message.maxPixels) return post({ ok: true, width, height, data: new Uint8Array(0) });
    const data = new Uint8ClampedArray(width * height * 4);
    image.display({ data, width, height }, (result) => {
      if (!result) return post({ ok: false, message: 'the coded image data is damaged' });
      const out = new Uint8Array(result.data.buffer, result.data.byteOffset, result.data.byteLength);
      post({ ok: true, width, height, data: out }, [out.buffer as ArrayBuffer]);
    });
  } catch (error) {
    post({ ok: false, message: errorMessage(error).split('\n')[0] });
  }
});
