// JSON with comments (JSONC), as VS Code writes mcp.json and settings files: `//` and `/* */`
// comments and trailing commas. Pure, for main (config files) and the renderer (a paste).

/**
 * The text with comments and trailing commas blanked out outside strings. Every other
 * character keeps its offset (comments become spaces, their line breaks stay), so a JSON
 * mistake found in the result points at the same line and column of the text as written.
 */
export function stripJsonComments(text: string): string {
  let out = '';
  let inString = false;
  const blank = (part: string) => part.replace(/[^\n\r]/g, ' ');
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      out += c;
      if (c === '\\') {
        i++;
        out += text[i] ?? '';
      } else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += blank(text.slice(i, stop));
      i = stop - 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += blank(text.slice(i, stop));
      i = stop - 1;
    } else if (c === ',' && trailing(text, i + 1)) {
      out += ' ';
    } else out += c;
  }
  return out;
}

/** Whether only blanks and comments stand between this point and a closing } or ]. */
function trailing(text: string, from: number): boolean {
  let i = from;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
    else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else return c === '}' || c === ']';
  }
  return false;
}

/** JSON.parse for JSONC text. Throws as JSON.parse does. */
export function parseJsonc(text: string): unknown {
  return JSON.parse(stripJsonComments(text));
}
