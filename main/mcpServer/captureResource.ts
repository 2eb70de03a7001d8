// resources/read of glance://captures/<sha256> (architecture §14): the one function every read of a
// capture's original goes through, so what a resource may show is decided in one place. A stdio
// client reads a message into a buffer of 10 MB (the SDK's default; a 4K original as PNG is ~31 M
// characters of base64, and the client dies with "Connection closed"), so over stdio the original is
// fitted under a cap: first re-compressed losslessly (the store keeps captures at a fast PNG level),
// then, only if that is still over, made smaller — and said so, in a text part beside the blob and
// in capture_screen's line, with zoom a call away for any region at full resolution.
import { pngUnder } from '../images/pngUnder.ts';
import type { CaptureShelf } from './captureShelf.ts';
import type { ImageGate } from './serverImages.ts';

/** Base64 characters a resource read may carry over stdio: under the SDK client's 10 MB line with room for the JSON around it. */
export const STDIO_RESOURCE_BASE64 = 8 * 1024 * 1024;

export const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

type Contents = { uri: string; mimeType: string; blob: string } | { uri: string; mimeType: string; text: string };

/** The sentence capture_screen adds when its original will not be read at full size over this transport. */
export function resourceCapNote(originalBytes: number, cap: number | undefined): string {
  if (cap === undefined || base64Length(originalBytes) <= cap) return '';
  return ` Read over stdio, the original comes re-compressed, and made smaller only if it is still over ${mb(cap)} of base64 (what a stdio client takes in one message); zoom gives any region at full resolution.`;
}

const mb = (chars: number) => `${Math.round((chars / (1024 * 1024)) * 10) / 10} MB`;

/**
 * The contents of a capture resource, or undefined when no such capture is kept. `cap`: the most
 * base64 the blob may be (stdio); undefined sends the original as kept (HTTP).
 */
export async function readCaptureResource(shelf: CaptureShelf, gate: Pick<ImageGate, 'original'>, uri: string, sha256: string, cap: number | undefined): Promise<{ contents: Contents[] } | undefined> {
  const info = /^[a-f0-9]{64}$/.test(sha256) ? await shelf.byOriginal(sha256) : undefined;
  if (!info) return undefined;
  // Through the egress (architecture §3b): the original with what it hides filled, unless --serve-originals.
  const got = await gate.original(info);
  if (!got.ok) throw new Error(`The capture ${uri} could not be read: ${got.message}`);
  const kept = { ...got, info };
  if (cap === undefined || base64Length(kept.data.length) <= cap) return { contents: [{ uri, mimeType: kept.mime, blob: Buffer.from(kept.data).toString('base64') }] };
  const fitted = await pngUnder(kept.data, Math.floor(cap / 4) * 3);
  const { width, height } = { width: kept.info.source.width, height: kept.info.source.height };
  const scaled = fitted.width !== width || fitted.height !== height;
  const note =
    `The original ${uri} is ${width}×${height} pixels, ${mb(base64Length(kept.data.length))} of base64 as kept: over the ${mb(cap)} a stdio client takes in one message. ` +
    (scaled
      ? `It is sent as a PNG made smaller to ${fitted.width}×${fitted.height} (${mb(base64Length(fitted.data.length))}). Call zoom with image "${uri}" and a rectangle in the original's pixels for any region at full resolution.`
      : `It is sent re-compressed as a PNG at full size (${mb(base64Length(fitted.data.length))}), the same pixels.`);
  return {
    contents: [
      { uri, mimeType: 'image/png', blob: fitted.data.toString('base64') },
      { uri, mimeType: 'text/plain', text: note },
    ],
  };
}
