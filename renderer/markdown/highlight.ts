// A small, dependency-free highlighter for code blocks: keywords, strings, comments and
// numbers for the languages models most often write. Output is tokens, rendered as spans.

type TokenKind = 'plain' | 'keyword' | 'string' | 'comment' | 'number';
type Token = { kind: TokenKind; text: string };

const C_LIKE = 'break case catch class const continue default do else enum export extends false finally for function if import in instanceof interface let new null return static super switch this throw true try type typeof undefined var void while yield async await of as from public private protected readonly implements package struct fn impl pub use mod match mut self trait where loop go func defer chan map range int long float double char bool boolean string unsigned signed sizeof include define';
const PYTHON = 'and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return True try while with yield self print';
const SHELL = 'if then else elif fi for while do done case esac function in return export local echo cd sudo set unset exit source alias';
const SQL = 'select from where insert into values update set delete create table drop alter join left right inner outer on group by order limit offset and or not null as distinct having union all index primary key';

type Spec = { keywords: Set<string>; line: string[]; block?: [string, string]; caseInsensitive?: boolean };

const words = (s: string) => new Set(s.split(' '));
const SPECS: Record<string, Spec> = {
  c: { keywords: words(C_LIKE), line: ['//'], block: ['/*', '*/'] },
  python: { keywords: words(PYTHON), line: ['#'] },
  shell: { keywords: words(SHELL), line: ['#'] },
  sql: { keywords: words(SQL), line: ['--'], block: ['/*', '*/'], caseInsensitive: true },
  json: { keywords: words('true false null'), line: [] },
};

const ALIASES: Record<string, keyof typeof SPECS> = {
  js: 'c', javascript: 'c', jsx: 'c', ts: 'c', typescript: 'c', tsx: 'c', java: 'c', kotlin: 'c', c: 'c', cpp: 'c', 'c++': 'c', cs: 'c',
  csharp: 'c', go: 'c', rust: 'c', rs: 'c', swift: 'c', php: 'c', dart: 'c', scala: 'c',
  py: 'python', python: 'python', rb: 'python', ruby: 'python',
  sh: 'shell', bash: 'shell', zsh: 'shell', shell: 'shell', console: 'shell', ps1: 'shell', powershell: 'shell', yaml: 'shell', yml: 'shell', toml: 'shell',
  sql: 'sql', json: 'json', jsonc: 'c',
};

export function highlight(code: string, lang: string): Token[] {
  const spec = SPECS[ALIASES[lang.toLowerCase()] ?? ''];
  if (!spec) return [{ kind: 'plain', text: code }];
  const tokens: Token[] = [];
  const push = (kind: TokenKind, text: string) => {
    const last = tokens.at(-1);
    if (last && last.kind === kind) last.text += text;
    else tokens.push({ kind, text });
  };
  let i = 0;
  while (i < code.length) {
    const rest = code.slice(i, i + 3);
    const line = spec.line.find((m) => code.startsWith(m, i));
    if (line) {
      const end = code.indexOf('\n', i);
      const stop = end < 0 ? code.length : end;
      push('comment', code.slice(i, stop));
      i = stop;
      continue;
    }
    if (spec.block && code.startsWith(spec.block[0], i)) {
      const end = code.indexOf(spec.block[1], i + spec.block[0].length);
      const stop = end < 0 ? code.length : end + spec.block[1].length;
      push('comment', code.slice(i, stop));
      i = stop;
      continue;
    }
    const c = code[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const triple = rest === c.repeat(3) ? c.repeat(3) : c;
      let k = i + triple.length;
      while (k < code.length && !code.startsWith(triple, k)) {
        if (code[k] === '\\') k++;
        else if (code[k] === '\n' && triple.length === 1 && c !== '`') break;
        k++;
      }
      const stop = Math.min(code.length, k + triple.length);
      push('string', code.slice(i, stop));
      i = stop;
      continue;
    }
    if (/[0-9]/.test(c) && !/[A-Za-z_$]/.test(code[i - 1] ?? '')) {
      const m = /^(0x[0-9a-f]+|\d[\d_]*(\.\d+)?(e[+-]?\d+)?)/i.exec(code.slice(i))!;
      push('number', m[0]);
      i += m[0].length;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][\w$]*/.exec(code.slice(i))!;
      const word = spec.caseInsensitive ? m[0].toLowerCase() : m[0];
      push(spec.keywords.has(word) ? 'keyword' : 'plain', m[0]);
      i += m[0].length;
      continue;
    }
    push('plain', c);
    i++;
  }
  return tokens;
}
