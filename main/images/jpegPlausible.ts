// A JPEG header may claim any size: 10000×10000 in a 2 KB file decoded as 100 MP of grey
// (libjpeg only warns when the data runs out, and treating that warning as fatal would also
// refuse harmless files). Every 8×8 block of a Huffman-coded JPEG costs at least one bit (its
// DC code), so a file with fewer bits than luma blocks cannot hold the image it claims: it is
// cut short. Arithmetic-coded JPEGs (SOF9–SOF15, rare) can go below a bit per block and are
// left to the decoder.

/** True when `bytes`, a JPEG claiming width × height, is too small to hold that many blocks. */
export function jpegTooSmall(bytes: Uint8Array, width: number, height: number): boolean {
  if (arithmeticCoded(bytes)) return false;
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  return bytes.byteLength * 8 < blocks;
}

/** Walks the marker segments up to the first frame header (SOFn) and reads its coding. */
function arithmeticCoded(b: Uint8Array): boolean {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return false;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return marker >= 0xc9;
    if (marker === 0xda) return false;
    i += 2 + ((b[i + 2]! << 8) | b[i + 3]!);
  }
  return false;
}

/**
 * The size a JPEG's first frame header (SOFn) claims, read without the decoder: libjpeg refuses
 * sides over 65500 before it reports a size, and such a file is too big, not damaged.
 */
export function jpegClaimedSize(b: Uint8Array): { width: number; height: number } | undefined {
  let i = 2;
  while (i + 9 <= b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: (b[i + 5]! << 8) | b[i + 6]!, width: (b[i + 7]! << 8) | b[i + 8]! };
    if (marker === 0xda) return undefined;
    i += 2 + ((b[i + 2]! << 8) | b[i + 3]!);
  }
  return undefined;
}
