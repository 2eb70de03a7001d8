import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatConfigError, loadMcpConfig, parseMcpConfig } from './config.ts';

describe('parseMcpConfig', () => {
  it('reads the mcpServers shape: stdio and streamable HTTP, with capture rules and timeouts', () => {
    const config = parseMcpConfig({
      mcpServers: {
        files: { command: 'npx', args: ['-y', 'some-server'], env: { TOKEN: 'x' }, cwd: '/srv', timeoutMs: 5000, alwaysAllow: ['read'] },
        gitea: {
          url: 'https://gitea.example/mcp',
          headers: { Authorization: 'Bearer t' },
          capture: { rules: [{ tools: ['get_file_contents'], contentField: 'content', nameField: 'name', encodingField: 'encoding' }] },
        },
      },
    });
    expect(config.errors).toEqual([]);
    expect([...config.servers.keys()]).toEqual(['files', 'gitea']);
    expect(config.servers.get('files')).toMatchObject({ kind: 'stdio', command: 'npx', args: ['-y', 'some-server'], env: { TOKEN: 'x' }, cwd: '/srv', timeoutMs: 5000 });
    expect(config.servers.get('gitea')).toMatchObject({ kind: 'http', url: 'https://gitea.example/mcp', headers: { Authorization: 'Bearer t' } });
    expect(config.servers.get('gitea')?.capture?.rules[0]).toEqual({ tools: ['get_file_contents'], contentField: 'content', nameField: 'name', encodingField: 'encoding' });
    expect(config.servers.get('files')).toMatchObject({ args: ['-y', 'some-server'] });
    expect(parseMcpConfig({ mcpServers: { a: { command: 'x' } } }).servers.get('a')).toMatchObject({ args: [] });
  });

  it('an invalid entry names the server and the field; the other servers still load', () => {
    const config = parseMcpConfig({
      mcpServers: {
        good: { command: 'node', args: ['server.js'] },
        badArgs: { command: 'node', args: ['ok', 3] },
        badUrl: { url: 'ftp://example.com' },
        both: { command: 'x', url: 'http://x' },
        neither: { args: [] },
        badRule: { command: 'x', capture: { rules: [{ tools: [], contentField: '' }] } },
        badTimeout: { command: 'x', timeoutMs: -1 },
        notObject: 'node server.js',
      },
    });
    expect([...config.servers.keys()]).toEqual(['good']);
    const messages = config.errors.map(formatConfigError);
    expect(messages).toContain('server "badArgs", field "args.1": Invalid input: expected string, received number');
    expect(messages).toContain('server "badUrl", field "url": must be an http(s) URL');
    expect(messages).toContain('server "both", field "url": give either "command" or "url", not both');
    expect(messages).toContain('server "neither", field "command": missing: give "command" (stdio) or "url" (streamable HTTP)');
    expect(config.errors.filter((e) => e.server === 'badRule').map((e) => e.field).sort()).toEqual(['capture.rules.0.contentField', 'capture.rules.0.tools']);
    expect(config.errors.find((e) => e.server === 'badTimeout')?.field).toBe('timeoutMs');
    expect(config.errors.find((e) => e.server === 'notObject')?.message).toMatch(/must be an object/);
  });

  it('file-level problems', () => {
    expect(parseMcpConfig([]).errors[0]).toMatchObject({ server: undefined });
    expect(parseMcpConfig({ mcpServers: [] }).errors[0]).toMatchObject({ server: undefined, field: 'mcpServers' });
    expect(parseMcpConfig({})).toEqual({ servers: new Map(), errors: [] });
  });
});

describe('loadMcpConfig', () => {
  it('reports a missing file and invalid JSON as errors, never throws', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-config-'));
    try {
      const missing = await loadMcpConfig(join(dir, 'none.json'));
      expect(missing.errors[0]?.message).toMatch(/cannot read .*none\.json: no such file/);
      await writeFile(join(dir, 'bad.json'), '{ "mcpServers": ');
      expect((await loadMcpConfig(join(dir, 'bad.json'))).errors[0]?.message).toMatch(/is not valid JSON/);
      await writeFile(join(dir, 'ok.json'), JSON.stringify({ mcpServers: { a: { command: 'x' } } }));
      expect((await loadMcpConfig(join(dir, 'ok.json'))).servers.size).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
