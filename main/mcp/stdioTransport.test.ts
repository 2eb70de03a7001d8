import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
    expect(() => buffer.append(Buffer.from(`{"jsonrpc":"2.0","id":1,"result":{"pad":"${'y'.repeat(200)}`))).toThrow(/over 100 bytes, the most Glance reads of one MCP message/);
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

describe('createStdioTransport', () => {
  it('does not leave a server that ignores the end of its stdin running when this process exits', async () => {
    const module = fileURLToPath(new URL('./stdioTransport.ts', import.meta.url));
    // A process (like a CLI run) that starts a silent server, closes the transport and exits
    // before the SDK's 2 s SIGTERM timer, which does not keep it alive, would have fired.
    const script = [
      `import { createStdioTransport } from ${JSON.stringify(module)};`,
      `const t = createStdioTransport({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], stderr: 'pipe', maxBufferSize: 1 << 20 });`,
      'await t.start();',
      'console.log(t.pid);',
      'void t.close();',
      'setTimeout(() => process.exit(0), 200);',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status, run.stderr).toBe(0);
    const pid = Number(run.stdout.trim());
    expect(pid).toBeGreaterThan(0);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive()).toBe(false);
  });
});
