import { describe, expect, it } from 'vitest';
import { LineReadBuffer } from './stdioTransport.ts';

const msg = (id: number, pad = '') => JSON.stringify({ jsonrpc: '2.0', id, result: { pad } });

describe('LineReadBuffer', () => {
  it('reads messages split across chunks and several in one chunk, with \\r\\n', () => {
    const buffer = new LineReadBuffer(1024 * 1024);
    const wire = Buffer.from(`${msg(1)}\n${msg(2)}\r\n${msg(3, 'x'.repeat(5000))}\n`);
    const ids: unknown[] = [];
    for (let at = 0; at < wire.length; at += 7) {
      buffer.append(wire.subarray(at, at + 7));
      for (let m = buffer.readMessage(); m; m = buffer.readMessage()) ids.push((m as { id: unknown }).id);
    }
    expect(ids).toEqual([1, 2, 3]);
    expect(buffer.readMessage()).toBeNull();
  });

  it('keeps multi-byte UTF-8 intact across a chunk boundary', () => {
    const buffer = new LineReadBuffer(1024);
    const wire = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { t: 'café — ✓' } })}\n`);
    const cut = wire.indexOf(0xc3) + 1; // inside "é"
    buffer.append(wire.subarray(0, cut));
    expect(buffer.readMessage()).toBeNull();
    buffer.append(wire.subarray(cut));
    expect(buffer.readMessage()).toMatchObject({ result: { t: 'café — ✓' } });
  });

  it('an oversized message throws once, is skipped to its end, and the next message reads', () => {
    const buffer = new LineReadBuffer(100);
    expect(() => buffer.append(Buffer.from(`{"jsonrpc":"2.0","id":1,"result":{"pad":"${'y'.repeat(200)}`))).toThrow(/exceeded the 100-byte limit/);
    buffer.append(Buffer.from('y'.repeat(500))); // more of the same message: dropped
    buffer.append(Buffer.from(`"}}\n${msg(2)}\n`));
    expect(buffer.readMessage()).toMatchObject({ id: 2 });
  });

  it('counts only unread bytes against the limit', () => {
    const buffer = new LineReadBuffer(64);
    for (let i = 0; i < 20; i++) {
      buffer.append(Buffer.from(`${msg(i)}\n`));
      expect(buffer.readMessage()).toMatchObject({ id: i });
    }
  });
});
