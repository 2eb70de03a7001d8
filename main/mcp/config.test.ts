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
    expect(messages).toContain('server "neither", field "command": missing: give "command" (stdio) or "url" (HTTP or SSE)');
    expect(config.errors.filter((e) => e.server === 'badRule').map((e) => e.field).sort()).toEqual(['capture.rules.0.contentField', 'capture.rules.0.tools']);
    expect(config.errors.find((e) => e.server === 'badTimeout')?.field).toBe('timeoutMs');
    expect(config.errors.find((e) => e.server === 'notObject')?.message).toMatch(/must be an object/);
  });

  it('file-level problems', () => {
    expect(parseMcpConfig([]).errors[0]).toMatchObject({ server: undefined });
    expect(parseMcpConfig({ mcpServers: [] }).errors[0]).toMatchObject({ server: undefined, field: 'mcpServers' });
    expect(parseMcpConfig({})).toEqual({ servers: new Map(), errors: [], warnings: [], inputs: new Map() });
  });
});

describe('configs from other clients', () => {
  const env = { HOME: '/home/ada', TOKEN: 's3cret', EMPTY: '', API_BASE: 'https://api.example' };

  it("VS Code: `servers`, `type` stdio|http|sse, `inputs`, `${input:…}` kept for the start", () => {
    const config = parseMcpConfig(
      {
        inputs: [{ type: 'promptString', id: 'gh-token', description: 'GitHub token', password: true }],
        servers: {
          local: { type: 'stdio', command: 'node', args: ['${userHome}/srv.js'] },
          remote: { type: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer ${input:gh-token}' } },
          legacy: { type: 'sse', url: 'https://old.example/sse' },
        },
      },
      { env },
    );
    expect(config.errors).toEqual([]);
    expect(config.servers.get('local')).toMatchObject({ kind: 'stdio', args: ['/home/ada/srv.js'], inputs: [] });
    expect(config.servers.get('remote')).toMatchObject({ kind: 'http', headers: { Authorization: 'Bearer ${input:gh-token}' }, inputs: ['gh-token'] });
    expect(config.servers.get('legacy')).toMatchObject({ kind: 'sse', url: 'https://old.example/sse' });
    expect(config.inputs.get('gh-token')).toMatchObject({ description: 'GitHub token', password: true });
  });

  it('${env:VAR}, ${VAR}, ${VAR:-default} in command, args, env, url and headers; unset without default is an error on its field', () => {
    const config = parseMcpConfig(
      {
        mcpServers: {
          a: { command: '${env:HOME}/bin/srv', args: ['--token', '${TOKEN}', '${EMPTY:-fallback}'], env: { KEY: '${TOKEN}' } },
          b: { url: '${API_BASE}/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}', 'X-Region': '${REGION:-eu}' } },
          c: { url: 'https://x.example', headers: { Authorization: 'Bearer ${MISSING}' } },
          d: { command: 'srv', cwd: '${workspaceFolder}' },
        },
      },
      { env },
    );
    expect(config.servers.get('a')).toMatchObject({ command: '/home/ada/bin/srv', args: ['--token', 's3cret', 'fallback'], env: { KEY: 's3cret' } });
    expect(config.servers.get('b')).toMatchObject({ url: 'https://api.example/mcp', headers: { Authorization: 'Bearer s3cret', 'X-Region': 'eu' } });
    expect(config.servers.has('c')).toBe(false);
    expect(config.errors.map(formatConfigError)).toContain('server "c", field "headers.Authorization": ${MISSING} is not set in the environment (give it a value, or a default: ${MISSING:-value})');
    expect(config.errors.find((e) => e.server === 'd')?.message).toMatch(/VS Code variable Glance cannot fill in/);
  });

  it('without an environment (the renderer checking a paste) variables are not errors', () => {
    const config = parseMcpConfig({ mcpServers: { b: { url: '${API_BASE}/mcp', headers: { Authorization: 'Bearer ${MISSING}' } } } });
    expect(config.errors).toEqual([]);
  });

  it("Windsurf's serverUrl, Cline's timeout (s) / alwaysAllow / disabledTools / disabled / envFile / transportType", () => {
    const config = parseMcpConfig({
      mcpServers: {
        surf: { serverUrl: 'https://surf.example/mcp' },
        cline: { command: 'x', timeout: 90, alwaysAllow: ['read_file'], disabledTools: ['delete_file'], disabled: true, envFile: '.env' },
        clineSse: { transportType: 'sse', url: 'https://old.example/sse', autoApprove: ['*'] },
      },
    });
    expect(config.errors).toEqual([]);
    expect(config.servers.get('surf')).toMatchObject({ kind: 'http', url: 'https://surf.example/mcp' });
    expect(config.servers.get('cline')).toMatchObject({ timeoutMs: 90_000, alwaysAllow: ['read_file'], disabledTools: ['delete_file'], disabled: true, envFile: '.env' });
    expect(config.servers.get('clineSse')).toMatchObject({ kind: 'sse', alwaysAllow: ['*'] });
    expect(config.servers.get('surf')).toMatchObject({ alwaysAllow: [], disabledTools: [] });
  });

  it('unknown keys are warnings (the server still loads), never silently dropped', () => {
    const config = parseMcpConfig({ globalShortcut: 'Ctrl+Space', mcpServers: { a: { command: 'x', sandbox: true, description: 'mine' } } });
    expect(config.servers.has('a')).toBe(true);
    expect(config.warnings.map(formatConfigError).sort()).toEqual([
      'globalShortcut: not an MCP setting; ignored',
      'server "a", field "description": not a setting Glance uses; ignored',
      'server "a", field "sandbox": not a setting Glance uses; ignored',
    ]);
  });

  it('a transport that does not fit says what is supported', () => {
    const config = parseMcpConfig({ mcpServers: { ws: { type: 'websocket', url: 'wss://x' }, mixed: { type: 'sse', command: 'x' }, two: { url: 'https://a', serverUrl: 'https://b' } } });
    expect(config.errors.map(formatConfigError)).toEqual([
      'server "ws", field "type": unknown transport "websocket": use "stdio", "http" (streamable HTTP) or "sse" (legacy HTTP+SSE)',
      'server "mixed", field "type": "sse" needs "url", not "command"',
      'server "two", field "serverUrl": give one of "url", "serverUrl", "httpUrl", not "url" and "serverUrl"',
    ]);
  });
});

describe('loadMcpConfig', () => {
  it("reads VS Code's JSONC (comments, trailing commas) and substitutes the environment it is given", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-config-'));
    try {
      const file = join(dir, 'mcp.json');
      await writeFile(file, '{\n  // my servers\n  "servers": {\n    "a": { "command": "x", "args": ["${A:-1}", "https://u/*x*/",], },\n  },\n}\n');
      const config = await loadMcpConfig(file, { env: { A: 'one' } });
      expect(config.errors).toEqual([]);
      expect(config.servers.get('a')).toMatchObject({ args: ['one', 'https://u/*x*/'] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });


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
