import { describe, expect, it } from 'vitest';
import { jsonErrorAt } from './importMcpServers.ts';
import { firstJsonMistake } from './jsonSpot.ts';

const mistakeIn = (text: string) => {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonErrorAt(text, error);
  }
  throw new Error('parsed');
};

describe('firstJsonMistake', () => {
  it('agrees with JSON.parse on what is JSON', () => {
    for (const ok of ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]} ', '"s"', '0']) {
      expect(firstJsonMistake(ok)).toBeNull();
      expect(() => JSON.parse(ok)).not.toThrow();
    }
  });

  it('points at the first character that cannot be there', () => {
    expect(firstJsonMistake('{"a": 1,}')).toEqual({ offset: 8, expected: 'a name in double quotes' });
    expect(firstJsonMistake('[1,,2]')).toEqual({ offset: 3, expected: 'a value' });
    expect(firstJsonMistake('{"a" 1}')).toEqual({ offset: 5, expected: 'a colon after the name' });
    expect(firstJsonMistake('{"a": 1')).toEqual({ offset: 7, expected: 'a comma or }' });
    expect(firstJsonMistake("{'a': 1}")).toEqual({ offset: 1, expected: 'a name in double quotes' });
    expect(firstJsonMistake('{} x')).toEqual({ offset: 3, expected: 'the end of the text' });
  });
});

describe('jsonErrorAt', () => {
  it('names the line and column and quotes the line, where JSON.parse gives no position', () => {
    const text = '{\n  "fs": {\n    "command": "npx",\n    "args": [1,,2]\n  }\n}';
    const at = mistakeIn(text);
    expect(at.message).toBe('Line 4, column 16: expected a value, found ",". Line 4 reads: "args": [1,,2]');
    expect(at.where).toEqual({ line: 4, column: 16, offset: text.indexOf(',,') + 1 });
  });

  it('says when the text ends too soon', () => {
    expect(mistakeIn('{\n  "fs": {\n    "command": "npx"\n').message).toBe('Line 4, column 1: expected a comma or }, the text ends.');
  });
});
