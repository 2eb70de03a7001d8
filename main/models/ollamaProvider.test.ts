import { describe, expect, it } from 'vitest';
import { capabilitiesFromShow } from './ollamaProvider.ts';

describe('capabilitiesFromShow', () => {
  it('uses the capabilities field when present, even when it lists no vision', () => {
    expect(capabilitiesFromShow({ capabilities: ['completion'], projector_info: { 'clip.has_vision_encoder': true } })).toEqual({
      vision: 'no',
      visionSource: 'ollama-capabilities',
      tools: 'no',
      thinking: 'no',
    });
  });

  it('older servers: model_info keys naming a vision tower count as a projector', () => {
    // llama3.2-vision (mllama) and gemma3 carry their vision encoder in model_info.
    expect(capabilitiesFromShow({ model_info: { 'general.architecture': 'mllama', 'mllama.vision.block_count': 32 } })).toMatchObject({
      vision: 'yes',
      visionSource: 'ollama-projector',
    });
    expect(capabilitiesFromShow({ model_info: { 'general.architecture': 'llama', 'llama.block_count': 32 } })).toMatchObject({ vision: 'unknown', visionSource: 'none' });
  });

  it('older servers: an empty projector_info is no evidence; a Tools template means tools', () => {
    expect(capabilitiesFromShow({ projector_info: {}, template: '{{ if .Tools }}…{{ end }}' })).toEqual({
      vision: 'unknown',
      visionSource: 'none',
      tools: 'yes',
      thinking: 'unknown',
    });
  });
});
