// A real peer: @modelcontextprotocol/server-everything (the MCP reference server) over stdio.
// Its tools (this version): get-tiny-image (text, a PNG, text), trigger-long-running-operation
// (progress notifications), get-resource-reference (an embedded text or blob resource) and
// gzip-file-as-resource (an application/gzip blob resource; a data: URL keeps it offline).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { McpProgress } from '../../main/mcp/mcpHub.ts';
import { hubSuite } from '../support/hubSuite.ts';
import { expectNoBase64 } from '../support/mcpSetup.ts';

function everythingEntry(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const { bin } = require(pkg) as { bin: Record<string, string> };
  return join(dirname(pkg), bin['mcp-server-everything']!);
}

describe('McpHub with @modelcontextprotocol/server-everything', () => {
  const s = hubSuite(() => ({ everything: { command: process.execPath, args: [everythingEntry(), 'stdio'] } }));

  it('lists its tools under valid namespaced names', async () => {
    const tools = await s.hub.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['everything__get-tiny-image', 'everything__trigger-long-running-operation', 'everything__get-resource-reference']));
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('get-tiny-image: the PNG is captured and stored, its text blocks kept', async () => {
    const outcome = await s.hub.callTool('everything__get-tiny-image', {});
    expect(outcome.ok).toBe(true);
    expect(outcome.images).toHaveLength(1);
    const lines = outcome.text.split('\n');
    expect(lines[0]).toBe("Here's the image you requested:");
    expect(lines[1]).toMatch(/^\[image captured from everything__get-tiny-image: .*20×20.*attachment id [a-f0-9]+\]$/);
    expect(lines[2]).toBe('The image above is the MCP logo.');
    expectNoBase64(outcome.text);
    const stored = await s.store.get(outcome.images[0]!.id);
    expect(await sharp(Buffer.from(stored!.data)).metadata()).toMatchObject({ width: 20, height: 20 });
  });

  it('trigger-long-running-operation: every progress step is surfaced', async () => {
    const seen: McpProgress[] = [];
    const outcome = await s.hub.callTool('everything__trigger-long-running-operation', { duration: 1, steps: 4 }, { onProgress: (p) => seen.push(p) });
    expect(outcome.text).toMatch(/^Long running operation completed/);
    expect(seen).toEqual([1, 2, 3, 4].map((progress) => ({ progress, total: 4 })));
  });

  it('get-resource-reference: embedded text and blob resources become readable text', async () => {
    const text = await s.hub.callTool('everything__get-resource-reference', { resourceType: 'Text', resourceId: 2 });
    expect(text.text).toContain('[resource demo://resource/dynamic/text/2 (text/plain)]');
    expect(text.text).toContain('Resource 2: This is a plaintext resource');
    // The blob is base64 of text/plain: decoded for the model, not saved as a file.
    const blob = await s.hub.callTool('everything__get-resource-reference', { resourceType: 'Blob', resourceId: 3 });
    expect(blob.files).toEqual([]);
    expect(blob.text).toContain('Resource 3: This is a base64 blob');
    expectNoBase64(blob.text);
  });

  it('gzip-file-as-resource: a binary blob resource is saved as a file with the right bytes', async () => {
    const payload = 'hello from glance\n'.repeat(20);
    const outcome = await s.hub.callTool('everything__gzip-file-as-resource', {
      name: 'greeting.txt.gz',
      data: `data:text/plain;base64,${Buffer.from(payload).toString('base64')}`,
      outputType: 'resource',
    });
    expect(outcome.ok).toBe(true);
    expect(outcome.files).toHaveLength(1);
    expect(outcome.files[0]).toMatchObject({ name: 'greeting.txt.gz', mime: 'application/gzip' });
    expect(gunzipSync(await readFile(outcome.files[0]!.path)).toString()).toBe(payload);
    expectNoBase64(outcome.text);
  });
});
