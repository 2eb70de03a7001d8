// The plain return peer screenshot servers use, for bench:mcp-serve to compare with: an MCP
// server (the same SDK, over stdio) whose one tool grabs the display and returns its PNG whole,
// base64 in an image block, at the display's full resolution.
//   node bench/lib/plainScreenshotServer.ts
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import sharp from 'sharp';
import { NodeScreenshotsCapturer } from '../../main/capture/nodeScreenshotsCapturer.ts';

const capturer = new NodeScreenshotsCapturer({ timeoutMs: 30_000 });
const server = new McpServer({ name: 'plain-screenshot', version: '1.0.0' });
server.registerTool('screenshot', { description: 'The whole screen as PNG.', inputSchema: {} }, async () => {
  const shot = await capturer.capture('primary');
  if (!shot.ok) return { isError: true, content: [{ type: 'text', text: shot.message }] };
  // What such servers send: a default-settings PNG of the whole display (the capture's own PNG is
  // written fast, at compression level 1, for Glance's door to re-encode).
  const png = await sharp(shot.capture.png).png().toBuffer();
  return { content: [{ type: 'image', data: png.toString('base64'), mimeType: 'image/png' }] };
});
await server.connect(new StdioServerTransport());
