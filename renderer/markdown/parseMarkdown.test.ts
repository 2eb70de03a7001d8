import { describe, expect, it } from 'vitest';
import { highlight } from './highlight.ts';
import { parseInline, parseMarkdown, safeHref } from './parseMarkdown.ts';

describe('parseMarkdown', () => {
  it('parses headings, paragraphs, lists, quotes, rules and fenced code', () => {
    const blocks = parseMarkdown(['# Title', '', 'Some text', 'continues.', '', '- a', '- b', '', '1. one', '2. two', '', '> quoted', '', '---', '', '```js', 'let x = 1;', '```'].join('\n'));
    expect(blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'list', 'list', 'quote', 'rule', 'code']);
    expect(blocks[1]).toEqual({ type: 'paragraph', children: [{ type: 'text', text: 'Some text continues.' }] });
    expect(blocks[3]).toMatchObject({ type: 'list', ordered: true, start: 1 });
    expect(blocks[6]).toEqual({ type: 'code', lang: 'js', text: 'let x = 1;', open: false });
  });

  it('treats an unclosed fence as a code block still streaming in', () => {
    expect(parseMarkdown('```py\nprint(1)\n')).toEqual([{ type: 'code', lang: 'py', text: 'print(1)\n', open: true }]);
  });

  it('keeps raw HTML as text', () => {
    const blocks = parseMarkdown('<script>alert(1)</script> <img src=x onerror=alert(1)>');
    expect(blocks).toEqual([{ type: 'paragraph', children: [{ type: 'text', text: '<script>alert(1)</script> <img src=x onerror=alert(1)>' }] }]);
  });

  it('parses GFM tables with alignment', () => {
    const [table] = parseMarkdown('| bar | height |\n|:--|--:|\n| red | 60 |\n| green | 95 |');
    expect(table).toMatchObject({ type: 'table', align: ['left', 'right'], rows: [[[{ text: 'red' }], [{ text: '60' }]], [[{ text: 'green' }], [{ text: '95' }]]] });
  });

  it('parses task lists', () => {
    const [list] = parseMarkdown('- [x] done\n- [ ] todo');
    expect(list).toMatchObject({ type: 'list', items: [{ checked: true }, { checked: false }] });
  });
});

describe('parseInline', () => {
  it('parses emphasis, strong, code, strike-through and hard breaks', () => {
    expect(parseInline('a **b** *c* `d` ~~e~~')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'strong', children: [{ type: 'text', text: 'b' }] },
      { type: 'text', text: ' ' },
      { type: 'em', children: [{ type: 'text', text: 'c' }] },
      { type: 'text', text: ' ' },
      { type: 'code', text: 'd' },
      { type: 'text', text: ' ' },
      { type: 'del', children: [{ type: 'text', text: 'e' }] },
    ]);
    expect(parseInline('one  \ntwo')).toEqual([{ type: 'text', text: 'one' }, { type: 'br' }, { type: 'text', text: 'two' }]);
  });

  it('does not read snake_case or dunder names as emphasis', () => {
    expect(parseInline('snake_case_name and window.__pwned=1 and x.__y=2')).toEqual([{ type: 'text', text: 'snake_case_name and window.__pwned=1 and x.__y=2' }]);
  });

  it('links only http(s) and mailto; other schemes stay text', () => {
    expect(parseInline('[ok](https://example.com)')).toEqual([{ type: 'link', href: 'https://example.com', children: [{ type: 'text', text: 'ok' }] }]);
    expect(parseInline('[x](javascript:alert(1)) after')).toEqual([{ type: 'text', text: 'x' }, { type: 'text', text: ' after' }]);
    expect(parseInline('[w](https://en.wikipedia.org/wiki/Bar_(chart))')).toEqual([{ type: 'link', href: 'https://en.wikipedia.org/wiki/Bar_(chart)', children: [{ type: 'text', text: 'w' }] }]);
    expect(parseInline('see https://example.com/a.')).toEqual([
      { type: 'text', text: 'see ' },
      { type: 'link', href: 'https://example.com/a', children: [{ type: 'text', text: 'https://example.com/a' }] },
      { type: 'text', text: '.' },
    ]);
    expect(safeHref('data:text/html,<b>')).toBeUndefined();
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
  });

  it('honours backslash escapes and unmatched markers', () => {
    expect(parseInline('\\*not em\\* and 2 * 3')).toEqual([{ type: 'text', text: '*not em* and 2 * 3' }]);
  });
});

describe('highlight', () => {
  it('splits code into keywords, strings, comments and numbers', () => {
    expect(highlight('const x = "a"; // note\nreturn 42', 'ts')).toEqual([
      { kind: 'keyword', text: 'const' },
      { kind: 'plain', text: ' x = ' },
      { kind: 'string', text: '"a"' },
      { kind: 'plain', text: '; ' },
      { kind: 'comment', text: '// note' },
      { kind: 'plain', text: '\n' },
      { kind: 'keyword', text: 'return' },
      { kind: 'plain', text: ' ' },
      { kind: 'number', text: '42' },
    ]);
  });

  it('leaves unknown languages as plain text and keeps every character', () => {
    const code = 'SELECT * FROM t -- all\n';
    expect(highlight(code, 'brainfuck')).toEqual([{ kind: 'plain', text: code }]);
    expect(highlight(code, 'sql').map((t) => t.text).join('')).toBe(code);
  });
});

describe('GFM autolinks beyond http(s)', () => {
  it('links www. (as https, trailing punctuation left out) and <e-mail> (as mailto)', () => {
    const [p] = parseMarkdown('See www.example.org/a?b=1. Or <me@example.com>, not me@ or <www.x>.');
    expect(p).toEqual({
      type: 'paragraph',
      children: [
        { type: 'text', text: 'See ' },
        { type: 'link', href: 'https://www.example.org/a?b=1', children: [{ type: 'text', text: 'www.example.org/a?b=1' }] },
        { type: 'text', text: '. Or ' },
        { type: 'link', href: 'mailto:me@example.com', children: [{ type: 'text', text: 'me@example.com' }] },
        // GFM: a www. link starts after a space, ( * _ ~ or the line's start; "<www.x>" is not an autolink.
        { type: 'text', text: ', not me@ or <www.x>.' },
      ],
    });
  });
});
