// Where a JSON text first goes wrong, for Settings' MCP servers box. JSON.parse names a position
// for some mistakes ("… at position 34 (line 4 column 5)") but not for others ("Unexpected token
// ',', "…" is not valid JSON"), so the text is walked here, as the grammar (RFC 8259) reads it.

/** The offset of the first character that cannot be JSON there, and what was expected; null when the text is JSON. */
export function firstJsonMistake(text: string): { offset: number; expected: string } | null {
  let i = 0;
  const fail = (expected: string): never => {
    throw { offset: i, expected };
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail(`"${word}"`);
      i++;
    }
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail('a closing "');
      const ch = text[i]!;
      if (ch === '"') return void i++;
      if (ch === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('four hex digits after \\u');
          i += 5;
        } else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i]!)) i++;
        else fail('an escape such as \\n or \\"');
      } else if (ch < ' ') fail('\\n instead of a line break inside a string');
      else i++;
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail('a value');
    i += m![0].length;
  };
  const value = (): void => {
    space();
    const ch = text[i];
    if (ch === '{') {
      i++;
      space();
      if (text[i] === '}') return void i++;
      for (;;) {
        space();
        if (text[i] !== '"') fail('a name in double quotes');
        string();
        space();
        if (text[i] !== ':') fail('a colon after the name');
        i++;
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail('a comma or }');
      }
    }
    if (ch === '[') {
      i++;
      space();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail('a comma or ]');
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    return number();
  };
  try {
    value();
    space();
    if (i < text.length) fail('the end of the text');
    return null;
  } catch (mistake) {
    return mistake as { offset: number; expected: string };
  }
}
