import { memo, useMemo, useState, type ReactNode } from 'react';
import { SETTINGS_PAGES } from '../route.ts';
import { highlight } from './highlight.ts';
import { parseInline, parseMarkdown, type Block, type Inline } from './parseMarkdown.ts';

/** Copies text; falls back to a hidden textarea where the async clipboard is refused. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    let done: boolean;
    try {
      done = document.execCommand('copy');
    } catch {
      done = false;
    }
    area.remove();
    return done;
  }
}

function CodeBlock({ lang, text }: { lang: string; text: string }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const tokens = useMemo(() => highlight(text, lang), [text, lang]);
  const copy = async () => {
    setCopied((await copyText(text)) ? 'copied' : 'failed');
    setTimeout(() => setCopied('idle'), 1500);
  };
  return (
    <div className="code-block">
      <div className="code-head">
        <span className="code-lang">{lang || 'text'}</span>
        <button type="button" className="ghost small" onClick={copy} aria-label="Copy code">
          {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}
        </button>
      </div>
      <pre>
        <code>
          {tokens.map((t, i) => (t.kind === 'plain' ? t.text : <span key={i} className={`tok-${t.kind}`}>{t.text}</span>))}
        </code>
      </pre>
    </div>
  );
}

function inlines(nodes: readonly Inline[]): ReactNode[] {
  return nodes.map((n, i) => {
    switch (n.type) {
      case 'text':
        return n.text;
      case 'code':
        return <code key={i}>{n.text}</code>;
      case 'strong':
        return <strong key={i}>{inlines(n.children)}</strong>;
      case 'em':
        return <em key={i}>{inlines(n.children)}</em>;
      case 'del':
        return <del key={i}>{inlines(n.children)}</del>;
      case 'br':
        return <br key={i} />;
      case 'link':
        return (
          <a key={i} href={n.href} target="_blank" rel="noreferrer noopener">
            {inlines(n.children)}
          </a>
        );
    }
  });
}

function blocks(nodes: readonly Block[]): ReactNode[] {
  return nodes.map((b, i) => {
    switch (b.type) {
      case 'heading': {
        const H = `h${Math.min(6, b.level + 2)}` as 'h3' | 'h4' | 'h5' | 'h6';
        return <H key={i}>{inlines(b.children)}</H>;
      }
      case 'paragraph':
        return <p key={i}>{inlines(b.children)}</p>;
      case 'code':
        return <CodeBlock key={i} lang={b.lang} text={b.text} />;
      case 'rule':
        return <hr key={i} />;
      case 'quote':
        return <blockquote key={i}>{blocks(b.children)}</blockquote>;
      case 'list': {
        const items = b.items.map((item, k) => (
          <li key={k}>
            {item.checked !== undefined && <input type="checkbox" checked={item.checked} readOnly disabled aria-label={item.checked ? 'done' : 'not done'} />}
            {item.children.length === 1 && item.children[0]!.type === 'paragraph' ? inlines(item.children[0]!.children) : blocks(item.children)}
          </li>
        ));
        return b.ordered ? (
          <ol key={i} start={b.start}>
            {items}
          </ol>
        ) : (
          <ul key={i}>{items}</ul>
        );
      }
      case 'table':
        return (
          <div key={i} className="table-wrap">
            <table>
              <thead>
                <tr>
                  {b.head.map((cell, c) => (
                    <th key={c} style={b.align[c] ? { textAlign: b.align[c]! } : undefined}>
                      {inlines(cell)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {b.rows.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, c) => (
                      <td key={c} style={b.align[c] ? { textAlign: b.align[c]! } : undefined}>
                        {inlines(cell)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
    }
  });
}

const SETTINGS_MENTION = new RegExp(`Settings → (${SETTINGS_PAGES.map(([, label]) => label).join('|')})`, 'g');

/** "Settings → Limits" in a message from the app becomes a link to that section. */
function withSettingsLinks(nodes: readonly ReactNode[]): ReactNode[] {
  return nodes.flatMap((node, n) => {
    if (typeof node !== 'string') return [node];
    const out: ReactNode[] = [];
    let last = 0;
    for (const m of node.matchAll(SETTINGS_MENTION)) {
      const id = SETTINGS_PAGES.find(([, label]) => label === m[1])![0];
      out.push(node.slice(last, m.index));
      out.push(
        <a key={`s${n}-${m.index}`} href={`#/settings/${id}`}>
          {m[0]}
        </a>,
      );
      last = m.index + m[0].length;
    }
    out.push(node.slice(last));
    return out.filter((part) => part !== '');
  });
}

/**
 * One line of inline Markdown (`code`, **bold**, links): for messages the app writes, such as
 * errors; a mention of a Settings section links there.
 */
export function InlineMarkdown({ text }: { text: string }) {
  // A bare address in an error (a server's, a file's) is what was tried, not a page to open: text, not a link.
  const nodes = useMemo(() => parseInline(text).map((n) => (n.type === 'link' && n.children.length === 1 && n.children[0]?.type === 'text' && n.children[0].text === n.href ? n.children[0] : n)), [text]);
  return <>{withSettingsLinks(inlines(nodes))}</>;
}

/** Markdown as React elements; raw HTML in `text` is shown as text, never parsed. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const tree = useMemo(() => parseMarkdown(text), [text]);
  return <div className="markdown">{blocks(tree)}</div>;
});
