import { describe, expect, it } from 'vitest';
import { plainSettingsError } from './plainErrors.ts';

describe('plainSettingsError', () => {
  it('names fields by their labels and units', () => {
    expect(plainSettingsError('patch.limits.ingestBytes: Invalid input: expected number, received null')).toBe('Largest file (MB) must be a number.');
    expect(plainSettingsError('patch.limits.maxImagesPerRequest: Too big: expected number to be <=32')).toBe('Images per request must be at most 32.');
  });

  it('names an endpoint by its place in the list and the field by its label', () => {
    expect(plainSettingsError('patch.providers.openai.0.baseUrl: must be an http(s) URL')).toBe('Base URL of endpoint 1 must be an http(s) URL.');
    expect(plainSettingsError('patch.providers.openai.1.name: letters, digits, space, "_", "." or "-" (1–64), starting with a letter or digit')).toBe(
      'Name of endpoint 2 may use only letters, digits, space, "_", "." or "-" (1–64), starting with a letter or digit.',
    );
    expect(plainSettingsError('patch.providers.openai.0.name: "ollama" is the local Ollama server\'s name')).toBe('Name of endpoint 1: "ollama" is the local Ollama server\'s name.');
    expect(plainSettingsError('patch.providers.openai: endpoint names must be unique')).toBe('Endpoint names must be unique.');
  });
});
