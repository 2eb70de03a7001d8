// A small Markdown subset parsed into a tree that React renders as elements — never as HTML.
// Raw HTML in a model's answer stays literal text, so an answer cannot inject markup, scripts
// or remote images. Covered: headings, paragraphs, fenced and indented code, lists (one level
// of nesting by indentation), block quotes, rules, GFM tables, emphasis, inline code, links
// (http, https and mailto only; autolinks <…>, bare http(s), www. and <e-mail>) and hard line breaks. Streaming-safe: an unclosed fence is a
// code block that is still growing.

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'del'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'br' };

type ListItem = { children: Block[]; checked?: boolean };

export type Block =
  | { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'code'; lang: string; text: string; open: boolean }
  | { type: 'list'; ordered: boolean; start: number; items: ListItem[] }
  | { type: 'quote'; children: Block[] }
  | { type: 'rule' }
  | { type: 'table'; align: Array<'left' | 'center' | 'right' | null>; head: Inline[][]; rows: Inline[][][] };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const BULLET = /^( {0,3})([-*+])\s+(.*)$/;
const ORDERED = /^( {0,3})(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;

export function parseMarkdown(source: string): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, '\n').split('\n'));
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || BULLET.test(line) || ORDERED.test(line) || QUOTE.test(line);
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      let open = true;
      while (i < lines.length) {
        const l = lines[i]!;
        if (l.trim().startsWith(marker[0]!.repeat(marker.length)) && l.trim().replace(new RegExp(`^\\${marker[0]}+`), '').trim() === '') {
          open = false;
          i++;
          break;
        }
        body.push(l);
        i++;
      }
      blocks.push({ type: 'code', lang: fence[2] ?? '', text: body.join('\n'), open });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6, children: parseInline(heading[2] ?? '') });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      i++;
      continue;
    }
    if (/^ {4,}\S/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && (/^ {4}/.test(lines[i]!) || isBlank(lines[i]!))) body.push(lines[i++]!.slice(4));
      while (body.length && isBlank(body.at(-1)!)) body.pop();
      blocks.push({ type: 'code', lang: '', text: body.join('\n'), open: false });
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && !isBlank(lines[i]!)) {
        const m = QUOTE.exec(lines[i]!);
        if (m) body.push(m[1]!);
        else if (startsBlock(lines[i]!)) break;
        else body.push(lines[i]!);
        i++;
      }
      blocks.push({ type: 'quote', children: parseBlocks(body) });
      continue;
    }
    if (BULLET.test(line) || ORDERED.test(line)) {
      const parsed = parseList(lines, i);
      blocks.push(parsed.block);
      i = parsed.next;
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_DIVIDER.test(lines[i + 1]!) && lines[i + 1]!.includes('-')) {
      const head = splitRow(line);
      const align = splitRow(lines[i + 1]!).map((cell) => {
        const c = cell.trim();
        if (c.startsWith(':') && c.endsWith(':')) return 'center' as const;
        if (c.endsWith(':')) return 'right' as const;
        if (c.startsWith(':')) return 'left' as const;
        return null;
      });
      if (align.length === head.length) {
        i += 2;
        const rows: Inline[][][] = [];
        while (i < lines.length && !isBlank(lines[i]!) && lines[i]!.includes('|')) {
          const cells = splitRow(lines[i]!);
          rows.push(head.map((_, c) => parseInline(cells[c] ?? '')));
          i++;
        }
        blocks.push({ type: 'table', align, head: head.map((h) => parseInline(h)), rows });
        continue;
      }
    }
    // A paragraph runs until a blank line or the start of another block.
    const body: string[] = [line];
    i++;
    while (i < lines.length && !isBlank(lines[i]!) && !startsBlock(lines[i]!)) body.push(lines[i++]!);
    blocks.push({ type: 'paragraph', children: parseInline(body.map((l, n) => (n === body.length - 1 ? l.trim() : l.replace(/^\s+/, ''))).join('\n')) });
  }
  return blocks;
}

function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let current = '';
  for (let k = 0; k < s.length; k++) {
    if (s[k] === '\\' && s[k + 1] === '|') {
      current += '|';
      k++;
    } else if (s[k] === '|') {
      cells.push(current.trim());
      current = '';
    } else current += s[k];
  }
  cells.push(current.trim());
  return cells;
}

function parseList(lines: string[], start: number): { block: Block; next: number } {
  const first = (BULLET.exec(lines[start]!) ?? ORDERED.exec(lines[start]!))!;
  const ordered = ORDERED.test(lines[start]!) && !BULLET.test(lines[start]!);
  const indent = first[1]!.length;
  const items: ListItem[] = [];
  let i = start;
  let current: string[] | undefined;
  const flush = () => {
    if (!current) return;
    const text = current.join('\n');
    const task = /^\[([ xX])\]\s+/.exec(text);
    const children = parseBlocks((task ? text.slice(task[0].length) : text).split('\n'));
    items.push(task ? { children, checked: task[1] !== ' ' } : { children });
    current = undefined;
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const m = (ordered ? ORDERED : BULLET).exec(line);
    if (m && m[1]!.length <= indent + 1) {
      flush();
      current = [m[3]!];
      i++;
      continue;
    }
    if (isBlank(line)) {
      // A blank line ends the list unless an indented continuation follows.
      const nextLine = lines[i + 1];
      if (nextLine !== undefined && (/^ {2,}\S/.test(nextLine) || (ordered ? ORDERED : BULLET).test(nextLine))) {
        current?.push('');
        i++;
        continue;
      }
      break;
    }
    if (/^\s{2,}/.test(line) && current) {
      current.push(line.replace(/^ {2,4}/, ''));
      i++;
      continue;
    }
    if (startsBlock(line) || !current) break;
    current.push(line.trim()); // lazy continuation
    i++;
  }
  flush();
  return { block: { type: 'list', ordered, start: ordered ? Number(first[2]) : 1, items }, next: i };
}

/** Only these schemes become links; anything else (javascript:, data:, file:) stays text. */
export function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  return /^(https?:\/\/|mailto:)/i.test(trimmed) ? trimmed : undefined;
}

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer) out.push({ type: 'text', text: buffer });
    buffer = '';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length && /[\\`*_{}[\]()#+\-.!|~<>]/.test(text[i + 1]!)) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    if (c === '\n') {
      // Two trailing spaces or a backslash make a hard break; otherwise a newline is a space.
      if (buffer.endsWith('  ')) {
        buffer = buffer.trimEnd();
        flush();
        out.push({ type: 'br' });
      } else buffer += ' ';
      i++;
      continue;
    }
    if (c === '`') {
      const run = /^`+/.exec(text.slice(i))![0];
      const close = text.indexOf(run, i + run.length);
      if (close > 0) {
        flush();
        const code = text.slice(i + run.length, close);
        out.push({ type: 'code', text: code.length > 2 && code.startsWith(' ') && code.endsWith(' ') ? code.slice(1, -1) : code });
        i = close + run.length;
        continue;
      }
      buffer += run;
      i += run.length;
      continue;
    }
    if (c === '*' || c === '_' || c === '~') {
      const double = text[i + 1] === c;
      const marker = double ? c + c : c;
      if (c === '~' && !double) {
        buffer += c;
        i++;
        continue;
      }
      // "_" inside a word (snake_case) is not emphasis.
      const before = text[i - 1];
      if (c === '_' && before !== undefined && /[A-Za-z0-9]/.test(before)) {
        buffer += marker;
        i += marker.length;
        continue;
      }
      const after = text[i + marker.length];
      const close = after !== undefined && !/\s/.test(after) ? findClose(text, marker, i + marker.length) : -1;
      if (close > 0) {
        flush();
        const children = parseInline(text.slice(i + marker.length, close));
        out.push(c === '~' ? { type: 'del', children } : double ? { type: 'strong', children } : { type: 'em', children });
        i = close + marker.length;
        continue;
      }
      buffer += marker;
      i += marker.length;
      continue;
    }
    if (c === '[') {
      // The URL may hold one level of balanced parentheses (Wikipedia links, "javascript:f(1)").
      const link = /^\[([^\]]*)\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\))+)>?(?:\s+"[^"]*")?\s*\)/.exec(text.slice(i));
      if (link) {
        const href = safeHref(link[2]!);
        flush();
        if (href) out.push({ type: 'link', href, children: parseInline(link[1]!) });
        else out.push(...parseInline(link[1]!));
        i += link[0].length;
        continue;
      }
    }
    if (c === '<') {
      const auto = /^<((?:https?:\/\/|mailto:)[^\s<>]+)>/i.exec(text.slice(i));
      if (auto) {
        flush();
        out.push({ type: 'link', href: auto[1]!, children: [{ type: 'text', text: auto[1]! }] });
        i += auto[0].length;
        continue;
      }
      // <me@example.com>: an e-mail autolink (CommonMark), as mailto.
      const mail = /^<([\w.+-]+@[\w-]+(?:\.[\w-]+)+)>/.exec(text.slice(i));
      if (mail) {
        flush();
        out.push({ type: 'link', href: `mailto:${mail[1]!}`, children: [{ type: 'text', text: mail[1]! }] });
        i += mail[0].length;
        continue;
      }
    }
    // GFM's extended autolink: www.example.org (https), trailing punctuation left out.
    // (checked for "www." first: words starting with w are common, and a regex on the rest is not cheap)
    if ((c === 'w' || c === 'W') && text.slice(i, i + 4).toLowerCase() === 'www.' && (i === 0 || /[\s(*_~]/.test(text[i - 1]!))) {
      const www = /^www\.[\w-]+(?:\.[\w-]+)+(?:[/?#][^\s<>()]*[^\s<>().,;:!?'"*_~])?/i.exec(text.slice(i));
      if (www) {
        flush();
        out.push({ type: 'link', href: `https://${www[0]}`, children: [{ type: 'text', text: www[0] }] });
        i += www[0].length;
        continue;
      }
    }
    if ((c === 'h' || c === 'H') && (i === 0 || /[\s(]/.test(text[i - 1]!))) {
      const bare = /^https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/i.exec(text.slice(i));
      if (bare) {
        flush();
        out.push({ type: 'link', href: bare[0], children: [{ type: 'text', text: bare[0] }] });
        i += bare[0].length;
        continue;
      }
    }
    buffer += c;
    i++;
  }
  flush();
  return out;
}

function findClose(text: string, marker: string, from: number): number {
  let k = from;
  while (k < text.length) {
    const found = text.indexOf(marker, k);
    if (found < 0) return -1;
    // Skip over inline code so "*a `*` b*" closes at the right place.
    const tick = text.indexOf('`', k);
    if (tick >= 0 && tick < found) {
      const end = text.indexOf('`', tick + 1);
      if (end > 0) {
        k = end + 1;
        continue;
      }
    }
    const closes = !/\s/.test(text[found - 1] ?? ' ') && (marker.length === 2 || text[found + 1] !== marker);
    // "_" closes only at the end of a word: "a.__b" and snake_case are not emphasis.
    if (closes && (marker[0] !== '_' || !/[A-Za-z0-9]/.test(text[found + marker.length] ?? ' '))) return found;
    k = found + marker.length;
  }
  return -1;
}
