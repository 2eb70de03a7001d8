// Sniff: what the bytes are, from their magic numbers (file-type), never from a name or a
// claimed MIME. Things people mistake for images (SVG, PDF, web pages, text) are named in
// the refusal so the person knows what to do instead.
import { fileTypeFromBuffer } from 'file-type';
import type { ImageRefusal } from '../../common/images.ts';

/** Raster formats the chokepoint decodes: the first four pass as they are, TIFF, AVIF and HEIC are converted. */
export type SniffedKind = 'png' | 'jpeg' | 'webp' | 'gif' | 'tiff' | 'avif' | 'heic';

type SniffResult = { ok: true; kind: SniffedKind; mime: string } | ImageRefusal;

const ALLOWED: Record<string, { kind: SniffedKind; mime: string }> = {
  png: { kind: 'png', mime: 'image/png' },
  apng: { kind: 'png', mime: 'image/png' }, // decoded as its default (first) frame
  jpg: { kind: 'jpeg', mime: 'image/jpeg' },
  webp: { kind: 'webp', mime: 'image/webp' },
  gif: { kind: 'gif', mime: 'image/gif' },
  tif: { kind: 'tiff', mime: 'image/tiff' },
  avif: { kind: 'avif', mime: 'image/avif' },
  // iPhone photos: decoded with libheif-js (heic.ts) and converted like TIFF and AVIF.
  heic: { kind: 'heic', mime: 'image/heic' },
};

const CONVERT = 'Convert it to PNG or JPEG (or take a screenshot of it) and attach that.';

/** Image formats Glance recognises but cannot decode here. */
const UNSUPPORTED_IMAGES: Record<string, string> = {
  bmp: `This is a BMP bitmap, which Glance cannot decode. ${CONVERT}`,
  ico: `This is a Windows icon (ICO), which Glance cannot decode. ${CONVERT}`,
  cur: `This is a Windows cursor (CUR), which Glance cannot decode. ${CONVERT}`,
  icns: `This is a macOS icon (ICNS), which Glance cannot decode. ${CONVERT}`,
  psd: `This is a Photoshop document (PSD), which Glance cannot decode. Export it as PNG and attach that.`,
  xcf: `This is a GIMP document (XCF), which Glance cannot decode. Export it as PNG and attach that.`,
  jxl: `This is a JPEG XL image, which Glance cannot decode. ${CONVERT}`,
  jp2: `This is a JPEG 2000 image, which Glance cannot decode. ${CONVERT}`,
  jpx: `This is a JPEG 2000 image, which Glance cannot decode. ${CONVERT}`,
  jxr: `This is a JPEG XR image, which Glance cannot decode. ${CONVERT}`,
  flif: `This is a FLIF image, which Glance cannot decode. ${CONVERT}`,
  bpg: `This is a BPG image, which Glance cannot decode. ${CONVERT}`,
  dcm: `This is a DICOM medical image, which Glance cannot decode. Export it as PNG and attach that.`,
};

const CAMERA_RAW = new Set(['cr2', 'cr3', 'orf', 'arw', 'dng', 'nef', 'rw2', 'raf']);

/** Well-known non-images, named the way a person would say them. */
const NON_IMAGES: Record<string, string> = {
  pdf: 'This is a PDF document, not an image. Export the page you need as PNG, or take a screenshot of it, and attach that.',
  xml: 'This is an XML document, not an image.',
  zip: 'This is a ZIP archive, not an image. Unpack it and attach the image inside.',
  gz: 'This is a gzip-compressed file, not an image. Unpack it and attach the image inside.',
  mp4: 'This is an MP4 video, not an image. Take a screenshot of the frame you mean and attach that.',
  mov: 'This is a QuickTime video, not an image. Take a screenshot of the frame you mean and attach that.',
  webm: 'This is a WebM video, not an image. Take a screenshot of the frame you mean and attach that.',
  mp3: 'This is an MP3 audio file, not an image.',
  wav: 'This is a WAV audio file, not an image.',
  exe: 'This is a Windows program, not an image.',
  elf: 'This is a Linux program, not an image.',
  docx: 'This is a Word document, not an image. Take a screenshot of the page and attach that.',
  xlsx: 'This is an Excel workbook, not an image. Take a screenshot of the sheet and attach that.',
  pptx: 'This is a PowerPoint presentation, not an image. Export the slide as PNG and attach that.',
  ps: 'This is a PostScript document, not a raster image. Export it as PNG and attach that.',
  eps: 'This is an EPS drawing, not a raster image. Export it as PNG and attach that.',
};

function notAnImage(message: string): ImageRefusal {
  return { ok: false, code: 'not-an-image', message };
}

export async function sniffImage(data: Uint8Array): Promise<SniffResult> {
  if (data.byteLength === 0) return notAnImage('The file is empty (0 bytes), so there is no image in it.');
  let type: Awaited<ReturnType<typeof fileTypeFromBuffer>>;
  try {
    type = await fileTypeFromBuffer(data);
  } catch {
    type = undefined; // a detector tripping over malformed bytes: fall through to the text check
  }
  if (type) {
    const allowed = ALLOWED[type.ext];
    if (allowed) return { ok: true, ...allowed };
    const unsupported = UNSUPPORTED_IMAGES[type.ext];
    if (unsupported) return { ok: false, code: 'unsupported-format', message: unsupported };
    if (CAMERA_RAW.has(type.ext)) {
      return {
        ok: false,
        code: 'unsupported-format',
        message: `This is a camera RAW photo (${type.ext.toUpperCase()}), which Glance cannot decode. Export it as JPEG from your photo app and attach that.`,
      };
    }
    if (type.mime.startsWith('image/')) {
      return {
        ok: false,
        code: 'unsupported-format',
        message: `This is a ${type.ext.toUpperCase()} image (${type.mime}), which Glance cannot decode. ${CONVERT}`,
      };
    }
    // XML may be SVG or a web page: the text check below names it properly.
    if (type.ext !== 'xml') {
      return notAnImage(NON_IMAGES[type.ext] ?? `This is a ${type.ext.toUpperCase()} file (${type.mime}), not an image.`);
    }
  }
  // An image's signature with something else behind it (PNG magic, then a web page) is a damaged
  // or disguised image: corrupt, not "not an image".
  const magic = imageMagic(data);
  if (magic && (!type || !ALLOWED[type.ext])) {
    return { ok: false, code: 'corrupt', message: `The file starts like a ${magic} image but the rest is not one: it is damaged, or something else saved under an image's name.` };
  }
  const text = describeText(data);
  if (text) return notAnImage(text);
  if (type) return notAnImage(NON_IMAGES[type.ext] ?? 'This is not an image.');
  return notAnImage(
    'Glance does not recognise these bytes as an image (no PNG, JPEG, WebP, GIF, TIFF or AVIF signature). ' +
      'If it is an image, save it as PNG or JPEG and try again.',
  );
}

/** The format whose signature the bytes start with, for the image formats Glance decodes. */
function imageMagic(b: Uint8Array): string | undefined {
  const starts = (sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'PNG';
  if (starts([0xff, 0xd8, 0xff])) return 'JPEG';
  if (starts([0x47, 0x49, 0x46, 0x38])) return 'GIF';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'WebP';
  return undefined;
}

/** A refusal sentence if the bytes are text (SVG, HTML, JSON, XML, plain), else undefined. */
function describeText(data: Uint8Array): string | undefined {
  const head = data.subarray(0, 64 * 1024);
  let text: string;
  if (head[0] === 0xff && head[1] === 0xfe) text = new TextDecoder('utf-16le').decode(head);
  else if (head[0] === 0xfe && head[1] === 0xff) text = new TextDecoder('utf-16be').decode(head);
  else {
    try {
      // stream: a multi-byte character cut at the 64 KB boundary is not an error.
      text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    } catch {
      return undefined;
    }
  }
  // Binary formats have NULs and control bytes; text has at most tabs, newlines and form feeds.
  if (hasControlCharacters(text)) return undefined;
  const start = text.replace(/^\uFEFF/, '').trimStart();
  const lower = start.slice(0, 4096).toLowerCase();
  if (lower.startsWith('<')) {
    if (/<svg[\s>/]/.test(lower)) {
      return 'This is an SVG drawing, not a raster image, so a model cannot take it as it is. Export it as PNG (or take a screenshot of it) and attach that.';
    }
    if (/^<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]/.test(lower)) {
      return 'This is an HTML web page, not an image. Open it in a browser and take a screenshot, or save the picture itself and attach that.';
    }
    if (lower.startsWith('<?xml')) return NON_IMAGES.xml;
  }
  if ((start.startsWith('{') || start.startsWith('[')) && data.byteLength <= 1024 * 1024) {
    try {
      JSON.parse(new TextDecoder().decode(data));
      return 'This is JSON text, not an image. If it holds a base64 image, decode it to a file first.';
    } catch {
      // Not JSON: plain text.
    }
  }
  return 'This is plain text, not an image. Paste the text into the message instead, or attach the picture it describes.';
}

/** NUL and other C0 controls except tab, newline, carriage return, form feed and escape (ANSI colours). */
function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d && c !== 0x1b) return true;
  }
  return false;
}
