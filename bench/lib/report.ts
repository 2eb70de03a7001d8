// Shared by the benches that write figures into docs/: a markdown table, and a section
// between `<!-- NAME start -->` / `<!-- NAME end -->` markers replaced in place (or appended).
import { readFile, writeFile } from 'node:fs/promises';

export function markdownTable(header: readonly string[], lines: readonly (readonly string[])[]): string {
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export async function writeSection(file: string, name: string, section: string, title = 'Benchmarks: performance'): Promise<void> {
  const start = `<!-- ${name} start -->`;
  const end = `<!-- ${name} end -->`;
  let doc: string;
  try {
    doc = await readFile(file, 'utf8');
  } catch {
    doc = `# ${title}\n\nFigures written by the bench scripts (\`npm run bench:*\`); rerun them to refresh. Timing lives here, never in tests.\n`;
  }
  const block = `${start}\n${section}${end}`;
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  doc = a >= 0 && b > a ? doc.slice(0, a) + block + doc.slice(b + end.length) : `${doc.trimEnd()}\n\n${block}\n`;
  await writeFile(file, doc);
  process.stderr.write(`figures written to ${file}\n`);
}
