// The two modules of pako 1.x (a port of zlib) that pngInterlace.ts uses: zlib's own streaming
// interface, where the caller owns the output buffer (pako's Inflate class allocates one per chunk).
declare module 'pako/lib/zlib/zstream.js' {
  export default class ZStream {
    input: Uint8Array | null;
    next_in: number;
    avail_in: number;
    output: Uint8Array | null;
    next_out: number;
    avail_out: number;
    msg: string;
  }
}

declare module 'pako/lib/zlib/inflate.js' {
  import type ZStream from 'pako/lib/zlib/zstream.js';
  /** windowBits 15: a zlib stream (header and Adler-32), as in a PNG's IDAT chunks. */
  export function inflateInit2(strm: ZStream, windowBits: number): number;
  /** 0 Z_OK, 1 Z_STREAM_END, -5 Z_BUF_ERROR (no progress possible), other negatives: corrupt data. */
  export function inflate(strm: ZStream, flush: number): number;
  export function inflateEnd(strm: ZStream): number;
}
