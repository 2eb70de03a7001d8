// What is hidden belongs to the original (architecture §3b "Regions belong to the original"): what
// detection found is kept beside the original, keyed by what it depended on, so a later process — a
// `glance ask --conversation ID` to another model, mcp serve reading a capture again — fills the same
// regions without reading the image again. Real tesseract the first time; the second core's OCR
// always fails, so only the kept findings can let its copy through.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../common/settings.ts';
import type { PrivacySettings } from '../../common/privacy.ts';
import { DETECTOR_VERSION } from '../../main/images/redactStage.ts';
import { OcrError, type TextReader } from '../../main/ocr/textReader.ts';
import { profileFor } from '../../main/images/profiles.ts';
import { makeHarness, type Harness } from '../chat/engineHarness.ts';
import { testServices } from '../support/testServices.ts';
import { secretScreen } from '../fixtures/secretScreens.ts';

const always: PrivacySettings = { ...defaultSettings().privacy, redact: 'always' };
const failing: TextReader = { engine: 'failing', read: () => Promise.reject(new OcrError('failed', 'no OCR in this process')), close: async () => undefined };
const open: Harness[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

describe('hidden regions kept with the original', () => {
  it('are written beside the original and reused by another process without reading the image again', async () => {
    const first = await makeHarness({ ollama: 'http://127.0.0.1:9', openai: 'http://127.0.0.1:9/v1' }, { privacy: always });
    open.push(first);
    const screen = await secretScreen('env', { width: 960, height: 540, seed: 5 });
    const profile = profileFor('openai');
    const admitted = await first.core.intake.admit({ source: screen.png, name: 'env.png', origin: 'user', requestedBy: 'user' }, { profile }, 'capture');
    if (!admitted.ok) throw new Error(admitted.message);
    const regions = admitted.attachment.redactions ?? [];
    expect(regions.length).toBeGreaterThan(0);
    const originals = join(first.dataDir, 'attachments', 'originals');
    const sha = admitted.attachment.original!.sha256;
    expect(await readdir(originals)).toContain(`${sha}.hidden.json`);
    const kept = JSON.parse(await readFile(join(originals, `${sha}.hidden.json`), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(kept).every((k) => k.startsWith(`${DETECTOR_VERSION}-`))).toBe(true);
    expect(Object.values(kept)).toContainEqual(regions);

    // Another process on the same data, whose OCR cannot run: the kept findings fill a copy for another model.
    const core = testServices({ dataDir: first.dataDir, privacy: always, ocr: failing });
    try {
      const other = await core.intake.admit({ attachmentId: admitted.attachment.id }, { profile: { ...profileFor('ollama'), maxLongEdge: 700 } }, 'capture');
      expect(other.ok, other.ok ? '' : other.message).toBe(true);
      if (!other.ok) return;
      expect(other.attachment.redactions).toEqual(regions);
      expect(other.attachment.width).toBeLessThanOrEqual(700);
    } finally {
      await core.close();
    }

    // What another detector found (an older build's, say "d5", which may have missed what this one
    // hides) is not reused: with no OCR to read it again, the copy is refused, not sent as it is.
    const file = join(originals, `${sha}.hidden.json`);
    await writeFile(file, JSON.stringify(Object.fromEntries(Object.entries(kept).map(([k, v]) => [k.replace(DETECTOR_VERSION, 'd5'), v]))));
    const older = testServices({ dataDir: first.dataDir, privacy: always, ocr: failing });
    try {
      const copy = await older.intake.admit({ attachmentId: admitted.attachment.id }, { profile: { ...profileFor('ollama'), maxLongEdge: 600 } }, 'capture');
      expect(copy.ok).toBe(false);
      if (!copy.ok) expect(copy.code).toBe('redaction-failed');
    } finally {
      await older.close();
    }
  }, 240_000);

  it('are found as the image enters for a model on this computer, when a remote model is configured: its later remote copy needs no reading', async () => {
    const remote = { openai: [{ name: 'cloud', baseUrl: 'https://api.example.com/v1' }], ollama: { host: 'http://127.0.0.1:9' } };
    const first = await makeHarness({ ollama: 'http://127.0.0.1:9', openai: 'http://127.0.0.1:9/v1' }, { privacy: defaultSettings().privacy, settings: { providers: remote }, readAhead: true });
    open.push(first);
    const screen = await secretScreen('env', { width: 960, height: 540, seed: 6 });
    const local = { provider: 'ollama' as const, model: 'llava', vision: 'yes' as const, visionSource: 'capabilities' as const, profile: profileFor('ollama'), remote: false };
    const admitted = await first.core.intake.admit({ source: screen.png, name: 'env.png', origin: 'user', requestedBy: 'user' }, local, 'user');
    if (!admitted.ok) throw new Error(admitted.message);
    // The local model's copy is not redacted under the default policy ("remote")…
    expect(admitted.attachment.redactions ?? []).toEqual([]);
    // …but the original was read as it entered, and what it hides is kept beside it.
    const originals = join(first.dataDir, 'attachments', 'originals');
    const sha = admitted.attachment.original!.sha256;
    await expect.poll(async () => (await readdir(originals)).includes(`${sha}.hidden.json`), { timeout: 180_000, interval: 500 }).toBe(true);

    // A later process whose OCR cannot run makes the remote model's copy from what was kept.
    const core = testServices({ dataDir: first.dataDir, privacy: defaultSettings().privacy, ocr: failing });
    try {
      const cloud = { provider: 'openai' as const, model: 'gpt-4o', vision: 'yes' as const, visionSource: 'capabilities' as const, profile: profileFor('openai'), remote: true };
      const sent = await core.intake.admit({ attachmentId: admitted.attachment.id }, cloud, 'user');
      expect(sent.ok, sent.ok ? '' : sent.message).toBe(true);
      if (!sent.ok) return;
      expect(sent.attachment.redactions?.length).toBeGreaterThan(0);
    } finally {
      await core.close();
    }
  }, 240_000);
});
