// HEIC/HEIF: the pixel cap from the header's ispe before any decode, and the real libheif-js
// decode path on hand-built files. Stated plainly: no HEVC encoder runs offline here (libheif-js
// is built decode-only, sharp's libheif has AV1 only), so no test decodes a real HEVC photo to
// pixels; what is tested is the header guard, the worker decode and its refusal, end to end.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../common/limits.ts';
import type { Services } from '../../main/core/composeServices.ts';
import { testServices } from '../support/testServices.ts';
import { decodeHeic, heicHeaderSize } from '../../main/images/heic.ts';
import { profileFor, targetFor } from '../../main/images/profiles.ts';
import { sniffImage } from '../../main/images/sniff.ts';
import { heicFile, heicHeader } from '../fixtures/images.ts';

let dataDir: string;
let core: Services;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'glance-heic-'));
  core = testServices({ dataDir });
});
afterAll(async () => {
  await core.close();
  await rm(dataDir, { recursive: true, force: true });
});

const seeing = { ...targetFor('ollama', 'llava', { vision: 'yes', visionSource: 'ollama-capabilities' }), profile: profileFor('ollama') };

describe('HEIC header', () => {
  it('reads the declared size from ispe, and nothing from a file without one', () => {
    expect(heicHeaderSize(heicFile(4032, 3024))).toEqual({ width: 4032, height: 3024 });
    expect(heicHeaderSize(heicHeader())).toBeUndefined();
    // Cut short inside meta: no read past the end, no size.
    expect(heicHeaderSize(heicFile(4032, 3024).subarray(0, 60))).toBeUndefined();
  });

  it('is sniffed as HEIC from its bytes', async () => {
    expect(await sniffImage(heicFile(640, 480))).toEqual({ ok: true, kind: 'heic', mime: 'image/heic' });
  });
});

describe('HEIC decode', () => {
  it('refuses a 40000×40000 HEIC from its header, before any decoder starts', async () => {
    const bomb = heicFile(40_000, 40_000);
    const result = await decodeHeic(bomb, DEFAULT_LIMITS);
    expect(result).toMatchObject({ ok: false, code: 'too-many-pixels' });
    if (!result.ok) expect(result.message).toMatch(/40000×40000 pixels \(1600 megapixels\)/);
    // Through the gate too: refused the same way, nothing stored.
    const attached = await core.intake.admit({ source: bomb, name: 'bomb.heic', origin: 'user', requestedBy: 'user' }, seeing, 'user');
    expect(attached).toMatchObject({ ok: false, code: 'too-many-pixels' });
  });

  it('runs libheif-js in a worker and refuses coded data that is not HEVC, in plain words', async () => {
    const result = await decodeHeic(heicFile(64, 48), DEFAULT_LIMITS);
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
    if (!result.ok) expect(result.message).toMatch(/^This HEIC\/HEIF photo cannot be decoded \(.+\)\. Export it as JPEG/);
    const attached = await core.intake.admit({ source: heicFile(64, 48), name: 'IMG_0001.HEIC', origin: 'user', requestedBy: 'user' }, seeing, 'user');
    expect(attached).toMatchObject({ ok: false, code: 'corrupt' });
  });
});
