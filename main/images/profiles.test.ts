import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILES, profileFor, targetFor } from './profiles.ts';

describe('profiles', () => {
  it('has per-provider defaults', () => {
    expect(DEFAULT_PROFILES.ollama).toMatchObject({ maxLongEdge: 1568, formats: ['image/png', 'image/jpeg'] });
    expect(DEFAULT_PROFILES.openai).toMatchObject({ maxLongEdge: 2048, maxBytes: 20 * 1024 * 1024 });
    expect(DEFAULT_PROFILES.openai.formats).toEqual(expect.arrayContaining(['image/png', 'image/jpeg', 'image/webp', 'image/gif']));
  });

  it('never sends WebP to Ollama by default (older runners drop it silently), but an override may', () => {
    expect(DEFAULT_PROFILES.ollama.formats).not.toContain('image/webp');
    expect(profileFor('ollama', { formats: ['image/webp', 'image/jpeg'] }).formats).toEqual(['image/webp', 'image/jpeg']);
  });

  it('merges a per-model override field by field and ignores nonsense', () => {
    const p = profileFor('ollama', { maxLongEdge: 896, formats: [] });
    expect(p).toEqual({ ...DEFAULT_PROFILES.ollama, maxLongEdge: 896, formats: ['image/png', 'image/jpeg'] });
    expect(profileFor('openai', { maxBytes: 0, maxPixels: 1000 })).toMatchObject({ maxBytes: DEFAULT_PROFILES.openai.maxBytes, maxPixels: 1000 });
    // The defaults are not mutated through a merged copy.
    expect(Object.isFrozen(DEFAULT_PROFILES.ollama)).toBe(true);
  });

  it('builds a target from detected capabilities', () => {
    const t = targetFor('ollama', 'gemma3', { vision: 'yes', visionSource: 'ollama-capabilities' });
    expect(t).toEqual({
      provider: 'ollama',
      model: 'gemma3',
      vision: 'yes',
      visionSource: 'ollama-capabilities',
      // gemma3 is a known family: its image rule rides on the provider's default profile.
      profile: { ...profileFor('ollama'), rule: expect.objectContaining({ family: 'gemma3' }) },
    });
    // A model Glance does not know keeps the provider's profile alone.
    expect(targetFor('ollama', 'my-own-model', undefined).profile).toEqual(profileFor('ollama'));
  });

  it('lets a declared verdict override detection', () => {
    expect(targetFor('openai', 'x', { vision: 'unknown', visionSource: 'none' }, 'yes')).toMatchObject({ vision: 'yes', visionSource: 'flag' });
    expect(targetFor('ollama', 'llava', { vision: 'yes', visionSource: 'ollama-capabilities' }, { vision: 'no', source: 'settings' })).toMatchObject({
      vision: 'no',
      visionSource: 'settings',
    });
  });

  it('is unknown with nothing detected and nothing declared', () => {
    expect(targetFor('openai', 'x', undefined)).toMatchObject({ vision: 'unknown', visionSource: 'none' });
  });

  it('applies a profile override', () => {
    expect(targetFor('ollama', 'm', undefined, 'yes', { maxLongEdge: 512 }).profile.maxLongEdge).toBe(512);
  });
});
