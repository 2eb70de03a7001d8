// One image through redaction: read its words (local OCR, injected: main/ocr sits above the door),
// find what to hide, fill it. Failure is a value: when OCR fails or runs out of time, nothing is
// known about the image, and the caller must not send it to a remote model as it is.
import type { Sharp } from 'sharp';
import { errorMessage } from '../../common/errors.ts';
import type { Redaction } from '../../common/privacy.ts';
import { identifierBoxes, middleInAny, publicColumnBoxes, publicValueBoxes } from './context.ts';
import { detectRedactions, GENERIC, mergeBoxes, type DetectOptions, type ScreenWindow } from './detect.ts';
import { overlaps, type ReadWord } from './locate.ts';
import { maskImage } from './maskImage.ts';
import { alongInk, combineReads, flipAcross, greyOf, secondLook } from './secondLook.ts';
import { wrappedInk } from './wrapInk.ts';
import { isThisComputer } from '../thisComputer.ts';

/** Local OCR as redaction needs it: words in the image's upright pixels. */
export type ReadWords = (
  image: { data: Uint8Array; mime: string },
  signal: AbortSignal | undefined,
) => Promise<{ ok: true; words: ReadWord[]; size: { width: number; height: number } } | { ok: false; code: string; message: string }>;

export type RedactedImage =
  | { ok: true; regions: Redaction[]; skipped: string[]; ms: number; /** The upright pixels with the regions filled; absent when nothing was found. */ png?: Buffer }
  | { ok: false; code: 'ocr-failed' | 'detect-failed'; message: string; ms: number };

export async function redactImage(
  image: { data: Uint8Array; mime: string },
  deps: { readWords: ReadWords; /** A fresh pipeline over the upright original. */ pixels: () => Sharp },
  options: DetectOptions & { windows?: readonly ScreenWindow[]; signal?: AbortSignal } = {},
): Promise<RedactedImage> {
  const started = performance.now();
  // The grey pixels the second look needs are decoded while OCR reads (a 4K screen's decode is
  // 0.1–0.3 s); a failed decode is met below, as a fault in finding what to hide.
  const greyPixels = greyOf(deps.pixels());
  greyPixels.catch(() => undefined);
  const read = await deps.readWords(image, options.signal);
  options.signal?.throwIfAborted();
  const ms = () => Math.round(performance.now() - started);
  if (!read.ok) {
    return { ok: false, code: 'ocr-failed', message: `Glance could not check this image for secrets on this device (${read.message}), so it was not sent to a remote model.`, ms: ms() };
  }
  // The words were read; a fault in finding or filling what to hide is said as that, not as a
  // failed read or a stop: the image was read, and it is not sent as it is.
  let step = 'looking again at what it could not read';
  try {
    // A second look at ink the first read missed (faint, coloured, boxed, turned text); what is
    // still unread and shaped like a token is hidden as it is (secondLook.ts).
    const grey = await greyPixels;
    const look = await secondLook(grey, read.words, async (crop) => deps.readWords(crop, options.signal), options.signal);
    step = 'finding the secrets in the text it read';
    // What the first read made of a slanted area gives way to what was read there turned upright.
    const first = look.turned.length ? read.words.filter((w) => !look.turned.some((t) => within(w, t))) : read.words;
    const found = await detectRedactions(combineReads(first, look.words), read.size, options);
    // (What was found on words read mirrored stands where they were read the right way round: flipped back onto their ink.)
    if (look.mirrored.length) found.regions = found.regions.map((r) => { const m = look.mirrored.find((a) => within(r, a)); return m ? flipAcross(r, m) : r; });
    // What only looks random or only sits after a word like "secret" — a run the rules took as key-like,
    // ink the fail-safe would hide, a label the second look read cut short ("n/secret:" of
    // "checksum/secret:") — stays where the first read saw a name over it that says public, data or
    // hash (a JSON Web Key's "n" read again in pieces, without its name); a vendor rule's finding does not.
    const named = publicValueBoxes(first);
    // (Where it read an identifier, only what looks random stays: a label the second look read there still counts.)
    // (…and a cell taken for a saved password by its shape beside a login: a crash report's address,
    // "0x00007ff81a311f4bf" to the first read, read again as "07{f81a311f4bf" beside a library's name.)
    const ids = identifierBoxes(first);
    // A table's column under a header that names an id, a version or a hash: what only its shape
    // made a secret there — the entropy rule, a row's cell beside a login, the fail-safe's ink — is
    // the column's data (a listing's version ids); a label's or a vendor rule's finding is not.
    const columns = publicColumnBoxes(first);
    // (…nor what words above it made one, a sentence about passwords over a cell: in such a column its
    // header is the cell's name; nor an id's hex beside its row's name, "api auth.verify".)
    const shapeOnly = (r: Redaction) => /^(?:entropy|key-shape|credential row|unread-ink|named nearby)(?:\+wrap)?$/.test(r.rule) || (/^named cell(?:\+wrap)?$/.test(r.rule) && middleInAny(r, ids));
    const kept = (r: Redaction) =>
      !(GENERIC.has(r.kind) && middleInAny(r, named)) &&
      // (Not a run whose shape says key: a hex grid's rows and a join token's hex are identifiers word by word.)
      !((r.kind === 'key-like text' || r.rule.startsWith('credential row')) && !r.rule.startsWith('key-shape') && middleInAny(r, ids)) &&
      !(GENERIC.has(r.kind) && shapeOnly(r) && middleInAny(r, columns));
    // The second look's words take the place of first-read words they overlap, and a re-read can be
    // worse (a URL's token read in pieces, a wrapped JWT's lines run together): what a rule named in
    // the first read's words stays hidden too — not a run that only looks random (the first read's
    // scraps of a hash are why the second look read again), and a box on each of its lines, so a
    // secret's box never reaches over the line below it. The person's patterns ran over the combined
    // words (one budget).
    // (A run the first read took for key-like stays too when it read it whole, one word of 40
    // characters or more, and the second look's reading found part of it key-like again, a fill of its
    // own or the fail-safe's: the second look read it worse, in pieces — a token with an emoji glued to
    // each end — not better, as a hash it reads whole.)
    const again = [...found.regions, ...look.failSafe].filter((r) => r.kind === 'key-like text');
    const whole = (r: Redaction) => first.some((w) => w.text.length >= 40 && within(w, r)) && again.some((o) => overlaps(o, r));
    const firstFound = look.words.length ? apart((await detectRedactions(first, read.size, { ...options, patterns: [], lineBoxes: true })).regions.filter((r) => r.kind !== 'key-like text' || whole(r))) : [];
    // Each secret's box carried over the rest of its unbroken ink, then the fail-safe's runs beside them.
    // (Not in a slanted area: its rows are not its lines, and paper and ink alternate along them.)
    const along = [...[...found.regions, ...firstFound].filter(kept).map((r) => (look.turned.some((t) => within(r, t)) ? r : alongInk(grey, r))), ...look.failSafe.filter(kept)];
    // …and a hidden token's continuation where its line wraps, in the pixels: the next line's first
    // run of ink, which OCR read poorly or not at all (a faint token the fail-safe hid, a tail of
    // letters alone no rule takes for more of a key).
    const all = [...first, ...look.words];
    const wraps = along.filter((r) => r.kind !== 'excluded window' && !r.rule.startsWith('accessibility:') && !look.turned.some((t) => within(r, t)) && r.width >= r.height * 6).flatMap((r) => wrappedInk(grey, r, all));
    const regions = mergeBoxes([...along, ...wraps.filter(kept)]);
    if (regions.length === 0) return { ok: true, regions: [], skipped: found.skipped, ms: ms() };
    step = 'hiding the secrets it found';
    const png = await maskImage(deps.pixels(), regions);
    return { ok: true, regions, skipped: found.skipped, ms: ms(), png };
  } catch (error) {
    options.signal?.throwIfAborted();
    return { ok: false, code: 'detect-failed', message: `Glance read this image but failed while ${step} (${errorMessage(error)}), so it was not sent to a remote model as it is.`, ms: ms() };
  }
}

/**
 * Boxes on lines one above the other cut where they meet, so that no two of them merge into one box
 * over both lines (OCR's box for a line's words may reach halfway into the next).
 */
export function apart(boxes: readonly Redaction[]): Redaction[] {
  const out = boxes.map((b) => ({ ...b }));
  for (const a of out) {
    for (const b of out) {
      if (a === b || !(a.x < b.x + b.width && b.x < a.x + a.width)) continue;
      const [upper, lower] = a.y + a.height / 2 <= b.y + b.height / 2 ? [a, b] : [b, a];
      const overlap = upper.y + upper.height - lower.y;
      if (overlap <= 0 || lower.y + lower.height / 2 - (upper.y + upper.height / 2) < Math.min(a.height, b.height) * 0.5) continue;
      const cut = Math.round(lower.y + overlap / 2);
      upper.height = Math.max(1, cut - upper.y);
      lower.height = Math.max(1, lower.y + lower.height - cut);
      lower.y = cut;
    }
  }
  return out;
}

/** Whether a word's (or a box's) middle lies in `area`. */
function within(w: { x: number; y: number; width: number; height: number }, area: { x: number; y: number; width: number; height: number }): boolean {
  const mx = w.x + w.width / 2, my = w.y + w.height / 2;
  return mx >= area.x && mx <= area.x + area.width && my >= area.y && my <= area.y + area.height;
}

/** Whether a policy redacts for a model at `baseUrl`: `remote` redacts unless the endpoint is this machine. */
export function redactsFor(policy: 'remote' | 'always' | 'never', baseUrl: string | undefined): boolean {
  if (policy === 'never') return false;
  if (policy === 'always') return true;
  return !isThisComputer(baseUrl);
}
