// A hostile MCP server for the reliability suite (stdio, the real SDK): tools that crash the
// process mid-call, hang, write garbage onto the protocol stream, return 1,000 images, return
// 8 MB of text, or fail with an error text that echoes a key and a base64 payload. Every tool
// says it only reads (readOnlyHint); its tests mark it trusted, so no approval card stands in the way.
//   node test/reliability/faultMcpServer.ts
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { deflateSync } from 'node:zlib';

export const FAULT_KEY = 'sk-proj-MCPFAULTKEY0123456789abcdefgh';

/** A 2×2 PNG of one colour, made here (no binary in the repo). */
function tinyPng(r: number, g: number, b: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.from([0, r, g, b, r, g, b]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat([row, row]))), chunk('IEND', Buffer.alloc(0))]);
}

const readOnly = { annotations: { readOnlyHint: true } };
const text = (t: string) => ({ type: 'text' as const, text: t });

export function buildFaultServer(): McpServer {
  const server = new McpServer({ name: 'glance-fault', version: '1.0.0' });
  server.registerTool('crash', { description: 'Exits mid-call.', ...readOnly }, async () => {
    setTimeout(() => process.exit(3), 10);
    return new Promise<never>(() => {});
  });
  server.registerTool('hang', { description: 'Never answers.', ...readOnly }, () => new Promise<never>(() => {}));
  server.registerTool('garbage', { description: 'Writes garbage onto the protocol stream.', ...readOnly }, async () => {
    process.stdout.write('\u0000\u00ff not json at all {{{\n');
    process.stdout.write(`${'#'.repeat(5000)}\n`);
    return { content: [text('after the garbage')] };
  });
  server.registerTool('thousand_images', { description: 'Returns 1,000 image blocks.', ...readOnly }, async () => ({
    content: Array.from({ length: 1000 }, (_, i) => ({ type: 'image' as const, data: tinyPng(i % 256, (i * 7) % 256, (i * 13) % 256).toString('base64'), mimeType: 'image/png' })),
  }));
  server.registerTool('huge_text', { description: 'Returns 8 MB of text.', ...readOnly }, async () => ({ content: [text('lorem ipsum '.repeat(700_000))] }));
  server.registerTool('echo_error', { description: 'Fails with an error that echoes a key and a payload.', ...readOnly }, async () => ({
    isError: true,
    content: [text(`upstream said 401 for Authorization: Bearer ${FAULT_KEY} with body {"image":"${Buffer.alloc(3000, 7).toString('base64')}"}`)],
  }));
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildFaultServer().connect(new StdioServerTransport());
}
