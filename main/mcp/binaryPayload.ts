// Reading a binary block's payload whichever way a server sent it (base64 text, data: URL,
// raw bytes, a serialised Node Buffer, base64 handed over as bytes), strictly.
import { decodeBase64Strict, splitDataUrl } from '../base64.ts';

type PayloadResult = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

/**
 * Reads a block's payload whichever way it came: base64 text (the wire format, optionally as a
 * data: URL), raw bytes, a serialised Node Buffer, or — an SDK bug seen in the wild — base64 text handed
 * over as bytes. Raw bytes that are all base64 characters and do not sniff as a file are that bug.
 */
export function readBinaryPayload(value: unknown): PayloadResult {
  if (typeof value === 'string') {
    const body = splitDataUrl(value)?.payload ?? value;
    const bytes = decodeBase64Strict(body, { urlSafe: true });
    return bytes ? { ok: true, bytes } : { ok: false, reason: `the payload is not valid base64 (${value.length} characters)` };
  }
  let raw: Uint8Array | undefined;
  if (value instanceof Uint8Array) raw = value;
  else if (value instanceof ArrayBuffer) raw = new Uint8Array(value);
  else if (Array.isArray(value) && value.every(isByte)) raw = Uint8Array.from(value as number[]);
  else if (typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Buffer' && Array.isArray((value as { data?: unknown }).data)) {
    const data = (value as { data: unknown[] }).data;
    if (data.every(isByte)) raw = Uint8Array.from(data as number[]);
  }
  if (!raw) return { ok: false, reason: 'the payload is neither base64 text nor bytes' };
  if (raw.length === 0) return { ok: false, reason: 'the payload is empty' };
  if (raw.length >= 4 && raw.every(isBase64Byte) && !hasKnownMagic(raw)) {
    const decoded = decodeBase64Strict(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('latin1'), { urlSafe: true });
    if (decoded) return { ok: true, bytes: decoded };
  }
  return { ok: true, bytes: raw };
}


function isByte(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 255;
}

function isBase64Byte(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f || c === 0x3d || c === 0x2d || c === 0x5f || c === 0x0a || c === 0x0d;
}

function hasKnownMagic(b: Uint8Array): boolean {
  const ascii = (at: number, s: string) => [...s].every((ch, i) => b[at + i] === ch.charCodeAt(0));
  return ascii(0, 'RIFF') || ascii(0, 'GIF8') || ascii(4, 'ftyp') || ascii(0, 'ID3') || ascii(0, 'OggS') || ascii(0, 'fLaC') || ascii(0, '%PDF') || ascii(0, 'BM');
}
