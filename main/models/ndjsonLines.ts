// Glance reads Ollama's NDJSON stream line by line itself. The `ollama`
// package's own parser does `console.warn("invalid json: ", part)` on a line it cannot parse —
// straight to stderr, past every redaction, with whatever the line held (a key a proxy echoed,
// an image's base64). Only lines that parse as a JSON object reach it; the rest are counted and
// dropped, and the provider says in the answer how many were skipped (never what they held).

/** The stream with every line that is not a JSON object removed; `skipped` is told of each one. */
export function checkedNdjson(body: ReadableStream<Uint8Array>, skipped: () => void): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let rest = '';
  const pass = (line: string, out: TransformStreamDefaultController<Uint8Array>) => {
    if (line.trim() === '') return;
    if (isJsonObject(line)) out.enqueue(encoder.encode(`${line}\n`));
    else skipped();
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        rest += decoder.decode(chunk, { stream: true });
        const lines = rest.split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) pass(line, out);
      },
      flush(out) {
        pass(rest + decoder.decode(), out);
      },
    }),
  );
}

function isJsonObject(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** The note at the end of an answer that lost lines: how many, never their content. */
export function skippedLinesNote(count: number, where: string): string {
  return `\n\n[Glance: ${count === 1 ? '1 line' : `${count} lines`} of the answer stream from ${where} could not be read and ${count === 1 ? 'was' : 'were'} skipped; the answer may be missing words.]`;
}
