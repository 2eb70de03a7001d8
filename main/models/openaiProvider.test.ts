import { describe, expect, it } from 'vitest';
import { capabilitiesFromEntry } from './openaiProvider.ts';

describe('capabilitiesFromEntry', () => {
  it('OpenRouter: architecture.input_modalities and supported_parameters', () => {
    expect(
      capabilitiesFromEntry({ id: 'x', architecture: { input_modalities: ['text', 'image'] }, supported_parameters: ['tools', 'reasoning'] }),
    ).toEqual({ vision: 'yes', visionSource: 'openrouter-metadata', tools: 'yes', thinking: 'yes' });
    expect(capabilitiesFromEntry({ id: 'x', architecture: { input_modalities: ['text'] } })).toEqual({
      vision: 'no',
      visionSource: 'openrouter-metadata',
      tools: 'unknown',
      thinking: 'unknown',
    });
  });

  it('other servers naming input modalities on the entry', () => {
    expect(capabilitiesFromEntry({ id: 'x', modalities: { input: ['text', 'image'] } })).toMatchObject({ vision: 'yes', visionSource: 'openai-metadata' });
    expect(capabilitiesFromEntry({ id: 'x', input_modalities: ['text'] })).toMatchObject({ vision: 'no', visionSource: 'openai-metadata' });
  });

  it('a plain entry says nothing', () => {
    expect(capabilitiesFromEntry({ id: 'gpt-4o', object: 'model', owned_by: 'system' })).toBeUndefined();
  });
});
