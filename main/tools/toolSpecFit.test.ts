import { describe, expect, it } from 'vitest';
import { fitToolSpecs, shortText, toolSpecTokens } from './toolSpecFit.ts';

const long = (n: number) => Array.from({ length: n }, (_, i) => `Sentence number ${i} says a little more about what this tool does.`).join(' ');
const spec = (name: string) => ({
  name,
  description: `${long(12)}\n\nA second paragraph with more details nobody needs in a small window.`,
  parameters: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    title: 'Arguments',
    properties: {
      title: { type: 'string', description: long(3) },
      mode: { type: 'string', enum: ['fast', 'exact'], default: 'fast', examples: ['fast'] },
      count: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    },
    required: ['title'],
    additionalProperties: false,
  },
});

describe('fitToolSpecs', () => {
  const specs = Array.from({ length: 6 }, (_, i) => spec(`server__tool_${i}`));
  const full = specs.reduce((n, s) => n + toolSpecTokens(s), 0);

  it('leaves the specs as they are when they take a quarter of the budget or less, or the window is unknown', () => {
    expect(fitToolSpecs(specs, full * 4)).toEqual({ specs, tokens: full });
    expect(fitToolSpecs(specs, null)).toEqual({ specs, tokens: full });
  });

  it('shortens descriptions first, then drops parameter notes, keeping every name, type, enum and required field', () => {
    const mild = fitToolSpecs(specs, full * 2);
    expect(mild.fullTokens).toBe(full);
    expect(mild.tokens).toBeLessThan(full);
    const first = mild.specs[0]!;
    expect(first.description.length).toBeLessThanOrEqual(240);
    expect(first.description).toMatch(/\.$/);
    const params = first.parameters as { properties: Record<string, Record<string, unknown>>; required: string[] };
    // A property named "title" is the tool's; the schema's own title and $schema are prose and go.
    expect(Object.keys(params.properties)).toEqual(['title', 'mode', 'count']);
    expect(first.parameters).not.toHaveProperty('$schema');
    expect(first.parameters).not.toHaveProperty('title');
    expect(params.properties.mode).toEqual({ type: 'string', enum: ['fast', 'exact'], default: 'fast' });
    expect(params.properties.count).toEqual({ type: 'integer', minimum: 0 });
    expect(params.required).toEqual(['title']);
    expect(String(params.properties.title!.description).length).toBeLessThanOrEqual(80);

    const bare = fitToolSpecs(specs, 100);
    expect(bare.tokens).toBeLessThan(mild.tokens);
    const b = bare.specs[0]!.parameters as { properties: Record<string, Record<string, unknown>> };
    expect(b.properties.title).toEqual({ type: 'string' });
    expect(bare.specs.map((s) => s.name)).toEqual(specs.map((s) => s.name));
  });
});

describe('shortText', () => {
  it('keeps whole sentences when it can, else whole words, and says it cut', () => {
    expect(shortText('The first sentence here. Two three four five six seven.', 30)).toBe('The first sentence here.');
    expect(shortText('Short enough.', 80)).toBe('Short enough.');
    expect(shortText('Alpha beta gamma delta epsilon zeta eta theta', 20)).toBe('Alpha beta gamma…');
  });
});
