// MCP errors are clean where they are made: a server's own secrets (a token in its config's env
// or headers) never reach a failed call's text, its status or the log — even when the config came
// from a file (the CLI's --mcp-config), which no settings-level scrubber knows about.
import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../main/mcp/config.ts';
import { McpHub } from '../../main/mcp/mcpHub.ts';
import { captureFor, fixtureEntry, tempDataDir } from '../support/mcpSetup.ts';

/** No key shape: only the list of known values can catch it. */
const TOKEN = 'plain-token-7f6e5d4c3b2a';

describe('MCP errors scrub the server’s own secrets at birth', () => {
  it('a crash whose stderr echoes the env token: the failed call, the status and the log hold no token', async () => {
    const data = await tempDataDir();
    const lines: string[] = [];
    const hub = new McpHub({
      config: parseMcpConfig({ mcpServers: { fx: fixtureEntry({ env: { FIXTURE_API_TOKEN: TOKEN } }) } }),
      capture: captureFor(data.dir).capture,
      log: (line) => lines.push(line),
    });
    try {
      const outcome = await hub.callTool('fx__crash_saying_env', { name: 'FIXTURE_API_TOKEN' });
      expect(outcome).toMatchObject({ ok: false, failure: 'server-crashed' });
      // The server's words are kept, the value is not.
      expect(outcome.text).toContain('FIXTURE_API_TOKEN=[redacted]');
      expect(outcome.text).not.toContain(TOKEN);
      expect(JSON.stringify(hub.status())).not.toContain(TOKEN);
      expect(lines.join('\n')).not.toContain(TOKEN);
    } finally {
      await hub.close();
      await data.remove();
    }
  });

  it('a server that fails to start saying its env token: the start failure holds no token', async () => {
    const data = await tempDataDir();
    const lines: string[] = [];
    const script = "process.stderr.write('cannot start with ' + process.env.MY_SECRET + '\\n'); process.exit(2)";
    const hub = new McpHub({
      config: parseMcpConfig({ mcpServers: { broken: { command: process.execPath, args: ['-e', script], env: { MY_SECRET: TOKEN } } } }),
      capture: captureFor(data.dir).capture,
      log: (line) => lines.push(line),
    });
    try {
      const outcome = await hub.callTool('broken__anything', {});
      expect(outcome.ok).toBe(false);
      const status = hub.status()[0];
      expect(status).toMatchObject({ state: 'failed', message: expect.stringContaining('cannot start with [redacted]') });
      expect(outcome.text + JSON.stringify(hub.status()) + lines.join('\n')).not.toContain(TOKEN);
    } finally {
      await hub.close();
      await data.remove();
    }
  });
});
