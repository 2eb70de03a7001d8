import { describe, expect, it } from 'vitest';
import { resolveOllamaHost } from './ollamaHost.ts';

describe('resolveOllamaHost', () => {
  it.each([
    [undefined, 'http://127.0.0.1:11434'],
    ['', 'http://127.0.0.1:11434'],
    ['  ', 'http://127.0.0.1:11434'],
    ['0.0.0.0:11434', 'http://127.0.0.1:11434'],
    ['0.0.0.0', 'http://127.0.0.1:11434'],
    ['gpu-box', 'http://gpu-box:11434'],
    ['gpu-box:8080', 'http://gpu-box:8080'],
    [':9999', 'http://127.0.0.1:9999'],
    ['[::]:11434', 'http://[::1]:11434'],
    ['[fe80::1]:1234', 'http://[fe80::1]:1234'],
    ['http://gpu-box:11434/', 'http://gpu-box:11434'],
    ['https://ollama.example.com', 'https://ollama.example.com'],
    ['http://proxy.local/ollama/', 'http://proxy.local/ollama'],
  ])('%j → %s', (input, expected) => {
    expect(resolveOllamaHost(input)).toBe(expected);
  });

  it('refuses what is not a host', () => {
    expect(() => resolveOllamaHost('ftp://x')).toThrow(/http or https/);
    expect(() => resolveOllamaHost('http://')).toThrow(/not a host/);
  });
});
