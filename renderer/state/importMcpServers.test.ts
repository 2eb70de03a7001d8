import { describe, expect, it } from 'vitest';
import { importMcpServers } from './importMcpServers.ts';

/** A VS Code mcp.json as people paste it: comments, trailing commas, inputs, one broken entry. */
const VSCODE_MCP_JSON = `// VS Code: .vscode/mcp.json
{
  "inputs": [
    { "type": "promptString", "id": "gh-token", "description": "GitHub token", "password": true, },
    { "type": "promptString", "id": "region", "description": "Region", "default": "eu" },
  ],
  "servers": {
    /* a remote one, its token asked */
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "Bearer \${input:gh-token}" }, },
    "files": { "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/project"] },
    "broken": { "type": "stdio", "args": ["x"] },
    "badurl": { "url": "ftp://example.com/mcp" },
  },
}
`;

describe('importMcpServers', () => {
  it("reads VS Code's JSONC, imports the good entries, names the bad ones and keeps the inputs", () => {
    const result = importMcpServers({ old: { command: 'a' } }, VSCODE_MCP_JSON, 'box');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.added).toEqual(['github', 'files']);
    expect(Object.keys(result.servers)).toEqual(['old', 'github', 'files']);
    expect(result.servers.github).toMatchObject({ type: 'http', headers: { Authorization: 'Bearer ${input:gh-token}' } });
    expect(result.rejected.map((r) => [r.name, r.reason])).toEqual([
      ['broken', 'missing: give "command" (stdio) or "url" (HTTP or SSE)'],
      ['badurl', '"url" must be an http(s) URL'],
    ]);
    // The broken entries themselves are handed back, so the box can keep them to be fixed.
    expect(result.rejected[0]!.entry).toEqual({ type: 'stdio', args: ['x'] });
    expect(result.inputs).toEqual([
      { type: 'promptString', id: 'gh-token', description: 'GitHub token', password: true },
      { type: 'promptString', id: 'region', description: 'Region', default: 'eu' },
    ]);
  });

  it('a password input never keeps a default in the settings, and says so', () => {
    const result = importMcpServers({}, JSON.stringify({ inputs: [{ id: 'key', password: true, default: 'hunter2' }], servers: { a: { command: 'a', env: { KEY: '${input:key}' } } } }));
    expect(result.ok && result.inputs).toEqual([{ id: 'key', password: true }]);
    expect(result.ok && result.warnings).toEqual(['input "key": its default is a password, so it is not kept (you are asked for it instead)']);
    expect(JSON.stringify(result)).not.toContain('hunter2');
  });

  it('inputs merge by id over the ones already kept', () => {
    const result = importMcpServers({}, JSON.stringify({ servers: { a: { command: 'a' } }, inputs: [{ id: 'b', description: 'new' }] }), 'file', [{ id: 'a' }, { id: 'b', description: 'old' }]);
    expect(result.ok && result.inputs).toEqual([{ id: 'a' }, { id: 'b', description: 'new' }]);
  });

  it('reads the "mcp" block of VS Code’s settings.json', () => {
    const result = importMcpServers({}, '{ "editor.fontSize": 14, "mcp": { "servers": { "a": { "command": "a" } } } }');
    expect(result.ok && result.added).toEqual(['a']);
  });

  it('a JSON mistake after a comment points at the line and column as written', () => {
    const result = importMcpServers({}, '{\n  // one server\n  "a": { "command": "a" }\n  "b": { "command": "b" }\n}', 'box');
    expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/^The servers are not JSON: Line 4, column 3: expected .*Line 4 reads: "b": \{ "command": "b" \}$/), where: { line: 4, column: 3 } });
  });

  it('nothing to import is refused with every reason', () => {
    expect(importMcpServers({}, '{ "servers": { "x": { "args": [] }, "y": 3 } }')).toMatchObject({
      ok: false,
      message: 'Not an mcpServers file: nothing could be imported: "x" (missing: give "command" (stdio) or "url" (HTTP or SSE)); "y" (must be an object with "command" (stdio) or "url" (HTTP or SSE))',
    });
    expect(importMcpServers({}, '[]')).toMatchObject({ ok: false, message: 'Not an mcpServers file: it must be an object of named servers' });
    expect(importMcpServers({ a: { command: 'a' } }, '{ "mcpServers": {} }', 'file')).toMatchObject({ ok: false, message: 'Not an mcpServers file: it names no servers' });
    // An empty box is no servers at all.
    expect(importMcpServers({}, '{}', 'box')).toMatchObject({ ok: true, servers: {}, added: [] });
  });
});
