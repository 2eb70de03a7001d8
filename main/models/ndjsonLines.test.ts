import { describe, expect, it } from 'vitest';
import { checkedNdjson, skippedLinesNote } from './ndjsonLines.ts';

/** The stream cut into the given byte pieces, read back as text. */
async function through(pieces: Uint8Array[]): Promise<{ text: string; skipped: number }> {
  let skipped = 0;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of pieces) c.enqueue(p);
      c.close();
    },
  });
  const text = await new Response(checkedNdjson(body, () => void skipped++)).text();
  return { text, skipped };
}

describe('checkedNdjson', () => {
  it('passes JSON objects split anywhere, even inside a UTF-8 character, and drops other lines', async () => {
    const bytes = new TextEncoder().encode('{"a":"café"}\nnot json sk-123\n[1,2]\n\n{"done":true}');
    const cut = [bytes.subarray(0, 10), bytes.subarray(10, 11), bytes.subarray(11, 30), bytes.subarray(30)];
    expect(await through(cut)).toEqual({ text: '{"a":"café"}\n{"done":true}\n', skipped: 2 });
  });

  it('says how many lines were skipped, not what they held', () => {
    expect(skippedLinesNote(2, 'Ollama at x')).toBe('\n\n[Glance: 2 lines of the answer stream from Ollama at x could not be read and were skipped; the answer may be missing words.]');
  });
});
