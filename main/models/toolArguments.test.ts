import { describe, expect, it } from 'vitest';
import { toolArguments } from './toolArguments.ts';

describe('toolArguments', () => {
  it('parses a complete JSON object (OpenAI sends a string)', () => {
    expect(toolArguments('{"region":{"x":1,"y":2}}')).toEqual({ arguments: { region: { x: 1, y: 2 } } });
  });
  it('takes an object as is (Ollama sends one)', () => {
    expect(toolArguments({ display: 2 })).toEqual({ arguments: { display: 2 } });
  });
  it('treats no arguments as {}', () => {
    expect(toolArguments('')).toEqual({ arguments: {} });
    expect(toolArguments(undefined)).toEqual({ arguments: {} });
    expect(toolArguments(null)).toEqual({ arguments: {} });
  });
  it('keeps broken JSON as invalidArguments with {} arguments', () => {
    expect(toolArguments('{"region": {"x": 1,')).toEqual({ arguments: {}, invalidArguments: '{"region": {"x": 1,' });
  });
  it('refuses non-object JSON the same way', () => {
    expect(toolArguments('[1,2]')).toEqual({ arguments: {}, invalidArguments: '[1,2]' });
    expect(toolArguments('"hello"')).toEqual({ arguments: {}, invalidArguments: '"hello"' });
    expect(toolArguments(42)).toEqual({ arguments: {}, invalidArguments: '42' });
  });
});
