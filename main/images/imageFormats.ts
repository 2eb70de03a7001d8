// The one table of image file extensions: a stored file is named after what its bytes are
// (the sniffed MIME), never after a name someone gave it — a file named .png holds PNG.

const EXTENSIONS: Readonly<Record<string, string>> = Object.freeze({
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/tiff': 'tif',
  'image/avif': 'avif',
  'image/heic': 'heic',
  'image/heif': 'heif',
});

/** The extension (no dot) for an image MIME type, or undefined for a type Glance does not store. */
export function extensionFor(mime: string): string | undefined {
  return EXTENSIONS[mime];
}
