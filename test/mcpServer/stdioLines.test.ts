// The stdio framing of `glance mcp serve` (issue 43): lines under the cap pass whole however the pipe
// splits them; a line over it is dropped as it streams, reported once with the request's id (read from
// its end, where the SDK writes it, or its start), and the lines after it pass as before.
import { describe, expect, it } from 'vitest';
import { StdioLines, type OversizedLine } from '../../main/mcpServer/stdioLines.ts';

async function feed(chunks: Buffer[], max: number): Promise<{ lines: string[]; oversized: OversizedLine[] }> {
  const oversized: OversizedLine[] = [];
  const framing = new StdioLines({ max, onOversized: (o) => oversized.push(o) });
  const lines: string[] = [];
  framing.on('data', (c: Buffer) => lines.push(c.toString()));
  const done = new Promise((r) => framing.on('end', r));
  for (const c of chunks) framing.write(c);
  framing.end();
  await done;
  return { lines, oversized };
}

/** The text cut into pieces of `size` bytes, as a pipe may deliver it. */
const pieces = (text: string, size: number) => {
  const b = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
  return out;
};

describe('StdioLines', () => {
  const small = (id: number) => `{"method":"tools/list","jsonrpc":"2.0","id":${id}}\n`;

  it('passes each line whole, however it is split', async () => {
    const text = small(1) + small(2) + small(3);
    for (const size of [1, 7, 50, text.length]) {
      const { lines, oversized } = await feed(pieces(text, size), 1000);
      expect(lines.join('')).toBe(text);
      expect(lines.every((l) => l.endsWith('\n') && l.split('\n').length === 2)).toBe(true);
      expect(oversized).toEqual([]);
    }
  });

  it('drops a line over the cap, with its id from the end (the SDK) or the start (others), and goes on', async () => {
    const sdkStyle = `{"method":"tools/call","params":{"arguments":{"image":"${'A'.repeat(5000)}","id":99}},"jsonrpc":"2.0","id":7}\n`;
    const headStyle = `{"jsonrpc":"2.0","id":"req-8","method":"tools/call","params":{"x":"${'B'.repeat(20000)}"}}\n`;
    const text = small(1) + sdkStyle + small(2) + headStyle + small(3);
    const { lines, oversized } = await feed(pieces(text, 333), 1000);
    expect(lines).toEqual([small(1), small(2), small(3)]);
    expect(oversized).toEqual([
      { bytes: Buffer.byteLength(sdkStyle) - 1, id: 7 },
      { bytes: Buffer.byteLength(headStyle) - 1, id: 'req-8' },
    ]);
  });

  it('a line at the cap passes; one byte more does not', async () => {
    const at = `{"id":1,"x":"${'c'.repeat(100 - 15)}"}`;
    expect(at.length).toBe(100);
    expect((await feed([Buffer.from(`${at}\n`)], 100)).lines).toEqual([`${at}\n`]);
    const over = `{"id":1,"x":"${'c'.repeat(101 - 15)}"}`;
    expect((await feed([Buffer.from(`${over}\n`)], 100)).oversized).toEqual([{ bytes: 101, id: 1 }]);
  });
});
