// A per-model image size from Settings (imageSizes) reaches the image target every entry
// resolves through (architecture §4a: "a per-model override wins"), read at each resolve so a
// change applies to the next image; out-of-range sizes are refused by the settings schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsPatch, defaultSettings, imageSizeFor, type Settings } from '../../common/settings.ts';
import { createModelResolver } from '../../main/core/modelResolver.ts';
import { EnvSecretStore } from '../../main/settings/secretStore.ts';
import { createModelServer, type ModelServer } from '../fixtures/modelServer.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await createModelServer();
});
afterAll(() => server.close());

describe('image sizes per model', () => {
  it('applies a stored size to that model only, from the next resolve on', async () => {
    let settings: Settings = { ...defaultSettings(), providers: { ollama: { host: server.url }, openai: [] } };
    const resolver = createModelResolver({ settings: { current: () => settings }, secrets: new EnvSecretStore({}) });
    const seer = { provider: 'ollama' as const, name: 'llava-seer:latest' };
    const before = (await resolver.choiceFor(seer)).target.profile;
    expect(before.maxLongEdge).not.toBe(500);

    // Stored without the tag: Ollama's `name` and `name:latest` are one model.
    settings = { ...settings, imageSizes: { ollama: { 'llava-seer': { maxLongEdge: 500, maxPixels: 200_000 } } } };
    const after = (await resolver.choiceFor(seer)).target.profile;
    expect(after).toMatchObject({ maxLongEdge: 500, maxPixels: 200_000 });
    expect((await resolver.choiceFor({ provider: 'ollama', name: 'mystery:latest' })).target.profile.maxLongEdge).toBe(before.maxLongEdge);
    expect(imageSizeFor(settings, { provider: 'openai', endpoint: 'router', name: 'llava-seer' })).toBeUndefined();
  });

  it('refuses sizes out of range', () => {
    expect(SettingsPatch.safeParse({ imageSizes: { ollama: { m: { maxLongEdge: 20 } } } }).success).toBe(false);
    expect(SettingsPatch.safeParse({ imageSizes: { ollama: { m: { maxLongEdge: 640.5 } } } }).success).toBe(false);
    expect(SettingsPatch.safeParse({ imageSizes: { ollama: { m: { maxPixels: 100_000_000 } } } }).success).toBe(false);
    expect(SettingsPatch.safeParse({ imageSizes: { ollama: { m: { quality: 3 } } } }).success).toBe(false);
    expect(SettingsPatch.safeParse({ imageSizes: { ollama: { m: { maxLongEdge: 640 } } } }).success).toBe(true);
  });
});
