// Encoder settings against legibility: the 4K screenshot fitted to each profile's size once
// (as normalise does: Lanczos, sRGB), then encoded with each candidate setting. For each: bytes,
// encode time on one thread, colour fidelity, and OCR of the text as sent and resized back.
// This is how the settings in main/images/normalise.ts were chosen; rerun it when changing them.
import type { JpegOptions, WebpOptions } from 'sharp';
import sharp from 'sharp';
import type { Accuracy } from '../../test/fixtures/ocr.ts';
import { median } from './stats.ts';

export type StudyVariant = { label: string; width: number; jpeg?: JpegOptions; webp?: WebpOptions };

export type StudyRow = {
  label: string;
  width: number;
  height: number;
  mime: 'image/jpeg' | 'image/webp';
  bytes: number;
  encodeMs: number;
  /** PSNR against the fitted pixels, dB: luma (what OCR reads) and chroma (mean of Cb and Cr: colour edges). */
  psnrY: number;
  psnrC: number;
  ocrAsSent: Accuracy;
  ocrResized: Accuracy;
};

export async function runEncoderStudy(
  png: Uint8Array,
  variants: readonly StudyVariant[],
  read: (image: Uint8Array, scale: { sx: number; sy: number }, restore: boolean) => Promise<Accuracy>,
  options: { signal?: AbortSignal; onRow?: (row: StudyRow) => void } = {},
): Promise<StudyRow[]> {
  const meta = await sharp(png).metadata();
  const rows: StudyRow[] = [];
  const fitted = new Map<number, { data: Buffer; width: number; height: number }>();
  for (const v of variants) {
    options.signal?.throwIfAborted();
    let pixels = fitted.get(v.width);
    if (!pixels) {
      const height = Math.floor((meta.height * v.width) / meta.width);
      const data = await sharp(png).resize(v.width, height, { fit: 'fill', kernel: 'lanczos3' }).toColourspace('srgb').removeAlpha().raw().toBuffer();
      pixels = { data, width: v.width, height };
      fitted.set(v.width, pixels);
    }
    const { data, width, height } = pixels;
    const encode = () => {
      const s = sharp(data, { raw: { width, height, channels: 3 } });
      return (v.webp ? s.webp(v.webp) : s.jpeg(v.jpeg)).toBuffer();
    };
    await encode(); // warm-up
    const times: number[] = [];
    let out = Buffer.alloc(0);
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      out = await encode();
      times.push(performance.now() - start);
    }
    const back = await sharp(out).removeAlpha().raw().toBuffer();
    const { y, c } = psnr(data, back);
    const scale = { sx: width / meta.width, sy: height / meta.height };
    const row: StudyRow = {
      label: v.label,
      width,
      height,
      mime: v.webp ? 'image/webp' : 'image/jpeg',
      bytes: out.byteLength,
      encodeMs: median(times),
      psnrY: y,
      psnrC: c,
      ocrAsSent: await read(out, scale, false),
      ocrResized: await read(out, scale, true),
    };
    options.onRow?.(row);
    rows.push(row);
  }
  return rows;
}

/** PSNR of luma and of chroma (BT.601 YCbCr, as JPEG and WebP code colour) between two RGB buffers. */
function psnr(reference: Buffer, decoded: Buffer): { y: number; c: number } {
  let seY = 0;
  let seC = 0;
  for (let i = 0; i + 2 < reference.length; i += 3) {
    const [y1, cb1, cr1] = ycc(reference, i);
    const [y2, cb2, cr2] = ycc(decoded, i);
    seY += (y1 - y2) ** 2;
    seC += ((cb1 - cb2) ** 2 + (cr1 - cr2) ** 2) / 2;
  }
  const n = reference.length / 3;
  const db = (se: number) => (se === 0 ? Number.POSITIVE_INFINITY : 10 * Math.log10((255 * 255 * n) / se));
  return { y: db(seY), c: db(seC) };
}

function ycc(d: Buffer, i: number): [number, number, number] {
  const r = d[i] ?? 0;
  const g = d[i + 1] ?? 0;
  const b = d[i + 2] ?? 0;
  return [0.299 * r + 0.587 * g + 0.114 * b, -0.168736 * r - 0.331264 * g + 0.5 * b, 0.5 * r - 0.418688 * g - 0.081312 * b];
}
